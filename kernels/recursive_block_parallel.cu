// SPDX-License-Identifier: LGPL-2.1-or-later
// Recursive Gaussian, exact block-parallel (Nehab, Maximo, Lima, Hoppe 2011, in 1D): a section
// recursion is linear in its state, so over a segment of m samples
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
// segments to fill the GPU, the three steps run as one launch instead (bp_fused_kernel): a block
// holds whole lines, the records stay in shared memory and a warp scans each line there. The
// carry matrices A, M and the scan's powers of A come from the host (recursive_plan.h). The
// result equals the one-way recursion up to float rounding.

#include <cstdint>
#include <type_traits>

#include "async_copy.cuh"
#include "chained_launch.cuh"
#include "recursive_launch.cuh"

namespace cudagaussian {
namespace recursive {
namespace {


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
// for Young–van Vliet (faster than 8), of 8 for Deriche, whose four carries would take too many
// registers at 16.
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

// The stored sample of a finished line: its input where its channel is kept, else the blur,
// sharpened where asked. Selects, not branches: the warp's lanes take one path.
template <typename TOut>
__device__ __forceinline__ TOut finished_sample(const Plane<TOut>& out, const SampleFinish& f, bool keep, float blurred,
                                                TOut x) {
  const float value = f.amount != 0.0f ? sharpened_sample(f, blurred, out.from_sample(x)) : blurred;
  return keep ? x : out.to_sample(value);
}

// The stores of a fused kernel's segment where they finish their samples (OutputFinish): the
// segment's input samples are loaded all at once after the outputs are known. Loaded one by one
// between the stores, each would wait for memory (the compiler cannot move a load above a store
// to another plane); loaded into registers before the recursion, or eight at a time, they were
// slower (docs/bench/kernel_choices.md, "Sharpen: where the recursive apply loads its input").
template <typename TOut>
struct FinishingSegmentStore {
  using TakesWholeSegments = void;  // StoresWholeSegments
  Plane<TOut> out;
  TOut* line;
  const TOut* source;
  int step, source_step;
  bool keep;  // this line's channel is kept
  SampleFinish finish;
  __device__ FinishingSegmentStore(const Plane<TOut>& o, const Lines& l, const SegmentItem& it, const OutputFinish& f)
      : out(o), line(o.data + l.index(it.line, it.s0, o.pitch)),
        source(static_cast<const TOut*>(f.source) + l.index(it.line, it.s0, f.source_pitch)),
        step(static_cast<int>(l.step(o.pitch))), source_step(static_cast<int>(l.step(f.source_pitch))),
        keep((f.finish.keep >> (it.line % l.channels)) & 1u), finish(f.finish) {}
  template <bool kFull>
  __device__ void segment(const float (&v)[kSegment], int count) const {
    TOut x[kSegment];
#pragma unroll
    for (int i = 0; i < kSegment; ++i) x[i] = source[(kFull ? i : min(i, count - 1)) * source_step];
#pragma unroll
    for (int i = 0; i < kSegment; ++i)
      if (kFull || i < count) line[i * step] = finished_sample(out, finish, keep, v[i], x[i]);
  }
};

// The input samples a segment's finish reads, into `staged` (kSegment rows of kWarp samples,
// the lane's column): where the warp's 32 lanes hold one segment of 32 consecutive vertical
// lines, copied by the whole warp in the background (cp.async; 32 consecutive samples of each
// of the segment's rows); else each lane loads its own. Called by every thread of the warp,
// `active` or not; wait_async_copies() and a __syncwarp() make them visible.
template <typename TOut>
__device__ void stage_finish_inputs(const Lines& l, const SegmentItem& it, bool active, const OutputFinish& f,
                                    TOut (*staged)[kWarp]) {
  constexpr unsigned kAll = 0xffffffffu;
  const int lane = threadIdx.x % kWarp;
  const int line0 = __shfl_sync(kAll, it.line, 0), seg0 = __shfl_sync(kAll, it.seg, 0);
  const bool in_order = active && l.vertical && it.seg == seg0 && it.line == line0 + lane;
  const TOut* first = static_cast<const TOut*>(f.source) + line0;  // row 0 of the warp's lines
  const size_t pitch_bytes = f.source_pitch * sizeof(TOut);
  const uintptr_t address = reinterpret_cast<uintptr_t>(first);
  if (!__all_sync(kAll, in_order) || address % 4 != 0 || pitch_bytes % 4 != 0) {
    if (!active) return;
    const TOut* source = static_cast<const TOut*>(f.source) + l.index(it.line, it.s0, f.source_pitch);
    const int step = static_cast<int>(l.step(f.source_pitch));
#pragma unroll
    for (int i = 0; i < kSegment; ++i)
      if (i < it.s1 - it.s0) staged[i][lane] = source[i * step];
    return;
  }
  const int count = it.s1 - it.s0;
  const char* rows = reinterpret_cast<const char*>(first) + static_cast<size_t>(it.s0) * pitch_bytes;
  // Each row's kWarp samples in pieces of kBytes, the warp's lanes taking consecutive pieces.
  auto copy_rows = [&](auto piece_bytes) {
    constexpr int kBytes = decltype(piece_bytes)::value;
    constexpr int kPieces = kWarp * static_cast<int>(sizeof(TOut)) / kBytes;
    for (int k = lane; k < count * kPieces; k += kWarp) {
      const int row = k / kPieces, piece = k - row * kPieces;
      copy_async<kBytes>(reinterpret_cast<char*>(staged[row]) + piece * kBytes, rows + row * pitch_bytes + piece * kBytes);
    }
  };
  if (address % 16 == 0 && pitch_bytes % 16 == 0)
    copy_rows(std::integral_constant<int, 16>());
  else
    copy_rows(std::integral_constant<int, 4>());
}

template <class Store, class = void>
struct StoresWholeSegments : std::false_type {};
template <class Store>
struct StoresWholeSegments<Store, std::void_t<typename Store::TakesWholeSegments>> : std::true_type {};

// Apply: each segment from its entry states, the results passed to store(i, value), or to
// store.segment() where the store takes whole segments.
template <bool kFull, class Ops, typename TIn, class Store>
__device__ inline void segment_apply(const PassParams<Ops>& p, const SegmentSamples<TIn>& g, const float* entry,
                                     const float* anticausal_entry, Store&& store) {
  constexpr bool kWhole = StoresWholeSegments<std::decay_t<Store>>::value;
  float y[kSegment];
  typename Ops::State st = Ops::causal_entry(p.k, entry, g.x_prev);
#pragma unroll
  for (int i = 0; i < kSegment; ++i)
    if (kFull || i < g.count) y[i] = Ops::causal_step(p.k, g.x[i], st);
  st = Ops::anticausal_entry(p.k, anticausal_entry, g.x_next1, g.x_next2);
  if constexpr (kWhole) {
#pragma unroll
    for (int i = kSegment - 1; i >= 0; --i)
      if (kFull || i < g.count)
        y[i] = Ops::combine(y[i], Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st));
    store.template segment<kFull>(y, g.count);
  } else {
#pragma unroll
    for (int i = kSegment - 1; i >= 0; --i)
      if (kFull || i < g.count)
        store(i, Ops::combine(y[i], Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st)));
  }
}

// A segment's samples and its entry states from the global records (load_segment_entry), then
// the segment applied (apply_entry); apply_from_records does both.
template <class Ops, typename TIn>
struct SegmentEntry {
  SegmentSamples<TIn> g;
  float causal[kMaxCarry], anticausal[kMaxCarry];
};
template <class Ops, typename TIn>
__device__ inline void load_segment_entry(const Lines& l, const Plane<TIn>& in, const float* causal,
                                          const float* anticausal, const SegmentItem& it, SegmentEntry<Ops, TIn>& e) {
  load_segment(l, in, it.line, it.s0, it.s1, e.g);
  const size_t at = record_index(it.line, it.seg, l.count, Ops::kCarry);
  for (int k = 0; k < Ops::kCarry; ++k) e.causal[k] = causal[at + k * l.count], e.anticausal[k] = anticausal[at + k * l.count];
}
template <class Ops, typename TIn, class Store>
__device__ inline void apply_entry(const PassParams<Ops>& p, const SegmentEntry<Ops, TIn>& e, Store&& store) {
  if (e.g.count == kSegment) segment_apply<true>(p, e.g, e.causal, e.anticausal, store);
  else segment_apply<false>(p, e.g, e.causal, e.anticausal, store);
}
template <class Ops, typename TIn, class Store>
__device__ inline void apply_from_records(const Lines& l, const Plane<TIn>& in, const float* causal,
                                          const float* anticausal, const PassParams<Ops>& p, const SegmentItem& it,
                                          Store&& store) {
  SegmentEntry<Ops, TIn> e;
  load_segment_entry(l, in, causal, anticausal, it, e);
  apply_entry(p, e, store);
}

// kFinish: the last pass, finishing its samples (a kernel of its own, so that the finishing
// path's registers do not weigh on the plain one). Its input samples are staged in shared
// memory while the segment loads; the recursion stores its blurred samples in shared memory
// too, and one short loop finishes and stores them: finished inside the unrolled recursion, the
// code outgrew the instruction cache. The finishing instance is asked for four blocks per SM
// (at most 128 registers), the plain one for none (0), as measured.
template <class Ops, typename TIn, typename TOut, bool kFinish>
__global__ void __launch_bounds__(kThreads, kFinish ? 4 : 0)
bp_apply_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, const float* causal, const float* anticausal,
                PassParams<Ops> p, OutputFinish finish) {
  begin_chained_kernel();
  SegmentItem it{0, 0, 0, 0};
  const bool active = segment_item(l, kSegment, p.segments, it);
  if constexpr (kFinish) {
    __shared__ alignas(16) TOut staged[kThreads / kWarp][kSegment][kWarp];  // cp.async: 16-byte aligned
    const int warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
    stage_finish_inputs(l, it, active, finish, staged[warp]);
    SegmentEntry<Ops, TIn> e;
    if (active) load_segment_entry(l, in, causal, anticausal, it, e);
    wait_async_copies();
    __syncwarp();
    if (!active) return;
    TOut* first = out.data + l.index(it.line, it.s0, out.pitch);
    const int step = static_cast<int>(l.step(out.pitch));
    const bool keep = (finish.finish.keep >> (it.line % l.channels)) & 1u;
    const SampleFinish f = finish.finish;
    __shared__ float blurred[kThreads / kWarp][kSegment][kWarp];
    apply_entry(p, e, [&](int i, float v) { blurred[warp][i][lane] = v; });
    const int count = e.g.count;
#pragma unroll 4
    for (int i = 0; i < count; ++i)
      first[i * step] = finished_sample(out, f, keep, blurred[warp][i][lane], staged[warp][i][lane]);
  } else {
    if (!active) return;
    TOut* first = out.data + l.index(it.line, it.s0, out.pitch);
    const int step = static_cast<int>(l.step(out.pitch));
    apply_from_records(l, in, causal, anticausal, p, it, [&](int i, float v) { first[i * step] = out.to_sample(v); });
  }
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
// two below, outside the tile; a tile with those rows, filtered again by each block, is slower.)
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
template <class Ops, typename TIn, typename TOut, bool kFinish>
__global__ void __launch_bounds__(kFusedMaxThreads)
bp_fused_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, PassParams<Ops> p, int block_lines, OutputFinish finish) {
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
  if constexpr (kFinish) {
    const FinishingSegmentStore<TOut> store(out, l, it, finish);
    if (x.count == kSegment) segment_apply<true>(p, x, f, g, store);
    else segment_apply<false>(p, x, f, g, store);
  } else {
    TOut* first = out.data + l.index(it.line, it.s0, out.pitch);
    const int step = static_cast<int>(l.step(out.pitch));
    auto store = [&](int i, float v) { first[i * step] = out.to_sample(v); };
    if (x.count == kSegment) segment_apply<true>(p, x, f, g, store);
    else segment_apply<false>(p, x, f, g, store);
  }
}

}  // namespace

