// SPDX-License-Identifier: LGPL-2.1-or-later
// Recursive Gaussian kernels: the section recursions of common/recursive_sections.h spread over
// threads in four ways (recursive_filter.h). Each pass filters lines: rows (a line is one
// channel of one row, read with a stride of C) or columns (a line is one scalar column). A
// thread owns a (line, segment) pair; consecutive threads take consecutive lines (columns) or
// consecutive channels and segments of a row, so that their reads share cache lines.
//
// Exact block-parallel (Nehab, Maximo, Lima, Hoppe 2011, in 1D): a section recursion is linear
// in its state, so over a segment of m samples
//     state_out = A_m state_in + F(inputs),
// where F is the state reached from a zero state. Three launches per pass, the input read twice
// and nothing else of the plane's size written but the result:
//   carries  each segment (a thread, its 32 samples in registers): the causal carry F from a zero
//            state, and the anticausal carry G~ of that zero-start causal result (Young–van Vliet)
//            or of the input (Deriche);
//   scan     per line: the causal entry state of every segment by an affine scan (from the
//            exact left start), the exact right start (Triggs–Sdika) from the line's end state,
//            each G corrected for its segment's true causal entry (G = G~ + M s, M from the
//            host: Young–van Vliet's anticausal half filters the causal result), and the
//            anticausal entry states by a second scan, right to left;
//   apply    each segment from its two entry states: causal into registers, anticausal back
//            over them, the result written once.
// The records go through global memory, segment-major (record_index), and a thread per line
// scans them. For Young–van Vliet the horizontal apply also computes the vertical pass's
// carries from its results, tile by tile in shared memory (bp_apply_rows_tile_kernel), so that
// the float plane between the passes is read once, not twice. Where a pass has too few
// segments to fill the GPU (below SD), the three steps run as one launch instead
// (bp_fused_kernel): a block holds whole lines, the records stay in shared memory and a warp
// scans each line there. The kernels are launched chained (chained_launch.cuh): each one's
// launch overlaps the tail of the one before. The result equals the one-way recursion up to
// float rounding.

#include "recursive_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "chained_launch.cuh"
#include "line_access.cuh"
#include "recursive_sections.h"

namespace cudagaussian {
namespace {

constexpr int kThreads = 128;
// KWay with segments = 0 aims at this many threads per pass (a few per SM slot of a large GPU).
constexpr int kKWayTargetThreads = 65536;
constexpr int kKWayMinSegment = 16;
// Block-parallel in one launch per pass (bp_fused_kernel): blocks of whole lines, about 256
// threads (measured: 256 beats 512 at SD, HD and Full HD; 128 registers a thread), at most 512;
// used while a pass has at most this many (line, segment) items per SM. Measured on an H200
// against the three launches, chained (bench_recursive, launches table): one launch wins at
// CIF (~100 items per SM: Young–van Vliet 20.8 against 22.0 µs, Deriche 25.1 against 27.8) and
// loses from SD (~400: 36.8 against 34.8, 48.6 against 43.6).
constexpr int kFusedMaxThreads = 512;
constexpr int kFusedTargetThreads = 256;
constexpr int kFusedMaxItemsPerSm = 256;

// ---- the two filter families behind one interface ----------------------------------------------

// A carry is the recursive part of a state (the inputs a state also remembers are re-read from
// memory at segment boundaries).
template <typename T>
struct YvvOps {
  using Coeffs = YvvSections<T>;
  using State = YvvSectionState<T>;
  static constexpr int kCarry = 3;
  static constexpr bool kAnticausalReadsInput = false;  // it filters the causal result

  CG_HOST_DEVICE static State left_start(const Coeffs&, T x0) { return yvv_sections_steady_state(x0); }
  CG_HOST_DEVICE static State causal_entry(const Coeffs&, const T* c, T) { return {c[0], c[1], c[2]}; }
  CG_HOST_DEVICE static T causal_step(const Coeffs& k, T x, State& st) { return yvv_sections_step(k, x, st); }
  CG_HOST_DEVICE static State right_start(const Coeffs& k, const State& end, T x_edge, StartUp s) {
    return yvv_sections_right_start(k, end, x_edge, s);
  }
  // Warm-up start of a segment that is not the last: as if its input were constant beyond.
  CG_HOST_DEVICE static State anticausal_warm_start(const Coeffs&, T value, T) {
    return yvv_sections_steady_state(value);
  }
  CG_HOST_DEVICE static State anticausal_entry(const Coeffs&, const T* c, T, T) { return {c[0], c[1], c[2]}; }
  CG_HOST_DEVICE static T anticausal_step(const Coeffs& k, T in, State& st) { return yvv_sections_step(k, in, st); }
  CG_HOST_DEVICE static T combine(T, T anticausal) { return anticausal; }
  CG_HOST_DEVICE static void pack(const State& st, T* c) { c[0] = st.f, c[1] = st.s, c[2] = st.v; }
};

template <typename T>
struct DericheOps {
  using Coeffs = DericheSections<T>;
  using State = DericheSectionState<T>;
  static constexpr int kCarry = 4;
  static constexpr bool kAnticausalReadsInput = true;  // both halves read x; the result is their sum

