// SPDX-License-Identifier: LGPL-2.1-or-later
// Box passes of one axis in shared memory: the launch (CUDA code only; box_tile.h has the
// host-side shapes).
#pragma once

#include "box_tile.h"
#include "line_access.cuh"

namespace cudagaussian {

// Every pass of `passes` along one axis, in -> out. TSample: the plane's sample type; TIn/TOut:
// TSample or float (not both float).
template <typename TSample, typename TIn, typename TOut>
Status launch_box_tile(const BoxTileShape& shape, const Plane<TIn>& in, const Plane<TOut>& out,
                       const BoxTilePasses& passes, Border border, bool chained, cudaStream_t stream);

}  // namespace cudagaussian