template <class Ops, typename TIn, typename TOut>
Status launch_block_parallel(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, float* carries,
                             const PassParams<Ops>& p, const PassPlan& plan, const ColumnCarries* fused,
                             const OutputFinish* finish, cudaStream_t stream) {
  const long items = static_cast<long>(l.count) * p.segments;
  const bool finishing = finish && finish->finish.active();
  const OutputFinish f = finishing ? *finish : OutputFinish();
  if (plan.block_lines) {
    const size_t shared = static_cast<size_t>(plan.block_lines) * 2 * p.segments * Ops::kCarry * sizeof(float);
    // Not chained: its large blocks wait beside the previous kernel's tail (measured slower:
    // docs/bench/kernel_choices.md, "Recursive Gaussians: chained launches").
    const WholeLineGrid grid = whole_line_grid(l.count, plan.block_lines, p.segments);
    CG_CUDA_TRY(launch_chained(false,
                               finishing ? bp_fused_kernel<Ops, TIn, TOut, true> : bp_fused_kernel<Ops, TIn, TOut, false>,
                               grid.blocks, grid.threads, shared, stream, l,
                               in, out, p, plan.block_lines, f));
    return Status::success();
  }
  float* anticausal = carries + static_cast<size_t>(l.count) * p.segments * Ops::kCarry;
  if (!(fused && l.vertical))  // else the horizontal apply left this pass's carries
    CG_CUDA_TRY(launch_chained(plan.chained, bp_carries_kernel<Ops, TIn>, blocks_for(items), kThreads, 0, stream, l,
                               in, carries, anticausal, p));
  CG_CUDA_TRY(launch_chained(plan.chained, bp_scan_kernel<Ops, TIn>, blocks_for(l.count, plan.scan_threads),
                             plan.scan_threads, 0, stream, l, in, carries, anticausal, p));
  // Staged rows for Young–van Vliet; Deriche's apply, at more registers, is slower staged
  // (docs/bench/kernel_choices.md, "Recursive Gaussians: block-parallel details").
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
    CG_CUDA_TRY(launch_chained(plan.chained,
                               finishing ? bp_apply_kernel<Ops, TIn, TOut, true> : bp_apply_kernel<Ops, TIn, TOut, false>,
                               blocks_for(items), kThreads, 0, stream,
                               l, in, out, carries, anticausal, p, f));
  return Status::success();
}