  CG_HOST_DEVICE static State left_start(const Coeffs& k, T x0) { return deriche_causal_start(k, x0); }
  CG_HOST_DEVICE static State causal_entry(const Coeffs&, const T* c, T x_prev) {
    State st;
    st.x1 = st.x2 = x_prev;
    st.y[0] = c[0], st.v[0] = c[1], st.y[1] = c[2], st.v[1] = c[3];
    return st;
  }
  CG_HOST_DEVICE static T causal_step(const Coeffs& k, T x, State& st) { return deriche_causal_step(k, x, st); }
  CG_HOST_DEVICE static State right_start(const Coeffs& k, const State&, T x_edge, StartUp) {
    return deriche_anticausal_start(k, x_edge);
  }
  CG_HOST_DEVICE static State anticausal_warm_start(const Coeffs& k, T, T x) {
    return deriche_anticausal_start(k, x);
  }
  CG_HOST_DEVICE static State anticausal_entry(const Coeffs&, const T* c, T x_next1, T x_next2) {
    State st;
    st.x1 = x_next1, st.x2 = x_next2;
    st.y[0] = c[0], st.v[0] = c[1], st.y[1] = c[2], st.v[1] = c[3];
    return st;
  }
  CG_HOST_DEVICE static T anticausal_step(const Coeffs& k, T x, State& st) {
    return deriche_anticausal_step(k, x, st);
  }
  CG_HOST_DEVICE static T combine(T causal, T anticausal) { return causal + anticausal; }
  CG_HOST_DEVICE static void pack(const State& st, T* c) {
    c[0] = st.y[0], c[1] = st.v[0], c[2] = st.y[1], c[3] = st.v[1];
  }
};

// ---- one pass ----------------------------------------------------------------------------------

constexpr int kMaxCarry = 4;
constexpr int kRunPowers = 5;  // log2 of the 32 lanes of a warp

template <class Ops>
struct PassParams {
  typename Ops::Coeffs k;
  float a_full[kMaxCarry * kMaxCarry];  // A for a whole segment, row-major
  float a_last[kMaxCarry * kMaxCarry];  // A for the last, possibly shorter, segment
  // Young–van Vliet block-parallel: the anticausal carry (from a zero state) of the causal
  // response to a unit entry state and zero input, row-major; zero for Deriche.
  float m_full[kMaxCarry * kMaxCarry];
  float m_last[kMaxCarry * kMaxCarry];
  // Block-parallel scan: A_full^(run·2^d), d < kRunPowers, for runs of `run` segments per lane.
  float run_power[kRunPowers][kMaxCarry * kMaxCarry];
  int run;
  StartUp start;
  int segment;   // samples per segment (the last may be shorter)
  int segments;  // per line
  int warmup;    // TwoWay / KWay: samples run before a segment to forget the unknown start
};

// Samples per batch of the line loops (line_access.cuh), by kernel, measured on an H200
// (bench_recursive; σ 2; µs at SD and 1080p RGBA8):
//   one-way          at most a warp per scheduler, so only its own loads ahead cover their
//                    latency: batches of 16 / 32 / 64, Young–van Vliet SD 76.2 / 62.6 / 74.4,
//                    1080p 248 / 185 / 195 (Deriche 1080p 283 / 233 / 317);
//   two-way (fused)  batches of 16 / 24 / 32 (warm-ups 8): Young–van Vliet SD 44.9 / 41.4 /
//                    40.5, 1080p 148 / 126 / 121; Deriche, with more state per step, SD 52.4 /
//                    56.4 / 61.1, 1080p 169 / 157 / 167 (its longer loops overflow the
//                    instruction cache: Nsight Compute "no instruction" stalls). Warm-ups, a
//                    few batches long, keep 8;
//   k-way            SD 28.7 / 32.2 / 39.3, 1080p 107 / 138 / 121 for 8 / 16 / 32 (before the
//                    32-bit offsets of line_access.cuh; now SD 27.0, 1080p 96.6 at 8): its many
//                    threads lose occupancy to the batches' registers; it keeps batches of 8
//                    loaded at the top of each batch (1080p 101.9 against 107 a batch ahead).
constexpr int kOneWayBatch = 32;
template <class Ops>
constexpr int two_way_batch = std::is_same_v<Ops, YvvOps<float>> ? 32 : 16;
constexpr int kTwoWayWarmBatch = 8;
// two_way_exact_kernel: lines a block (a warp holds both halves of 16 lines) and samples a batch,
// measured there.
constexpr int kExactTwoWayLines = 16;
constexpr int kTwoWayExactBatch = 32;
// Samples of margin around mid for the steps before a line's edge (one_way_kernel,
// two_way_exact_kernel: up to a batch less one).
constexpr int kMidMargin = 32;
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
// without diverging. Measured on an H200 (Deriche, σ 2; one-way in the same runs: CIF 45–46, SD
// 75.3–75.6, 1080p 227, 4K 552 µs):
//   - a loop per direction and half (four), one half per warp: SD 51.3 / 57.0 / 74.9 µs for
//     batches of 16 / 24 / 32 (Young–van Vliet's parallel form): code outgrowing the
//     instruction cache;
//   - one code path, one half per warp (32 lines a block): SD 48.7 / 50.8 / 52.4, 1080p 176.4 /
//     162.6 / 159.9; with map_along's walked addresses (22 % fewer instructions, Nsight Compute),
//     SD 47.1 / 48.9 / 48.5, 1080p 173.4 / 161.8 / 152.1: the time is latency (long-scoreboard
//     and fixed-latency waits), not instructions;
//   - both halves of 16 lines in a warp, batches of 32: CIF 30.0, SD 45.3, 1080p 129.1, 4K 392.6
//     (8 lines a warp: 30.0, 45.5, 143.1, 513.3; 64 lines a block of one-half warps: SD 63.6).
//
// Phase 1 runs whole batches, a half starting up to a batch before its line's edge, and the
// loops end without a partial batch where a whole one is left (SD columns): a partial last batch
// is code each thread runs once, whose instruction fetch a lone warp waits for (Nsight Compute,
// SD: the last batches took 23 % of the columns pass, "no instruction" stalls the most). Measured
// in one run (bench_recursive, Deriche): SD 50.3 -> 43.3 µs, 1080p 137.2 -> 128.2 (one-way, its
// causal loop led in the same way and its loops ending on whole batches: 86.4 -> 79.0 and
// 233.8 -> 226.7).
//
// Young–van Vliet's parallel form costs more a step than its cascade (two sections where the
// cascade runs one and a half), so its exact two-way is slower than the warmed-up cascade halves
// while the warm-up is short and faster beyond (SD 43.8–44.9 µs at σ 2 and 30, against 40.3 and
// 51.2; 1080p 130.8–132.1 against 121.1–122.6 and 146.3–147.0). It runs where its warm-up would
// be a 25th of the line or more (exact_two_way()).
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

// ---- block-parallel ---------------------------------------------------------------------------

constexpr int kSegment = RecursiveBlur::kBlockSegment;
constexpr int kWarp = 32;

// Where a segment's record (D floats, `lines` apart) starts in global memory: segment-major,
// then component, then line, so that threads of neighbouring lines (a warp of columns) read and
// write neighbouring floats.
__device__ inline size_t record_index(int line, int seg, int lines, int d) {
  return static_cast<size_t>(seg) * d * lines + line;
}

// The segment's samples, all loads issued before any is used (straight-line code: past the
// line's end the last sample is loaded again); x_prev = x[s0 - 1] (x[0] for the first
// segment), x_next1/2 = x[s1], x[s1 + 1] (clamped to the last sample). `first` (the segment's
// first sample) and `step` (Lines::step) locate the samples, with 32-bit offsets as LineView.
template <typename TIn>
struct SegmentSamples {
  float x[kSegment];
  float x_prev, x_next1, x_next2;
  int count;
  const TIn* first;
  int step;
};
template <typename TIn>
__device__ inline void load_segment(const Lines& l, const Plane<TIn>& in, int line, int s0, int s1,
                                    SegmentSamples<TIn>& g) {
  const int n = l.length;
  g.count = s1 - s0;
  g.first = in.data + l.index(line, s0, in.pitch);
  g.step = static_cast<int>(l.step(in.pitch));
#pragma unroll
  for (int i = 0; i < kSegment; ++i) g.x[i] = in.from_sample(g.first[min(i, g.count - 1) * g.step]);
  g.x_prev = in.from_sample(g.first[s0 > 0 ? -g.step : 0]);
  g.x_next1 = in.from_sample(g.first[(min(s1, n - 1) - s0) * g.step]);
  g.x_next2 = in.from_sample(g.first[(min(s1 + 1, n - 1) - s0) * g.step]);
}

// The recursions over a segment, whole (kFull: the 32 samples, no per-sample test) or the
// line's shorter last one. Carries: F (causal, zero entry) and G~.
// The carries' components are `stride` floats apart.
template <bool kFull, class Ops, typename TIn>
__device__ inline void segment_carries(const PassParams<Ops>& p, const SegmentSamples<TIn>& g, float* f_out,
                                       float* g_out, size_t stride) {
  float c[kMaxCarry];
  const float zero[kMaxCarry] = {};
  float y[kSegment];
  typename Ops::State st = Ops::causal_entry(p.k, zero, g.x_prev);
#pragma unroll
  for (int i = 0; i < kSegment; ++i)
    if (kFull || i < g.count) y[i] = Ops::causal_step(p.k, g.x[i], st);
  Ops::pack(st, c);
  for (int k = 0; k < Ops::kCarry; ++k) f_out[k * stride] = c[k];
  st = Ops::anticausal_entry(p.k, zero, g.x_next1, g.x_next2);
#pragma unroll
  for (int i = kSegment - 1; i >= 0; --i)
    if (kFull || i < g.count) Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st);
  Ops::pack(st, c);
  for (int k = 0; k < Ops::kCarry; ++k) g_out[k * stride] = c[k];
}

// Carries: F (causal, zero entry) into `causal`, G~ into `anticausal`.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_carries_kernel(Lines l, Plane<TIn> in, float* causal, float* anticausal, PassParams<Ops> p) {
  begin_chained_kernel();
  SegmentItem it;
  if (!segment_item(l, kSegment, p.segments, it)) return;
  SegmentSamples<TIn> g;
  load_segment(l, in, it.line, it.s0, it.s1, g);
  float* f_out = causal + record_index(it.line, it.seg, l.count, Ops::kCarry);
  float* g_out = anticausal + record_index(it.line, it.seg, l.count, Ops::kCarry);
  if (g.count == kSegment) segment_carries<true>(p, g, f_out, g_out, l.count);
  else segment_carries<false>(p, g, f_out, g_out, l.count);
}

