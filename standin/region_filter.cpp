// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in RegionFilter: common/reference_region in place of the CUDA kernels. apply() copies
// each plane (copy_2d_async, as the kernels' host code does) and then stores the reference's
// value at every pixel some region owns, so that every other pixel keeps the input's bytes;
// restore() stores only those pixels.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "device_memory.h"
#include "reference_region.h"
#include "region_checks.h"
#include "region_filter.h"

namespace cudagaussian {

// The kernels keep tables and scratch here; the reference needs none.
struct RegionFilter::Scratch {};

RegionFilter::RegionFilter() : scratch_(new Scratch) {}
RegionFilter::~RegionFilter() { delete scratch_; }
void RegionFilter::release() {}
void RegionFilter::force_scratch_budget(long long) {}  // the reference runs every region at once

namespace {

void store_sample(const PlaneGeometry& g, void* row_data, size_t index, double value) {
  const unsigned v = static_cast<unsigned>(value);
  auto* row = static_cast<uint8_t*>(row_data);
  if (g.bytes_per_sample == 1) {
    row[index] = static_cast<uint8_t>(v);
  } else {
    const uint16_t s = static_cast<uint16_t>(v << g.shift);
    std::memcpy(row + 2 * index, &s, 2);
  }
}

// Stores the samples of `values` at the pixels some region owns.
void store_owned(const RegionPlane& plane, const std::vector<Region>& regions, const PlaneValues& values,
                 void* data, size_t pitch) {
  const PlaneGeometry& g = plane.geometry;
  const RegionOwners owners = region_owners(plane, regions);
  const int c = g.channels, n = g.samples_per_row();
  for (int y = 0; y < g.height; ++y) {
    void* row = static_cast<uint8_t*>(data) + static_cast<size_t>(y) * pitch;
    for (int x = 0; x < g.width; ++x) {
      if (owners.owner[static_cast<size_t>(y) * g.width + x] < 0) continue;
      for (int ch = 0; ch < c; ++ch)
        store_sample(g, row, static_cast<size_t>(x) * c + ch, values[static_cast<size_t>(y) * n + x * c + ch]);
    }
  }
}

std::vector<PlaneValues> read_planes(const std::vector<PlaneSpec>& planes, const std::vector<const void*>& data,
                                     const std::vector<size_t>& pitches) {
  std::vector<PlaneValues> v;
  for (size_t p = 0; p < planes.size(); ++p) v.push_back(read_plane(planes[p].geometry, data[p], pitches[p]));
  return v;
}

}  // namespace

Status RegionFilter::apply(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                           const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                           const RegionEffectSettings& settings, cudaStream_t stream) {
  CG_TRY(check_region_apply(planes, src, dst, regions, settings));
  for (size_t p = 0; p < planes.size(); ++p)
    if (src[p].data != dst[p].data || src[p].pitch != dst[p].pitch)  // in place: only the regions are written
      CG_TRY(copy_2d_async(dst[p].data, dst[p].pitch, src[p].data, src[p].pitch, planes[p].geometry.row_bytes(),
                         planes[p].geometry.height, stream));
  if (regions.empty()) return Status::success();
  const std::vector<RegionPlane> layout = region_planes(planes);
  std::vector<const void*> data;
  std::vector<size_t> pitches;
  for (const DevicePlaneRef& s : src) data.push_back(s.data), pitches.push_back(s.pitch);
  try {
    const std::vector<PlaneValues> out = reference_region_apply(layout, read_planes(planes, data, pitches), regions, settings);
    for (size_t p = 0; p < planes.size(); ++p) store_owned(layout[p], regions, out[p], dst[p].data, dst[p].pitch);
  } catch (const std::exception& e) {
    return Status::invalid(std::string("stand-in region reference failed: ") + e.what());
  }
  return Status::success();
}

Status RegionFilter::restore(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                             const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                             const std::vector<Region>& keep, cudaStream_t) {
  CG_TRY(check_region_restore(planes, src, dst, regions, keep));
  if (regions.empty()) return Status::success();
  const std::vector<RegionPlane> layout = region_planes(planes);
  std::vector<const void*> src_data, dst_data;
  std::vector<size_t> src_pitches, dst_pitches;
  for (const DevicePlaneRef& s : src) src_data.push_back(s.data), src_pitches.push_back(s.pitch);
  for (const MutableDevicePlaneRef& d : dst) dst_data.push_back(d.data), dst_pitches.push_back(d.pitch);
  try {
    const std::vector<PlaneValues> out = reference_region_restore(
        layout, read_planes(planes, src_data, src_pitches), read_planes(planes, dst_data, dst_pitches), regions, keep);
    for (size_t p = 0; p < planes.size(); ++p) store_owned(layout[p], regions, out[p], dst[p].data, dst[p].pitch);
  } catch (const std::exception& e) {
    return Status::invalid(std::string("stand-in region reference failed: ") + e.what());
  }
  return Status::success();
}

}  // namespace cudagaussian
