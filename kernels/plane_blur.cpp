// SPDX-License-Identifier: LGPL-2.1-or-later
#include "plane_blur.h"

#include <algorithm>
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
  // Line kernels address samples with 32-bit offsets (line_access.cuh).
  const size_t pitch_samples = std::max(src_pitch, dst_pitch) / g.bytes_per_sample;
  if (static_cast<double>(pitch_samples) * g.height >= 2147483647.0)
    return Status::invalid("plane is too large (2^31 samples or more)");
  return Status::success();
}

Status PlaneBlur::run_batch(const PlanePair* frames, int count, cudaStream_t stream) const {
  for (int i = 0; i < count; ++i)
    CG_TRY(run(frames[i].src, frames[i].src_pitch, frames[i].dst, frames[i].dst_pitch, stream));
  return Status::success();
}

}  // namespace cudagaussian