// y = m x + add (D x D, row-major); y may be x or add.
template <int D>
__device__ inline void mat_vec_add(const float* m, const float* x, const float* add, float* y) {
  float t[D];
#pragma unroll
  for (int r = 0; r < D; ++r) {
    t[r] = add[r];
#pragma unroll
    for (int k = 0; k < D; ++k) t[r] = fmaf(m[r * D + k], x[k], t[r]);
  }
#pragma unroll
  for (int r = 0; r < D; ++r) y[r] = t[r];
}

// Scan: one warp (a block) per line, its records staged in shared memory (f: the causal
// carries F, g: the anticausal carries G~), read and written back once, coalesced; in between,
// every access is to shared memory, so a warp waits for global memory twice, not once per
// segment. It replaces each F by the segment's causal entry state and each G~ by its anticausal
// entry state.
//
// The segments but the last (n = S - 1 of them, all with A = a_full) are split into runs: lane l
// owns [l·run, (l+1)·run) in both directions. A run maps a state x to A^run x + v_l, with v_l its
// carries composed from a zero state, so a Hillis–Steele scan over the lanes needs only vectors:
// v_l += A^(run·2^d) v_{l∓2^d}, the powers from the host (PassParams::run_power); left to right
// (shuffles up, the left start in lane 0) for the causal direction, right to left (shuffles
// down, the start in the lane owning segment n-1) for the anticausal one. A lane with a shorter
// run (the owner of segment n-1) is the last in its direction, so the powers are never applied
// across it; lanes past it hold nothing. The line's last segment (possibly shorter: A_last,
// M_last) is done apart, by every lane.
template <int D>
__device__ inline void shuffle_vector(float* v, int delta, bool up) {
#pragma unroll
  for (int k = 0; k < D; ++k)
    v[k] = up ? __shfl_up_sync(0xffffffffu, v[k], delta) : __shfl_down_sync(0xffffffffu, v[k], delta);
}

// The scan of one line's records f (S x D) and g (S x D) in shared memory by one warp; x_first
// and x_edge are the line's first and last samples.
template <class Ops>
__device__ inline void scan_line_records(const PassParams<Ops>& p, int lane, float* f, float* g, float x_first,
                                         float x_edge) {
  constexpr int D = Ops::kCarry;
  const int S = p.segments, n = S - 1;
  const int run = p.run, j0 = lane * run, count = max(0, min(run, n - j0));
  const int owner = (n - 1) / run;  // the lane that owns segment n-1
  auto fold = [&](float* v, const float* carry) { mat_vec_add<D>(p.a_full, v, carry, v); };

  // Causal, left to right from the exact left start.
  float start[D], v[D], state[D];
  Ops::pack(Ops::left_start(p.k, x_first), start);
  for (int k = 0; k < D; ++k) v[k] = lane == 0 ? start[k] : 0.0f;
  for (int q = 0; q < count; ++q) fold(v, f + (j0 + q) * D);
#pragma unroll
  for (int d = 0; d < kRunPowers; ++d) {
    float earlier[D];
    for (int k = 0; k < D; ++k) earlier[k] = v[k];
    shuffle_vector<D>(earlier, 1 << d, true);
    if (lane >= (1 << d)) mat_vec_add<D>(p.run_power[d], earlier, v, v);
  }
  shuffle_vector<D>(v, 1, true);
  for (int k = 0; k < D; ++k) state[k] = lane == 0 ? start[k] : v[k];
  for (int q = 0; q < count; ++q) {
    float* fj = f + (j0 + q) * D;
    float* gj = g + (j0 + q) * D;
    float carry[D];
    for (int k = 0; k < D; ++k) carry[k] = fj[k], fj[k] = state[k];
    mat_vec_add<D>(p.m_full, state, gj, gj);  // G~ -> G: plus the anticausal carry of the
                                              // segment's causal response to its entry state
    fold(state, carry);
  }
  // The last segment, then the exact right start from the line's end state.
  float s_last[D], g_last[D], end[D], right[D];
  for (int k = 0; k < D; ++k) s_last[k] = __shfl_sync(0xffffffffu, state[k], owner);
  mat_vec_add<D>(p.m_last, s_last, g + (S - 1) * D, g_last);
  mat_vec_add<D>(p.a_last, s_last, f + (S - 1) * D, end);
  Ops::pack(Ops::right_start(p.k, Ops::causal_entry(p.k, end, x_edge), x_edge, p.start), right);
  __syncwarp();  // every lane has read the last segment's records
  if (lane == 0)
    for (int k = 0; k < D; ++k) f[(S - 1) * D + k] = s_last[k], g[(S - 1) * D + k] = right[k];

  // Anticausal, right to left: the last segment from `right`, then segments n-1 .. 0.
  mat_vec_add<D>(p.a_last, right, g_last, start);
  for (int k = 0; k < D; ++k) v[k] = lane == owner ? start[k] : 0.0f;
  for (int q = count - 1; q >= 0; --q) fold(v, g + (j0 + q) * D);
#pragma unroll
  for (int d = 0; d < kRunPowers; ++d) {
    float later[D];
    for (int k = 0; k < D; ++k) later[k] = v[k];
    shuffle_vector<D>(later, 1 << d, false);
    if (lane + (1 << d) < kWarp) mat_vec_add<D>(p.run_power[d], later, v, v);
  }
  shuffle_vector<D>(v, 1, false);
  for (int k = 0; k < D; ++k) state[k] = lane == owner ? start[k] : v[k];
  for (int q = count - 1; q >= 0; --q) {
    float* gj = g + (j0 + q) * D;
    float carry[D];
    for (int k = 0; k < D; ++k) carry[k] = gj[k], gj[k] = state[k];
    fold(state, carry);
  }
  __syncwarp();
}

// Scan in global memory (multi-launch block-parallel): a thread per line walks its segments in
// order, the same recurrences as scan_line_records one segment at a time; the records of a batch
// of segments are loaded before any is used (one wait per batch, not per segment), and
// neighbouring threads (lines) read neighbouring floats (record_index). Batches of 16 segments
// for Young–van Vliet (measured: both passes' scans 2.5 µs faster than with 8 at 1080p), of 8
// for Deriche, whose four carries would take 168 registers at 16.
template <class Ops>
constexpr int kScanBatch = Ops::kCarry == 3 ? 16 : 8;

