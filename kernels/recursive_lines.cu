// SPDX-License-Identifier: LGPL-2.1-or-later
// Recursive Gaussian line kernels that run a line's recursion in one, two or k pieces
// (recursive_filter.h): one-way, the warmed-up two-way and k-way, the exact two-way of the
// recursions in parallel form, and the copy of a pass with sigma 0. A thread owns a (line,
// segment) pair; consecutive threads take consecutive lines (columns) or consecutive channels and
// segments of a row, so that their reads share cache lines. The kernels are launched chained
// (chained_launch.cuh): each one's launch overlaps the tail of the one before.

#include <cstdint>
#include <type_traits>

#include "chained_launch.cuh"
#include "recursive_launch.cuh"

namespace cudagaussian {
namespace recursive {
namespace {

// Samples per batch of the line loops (line_access.cuh), by kernel (each the fastest measured:
// docs/bench/kernel_choices.md):
//   one-way          at most a warp per scheduler, so only its own loads a batch ahead cover
//                    their latency: long batches;
//   two-way (fused)  Young–van Vliet long batches; Deriche, with more state per step, shorter
//                    ones (longer loops overflow the instruction cache). Warm-ups, a few batches
//                    long, take batches of 8;
//   k-way            many threads, which lose occupancy to the batches' registers: batches of
//                    8, loaded at the top of each batch.
constexpr int kOneWayBatch = 32;
template <class Ops>
constexpr int two_way_batch = std::is_same_v<Ops, YvvOps<float>> ? 32 : 16;
constexpr int kTwoWayWarmBatch = 8;
// two_way_exact_kernel: lines a block (a warp holds both halves of 16 lines) and samples a batch.
constexpr int kExactTwoWayLines = 16;
constexpr int kTwoWayExactBatch = 32;
static_assert(kOneWayBatch <= kMidMargin + 1 && kTwoWayExactBatch <= kMidMargin + 1, "mid's margin is a batch");
constexpr int kSplitBatch = 8;

// OneWay: the whole line in one thread.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
one_way_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, PassParams<Ops> p) {
  begin_chained_kernel();
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= l.count) return;
  int line, seg;
  l.item(t, 1, line, seg);
  const int n = l.length;
  const LineView<TIn> x(in, l, line);
  const LineView<float> m(mid, l, line);
  const LineView<TOut> y(out, l, line);
  typename Ops::State st = Ops::left_start(p.k, x.load(0));
  // Whole batches from up to kOneWayBatch - 1 steps before the line on x[0] (the left start is
  // its steady state), their outputs into mid's margin (mid_plane).
  for_each_forward<kOneWayBatch, true, true>(x, 0, n, [&](int i, float v) { m.store(i, Ops::causal_step(p.k, v, st)); });
  st = Ops::right_start(p.k, st, x.load(n - 1), p.start);
  for_each_backward<kOneWayBatch, true, Ops::kAnticausalReadsInput>(m, x, n, 0, [&](int i, float c, float v) {
    y.store(i, Ops::combine(c, Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? v : c, st)));
  });
}

// TwoWay / KWay, causal half: each segment warms up over `warmup` samples before it. The last
// segment also leaves the exact right start of its line in `right`.
template <int kWarmBatch, int kBatch, bool kAhead, class Ops, typename TIn>
__device__ inline void warm_causal(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, float* right,
                                   const PassParams<Ops>& p, const SegmentItem& it) {
  const int line = it.line, seg = it.seg, s0 = it.s0, s1 = it.s1;
  const LineView<TIn> x(in, l, line);
  const LineView<float> m(mid, l, line);
  const int w = max(0, s0 - p.warmup);  // from 0 the start is exact
  typename Ops::State st = Ops::left_start(p.k, x.load(w));
  for_each_forward<kWarmBatch, kAhead>(x, w, s0, [&](int, float v) { Ops::causal_step(p.k, v, st); });
  for_each_forward<kBatch, kAhead>(x, s0, s1, [&](int i, float v) { m.store(i, Ops::causal_step(p.k, v, st)); });
  if (seg == p.segments - 1) {
    const typename Ops::State r = Ops::right_start(p.k, st, x.load(l.length - 1), p.start);
    Ops::pack(r, right + static_cast<size_t>(line) * Ops::kCarry);
  }
}

