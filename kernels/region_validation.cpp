// SPDX-License-Identifier: LGPL-2.1-or-later
// RegionFilter::validate and the argument checks of apply() and restore(): host code shared by
// the CUDA implementation (region_filter.cu) and the CPU stand-in.
#include <string>

#include "plane_blur.h"
#include "region_checks.h"
#include "region_filter.h"
#include "region_plan.h"

namespace cudagaussian {

std::vector<RegionPlane> region_planes(const std::vector<PlaneSpec>& planes) {
  std::vector<RegionPlane> out(planes.size());
  for (size_t p = 0; p < planes.size(); ++p)
    out[p] = {planes[p].geometry, planes[p].subsample_x, planes[p].subsample_y};
  return out;
}

Status check_region_planes(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                           const std::vector<MutableDevicePlaneRef>& dst) {
  if (src.size() != planes.size() || dst.size() != planes.size())
    return Status::invalid("region effect: one source and one destination plane per plane needed");
  for (size_t p = 0; p < planes.size(); ++p) {
    const Status st = check_run_arguments(planes[p].geometry, src[p].data, src[p].pitch, dst[p].data, dst[p].pitch);
    if (!st.ok()) return Status::invalid("region effect, plane " + std::to_string(p) + ": " + st.message);
  }
  return Status::success();
}

Status RegionFilter::validate(const std::vector<PlaneSpec>& planes, const std::vector<Region>& regions,
                              const RegionEffectSettings& settings) {
  const std::string why = region_request_error(region_planes(planes), regions, settings);
  return why.empty() ? Status::success() : Status::invalid(why);
}

Status validate_region_restore(const std::vector<PlaneSpec>& planes, const std::vector<Region>& regions) {
  const std::string why = region_restore_error(region_planes(planes), regions);
  return why.empty() ? Status::success() : Status::invalid(why);
}

Status check_region_apply(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                          const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                          const RegionEffectSettings& settings) {
  CG_TRY(RegionFilter::validate(planes, regions, settings));
  return check_region_planes(planes, src, dst);
}

Status check_region_restore(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                            const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                            const std::vector<Region>& keep) {
  CG_TRY(validate_region_restore(planes, regions));
  CG_TRY(validate_region_restore(planes, keep));
  return check_region_planes(planes, src, dst);
}

}  // namespace cudagaussian
