// SPDX-License-Identifier: LGPL-2.1-or-later
#include "frame_filter.h"

#include <algorithm>

#include "device_memory.h"

namespace cudagaussian {

Status FrameFilter::run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                              const std::vector<std::vector<MutableDevicePlaneRef>>& dst,
                              cudaStream_t stream) const {
  for (size_t f = 0; f < src.size(); ++f) CG_TRY(run(src[f], dst[f], stream));
  return Status::success();
}

void PlaneFilters::set_finish(const std::vector<SampleFinish>& finish) {
  copied_.assign(planes.size(), false);
  for (size_t i = 0; i < planes.size() && i < finish.size(); ++i) {
    planes[i]->set_finish(finish[i]);
    copied_[i] = i < geometry.size() && finish[i].keeps_all(geometry[i].channels);
  }
}

Status PlaneFilters::copy_plane(size_t i, const DevicePlaneRef& src, const MutableDevicePlaneRef& dst,
                                cudaStream_t stream) const {
  const PlaneGeometry& g = geometry[i];
  CG_TRY(check_run_arguments(g, src.data, src.pitch, dst.data, dst.pitch));
  return copy_2d_async(dst.data, dst.pitch, src.data, src.pitch, g.row_bytes(), g.height, stream);
}

Status PlaneFilters::run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
                         cudaStream_t stream) const {
  if (src.size() != planes.size() || dst.size() != planes.size())
    return Status::invalid("plane count does not match the plan");
  for (size_t i = 0; i < planes.size(); ++i) {
    if (i < copied_.size() && copied_[i])
      CG_TRY(copy_plane(i, src[i], dst[i], stream));
    else
      CG_TRY(planes[i]->run(src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, stream));
  }
  return Status::success();
}

Status PlaneFilters::run_batch(const std::vector<std::vector<DevicePlaneRef>>& src,
                               const std::vector<std::vector<MutableDevicePlaneRef>>& dst,
                               cudaStream_t stream) const {
  for (size_t f = 0; f < src.size(); ++f)
    if (src[f].size() != planes.size() || dst[f].size() != planes.size())
      return Status::invalid("plane count does not match the plan");
  // kMaxBatchFrames at a time: as many as one launch takes, on the stack (this runs per frame).
  PlanePair frames[kMaxBatchFrames];
  for (size_t i = 0; i < planes.size(); ++i) {
    if (i < copied_.size() && copied_[i]) {
      for (size_t f = 0; f < src.size(); ++f) CG_TRY(copy_plane(i, src[f][i], dst[f][i], stream));
      continue;
    }
    for (size_t f0 = 0; f0 < src.size(); f0 += kMaxBatchFrames) {
      const size_t count = std::min(src.size() - f0, static_cast<size_t>(kMaxBatchFrames));
      for (size_t k = 0; k < count; ++k)
        frames[k] = {src[f0 + k][i].data, src[f0 + k][i].pitch, dst[f0 + k][i].data, dst[f0 + k][i].pitch};
      CG_TRY(planes[i]->run_batch(frames, static_cast<int>(count), stream));
    }
  }
  return Status::success();
}

}  // namespace cudagaussian