// TwoWay / KWay, anticausal half: each segment but the last warms up over the samples after it
// (the causal results of the next segments, for Young–van Vliet).
template <int kWarmBatch, int kBatch, bool kAhead, class Ops, typename TIn, typename TOut>
__device__ inline void warm_anticausal(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid,
                                       const Plane<TOut>& out, const float* right, const PassParams<Ops>& p,
                                       const SegmentItem& it) {
  const int line = it.line, s0 = it.s0, s1 = it.s1;
  const int n = l.length;
  const LineView<TIn> x(in, l, line);
  const LineView<float> m(mid, l, line);
  const LineView<TOut> y(out, l, line);
  constexpr bool kReadsInput = Ops::kAnticausalReadsInput;
  typename Ops::State st;
  const int e = min(n, s1 + p.warmup);
  if (e == n) {
    // The warm-up reaches the line's end: start there exactly, as the last segment does.
    const float x_edge = x.load(n - 1);
    st = Ops::anticausal_entry(p.k, right + static_cast<size_t>(line) * Ops::kCarry, x_edge, x_edge);
  } else {
    st = Ops::anticausal_warm_start(p.k, m.load(e - 1), x.load(e - 1));
  }
  for_each_backward<kWarmBatch, kAhead, kReadsInput>(m, x, e, s1, [&](int, float c, float v) {
    Ops::anticausal_step(p.k, kReadsInput ? v : c, st);
  });
  for_each_backward<kBatch, kAhead, kReadsInput>(m, x, s1, s0, [&](int i, float c, float v) {
    y.store(i, Ops::combine(c, Ops::anticausal_step(p.k, kReadsInput ? v : c, st)));
  });
}

// The two halves in two launches (a thread per (line, segment), any number of segments).
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
warm_causal_kernel(Lines l, Plane<TIn> in, Plane<float> mid, float* right, PassParams<Ops> p) {
  begin_chained_kernel();
  SegmentItem it;
  if (segment_item(l, p.segment, p.segments, it))
    warm_causal<kSplitBatch, kSplitBatch, false>(l, in, mid, right, p, it);
}

template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
warm_anticausal_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, const float* right,
                       PassParams<Ops> p) {
  begin_chained_kernel();
  SegmentItem it;
  if (segment_item(l, p.segment, p.segments, it))
    warm_anticausal<kSplitBatch, kSplitBatch, false>(l, in, mid, out, right, p, it);
}

// The two halves in one launch, where a block holds whole lines (block_lines of them): the
// anticausal warm-up reads what the next segments' threads wrote, so the halves meet at a
// barrier instead of a kernel boundary.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
warm_both_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, float* right, PassParams<Ops> p,
                 int block_lines) {
  begin_chained_kernel();
  SegmentItem it;
  int local_line;
  const bool active = block_segment_item(l, p.segment, p.segments, block_lines, it, local_line);
  constexpr int kBatch = two_way_batch<Ops>;
  if (active) warm_causal<kTwoWayWarmBatch, kBatch, true>(l, in, mid, right, p, it);
  __syncthreads();
  if (active) warm_anticausal<kTwoWayWarmBatch, kBatch, true>(l, in, mid, out, right, p, it);
}

