// SPDX-License-Identifier: LGPL-2.1-or-later
// What every stand-in blur does in run(): check the arguments as the kernels do, read the plane
// from "device" memory (host memory under the stand-in driver), compute with a double reference
// of common/, round to nearest and store, as the kernels' epilogues do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_memory.h"
#include "plane_blur.h"
#include "reference_blur.h"

namespace cudagaussian {

template <typename Compute>
Status cpu_plane_run(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst,
                     size_t dst_pitch, Compute compute) {
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  try {
    store_plane(g, compute(read_plane(g, src, src_pitch)), dst, dst_pitch);
  } catch (const std::exception& e) {
    return Status::invalid(std::string("stand-in reference refused the plane: ") + e.what());
  }
  return Status::success();
}

// Keeps `values` in a DeviceBuffer, as the kernels keep their taps in device memory (so that
// the stand-in driver counts them too); the stand-in's device memory is host memory.
inline Status store_doubles(DeviceBuffer& buffer, const std::vector<double>& values) {
  CG_TRY(buffer.reserve(values.size() * sizeof(double)));
  std::copy(values.begin(), values.end(), static_cast<double*>(buffer.get()));
  return Status::success();
}

inline std::vector<double> load_doubles(const DeviceBuffer& buffer, size_t first, size_t count) {
  const double* p = static_cast<const double*>(buffer.get()) + first;
  return std::vector<double>(p, p + count);
}

}  // namespace cudagaussian