template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_scan_kernel(Lines l, Plane<TIn> in, float* causal, float* anticausal, PassParams<Ops> p) {
  begin_chained_kernel();
  constexpr int D = Ops::kCarry, kBatch = kScanBatch<Ops>;
  const int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= l.count) return;
  const int S = p.segments, n = S - 1;  // segments 0 .. n-1 have A = a_full
  // record_index + k·lines in 32 bits (RecursiveBlur::plan keeps the records under 2^32
  // floats), as a batch's first offset plus a multiple of `lines` known at compile time: a
  // multiply-add per access instead of 64-bit index arithmetic (this kernel is one warp per SM,
  // so its time is its instruction count).
  const unsigned lines = l.count;
  auto first = [&](int seg) { return static_cast<unsigned>(seg * D) * lines + static_cast<unsigned>(line); };
  auto at = [&](unsigned base, int b, int k) { return base + static_cast<unsigned>(b * D + k) * lines; };
  const float x_edge = in.load(l, line, l.length - 1);

  // Causal, left to right: each F becomes the segment's entry state, each G~ its G.
  float state[D];
  Ops::pack(Ops::left_start(p.k, in.load(l, line, 0)), state);
  for (int j0 = 0; j0 < n; j0 += kBatch) {
    const unsigned base = first(j0);
    const int count = min(kBatch, n - j0);
    float f[kBatch][D], g[kBatch][D];
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
#pragma unroll
      for (int k = 0; k < D; ++k) {
        f[b][k] = b < count ? causal[at(base, b, k)] : 0.0f;
        g[b][k] = b < count ? anticausal[at(base, b, k)] : 0.0f;
      }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (b >= count) break;
      float corrected[D];
      mat_vec_add<D>(p.m_full, state, g[b], corrected);
#pragma unroll
      for (int k = 0; k < D; ++k) causal[at(base, b, k)] = state[k], anticausal[at(base, b, k)] = corrected[k];
      mat_vec_add<D>(p.a_full, state, f[b], state);
    }
  }
  // The last segment, then the exact right start from the line's end state.
  const unsigned last = first(n);
  float f_last[D], g_last[D], end[D], right[D];
  for (int k = 0; k < D; ++k) f_last[k] = causal[at(last, 0, k)], g_last[k] = anticausal[at(last, 0, k)];
  mat_vec_add<D>(p.m_last, state, g_last, g_last);
  mat_vec_add<D>(p.a_last, state, f_last, end);
  Ops::pack(Ops::right_start(p.k, Ops::causal_entry(p.k, end, x_edge), x_edge, p.start), right);
  for (int k = 0; k < D; ++k) causal[at(last, 0, k)] = state[k], anticausal[at(last, 0, k)] = right[k];

  // Anticausal, right to left: from `right` through the last segment, then segments n-1 .. 0,
  // a batch being segments j1 - kBatch + 1 .. j1 (b = kBatch - 1 .. 0).
  mat_vec_add<D>(p.a_last, right, g_last, state);
  for (int j1 = n - 1; j1 >= 0; j1 -= kBatch) {
    const int count = min(kBatch, j1 + 1), j0 = j1 - kBatch + 1;  // j0 may be negative
    const unsigned base = static_cast<unsigned>(j0 * D) * lines + static_cast<unsigned>(line);  // wraps; offsets below do not
    float g[kBatch][D];
#pragma unroll
    for (int b = kBatch - 1; b >= 0; --b)
#pragma unroll
      for (int k = 0; k < D; ++k) g[b][k] = kBatch - 1 - b < count ? anticausal[at(base, b, k)] : 0.0f;
#pragma unroll
    for (int b = kBatch - 1; b >= 0; --b) {
      if (kBatch - 1 - b >= count) break;
#pragma unroll
      for (int k = 0; k < D; ++k) anticausal[at(base, b, k)] = state[k];
      mat_vec_add<D>(p.a_full, state, g[b], state);
    }
  }
}

// Apply: each segment from its entry states, the result passed once to store(i, value).
template <bool kFull, class Ops, typename TIn, class Store>
__device__ inline void segment_apply(const PassParams<Ops>& p, const SegmentSamples<TIn>& g, const float* entry,
                                     const float* anticausal_entry, Store&& store) {
  float y[kSegment];
  typename Ops::State st = Ops::causal_entry(p.k, entry, g.x_prev);
#pragma unroll
  for (int i = 0; i < kSegment; ++i)
    if (kFull || i < g.count) y[i] = Ops::causal_step(p.k, g.x[i], st);
  st = Ops::anticausal_entry(p.k, anticausal_entry, g.x_next1, g.x_next2);
#pragma unroll
  for (int i = kSegment - 1; i >= 0; --i)
    if (kFull || i < g.count)
      store(i, Ops::combine(y[i], Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st)));
}

// A segment's entry states from the global records and its samples, then the segment applied.
template <class Ops, typename TIn, class Store>
__device__ inline void apply_from_records(const Lines& l, const Plane<TIn>& in, const float* causal,
                                          const float* anticausal, const PassParams<Ops>& p, const SegmentItem& it,
                                          Store&& store) {
  SegmentSamples<TIn> g;
  load_segment(l, in, it.line, it.s0, it.s1, g);
  float c[kMaxCarry], a[kMaxCarry];
  const size_t at = record_index(it.line, it.seg, l.count, Ops::kCarry);
  for (int k = 0; k < Ops::kCarry; ++k) c[k] = causal[at + k * l.count], a[k] = anticausal[at + k * l.count];
  if (g.count == kSegment) segment_apply<true>(p, g, c, a, store);
  else segment_apply<false>(p, g, c, a, store);
}

template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
bp_apply_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, const float* causal, const float* anticausal,
                PassParams<Ops> p) {
  begin_chained_kernel();
  SegmentItem it;
  if (!segment_item(l, kSegment, p.segments, it)) return;
  TOut* first = out.data + l.index(it.line, it.s0, out.pitch);
  const int step = static_cast<int>(l.step(out.pitch));
  apply_from_records(l, in, causal, anticausal, p, it, [&](int i, float v) { first[i * step] = out.to_sample(v); });
}

// Apply of a horizontal pass into float rows of C = 1, 2 or 4 channels: a warp's items are
// 32 / C whole segments, each C threads (its channels) whose outputs interleave in memory.
// Written directly, every store of the warp would touch 32 / C pieces of C floats (partial
// sectors: the horizontal apply was bound by L2 requests); staged in shared memory, the warp
// writes each segment's 32·C floats as whole 128-byte rows.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_apply_rows_kernel(Lines l, Plane<TIn> in, Plane<float> out, const float* causal, const float* anticausal,
                     PassParams<Ops> p) {
  begin_chained_kernel();
  __shared__ float staged[kThreads / kWarp][kWarp][kSegment + 1];  // +1: no bank conflicts on writes
  const int lane = threadIdx.x % kWarp;
  float(*mine)[kSegment + 1] = staged[threadIdx.x / kWarp];
  SegmentItem it{0, 0, 0, 0};
  const bool active = segment_item(l, kSegment, p.segments, it);
  if (active) apply_from_records(l, in, causal, anticausal, p, it, [&](int i, float v) { mine[lane][i] = v; });
  __syncwarp();
  const int C = l.channels, pixels_per_store = kWarp / C;
  for (int owner = 0; owner < kWarp; owner += C) {  // the first lane (channel 0) of each segment
    if (!__shfl_sync(0xffffffffu, active, owner)) break;  // the lanes after it are past the end too
    const int line = __shfl_sync(0xffffffffu, it.line, owner);
    const int s0 = __shfl_sync(0xffffffffu, it.s0, owner), count = __shfl_sync(0xffffffffu, it.s1, owner) - s0;
    const size_t first = l.index(line, s0, out.pitch);  // channel 0 of the segment's first pixel
    const int c = lane % C;
    for (int i = lane / C; i < count; i += pixels_per_store)
      out.store_at(first + static_cast<size_t>(i) * C + c, mine[owner + c][i]);
  }
}

// Young–van Vliet's horizontal apply fused with the vertical pass's carries (C = 1, 2 or 4): a
// block owns a tile of kSegment rows × kTileSamples samples (4 / C row segments a row, a thread
// each) — exactly one vertical segment of kTileSamples columns. Its results meet in shared
// memory, go out as whole rows, and each thread then runs the carries of one column of the tile
// from there: the vertical pass's carries kernel, which would read the whole float plane back,
// is not launched. (Deriche's vertical carries also read the sample above the segment and the
// two below, outside the tile; a tile with those rows, filtered again by each block, measured
// slower: 107 -> 114 µs at 1080p, 330 -> 356 at 4K.)
constexpr int kTileSamples = kThreads;

