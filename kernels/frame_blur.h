// SPDX-License-Identifier: LGPL-2.1-or-later
// Blurs every plane of a frame with the chosen algorithm. Chroma planes get sigma divided by
// their subsampling so that the blur has the same size on screen. This is the API the element
// (and any other application) uses: plan once per caps or parameter change, then run per frame.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "edge_aware.h"
#include "frame_planes.h"
#include "per_pixel_fir.h"
#include "plane.h"
#include "plane_blur.h"
#include "recursive_filter.h"

namespace cudagaussian {

struct BlurSettings {
  Algorithm algorithm = Algorithm::Auto;
  double sigma_x = 2.0;
  double sigma_y = 2.0;
  double truncate = 4.0;  // FIR support in sigmas
  // algorithm=fir: taps from a table (the register-blocked SeparableFir) or generated in the
  // kernel by the incremental method (PerPixelFir). algorithm=auto always uses the table.
  TapSource coefficients = TapSource::Table;
  Border border = Border::Replicate;
  // Start-up and line split of the recursive algorithms and of edge-aware: split Auto and a
  // negative kappa resolve per algorithm (resolved()).
  RecursiveSettings recursive{{LineSplit::Auto, 0, -1.0, LaunchForm::Auto, TwoWayForm::Auto},
                              RecursiveFilter::YoungVanVliet2002, StartUp::Exact};
  int box_passes = 3;           // algorithm=box
  BoxMethod box_method = BoxMethod::RunningSum;
  // algorithm=edge-aware (EdgeAwareSettings): filter, range sigma (8-bit units), iterations.
  EdgeFilter edge_filter = EdgeFilter::Gaussian;
  double sigma_r = 30.0;
  int iterations = 3;

  bool operator==(const BlurSettings& o) const {
    return algorithm == o.algorithm && sigma_x == o.sigma_x && sigma_y == o.sigma_y &&
           truncate == o.truncate && coefficients == o.coefficients && border == o.border &&
           recursive.start == o.recursive.start &&
           static_cast<const LineSchedule&>(recursive) == static_cast<const LineSchedule&>(o.recursive) &&
           box_passes == o.box_passes && box_method == o.box_method && edge_filter == o.edge_filter && sigma_r == o.sigma_r &&
           iterations == o.iterations;
  }
  bool operator!=(const BlurSettings& o) const { return !(*this == o); }
};

class FrameBlur {
 public:
  FrameBlur();
  ~FrameBlur();
  FrameBlur(const FrameBlur&) = delete;
  FrameBlur& operator=(const FrameBlur&) = delete;

  // Checks the settings (e.g. the FIR radius limit) without touching the GPU.
  static Status validate(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

  // Computes taps and allocates scratch; with the CUDA context current.
  Status plan(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

  // One entry per plane, in the order given to plan().
  Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
             cudaStream_t stream) const;

  // Several frames, one after another on `stream` (src[f] and dst[f]: frame f's planes as for
  // run()). Kernels that can take several frames per launch do (the fused FIR): small frames
  // then fill the GPU together and cost one launch call between them.
  Status run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                   const std::vector<std::vector<MutableDevicePlaneRef>>& dst, cudaStream_t stream) const;

  void release();
  bool planned() const { return !filters_.empty() || edge_aware_ != nullptr; }
  const BlurSettings& settings() const { return settings_; }
  // What algorithm=auto resolved to (the algorithm itself otherwise).
  Algorithm chosen() const { return chosen_; }

  // algorithm=auto: the fastest algorithm that meets the accuracy bar (the 8-bit rounding
  // ceiling against the exact Gaussian). The FIR's cost grows with its radius, Deriche
  // block-parallel's does not and is as exact: FIR up to kAutoFirMaxRadius (between the measured
  // crossovers at SD and 1080p: docs/performance.md, "algorithm=auto"), Deriche block-parallel
  // beyond. Young–van Vliet, less exact, is never chosen. A border other than replicate keeps
  // the FIR (the recursions are exact for replicate only).
  static constexpr int kAutoFirMaxRadius = 32;
  static Algorithm resolve(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

  // The settings with algorithm, line split and kappa resolved: split Auto is block-parallel
  // for the recursive Gaussians (exact, and the fastest, measured) and k-way (Algorithm C) for
  // edge-aware (measured faster than A and than block-parallel); a negative kappa is 4 for the
  // recursive Gaussians and 2 for edge-aware (Ferreira et al.'s choice for Algorithm C).
  static BlurSettings resolved(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

 private:
  BlurSettings settings_;
  Algorithm chosen_ = Algorithm::Fir;
  std::vector<std::unique_ptr<PlaneBlur>> filters_;
  std::unique_ptr<EdgeAwareBlur> edge_aware_;  // algorithm=edge-aware: one object for all planes
};

// Sigma of a plane along one axis: the frame's sigma over the plane's subsampling.
inline double plane_sigma(double sigma, int subsample) { return sigma / subsample; }

// The recursive filter an algorithm names (Young–van Vliet 2002 for the others).
RecursiveFilter recursive_filter_of(Algorithm algorithm);
bool is_recursive(Algorithm algorithm);

}  // namespace cudagaussian
