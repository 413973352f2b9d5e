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
  // Each plane's finishing step (sample_finish.h), one entry per plane; set after plan().
  virtual void set_finish(const std::vector<SampleFinish>& finish) = 0;
};

// A PlaneBlur per plane. Batches go to each plane's blur kMaxBatchFrames frames at a time. A
// plane whose finish keeps every channel is copied instead of blurred.
class PlaneFilters final : public FrameFilter {
 public:
  std::vector<std::unique_ptr<PlaneBlur>> planes;
  std::vector<PlaneGeometry> geometry;  // each plane's

  void set_finish(const std::vector<SampleFinish>& finish) override;

  Status run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
             cudaStream_t stream) const override;
  Status run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                   const std::vector<std::vector<MutableDevicePlaneRef>>& dst, cudaStream_t stream) const override;

 private:
  Status copy_plane(size_t plane, const DevicePlaneRef& src, const MutableDevicePlaneRef& dst,
                    cudaStream_t stream) const;
  std::vector<bool> copied_;  // planes whose every channel is kept
};

}  // namespace cudagaussian
