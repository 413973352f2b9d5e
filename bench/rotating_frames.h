// SPDX-License-Identifier: LGPL-2.1-or-later
// Device frames for the kernel benchmarks: source and destination frames of random samples,
// enough of them that rotating through them exceeds the L2 cache, so that no run reads a frame
// the previous one left there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>

#include "device_memory.h"
#include "frame_planes.h"

namespace cudagaussian {

// Frames [frame][plane]; at least 8, and more than min_rotated_bytes of sources and destinations.
struct Frames {
  std::vector<std::vector<DevicePlane>> src, dst;  // [frame][plane]
  int count = 0;
  std::vector<DevicePlaneRef> src_refs(int f) const { return refs<DevicePlaneRef>(src[f]); }
  std::vector<MutableDevicePlaneRef> dst_refs(int f) const { return refs<MutableDevicePlaneRef>(dst[f]); }
  // The destination frame as a source, for operations in place.
  std::vector<DevicePlaneRef> dst_as_src_refs(int f) const { return refs<DevicePlaneRef>(dst[f]); }

 private:
  template <typename Ref>
  static std::vector<Ref> refs(const std::vector<DevicePlane>& planes) {
    std::vector<Ref> r;
    for (const DevicePlane& p : planes) r.push_back({p.get(), p.pitch()});
    return r;
  }
};

inline Status make_frames(const std::vector<PlaneSpec>& planes, double min_rotated_bytes, Frames* frames) {
  double bytes = 0;
  for (const PlaneSpec& p : planes) bytes += static_cast<double>(p.geometry.row_bytes()) * p.geometry.height;
  frames->count = std::max(8, static_cast<int>(min_rotated_bytes / (2 * bytes)) + 1);
  std::mt19937 rng(42);
  frames->src.resize(frames->count);
  frames->dst.resize(frames->count);
  for (int f = 0; f < frames->count; ++f)
    for (const PlaneSpec& p : planes) {
      const PlaneGeometry& g = p.geometry;
      std::vector<uint8_t> host(g.row_bytes() * g.height);
      for (uint8_t& b : host) b = static_cast<uint8_t>(rng());
      frames->src[f].emplace_back();
      frames->dst[f].emplace_back();
      CG_TRY(frames->src[f].back().allocate(g.row_bytes(), g.height));
      CG_TRY(frames->dst[f].back().allocate(g.row_bytes(), g.height));
      CG_CUDA_TRY(cudaMemcpy2D(frames->src[f].back().get(), frames->src[f].back().pitch(), host.data(), g.row_bytes(),
                               g.row_bytes(), g.height, cudaMemcpyHostToDevice));
    }
  return Status::success();
}

// A device-to-device copy of frame f's planes, source to destination: the benchmarks' floor.
inline Status copy_frame(const std::vector<PlaneSpec>& planes, const Frames& frames, int f, cudaStream_t stream) {
  for (size_t p = 0; p < planes.size(); ++p) {
    const PlaneGeometry& g = planes[p].geometry;
    CG_TRY(copy_2d_async(frames.dst[f][p].get(), frames.dst[f][p].pitch(), frames.src[f][p].get(),
                         frames.src[f][p].pitch(), g.row_bytes(), g.height, stream));
  }
  return Status::success();
}

}  // namespace cudagaussian