template <typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_apply_rows_tile_kernel(Lines rows, Lines columns, Plane<TIn> in, Plane<float> out, const float* causal,
                          const float* anticausal, PassParams<YvvOps<float>> p,
                          PassParams<YvvOps<float>> p_columns, float* column_causal, float* column_anticausal,
                          int tiles_x) {
  begin_chained_kernel();
  __shared__ float tile[kSegment][kTileSamples + 4];  // +4: a warp's 8 rows × 4 channels hit 32 banks
  const int C = rows.channels, tx = blockIdx.x % tiles_x, ty = blockIdx.x / tiles_x;
  const int r = threadIdx.x / 4, u = threadIdx.x % 4, c = u % C, seg_in_tile = u / C;
  const int height = columns.length, row = ty * kSegment + r;
  SegmentItem it;
  it.line = row * C + c;
  it.seg = tx * (4 / C) + seg_in_tile;
  it.s0 = it.seg * kSegment;
  it.s1 = min(rows.length, it.s0 + kSegment);
  if (row < height && it.s0 < rows.length)
    apply_from_records(rows, in, causal, anticausal, p, it,
                       [&](int i, float v) { tile[r][(seg_in_tile * kSegment + i) * C + c] = v; });
  __syncthreads();
  const int column = tx * kTileSamples + threadIdx.x, tile_rows = min(kSegment, height - ty * kSegment);
  if (column >= columns.count) return;
  SegmentSamples<float> g;
  g.count = tile_rows;
  g.x_prev = g.x_next1 = g.x_next2 = 0.0f;  // Young–van Vliet's carries do not read them
#pragma unroll
  for (int i = 0; i < kSegment; ++i) {
    g.x[i] = tile[min(i, tile_rows - 1)][threadIdx.x];
    if (i < tile_rows) out.data[static_cast<size_t>(ty * kSegment + i) * out.pitch + column] = g.x[i];
  }
  const size_t at = record_index(column, ty, columns.count, 3);
  if (g.count == kSegment) segment_carries<true>(p_columns, g, column_causal + at, column_anticausal + at, columns.count);
  else segment_carries<false>(p_columns, g, column_causal + at, column_anticausal + at, columns.count);
}

