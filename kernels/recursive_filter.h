// SPDX-License-Identifier: LGPL-2.1-or-later
// Recursive Gaussian on one plane (Young–van Vliet 1995/2002, Deriche), in the float32 section
// form of common/recursive_sections.h, horizontal pass then vertical pass. How each line's
// sequential recursion is spread over threads (LineSchedule, line_split.h):
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
// Planning: recursive_plan.h; kernels: recursive_lines.cu, recursive_block_parallel.cu.
#pragma once

#include <cstddef>
#include <memory>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"
#include "recursive_settings.h"

namespace cudagaussian {

class RecursiveBlur : public PlaneBlur {
 public:
  RecursiveBlur();
  ~RecursiveBlur() override;
  RecursiveBlur(const RecursiveBlur&) = delete;
  RecursiveBlur& operator=(const RecursiveBlur&) = delete;

  // Checks the settings for a plane's sigmas without touching the GPU.
  static Status validate(const RecursiveSettings& settings, double sigma_x, double sigma_y);

  // Coefficients, carry matrices and scratch; with the CUDA context current, not per frame.
  // settings.split Auto plans block-parallel.
  Status plan(const PlaneGeometry& geometry, const RecursiveSettings& settings, double sigma_x,
              double sigma_y);

  // Filters src into dst (device pointers, pitches in bytes; must not overlap). Enqueues on
  // `stream` and returns without synchronising.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;

  void release();

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
  bool planned_ = false;
};

}  // namespace cudagaussian
