// SPDX-License-Identifier: LGPL-2.1-or-later
// Recursive Gaussian on one plane (Young–van Vliet 1995/2002, Deriche), in the float32 section
// form of common/recursive_sections.h, horizontal pass then vertical pass. How each line's
// sequential recursion is spread over threads:
//   OneWay        a thread per line (NVIDIA's recursiveGaussian sample, Lee et al.'s baseline);
//   TwoWay        each line in two halves. Exact (the left half's thread runs causal, the
//                 right half's anticausal, then each carries on into the other half) for
//                 Deriche, and for Young–van Vliet in its parallel form once its warm-up would
//                 be a 25th of the line or more; otherwise (shorter warm-ups, where it is
//                 faster, and Lee, Ko and Choe's simple start-up) the second half is warmed up
//                 over kappa x sigma samples;
//   KWay          each line in `segments` pieces, each warmed up the same way (approximate:
//                 error ~ e^{-1.7 kappa} of the signal range, Ferreira et al.);
//   BlockParallel each line in short segments whose exact starting states are found by a scan
//                 over per-segment carries (Nehab et al. 2011 in 1D): exact, and many threads.
// Replicate border only (the recursions' exact start-up is for a replicate extension).
#pragma once

#include <cstddef>
#include <memory>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"
#include "recursive_coeffs.h"

namespace cudagaussian {

// Auto: BlockParallel for these recursive Gaussians (RecursiveBlur::plan resolves it); FrameBlur
// resolves it per algorithm.
enum class LineSplit : int { OneWay = 0, TwoWay = 1, KWay = 2, BlockParallel = 3, Auto = 4 };
const char* line_split_name(LineSplit split);

// Pieces per line of the warmed-up splits: OneWay 1, TwoWay 2, KWay `segments`, or with
// segments = 0 enough for about 65536 threads per pass; never pieces shorter than 16 samples
// (unless the line is shorter) or more pieces than samples. 1 for any other split.
int warm_split_segments(LineSplit split, int segments, int lines, int length);

struct RecursiveSettings {
  RecursiveFilter filter = RecursiveFilter::YoungVanVliet2002;
  StartUp start = StartUp::Exact;
  LineSplit split = LineSplit::BlockParallel;
  int segments = 0;     // KWay: pieces per line; BlockParallel: ignored (segment length is fixed); 0 = auto
  double kappa = 4.0;   // warm-up of KWay and of Young–van Vliet's warmed-up TwoWay, in sigmas (4: within 0.5 dB of OneWay at sigma 90)
};

class RecursiveBlur : public PlaneBlur {
 public:
  // Segment length of BlockParallel: short enough that a 1080-row column makes 34 segments.
  static constexpr int kBlockSegment = 32;

  RecursiveBlur();
  ~RecursiveBlur() override;
  RecursiveBlur(const RecursiveBlur&) = delete;
  RecursiveBlur& operator=(const RecursiveBlur&) = delete;

  // Checks the settings for a plane's sigmas without touching the GPU.
  static Status validate(const RecursiveSettings& settings, double sigma_x, double sigma_y);

  // Coefficients, carry matrices and scratch; with the CUDA context current, not per frame.
  Status plan(const PlaneGeometry& geometry, const RecursiveSettings& settings, double sigma_x,
              double sigma_y);

  // Filters src into dst (device pointers, pitches in bytes; must not overlap). Enqueues on
  // `stream` and returns without synchronising.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;

  void release();

  // Bench and tests: each pass in one launch wherever a block holds a line's segments (One), or
  // always in several (Several: three for block-parallel, two for two-way and k-way), or as
  // measured fastest (Auto: block-parallel in one launch for passes too small to fill the GPU,
  // two-way in one, k-way in two). The exact two-way is always one launch. Before plan().
  enum class Launches { Auto, One, Several };
  void force_launches(Launches launches) { launches_ = launches; }

  // Bench and tests: Young–van Vliet's two-way (exact start-up) in its exact parallel form, in
  // warmed-up cascade halves, or whichever is faster for the warm-up (Auto: exact from warm-ups
  // of a 25th of the line on). Deriche's two-way is always exact. Before plan().
  enum class TwoWayForm { Auto, Exact, Warm };
  void force_two_way_form(TwoWayForm form) { two_way_form_ = form; }

  struct Passes;  // both passes' launch parameters (recursive.cu)

 private:
  std::unique_ptr<Passes> passes_;
  PlaneGeometry geometry_;
  RecursiveSettings settings_;
  DeviceBuffer mid_;      // causal results, float, one plane (with margins for some kernels: mid_plane)
  DeviceBuffer across_;   // the horizontal pass's result, float, one plane
  DeviceBuffer carries_;  // per-segment states of each pass, then a right start per line
  size_t row_carry_floats_ = 0;  // the horizontal pass's share of carry_floats_
  size_t carry_floats_ = 0;
  Launches launches_ = Launches::Auto;
  TwoWayForm two_way_form_ = TwoWayForm::Auto;
  bool planned_ = false;
};

}  // namespace cudagaussian