// All three steps in one launch, for lines whose segments fit in a block (block_lines of them):
// the carries go to shared memory instead of global, a warp scans each line there, and each
// thread applies its segment from the samples it still holds — the input is read once.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kFusedMaxThreads)
bp_fused_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, PassParams<Ops> p, int block_lines) {
  begin_chained_kernel();
  constexpr int D = Ops::kCarry;
  extern __shared__ float records[];  // per line: f (S x D), then g (S x D)
  const int S = p.segments;
  SegmentItem it;
  int local_line;
  const bool active = block_segment_item(l, kSegment, S, block_lines, it, local_line);
  SegmentSamples<TIn> x;
  float* f = nullptr;
  float* g = nullptr;
  if (active) {
    f = records + static_cast<size_t>(local_line) * 2 * S * D + it.seg * D;
    g = f + S * D;
    load_segment(l, in, it.line, it.s0, it.s1, x);
    if (x.count == kSegment) segment_carries<true>(p, x, f, g, 1);
    else segment_carries<false>(p, x, f, g, 1);
  }
  __syncthreads();
  const int warps = blockDim.x / kWarp, lane = threadIdx.x % kWarp;
  for (int ln = threadIdx.x / kWarp; ln < block_lines; ln += warps) {
    const int line = blockIdx.x * block_lines + ln;
    if (line >= l.count) break;
    float* lf = records + static_cast<size_t>(ln) * 2 * S * D;
    scan_line_records(p, lane, lf, lf + S * D, in.load(l, line, 0), in.load(l, line, l.length - 1));
  }
  __syncthreads();
  if (!active) return;
  TOut* first = out.data + l.index(it.line, it.s0, out.pitch);
  const int step = static_cast<int>(l.step(out.pitch));
  auto store = [&](int i, float v) { first[i * step] = out.to_sample(v); };
  if (x.count == kSegment) segment_apply<true>(p, x, f, g, store);
  else segment_apply<false>(p, x, f, g, store);
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

// ---- host side ---------------------------------------------------------------------------------

// A_m: the carry after m zero-input steps from each unit carry, in double, rounded to float.
template <template <typename> class OpsT>
void segment_matrix(const typename OpsT<double>::Coeffs& k, int m, double* a) {
  using Ops = OpsT<double>;
  constexpr int D = Ops::kCarry;
  (void)Ops::kAnticausalReadsInput;  // host code needs only the carry recursion
  for (int j = 0; j < D; ++j) {
    double unit[kMaxCarry] = {};
    unit[j] = 1.0;
    typename Ops::State st = Ops::causal_entry(k, unit, 0.0);
    for (int i = 0; i < m; ++i) Ops::causal_step(k, 0.0, st);
    double out[kMaxCarry];
    Ops::pack(st, out);
    for (int r = 0; r < D; ++r) a[r * D + j] = out[r];
  }
}

template <template <typename> class OpsT>
void segment_matrix(const typename OpsT<double>::Coeffs& k, int m, float* a) {
  double d[kMaxCarry * kMaxCarry];
  segment_matrix<OpsT>(k, m, d);
  for (int i = 0; i < OpsT<double>::kCarry * OpsT<double>::kCarry; ++i) a[i] = static_cast<float>(d[i]);
}

// A^(run·2^d), d < kRunPowers, in double by repeated squaring, rounded once.
void run_powers(const double* a, int dim, int run, float (*out)[kMaxCarry * kMaxCarry]) {
  auto multiply = [dim](const double* x, const double* y, double* z) {
    double t[kMaxCarry * kMaxCarry];
    for (int r = 0; r < dim; ++r)
      for (int c = 0; c < dim; ++c) {
        double s = 0.0;
        for (int q = 0; q < dim; ++q) s += x[r * dim + q] * y[q * dim + c];
        t[r * dim + c] = s;
      }
    for (int i = 0; i < dim * dim; ++i) z[i] = t[i];
  };
  double power[kMaxCarry * kMaxCarry] = {}, base[kMaxCarry * kMaxCarry];
  for (int i = 0; i < dim; ++i) power[i * dim + i] = 1.0;
  for (int i = 0; i < dim * dim; ++i) base[i] = a[i];
  for (int e = run; e > 0; e >>= 1) {  // power = A^run
    if (e & 1) multiply(power, base, power);
    multiply(base, base, base);
  }
  for (int d = 0; d < kRunPowers; ++d) {
    for (int i = 0; i < dim * dim; ++i) out[d][i] = static_cast<float>(power[i]);
    multiply(power, power, power);
  }
}

// M_m (Young–van Vliet, whose anticausal half filters the causal result): the anticausal carry,
// from a zero state, of the causal response to each unit carry over m samples of zero input.
// Deriche's anticausal half reads the input alone: M = 0.
template <template <typename> class OpsT>
void correction_matrix(const typename OpsT<double>::Coeffs& k, int m, float* out_m) {
  using Ops = OpsT<double>;
  constexpr int D = Ops::kCarry;
  for (int j = 0; j < D * D; ++j) out_m[j] = 0.0f;
  if (Ops::kAnticausalReadsInput) return;
  const double zero[kMaxCarry] = {};
  std::vector<double> y(static_cast<size_t>(m));
  for (int j = 0; j < D; ++j) {
    double unit[kMaxCarry] = {};
    unit[j] = 1.0;
    typename Ops::State st = Ops::causal_entry(k, unit, 0.0);
    for (int i = 0; i < m; ++i) y[i] = Ops::causal_step(k, 0.0, st);
    st = Ops::anticausal_entry(k, zero, 0.0, 0.0);
    for (int i = m - 1; i >= 0; --i) Ops::anticausal_step(k, y[i], st);
    double out[kMaxCarry];
    Ops::pack(st, out);
    for (int r = 0; r < D; ++r) out_m[r * D + j] = static_cast<float>(out[r]);
  }
}

struct PassPlan {
  bool identity = true;
  int segments = 1;
  int segment = 0;
  int warmup = 0;
  int block_threads = kThreads;  // one-way, two-way and k-way launches
  int block_lines = 0;           // bp_fused_kernel: whole lines per block (0: the multi-launch kernels)
  int warm_block_lines = 0;      // warm_both_kernel: whole lines per block (0: two launches)
  bool exact_two_way = false;    // two_way_exact_kernel
  bool mid_margins = false;      // one_way_kernel, two_way_exact_kernel: mid with margins (mid_plane)
  int scan_threads = kThreads;   // bp_scan_kernel: a thread per line
  bool chained = false;          // launches overlap the previous kernel's tail (launch_chained)
};

// Threads per block for the one-way / warmed-up kernels: these have a thread per (line,
// segment), few at SD with one or two segments, each a long chain of dependent steps. Smaller
// blocks put them on more SMs (an SD one-way pass is 2,304 threads: 18 blocks of 128).
int block_threads_for(long items, int sm_count) {
  for (int threads : {kThreads, kThreads / 2})
    if ((items + threads - 1) / threads >= 2L * sm_count) return threads;
  return kWarp;
}

// Whole lines per block for warm_both_kernel, or 0 where a line's segments (times `group`, the
// lines that share a block) take more than a block's kThreads threads. Columns: a power of two
// up to a warp, so that a warp reads a row of neighbouring samples; rows: as many as the
// one-way blocks' thread count holds.
int warm_block_lines(int segments, int lines, int group, int sm_count) {
  const int row_threads = segments * group;
  if (row_threads > kThreads) return 0;
  if (group == 1) {
    int n = std::min(kWarp, kThreads / segments);
    while (n & (n - 1)) n &= n - 1;
    return n;
  }
  const int threads = block_threads_for(static_cast<long>(lines) * segments, sm_count);
  return std::max(1, threads / row_threads) * group;
}

// Whole lines per block for bp_fused_kernel, or 0 where a line's segments do not fit in a
// block. `group`: lines that must share a block (a row's channels; 1 for columns). As many lines
// as about kFusedTargetThreads threads hold (columns: a power of two up to 32, so that a
// block's rows of samples are aligned), fewer while that leaves under two blocks per SM.
int fused_block_lines(int segments, int lines, int group, int sm_count) {
  const int row_threads = segments * group;
  if (row_threads > kFusedMaxThreads) return 0;
  int n = std::max(1, kFusedTargetThreads / row_threads) * group;
  if (group == 1) {
    n = std::min(n, kWarp);
    while (n & (n - 1)) n &= n - 1;
  }
  while (n > group && (lines + n - 1) / n < 2L * sm_count) n = group == 1 ? n / 2 : n - group;
  return n;
}

// Two-way runs exact (two_way_exact_kernel) for Deriche. Young–van Vliet's exact two-way (its
// parallel form, for the exact start-up only: the simple one filters the causal result) costs
// about 1.1 times a warmed-up half's step (measured: see two_way_exact_kernel), so a pass of
// `length` samples runs it where the warm-up adds about as much: from warm-ups of a 25th of the
// line on (kappa 4: SD from σ 6–8, 1080p from σ 11–20; bench_recursive, two-way form table:
// crossovers near σ 10 at SD and between σ 10 and 20 at 1080p), unless forced either way.
bool exact_two_way(const RecursiveSettings& s, int warmup, int length, RecursiveBlur::TwoWayForm form) {
  if (s.filter == RecursiveFilter::Deriche) return true;
  if (s.start != StartUp::Exact || form == RecursiveBlur::TwoWayForm::Warm) return false;
  return form == RecursiveBlur::TwoWayForm::Exact || 25L * warmup >= length;
}

PassPlan plan_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group,
                   RecursiveBlur::Launches launches, RecursiveBlur::TwoWayForm form, int sm_count) {
  PassPlan p;
  if (!(sigma > 0.0)) return p;
  p.identity = false;
  if (s.split == LineSplit::BlockParallel)
    p.segments = (length + RecursiveBlur::kBlockSegment - 1) / RecursiveBlur::kBlockSegment;
  else
    p.segments = warm_split_segments(s.split, s.segments, lines, length);
  p.segment = s.split == LineSplit::BlockParallel ? RecursiveBlur::kBlockSegment
                                                  : (length + p.segments - 1) / p.segments;
  p.segments = (length + p.segment - 1) / p.segment;  // no empty segment at the end
  // two_way_exact_kernel's right half reads one sample ahead of its output, which on lines of
  // under 3 samples passes the line's end: those run whole (exact too).
  if (s.split == LineSplit::TwoWay && length < 3) p.segments = 1, p.segment = length;
  p.warmup = static_cast<int>(std::ceil(s.kappa * sigma));
  p.block_threads = block_threads_for(static_cast<long>(lines) * p.segments, sm_count);
  p.scan_threads = block_threads_for(lines, sm_count);
  // One launch where the multi-launch kernels would not fill the GPU (their launches and tails
  // then dominate; measured: bench_recursive, launches table), three otherwise.
  const bool small = static_cast<long>(lines) * p.segments <= static_cast<long>(sm_count) * kFusedMaxItemsPerSm;
  if (s.split == LineSplit::BlockParallel && p.segments > 1 &&
      (launches == RecursiveBlur::Launches::One || (launches == RecursiveBlur::Launches::Auto && small)))
    p.block_lines = fused_block_lines(p.segments, lines, group, sm_count);
  if (s.split == LineSplit::TwoWay && p.segments == 2 && exact_two_way(s, p.warmup, length, form)) {
    p.exact_two_way = p.mid_margins = true;
    return p;
  }
  p.mid_margins = p.segments == 1 || s.split == LineSplit::OneWay;  // launch_pass: one_way_kernel
  // The warmed-up halves in one launch: two-way by default (measured: bench_recursive, launches
  // table), k-way only when forced.
  const bool warm = s.split == LineSplit::TwoWay || s.split == LineSplit::KWay;
  if (warm && p.segments > 1 &&
      (launches == RecursiveBlur::Launches::One ||
       (launches == RecursiveBlur::Launches::Auto && s.split == LineSplit::TwoWay)))
    p.warm_block_lines = warm_block_lines(p.segments, lines, group, sm_count);
  return p;
}

template <template <typename> class OpsT>
PassParams<OpsT<float>> make_params(const typename OpsT<float>::Coeffs& kf,
                                    const typename OpsT<double>::Coeffs& kd, const PassPlan& plan,
                                    int length, StartUp start) {
  PassParams<OpsT<float>> p{};
  p.k = kf;
  p.start = start;
  p.segment = plan.segment;
  p.segments = plan.segments;
  p.warmup = plan.warmup;
  segment_matrix<OpsT>(kd, plan.segment, p.a_full);
  segment_matrix<OpsT>(kd, length - (plan.segments - 1) * plan.segment, p.a_last);
  correction_matrix<OpsT>(kd, plan.segment, p.m_full);
  correction_matrix<OpsT>(kd, length - (plan.segments - 1) * plan.segment, p.m_last);
  // The block-parallel scan runs over the segments but the last, 32 lanes at a time.
  p.run = std::max(1, (plan.segments - 1 + 31) / 32);
  double a_full[kMaxCarry * kMaxCarry];
  segment_matrix<OpsT>(kd, plan.segment, a_full);
  run_powers(a_full, OpsT<double>::kCarry, p.run, p.run_power);
  return p;
}