// The passes RecursiveBlur runs: samples to float rows, float rows to samples.
template Status launch_block_parallel<YvvOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&,
    const Plane<float>&, float*, const PassParams<YvvOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<YvvOps<float>, float, uint8_t>(const Lines&, const Plane<float>&,
    const Plane<uint8_t>&, float*, const PassParams<YvvOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<YvvOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&,
    const Plane<float>&, float*, const PassParams<YvvOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<YvvOps<float>, float, uint16_t>(const Lines&, const Plane<float>&,
    const Plane<uint16_t>&, float*, const PassParams<YvvOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<DericheOps<float>, uint8_t, float>(const Lines&, const Plane<uint8_t>&,
    const Plane<float>&, float*, const PassParams<DericheOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<DericheOps<float>, float, uint8_t>(const Lines&, const Plane<float>&,
    const Plane<uint8_t>&, float*, const PassParams<DericheOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<DericheOps<float>, uint16_t, float>(const Lines&, const Plane<uint16_t>&,
    const Plane<float>&, float*, const PassParams<DericheOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);
template Status launch_block_parallel<DericheOps<float>, float, uint16_t>(const Lines&, const Plane<float>&,
    const Plane<uint16_t>&, float*, const PassParams<DericheOps<float>>&, const PassPlan&, const ColumnCarries*, const OutputFinish*, cudaStream_t);

}  // namespace recursive
}  // namespace cudagaussian
