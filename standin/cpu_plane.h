// SPDX-License-Identifier: LGPL-2.1-or-later
// What every stand-in blur does in run(): check the arguments as the kernels do, read the plane
// from "device" memory (host memory under the stand-in driver), compute with a double reference
// of common/, round to nearest and store, as the kernels' epilogues do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_memory.h"
#include "fake_cuda.h"
#include "plane_blur.h"
#include "reference_blur.h"

namespace cudagaussian {

// A kernel runs on the current context's device and may touch only that device's memory (or a
// peer's, where peer access is on): under CG_STANDIN_STRICT=1 anything else fails, as a kernel
// reading another GPU's memory would. Host memory (mapped pinned memory) is left alone.
inline Status check_kernel_access(const void* plane, const char* what) {
  const char* strict = std::getenv("CG_STANDIN_STRICT");
  if (!strict || std::string(strict) != "1") return Status::success();
  const int device = cg_standin_pointer_device(plane);
  const int current = cg_standin_current_device();
  if (current < 0)
    return Status::invalid(std::string("stand-in kernel launched without a current CUDA context"));
  if (device < 0 || device == current || cg_standin_peer_access()) return Status::success();
  return Status::invalid(std::string("stand-in kernel on device ") + std::to_string(current) +
                         " given the " + what + " plane in memory of device " + std::to_string(device));
}

// compute(input values) -> blurred values, finished as the kernels' last pass does.
template <typename Compute>
Status cpu_plane_run(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst,
                     size_t dst_pitch, const SampleFinish& finish, Compute compute) {
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  CG_TRY(check_kernel_access(src, "source"));
  CG_TRY(check_kernel_access(dst, "target"));
  try {
    const PlaneValues in = read_plane(g, src, src_pitch);
    store_plane(g, finish_values(g, in, compute(in), finish), dst, dst_pitch);
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