unsigned blocks_for(long items, int threads = kThreads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

// The grid of a kernel whose blocks hold whole lines (bp_fused_kernel, warm_both_kernel):
// `lines_per_block` lines of `segments` threads each, in whole warps.
struct WholeLineGrid {
  unsigned blocks;
  int threads;
};
WholeLineGrid whole_line_grid(int lines, int lines_per_block, int segments) {
  return {static_cast<unsigned>((lines + lines_per_block - 1) / lines_per_block),
          (lines_per_block * segments + kWarp - 1) / kWarp * kWarp};
}

// Young–van Vliet block-parallel in three launches per pass: the horizontal apply also leaves
// the vertical pass's carries (bp_apply_rows_tile_kernel), in `carries`.
struct ColumnCarries {
  Lines columns;
  const PassParams<YvvOps<float>>* params;
  float* carries;
};

template <class Ops, typename TIn, typename TOut>
Status launch_pass(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                   float* carries, float* right, const PassParams<Ops>& p, LineSplit split,
                   const PassPlan& plan, const ColumnCarries* fused, cudaStream_t stream) {
  const long items = static_cast<long>(l.count) * p.segments;
  const int threads = plan.block_threads;
  if (p.segments == 1 || split == LineSplit::OneWay) {
    CG_CUDA_TRY(launch_chained(plan.chained, one_way_kernel<Ops, TIn, TOut>, blocks_for(l.count, threads), threads, 0,
                               stream, l, in, mid, out, p));
  } else if (split == LineSplit::BlockParallel && plan.block_lines) {
    const size_t shared = static_cast<size_t>(plan.block_lines) * 2 * p.segments * Ops::kCarry * sizeof(float);
    // Not chained: measured slower so (SD Deriche 53.0 against 48.7 µs), its large blocks
    // waiting beside the previous kernel's tail.
    const WholeLineGrid grid = whole_line_grid(l.count, plan.block_lines, p.segments);
    CG_CUDA_TRY(launch_chained(false, bp_fused_kernel<Ops, TIn, TOut>, grid.blocks, grid.threads, shared, stream, l,
                               in, out, p, plan.block_lines));
  } else if (split == LineSplit::BlockParallel) {
    float* anticausal = carries + static_cast<size_t>(l.count) * p.segments * Ops::kCarry;
    if (!(fused && l.vertical))  // else the horizontal apply left this pass's carries
      CG_CUDA_TRY(launch_chained(plan.chained, bp_carries_kernel<Ops, TIn>, blocks_for(items), kThreads, 0, stream, l,
                                 in, carries, anticausal, p));
    CG_CUDA_TRY(launch_chained(plan.chained, bp_scan_kernel<Ops, TIn>, blocks_for(l.count, plan.scan_threads),
                               plan.scan_threads, 0, stream, l, in, carries, anticausal, p));
    // Staged rows for Young–van Vliet (measured at 1080p: 28.5 µs instead of 31.3); Deriche's
    // apply, at 113 registers, lost 3.5 µs to it.
    bool staged = false;
    if constexpr (std::is_same_v<TOut, float> && Ops::kCarry == 3) {
      staged = !l.vertical && kWarp % l.channels == 0;
      if (staged && fused) {
        const int tiles_x = (fused->columns.count + kTileSamples - 1) / kTileSamples;
        const int tiles_y = (fused->columns.length + kSegment - 1) / kSegment;
        float* column_anticausal =
            fused->carries + static_cast<size_t>(fused->columns.count) * fused->params->segments * Ops::kCarry;
        CG_CUDA_TRY(launch_chained(plan.chained, bp_apply_rows_tile_kernel<TIn>, static_cast<unsigned>(tiles_x) * tiles_y,
                                   kThreads, 0, stream, l, fused->columns, in, out, carries, anticausal, p,
                                   *fused->params, fused->carries, column_anticausal, tiles_x));
      } else if (staged)
        CG_CUDA_TRY(launch_chained(plan.chained, bp_apply_rows_kernel<Ops, TIn>, blocks_for(items), kThreads, 0, stream,
                                   l, in, out, carries, anticausal, p));
    }
    if (!staged)
      CG_CUDA_TRY(launch_chained(plan.chained, bp_apply_kernel<Ops, TIn, TOut>, blocks_for(items), kThreads, 0, stream,
                                 l, in, out, carries, anticausal, p));
  } else if (plan.warm_block_lines) {
    const WholeLineGrid grid = whole_line_grid(l.count, plan.warm_block_lines, p.segments);
    // Chained (measured, H200, Young–van Vliet two-way at σ 2, back to back: SD 52.7 -> 49.9 µs,
    // 1080p 213.3 -> 209.9).
    CG_CUDA_TRY(launch_chained(plan.chained, warm_both_kernel<Ops, TIn, TOut>, grid.blocks, grid.threads, 0, stream,
                               l, in, mid, out, right, p, plan.warm_block_lines));
  } else {
    // Chained for k-way, not for two-way (measured, Young–van Vliet: k-way 104 -> 102 µs at
    // 1080p, 30.6 -> 27.5 at SD; two-way 301 -> 311 and 91.5 -> 99.3, for a reason not found).
    const bool chained = plan.chained && split != LineSplit::TwoWay;
    CG_CUDA_TRY(launch_chained(chained, warm_causal_kernel<Ops, TIn>, blocks_for(items, threads), threads, 0, stream, l,
                               in, mid, right, p));
    CG_CUDA_TRY(launch_chained(chained, warm_anticausal_kernel<Ops, TIn, TOut>, blocks_for(items, threads), threads, 0,
                               stream, l, in, mid, out, right, p));
  }
  return Status::success();
}


// One pass's launch parameters, kept on the host: they travel as kernel arguments.
struct PassData {
  PassPlan plan;
  PassParams<YvvOps<float>> yvv;
  PassParams<DericheOps<float>> deriche;
  DericheSections<float> parallel;  // two_way_exact_kernel: Deriche, or Young–van Vliet in parallel form
};

PassData make_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group,
                   RecursiveBlur::Launches launches, RecursiveBlur::TwoWayForm form, int sm_count) {
  PassData pass{};
  pass.plan = plan_pass(s, sigma, lines, length, group, launches, form, sm_count);
  if (pass.plan.identity) return pass;
  const YvvVariant variant = s.filter == RecursiveFilter::YoungVanVliet1995 ? YvvVariant::Y1995 : YvvVariant::Y2002;
  if (pass.plan.exact_two_way) {
    pass.parallel = make_deriche_sections<float>(s.filter == RecursiveFilter::Deriche
                                                     ? deriche_section_coefficients(sigma)
                                                     : yvv_parallel_coefficients(sigma, variant));
    return pass;
  }
  if (s.filter == RecursiveFilter::Deriche) {
    const DericheSectionCoeffs c = deriche_section_coefficients(sigma);
    pass.deriche = make_params<DericheOps>(make_deriche_sections<float>(c),
                                           make_deriche_sections<double>(c), pass.plan, length, s.start);
  } else {
    const YvvSectionCoeffs c = yvv_section_coefficients(sigma, variant);
    pass.yvv = make_params<YvvOps>(make_yvv_sections<float>(c), make_yvv_sections<double>(c),
                                   pass.plan, length, s.start);
  }
  return pass;
}

template <typename TIn, typename TOut>
Status run_pass(const PassData& pass, const RecursiveSettings& s, const Lines& l,
                const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out, float* carries,
                float* right, const ColumnCarries* fused, cudaStream_t stream) {
  if (pass.plan.identity) {
    CG_CUDA_TRY(launch_chained(pass.plan.chained, copy_kernel<TIn, TOut>,
                               blocks_for(static_cast<long>(l.count) * l.length), kThreads, 0, stream, l, in, out));
    return Status::success();
  }
  if (pass.plan.exact_two_way) {
    const unsigned blocks = static_cast<unsigned>((l.count + kExactTwoWayLines - 1) / kExactTwoWayLines);
    // Young–van Vliet's parallel form has a first-order section (its real pole).
    auto kernel = s.filter == RecursiveFilter::Deriche ? two_way_exact_kernel<kTwoWayExactBatch, false, TIn, TOut>
                                                       : two_way_exact_kernel<kTwoWayExactBatch, true, TIn, TOut>;
    CG_CUDA_TRY(launch_chained(pass.plan.chained, kernel, blocks, 2 * kExactTwoWayLines, 0, stream, l, in, mid, out,
                               pass.parallel));
    return Status::success();
  }
  if (s.filter == RecursiveFilter::Deriche)
    return launch_pass(l, in, mid, out, carries, right, pass.deriche, s.split, pass.plan, nullptr, stream);
  return launch_pass(l, in, mid, out, carries, right, pass.yvv, s.split, pass.plan, fused, stream);
}