// TwoWay, exact, for recursions in parallel form, whose two directions both read x (a sum of a
// causal and an anticausal part, not a cascade): Deriche, and Young–van Vliet with the exact
// start-up in its parallel form (yvv_parallel_coefficients). The halves of Lee, Ko and Choe
// (2014): the left half's thread runs causal from the line's left start and the right half's
// thread anticausal from its right start, each writing its half of `mid`; then each carries its
// own state on into the other half, where the other direction's results wait in `mid`, and
// writes the sum. Exact, with no warm-up: each thread runs n steps where one-way runs 2n, with
// the same loads and stores per step.
//
// A thread keeps one direction throughout, and both directions run one code path: the
// anticausal step weighs x[i+1] and x[i+2] where the causal one weighs x[i] and x[i-1], so the
// right half's thread reads its input one sample ahead and both run the causal formula; and
// map_along walks both directions' addresses alike. So a warp can hold both halves of its lines
// without diverging (a loop per direction outgrew the instruction cache), and a warp holds both
// halves of 16 lines.
//
// Phase 1 runs whole batches, a half starting up to a batch before its line's edge, and the
// loops end without a partial batch where a whole one is left: a partial last batch is code each
// thread runs once, whose instruction fetch a lone warp waits for.
//
// Young–van Vliet's parallel form costs more a step than its cascade (two sections where the
// cascade runs one and a half), so its exact two-way is slower than the warmed-up cascade halves
// while the warm-up is short and faster beyond: it runs where its warm-up would be a 25th of the
// line or more (exact_two_way()). The measurements behind these choices are in
// docs/bench/kernel_choices.md.
struct OneDirection {
  // causal:      u = nsum x[i] + n1 (x[i-1] - x[i]);
  // anticausal:  u = msum x[i+1] + m2 (x[i+2] - x[i+1]).
  float gain[2], diff[2];
  float den[2], radius2[2];
  float steady[2];  // each section's output per unit of a constant input
};

struct OneDirectionState {
  float prev;  // the input the last step read (x[i-1], or x[i+2] for the anticausal direction)
  float y[2], v[2];
};

__device__ inline OneDirection one_direction(const DericheSections<float>& k, bool causal) {
  OneDirection d;
  for (int i = 0; i < 2; ++i) {
    const DericheSections<float>::Term& t = k.term[i];
    d.gain[i] = causal ? t.nsum : t.msum;
    d.diff[i] = causal ? t.n1 : t.m2;
    d.den[i] = t.den;
    d.radius2[i] = t.radius2;
    d.steady[i] = causal ? t.causal_gain : t.anticausal_gain;
  }
  return d;
}

// The steady state of a constant edge value: deriche_causal_start / deriche_anticausal_start.
__device__ inline OneDirectionState one_direction_start(const OneDirection& d, float edge) {
  return {edge, {edge * d.steady[0], edge * d.steady[1]}, {0.0f, 0.0f}};
}

// deriche_causal_step / deriche_anticausal_step, same arithmetic. kFirstOrder: section 0 is of
// first order (Young–van Vliet's real pole: radius2 = 0, diff = 0), in three operations fewer.
template <bool kFirstOrder>
__device__ inline float one_direction_step(const OneDirection& d, float cur, OneDirectionState& st) {
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    if (kFirstOrder && i == 0) {
      st.y[0] += d.gain[0] * cur - d.den[0] * st.y[0];
    } else {
      section_update(d.gain[i] * cur + d.diff[i] * (st.prev - cur), d.den[i], d.radius2[i], st.y[i], st.v[i]);
    }
    sum += st.y[i];
  }
  st.prev = cur;
  return sum;
}

