// SPDX-License-Identifier: LGPL-2.1-or-later
// Blurs every plane of a frame with the chosen algorithm. Chroma planes get sigma divided by
// their subsampling so that the blur has the same size on screen. This is the API the element
// (and any other application) uses: plan once per caps or parameter change, then run per frame.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_algorithms.h"
#include "blur_params.h"
#include "blur_settings.h"
#include "cuda_status.h"
#include "edge_aware.h"
#include "frame_filter.h"
#include "frame_planes.h"
#include "per_pixel_fir.h"
#include "plane.h"
#include "plane_blur.h"
#include "recursive_filter.h"

namespace cudagaussian {

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
  bool planned() const { return filter_ != nullptr; }
  const BlurSettings& settings() const { return settings_; }
  // What algorithm=auto resolved to (the algorithm itself otherwise).
  Algorithm chosen() const { return chosen_; }

  // algorithm=auto: the fastest algorithm that meets the accuracy bar (the 8-bit rounding
  // ceiling against the exact Gaussian): of the rows of blur_algorithms() with an auto cost,
  // the cheapest that runs the settings exactly. The FIR's cost grows with its radius, Deriche
  // block-parallel's does not and is as exact: the FIR up to a radius that depends on the cores
  // it runs on (kAutoFirMaxRadius and the others of blur_algorithms.h), Deriche beyond.
  // Young–van Vliet, less exact, is never chosen. A border other than replicate keeps the FIR
  // (the recursions are exact for replicate only).
  static Algorithm resolve(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

  // The settings with algorithm, line split and kappa resolved: split Auto and a negative kappa
  // take the algorithm's defaults (its row: block-parallel and kappa 4 for the recursive
  // Gaussians, k-way and kappa 2 for edge-aware); a recursive algorithm that auto picked runs
  // its default split.
  static BlurSettings resolved(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);

  // Each plane's finishing step for the settings: the unsharp mask (its threshold in the
  // plane's sample units) and the channels of the parts not filtered.
  static std::vector<SampleFinish> plane_finishes(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);


 private:
  BlurSettings settings_;
  Algorithm chosen_ = Algorithm::Fir;
  std::unique_ptr<FrameFilter> filter_;
};

}  // namespace cudagaussian
