// What every per-plane blur offers FrameBlur: run on device planes, enqueued on a stream.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "plane.h"

namespace cudagaussian {

// The checks every run() makes on its arguments: non-null planes, pitches of at least a row, and
// planes and pitches aligned to the sample size.
Status check_run_arguments(const PlaneGeometry& g, const void* src, size_t src_pitch,
                           const void* dst, size_t dst_pitch);

class PlaneBlur {
 public:
  virtual ~PlaneBlur() = default;
  // src and dst are device pointers with pitches in bytes and must not overlap; returns without
  // synchronising.
  virtual Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                     cudaStream_t stream) const = 0;
};

}  // namespace cudagaussian