// A block holds kExactTwoWayLines lines; threads [0, kExactTwoWayLines) take the left halves.
template <int kBatch, bool kFirstOrder, typename TIn, typename TOut>
__global__ void __launch_bounds__(2 * kExactTwoWayLines)
two_way_exact_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, DericheSections<float> k) {
  begin_chained_kernel();
  const int t = static_cast<int>(threadIdx.x);
  const bool left = t < kExactTwoWayLines;
  const int line = blockIdx.x * kExactTwoWayLines + t % kExactTwoWayLines;
  const bool active = line < l.count;
  const int n = l.length, h = n / 2;
  LineView<TIn> x(in, l, active ? line : 0);
  const LineView<float> m(mid, l, active ? line : 0);
  const LineView<TOut> y(out, l, active ? line : 0);
  const OneDirection d = one_direction(k, left);
  const int dir = left ? 1 : -1;
  // Phase 1: the left half's outputs [0, h) from 0 up, the right half's [h, n) from n - 1 down,
  // each in whole batches: a half starts up to kBatch - 1 steps before its line's edge, on the
  // edge value (the replicate border), steps that leave its start (the edge's steady state) as
  // it is but for rounding and store into mid's margins (kMidMargin). So phase 1 ends in
  // no partial batch (code run once, whose fetch costs: map_along).
  const int half = left ? h : n - h;
  const int pad = lead_to_whole_batches(half, kBatch);
  OneDirectionState st{};
  if (active) {
    st = one_direction_start(d, x.load(left ? 0 : n - 1));
    // The right half reads x[i + 1] for output i; output n - 1 reads x[n], the edge again, so
    // its first pad + 1 steps read the edge.
    if (!left) x.line += x.step;
    map_along<kBatch, false>(x, x, m, left ? -pad : n - 1 + pad, dir, half + pad, left ? pad : pad + 1,
                             [&](float v, float) { return one_direction_step<kFirstOrder>(d, v, st); });
  }
  __syncthreads();  // each half of `mid` is complete
  if (!active) return;
  // Phase 2: each carries its state on into the other half.
  map_along<kBatch, true>(x, m, y, left ? h : h - 1, dir, left ? n - h : h, 0,
                          [&](float v, float other) { return one_direction_step<kFirstOrder>(d, v, st) + other; });
}


// sigma 0 in a direction: that pass only converts.
template <typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
copy_kernel(Lines l, Plane<TIn> in, Plane<TOut> out) {
  begin_chained_kernel();
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long>(l.count) * l.length) return;
  const int line = static_cast<int>(t % l.count), i = static_cast<int>(t / l.count);
  out.store(l, line, i, in.load(l, line, i));
}

}  // namespace

template <class Ops, typename TIn, typename TOut>
Status launch_one_way(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                      const PassParams<Ops>& p, const PassPlan& plan, cudaStream_t stream) {
  const int threads = plan.block_threads;
  CG_CUDA_TRY(launch_chained(plan.chained, one_way_kernel<Ops, TIn, TOut>, blocks_for(l.count, threads), threads, 0,
                             stream, l, in, mid, out, p));
  return Status::success();
}

template <class Ops, typename TIn, typename TOut>
Status launch_warmed_up(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                        float* right, const PassParams<Ops>& p, LineSplit split, const PassPlan& plan,
                        cudaStream_t stream) {
  const long items = static_cast<long>(l.count) * p.segments;
  const int threads = plan.block_threads;
  if (plan.warm_block_lines) {
    const WholeLineGrid grid = whole_line_grid(l.count, plan.warm_block_lines, p.segments);
    CG_CUDA_TRY(launch_chained(plan.chained, warm_both_kernel<Ops, TIn, TOut>, grid.blocks, grid.threads, 0, stream,
                               l, in, mid, out, right, p, plan.warm_block_lines));
  } else {
    // Chained for k-way, not for two-way (two-way measured slower chained, for a reason not
    // found: docs/bench/kernel_choices.md, "Recursive Gaussians: chained launches").
    const bool chained = plan.chained && split != LineSplit::TwoWay;
    CG_CUDA_TRY(launch_chained(chained, warm_causal_kernel<Ops, TIn>, blocks_for(items, threads), threads, 0, stream, l,
                               in, mid, right, p));
    CG_CUDA_TRY(launch_chained(chained, warm_anticausal_kernel<Ops, TIn, TOut>, blocks_for(items, threads), threads, 0,
                               stream, l, in, mid, out, right, p));
  }
  return Status::success();
}

