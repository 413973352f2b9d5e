// SPDX-License-Identifier: LGPL-2.1-or-later
// A planned blur of whole frames, as FrameBlur runs it: most algorithms are one PlaneBlur per
// plane (PlaneFilters); edge-aware filters every plane along the guide's edges at once.
#pragma once

#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "frame_planes.h"
#include "plane_blur.h"

namespace cudagaussian {

class FrameFilter {
 public:
  virtual ~FrameFilter() = default;
  // One entry per plane, in the planned order.
  virtual Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
                     cudaStream_t stream) const = 0;
  // Several frames, one after another on `stream` (src[f] and dst[f]: frame f's planes, as many
  // frames in each); by default one run() per frame.
  virtual Status run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                           const std::vector<std::vector<MutableDevicePlaneRef>>& dst, cudaStream_t stream) const;
};

// A PlaneBlur per plane. Batches go to each plane's blur kMaxBatchFrames frames at a time.
class PlaneFilters final : public FrameFilter {
 public:
  std::vector<std::unique_ptr<PlaneBlur>> planes;

  Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
             cudaStream_t stream) const override;
  Status run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                   const std::vector<std::vector<MutableDevicePlaneRef>>& dst, cudaStream_t stream) const override;
};

}  // namespace cudagaussian
