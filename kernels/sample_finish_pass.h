// SPDX-License-Identifier: LGPL-2.1-or-later
// The finishing step (sample_finish.h) as a pass of its own over a plane that a blur already
// wrote: for the filters whose last kernels cannot finish their samples (box running sums, the
// recursive filters outside the block-parallel split, edge-aware). It reads
// the rounded blur, so a sharpened sample may differ from a fused finish by up to half the
// amount in the last place.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

// dst (the blur of src, in place) becomes the finished samples. src and dst must not overlap.
Status finish_plane(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                    const SampleFinish& finish, cudaStream_t stream);

}  // namespace cudagaussian