template <typename TIn, typename TOut>
Status launch_exact_two_way(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                            const DericheSections<float>& k, bool first_order, bool chained, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((l.count + kExactTwoWayLines - 1) / kExactTwoWayLines);
  auto kernel = first_order ? two_way_exact_kernel<kTwoWayExactBatch, true, TIn, TOut>
                            : two_way_exact_kernel<kTwoWayExactBatch, false, TIn, TOut>;
  CG_CUDA_TRY(launch_chained(chained, kernel, blocks, 2 * kExactTwoWayLines, 0, stream, l, in, mid, out, k));
  return Status::success();
}

template <typename TIn, typename TOut>
Status launch_copy(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, bool chained, cudaStream_t stream) {
  CG_CUDA_TRY(launch_chained(chained, copy_kernel<TIn, TOut>, blocks_for(static_cast<long>(l.count) * l.length),
                             kThreads, 0, stream, l, in, out));
  return Status::success();
}

// The passes RecursiveBlur runs: samples to float rows, float rows to samples.
template Status launch_one_way<YvvOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&,
    const Plane<float>&, const PassParams<YvvOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<YvvOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&,
    const Plane<float>&, float*, const PassParams<YvvOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<YvvOps<float>, float, uint8_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint8_t>&, const PassParams<YvvOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<YvvOps<float>, float, uint8_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint8_t>&, float*, const PassParams<YvvOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<YvvOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&,
    const Plane<float>&, const PassParams<YvvOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<YvvOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&,
    const Plane<float>&, float*, const PassParams<YvvOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<YvvOps<float>, float, uint16_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint16_t>&, const PassParams<YvvOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<YvvOps<float>, float, uint16_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint16_t>&, float*, const PassParams<YvvOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<DericheOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&,
    const Plane<float>&, const PassParams<DericheOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<DericheOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&,
    const Plane<float>&, float*, const PassParams<DericheOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<DericheOps<float>, float, uint8_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint8_t>&, const PassParams<DericheOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<DericheOps<float>, float, uint8_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint8_t>&, float*, const PassParams<DericheOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<DericheOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&,
    const Plane<float>&, const PassParams<DericheOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<DericheOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&,
    const Plane<float>&, float*, const PassParams<DericheOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_one_way<DericheOps<float>, float, uint16_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint16_t>&, const PassParams<DericheOps<float>>&, const PassPlan&, cudaStream_t);
template Status launch_warmed_up<DericheOps<float>, float, uint16_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint16_t>&, float*, const PassParams<DericheOps<float>>&, LineSplit, const PassPlan&, cudaStream_t);
template Status launch_exact_two_way<uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&,
    const Plane<float>&, const DericheSections<float>&, bool, bool, cudaStream_t);
template Status launch_copy<uint8_t, float>(const Lines&, const Plane<uint8_t>&, const Plane<float>&, bool, cudaStream_t);
template Status launch_exact_two_way<float, uint8_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint8_t>&, const DericheSections<float>&, bool, bool, cudaStream_t);
template Status launch_copy<float, uint8_t>(const Lines&, const Plane<float>&, const Plane<uint8_t>&, bool, cudaStream_t);
template Status launch_exact_two_way<uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&,
    const Plane<float>&, const DericheSections<float>&, bool, bool, cudaStream_t);
template Status launch_copy<uint16_t, float>(const Lines&, const Plane<uint16_t>&, const Plane<float>&, bool, cudaStream_t);
template Status launch_exact_two_way<float, uint16_t>(const Lines&, const Plane<float>&, const Plane<float>&,
    const Plane<uint16_t>&, const DericheSections<float>&, bool, bool, cudaStream_t);
template Status launch_copy<float, uint16_t>(const Lines&, const Plane<float>&, const Plane<uint16_t>&, bool, cudaStream_t);

}  // namespace recursive
}  // namespace cudagaussian
