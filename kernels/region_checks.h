// SPDX-License-Identifier: LGPL-2.1-or-later
// Host-side checks of RegionFilter's calls, shared by the CUDA implementation and the CPU
// stand-in (region_validation.cpp).
#pragma once

#include <vector>

#include "cuda_status.h"
#include "frame_planes.h"
#include "region_params.h"

namespace cudagaussian {

// The planes as common/ describes them (geometry and subsampling).
std::vector<RegionPlane> region_planes(const std::vector<PlaneSpec>& planes);

// What restore() checks instead of RegionFilter::validate: planes and regions only.
Status validate_region_restore(const std::vector<PlaneSpec>& planes, const std::vector<Region>& regions);

// One source and one destination per plane, each a valid plane for its geometry
// (check_run_arguments).
Status check_region_planes(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                           const std::vector<MutableDevicePlaneRef>& dst);

// Everything RegionFilter::apply and restore check before any work.
Status check_region_apply(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                          const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                          const RegionEffectSettings& settings);
Status check_region_restore(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                            const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                            const std::vector<Region>& keep);

}  // namespace cudagaussian
