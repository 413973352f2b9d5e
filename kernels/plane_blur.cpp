#include "plane_blur.h"

#include <cstdint>

namespace cudagaussian {

Status check_run_arguments(const PlaneGeometry& g, const void* src, size_t src_pitch,
                           const void* dst, size_t dst_pitch) {
  if (!src || !dst) return Status::invalid("null source or destination plane");
  if (src_pitch < g.row_bytes() || dst_pitch < g.row_bytes())
    return Status::invalid("pitch is smaller than a row");
  if ((src_pitch | dst_pitch) % g.bytes_per_sample != 0 ||
      (reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst)) % g.bytes_per_sample != 0)
    return Status::invalid("planes and pitches must be aligned to the sample size");
  return Status::success();
}

}  // namespace cudagaussian