// The float plane between a pass's directions. one_way_kernel's and two_way_exact_kernel's
// has a margin of kMidMargin samples around every line (their steps before a line's edge store
// there): rows of width + 2 margins pixels, and margin rows above and below.
size_t mid_pitch(const PlaneGeometry& g, bool margins) {
  return static_cast<size_t>(g.width + (margins ? 2 * kMidMargin : 0)) * g.channels;
}
size_t mid_floats(const PlaneGeometry& g, bool margins) {
  return mid_pitch(g, margins) * (g.height + (margins ? 2 * kMidMargin : 0));
}
Plane<float> mid_plane(float* mid, const PlaneGeometry& g, bool margins) {
  const size_t pitch = mid_pitch(g, margins);
  const size_t origin = margins ? kMidMargin * pitch + static_cast<size_t>(kMidMargin) * g.channels : 0;
  return {mid + origin, pitch, 0, 0.0f};
}

template <typename T>
Status run_plane(const PassData& px, const PassData& py, const RecursiveSettings& s,
                 const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                 float* mid, float* across, float* carries, float* column_carries, float* right,
                 cudaStream_t stream) {
  const int row_samples = g.samples_per_row();
  const float max_value = static_cast<float>(g.max_value());
  Plane<T> in{const_cast<T*>(static_cast<const T*>(src)), src_pitch / sizeof(T), g.shift, max_value};
  Plane<T> out{static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift, max_value};
  const Plane<float> m = mid_plane(mid, g, false), m_margins = mid_plane(mid, g, true);
  Plane<float> a{across, static_cast<size_t>(row_samples), 0, 0.0f};
  const Lines rows{false, g.height * g.channels, g.width, g.channels};
  const Lines columns{true, row_samples, g.height, g.channels};
  // Young–van Vliet's vertical carries from the horizontal apply where both passes take three
  // launches (measured at 1080p: bench_recursive, launches table).
  auto three = [](const PassPlan& q) { return !q.identity && q.segments > 1 && q.block_lines == 0; };
  ColumnCarries column_records{columns, &py.yvv, column_carries};
  const ColumnCarries* fused = s.filter != RecursiveFilter::Deriche && s.split == LineSplit::BlockParallel &&
                                       three(px.plan) && three(py.plan) && 4 % g.channels == 0
                                   ? &column_records
                                   : nullptr;
  CG_TRY(run_pass(px, s, rows, in, px.plan.mid_margins ? m_margins : m, a, carries, right, fused, stream));
  return run_pass(py, s, columns, a, py.plan.mid_margins ? m_margins : m, out, column_carries, right, fused, stream);
}

// Floats of one pass's block-parallel records: a causal and an anticausal carry per segment.
size_t record_floats(int lines, int segments) { return static_cast<size_t>(lines) * segments * kMaxCarry * 2; }

}  // namespace

struct RecursiveBlur::Passes {
  PassData x, y;
};

RecursiveBlur::RecursiveBlur() = default;
RecursiveBlur::~RecursiveBlur() = default;

int warm_split_segments(LineSplit split, int segments, int lines, int length) {
  switch (split) {
    case LineSplit::TwoWay: return std::min(2, length);
    case LineSplit::KWay: {
      int k = segments > 0 ? segments : (kKWayTargetThreads + lines - 1) / lines;
      k = std::max(1, std::min(k, std::max(1, length / kKWayMinSegment)));
      return std::min(k, length);
    }
    default: return 1;
  }
}

Status RecursiveBlur::plan(const PlaneGeometry& g, const RecursiveSettings& requested, double sigma_x,
                           double sigma_y) {
  release();
  RecursiveSettings settings = requested;
  if (settings.split == LineSplit::Auto) settings.split = LineSplit::BlockParallel;
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  CG_TRY(validate(settings, sigma_x, sigma_y));
  const int row_samples = g.samples_per_row();
  int device = 0, sm_count = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  // A row's channels share a block in the one-launch kernels (their samples interleave).
  PassData px = make_pass(settings, sigma_x, g.height * g.channels, g.width, g.channels, launches_, two_way_form_,
                            sm_count);
  PassData py = make_pass(settings, sigma_y, row_samples, g.height, 1, launches_, two_way_form_, sm_count);
  px.plan.chained = py.plan.chained = chaining_supported();

  const size_t plane_floats = static_cast<size_t>(row_samples) * g.height;
  const size_t mid_size = mid_floats(g, px.plan.mid_margins || py.plan.mid_margins);
  // Line kernels address mid with 32-bit offsets too (line_access.cuh), margins included.
  if (mid_size >= 2147483647u) return Status::invalid("frame too large for the recursive filters");
  CG_TRY(mid_.reserve(mid_size * sizeof(float)));
  CG_TRY(across_.reserve(plane_floats * sizeof(float)));
  // Carries for every (line, segment) of each pass (the horizontal apply may write the vertical
  // pass's while it reads its own), then a right start per line.
  row_carry_floats_ = record_floats(g.height * g.channels, px.plan.segments);
  carry_floats_ = row_carry_floats_ + record_floats(row_samples, py.plan.segments);
  const size_t right_floats = std::max(static_cast<size_t>(g.height) * g.channels,
                                       static_cast<size_t>(row_samples)) * kMaxCarry;
  // bp_scan_kernel indexes the records in 32 bits.
  if (carry_floats_ + right_floats > UINT32_MAX) return Status::invalid("frame too large for the recursive filters");
  CG_TRY(carries_.reserve((carry_floats_ + right_floats) * sizeof(float)));
  passes_ = std::make_unique<Passes>(Passes{px, py});
  // NaN everywhere: a read of a value no kernel wrote shows up in every test instead of hiding
  // behind whatever the allocation held before. Once per plan, not per frame.
  CG_CUDA_TRY(cudaMemset(mid_.get(), 0xff, mid_size * sizeof(float)));
  CG_CUDA_TRY(cudaMemset(across_.get(), 0xff, plane_floats * sizeof(float)));
  CG_CUDA_TRY(cudaMemset(carries_.get(), 0xff, (carry_floats_ + right_floats) * sizeof(float)));
  // cudaMemset runs on the legacy stream, which non-blocking streams do not wait for.
  CG_CUDA_TRY(cudaStreamSynchronize(nullptr));

  geometry_ = g;
  settings_ = settings;
  planned_ = true;
  return Status::success();
}

Status RecursiveBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                          cudaStream_t stream) const {
  if (!planned_) return Status::invalid("RecursiveBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  auto* carries = static_cast<float*>(carries_.get());
  float* column_carries = carries + row_carry_floats_;
  float* right = carries + carry_floats_;
  auto* mid = static_cast<float*>(mid_.get());
  auto* across = static_cast<float*>(across_.get());
  if (g.bytes_per_sample == 1)
    return run_plane<uint8_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                              across, carries, column_carries, right, stream);
  return run_plane<uint16_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                             across, carries, column_carries, right, stream);
}

void RecursiveBlur::release() {
  mid_.release();
  across_.release();
  carries_.release();
  passes_.reset();
  planned_ = false;
}

}  // namespace cudagaussian
