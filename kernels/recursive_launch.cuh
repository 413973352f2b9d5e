// SPDX-License-Identifier: LGPL-2.1-or-later
// The launchers of the recursive Gaussian kernels, one per kernel family, for recursive.cu's
// passes: recursive_lines.cu (one-way, warmed-up two-way and k-way, exact two-way, copy) and
// recursive_block_parallel.cu. Each takes a pass's plan and kernel arguments (recursive_plan.h)
// and enqueues its kernels on `stream`.
#pragma once

#include <cuda_runtime.h>

#include "cuda_status.h"
#include "line_access.cuh"
#include "recursive_plan.h"
#include "sample_finish.h"

namespace cudagaussian {
namespace recursive {

// Young–van Vliet block-parallel in three launches per pass: the horizontal apply also leaves
// the vertical pass's carries (bp_apply_rows_tile_kernel), in `carries`.
struct ColumnCarries {
  Lines columns;
  const PassParams<YvvOps<float>>* params;
  float* carries;
};

// A whole line per thread (one_way_kernel); `mid` has margins (mid_offset).
template <class Ops, typename TIn, typename TOut>
Status launch_one_way(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                      const PassParams<Ops>& p, const PassPlan& plan, cudaStream_t stream);

// TwoWay / KWay, each segment warmed up: in one launch (plan.warm_block_lines) or two. `right`
// holds a right start per line between the halves.
template <class Ops, typename TIn, typename TOut>
Status launch_warmed_up(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                        float* right, const PassParams<Ops>& p, LineSplit split, const PassPlan& plan,
                        cudaStream_t stream);

// The exact two-way of a recursion in parallel form (Deriche's sections; first_order: Young–van
// Vliet's, whose section 0 is its real pole); `mid` has margins.
template <typename TIn, typename TOut>
Status launch_exact_two_way(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                            const DericheSections<float>& k, bool first_order, bool chained, cudaStream_t stream);

// sigma 0 in a direction: the pass only converts.
template <typename TIn, typename TOut>
Status launch_copy(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, bool chained, cudaStream_t stream);

// The finishing step (sample_finish.h) of a plane's last pass, where its block-parallel apply
// runs it: the frame's input plane, in the output's samples, and the finish.
struct OutputFinish {
  const void* source = nullptr;
  size_t source_pitch = 0;  // elements
  SampleFinish finish;
};

// Block-parallel: one launch (plan.block_lines) or three; `carries` holds the pass's records
// (record_floats); `fused`: Young–van Vliet's column carries from the horizontal apply, or null;
// `finish`: the last pass's finishing step, or null.
template <class Ops, typename TIn, typename TOut>
Status launch_block_parallel(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, float* carries,
                             const PassParams<Ops>& p, const PassPlan& plan, const ColumnCarries* fused,
                             const OutputFinish* finish, cudaStream_t stream);

}  // namespace recursive
}  // namespace cudagaussian
