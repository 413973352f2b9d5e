// SPDX-License-Identifier: LGPL-2.1-or-later
// Edge-aware recursive blur of a whole frame (algorithm=edge-aware; docs/algorithms.md, Ferreira,
// Gastal, Schnorr and Navaux): N iterations of a horizontal then a vertical recursive pass in
// the domain-transformed space, where neighbours across an edge are far apart.
//
// Edge rule: plane 0 guides every plane. RGB(A) formats are one plane and their colour channels
// (PlaneSpec::edge_channels, not alpha or padding) make the edges; GRAY is its own guide; for YUV
// the luma plane guides the chroma planes, whose spacings are the luma ones resampled to their
// grid (resampled_spacing() in common/edge_aware_lines.h), so every plane keeps the same edges.
//
// Splitting (LineSplit): OneWay is Ferreira et al.'s Algorithm A (a whole line per thread, exact);
// TwoWay and KWay are Algorithm C (segments warmed up over kappa x sigma of transformed
// distance; approximate); BlockParallel cuts lines into 32-pixel segments joined exactly through
// their linear maps (common/edge_aware_lines.h): Algorithm A's result with far more threads and
// no warm-up.
#pragma once

#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "device_memory.h"
#include "frame_planes.h"
#include "edge_aware_plan.h"

namespace cudagaussian {

class EdgeAwareBlur {
 public:
  // Sigmas are in [0, kMaxSigma]; below kMinSigma an axis gets no passes (both: a copy).
  static constexpr double kMinSigma = edge_aware::kMinSigma;
  static constexpr double kMaxSigma = 1000.0;
  static constexpr int kMaxIterations = 10;

  EdgeAwareBlur();
  ~EdgeAwareBlur();
  EdgeAwareBlur(const EdgeAwareBlur&) = delete;
  EdgeAwareBlur& operator=(const EdgeAwareBlur&) = delete;

  // Checks settings and planes without touching the GPU (sigmas are the frame's, in luma pixels).
  static Status validate(const EdgeAwareSettings& settings, const std::vector<PlaneSpec>& planes,
                         double sigma_x, double sigma_y);

  // Per-iteration coefficients and scratch, with the CUDA context current; not per frame.
  Status plan(const EdgeAwareSettings& settings, const std::vector<PlaneSpec>& planes, double sigma_x,
              double sigma_y);

  // One entry per plane, as planned; src and dst must not overlap. Enqueues on `stream`.
  Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
             cudaStream_t stream) const;

  void release();

  struct Plan;  // per-plane launch parameters (edge_aware.cu)

 private:
  std::unique_ptr<Plan> plan_;
  DeviceBuffer work_a_, work_b_, mid_;  // float planes, the largest plane's size (mid_: rf only)
  DeviceBuffer guide_h_, guide_ht_, guide_v_;  // plane 0's spacings (ht: h transposed)
  DeviceBuffer plane_ht_, plane_v_;            // another plane's, resampled from plane 0's
  DeviceBuffer carries_;                       // block-parallel segment records
};

}  // namespace cudagaussian
