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
//   scan     one warp per line: the causal entry state of every segment by an affine scan (from
//            the exact left start), the exact right start (Triggs–Sdika) from the line's end
//            state, each G corrected for its segment's true causal entry (G = G~ + M s, M from
//            the host: Young–van Vliet's anticausal half filters the causal result), and the
//            anticausal entry states by a second scan, right to left;
//   apply    each segment from its two entry states: causal into registers, anticausal back
//            over them, the result written once.
// The result equals the one-way recursion up to float rounding.

#include "recursive_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "line_access.cuh"
#include "recursive_sections.h"

namespace cudagaussian {
namespace {

constexpr int kThreads = 128;
// KWay with segments = 0 aims at this many threads per pass (a few per SM slot of a large GPU).
constexpr int kKWayTargetThreads = 65536;
constexpr int kKWayMinSegment = 16;

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

template <class Ops>
struct PassParams {
  typename Ops::Coeffs k;
  float a_full[kMaxCarry * kMaxCarry];  // A for a whole segment, row-major
  float a_last[kMaxCarry * kMaxCarry];  // A for the last, possibly shorter, segment
  // Young–van Vliet block-parallel: the anticausal carry (from a zero state) of the causal
  // response to a unit entry state and zero input, row-major; zero for Deriche.
  float m_full[kMaxCarry * kMaxCarry];
  float m_last[kMaxCarry * kMaxCarry];
  StartUp start;
  int segment;   // samples per segment (the last may be shorter)
  int segments;  // per line
  int warmup;    // TwoWay / KWay: samples run before a segment to forget the unknown start
};


// OneWay: the whole line in one thread.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
one_way_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, PassParams<Ops> p) {
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= l.count) return;
  int line, seg;
  l.item(t, 1, line, seg);
  const int n = l.length;
  typename Ops::State st = Ops::left_start(p.k, in.load(l, line, 0));
  for (int i = 0; i < n; ++i) mid.store(l, line, i, Ops::causal_step(p.k, in.load(l, line, i), st));
  st = Ops::right_start(p.k, st, in.load(l, line, n - 1), p.start);
  for (int i = n - 1; i >= 0; --i) {
    const float c = mid.load(l, line, i);
    const float a_in = Ops::kAnticausalReadsInput ? in.load(l, line, i) : c;
    out.store(l, line, i, Ops::combine(c, Ops::anticausal_step(p.k, a_in, st)));
  }
}

// TwoWay / KWay, causal half: each segment warms up over `warmup` samples before it. The last
// segment also leaves the exact right start of its line in `right`.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
warm_causal_kernel(Lines l, Plane<TIn> in, Plane<float> mid, float* right, PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, p.segment, p.segments, it)) return;
  const int line = it.line, seg = it.seg, s0 = it.s0, s1 = it.s1;
  const int w = max(0, s0 - p.warmup);  // from 0 the start is exact
  typename Ops::State st = Ops::left_start(p.k, in.load(l, line, w));
  for (int i = w; i < s0; ++i) Ops::causal_step(p.k, in.load(l, line, i), st);
  for (int i = s0; i < s1; ++i) mid.store(l, line, i, Ops::causal_step(p.k, in.load(l, line, i), st));
  if (seg == p.segments - 1) {
    const typename Ops::State r = Ops::right_start(p.k, st, in.load(l, line, l.length - 1), p.start);
    Ops::pack(r, right + static_cast<size_t>(line) * Ops::kCarry);
  }
}

// TwoWay / KWay, anticausal half: each segment but the last warms up over the samples after it.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
warm_anticausal_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out, const float* right,
                       PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, p.segment, p.segments, it)) return;
  const int line = it.line, s0 = it.s0, s1 = it.s1;
  const int n = l.length;
  auto a_input = [&](int i) { return Ops::kAnticausalReadsInput ? in.load(l, line, i) : mid.load(l, line, i); };
  typename Ops::State st;
  const int e = min(n, s1 + p.warmup);
  if (e == n) {
    // The warm-up reaches the line's end: start there exactly, as the last segment does.
    const float x_edge = in.load(l, line, n - 1);
    st = Ops::anticausal_entry(p.k, right + static_cast<size_t>(line) * Ops::kCarry, x_edge, x_edge);
  } else {
    st = Ops::anticausal_warm_start(p.k, mid.load(l, line, e - 1), in.load(l, line, e - 1));
  }
  for (int i = e - 1; i >= s1; --i) Ops::anticausal_step(p.k, a_input(i), st);
  for (int i = s1 - 1; i >= s0; --i)
    out.store(l, line, i, Ops::combine(mid.load(l, line, i), Ops::anticausal_step(p.k, a_input(i), st)));
}

// ---- block-parallel ---------------------------------------------------------------------------

constexpr int kSegment = RecursiveBlur::kBlockSegment;
constexpr int kWarp = 32;

// A_m or M of segment `seg`, element i (a compile-time index after unrolling: no dynamic
// indexing of the kernel parameters).
template <class Ops>
__device__ inline float segment_a(const PassParams<Ops>& p, bool last, int i) {
  return last ? p.a_last[i] : p.a_full[i];
}
template <class Ops>
__device__ inline float segment_m(const PassParams<Ops>& p, bool last, int i) {
  return last ? p.m_last[i] : p.m_full[i];
}

// Where a line's segment records live: line-major, so that a warp scanning one line reads
// neighbouring records.
__device__ inline size_t record_index(int line, int seg, int segments, int d) {
  return (static_cast<size_t>(line) * segments + seg) * d;
}

// The segment's samples, all loads issued before any is used; x_prev = x[s0 - 1] (x[0] for the
// first segment), x_next1/2 = x[s1], x[s1 + 1] (clamped to the last sample).
template <typename TIn>
struct SegmentSamples {
  float x[kSegment];
  float x_prev, x_next1, x_next2;
  int count;
};
template <typename TIn>
__device__ inline void load_segment(const Lines& l, const Plane<TIn>& in, int line, int s0, int s1,
                                    SegmentSamples<TIn>& g) {
  const int n = l.length;
  g.count = s1 - s0;
#pragma unroll
  for (int i = 0; i < kSegment; ++i) g.x[i] = i < g.count ? in.load(l, line, s0 + i) : 0.0f;
  g.x_prev = in.load(l, line, max(s0 - 1, 0));
  g.x_next1 = in.load(l, line, min(s1, n - 1));
  g.x_next2 = in.load(l, line, min(s1 + 1, n - 1));
}

// Carries: F (causal, zero entry) into `causal`, G~ into `anticausal`.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_carries_kernel(Lines l, Plane<TIn> in, float* causal, float* anticausal, PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, kSegment, p.segments, it)) return;
  SegmentSamples<TIn> g;
  load_segment(l, in, it.line, it.s0, it.s1, g);
  const float zero[kMaxCarry] = {};
  float y[kSegment];
  typename Ops::State st = Ops::causal_entry(p.k, zero, g.x_prev);
#pragma unroll
  for (int i = 0; i < kSegment; ++i)
    if (i < g.count) y[i] = Ops::causal_step(p.k, g.x[i], st);
  Ops::pack(st, causal + record_index(it.line, it.seg, p.segments, Ops::kCarry));
  st = Ops::anticausal_entry(p.k, zero, g.x_next1, g.x_next2);
#pragma unroll
  for (int i = kSegment - 1; i >= 0; --i)
    if (i < g.count) Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st);
  Ops::pack(st, anticausal + record_index(it.line, it.seg, p.segments, Ops::kCarry));
}

template <int D>
struct AffineMap {
  float m[D * D];  // row-major
  float v[D];
};

template <int D>
__device__ inline AffineMap<D> affine_identity() {
  AffineMap<D> f;
#pragma unroll
  for (int r = 0; r < D; ++r) {
#pragma unroll
    for (int c = 0; c < D; ++c) f.m[r * D + c] = r == c ? 1.0f : 0.0f;
    f.v[r] = 0.0f;
  }
  return f;
}

// after ∘ before: x -> after.m (before.m x + before.v) + after.v.
template <int D>
__device__ inline AffineMap<D> affine_compose(const AffineMap<D>& after, const AffineMap<D>& before) {
  AffineMap<D> f;
#pragma unroll
  for (int r = 0; r < D; ++r) {
#pragma unroll
    for (int c = 0; c < D; ++c) {
      float s = 0.0f;
#pragma unroll
      for (int k = 0; k < D; ++k) s = fmaf(after.m[r * D + k], before.m[k * D + c], s);
      f.m[r * D + c] = s;
    }
    float s = after.v[r];
#pragma unroll
    for (int k = 0; k < D; ++k) s = fmaf(after.m[r * D + k], before.v[k], s);
    f.v[r] = s;
  }
  return f;
}

template <int D>
__device__ inline AffineMap<D> affine_shuffle_up(const AffineMap<D>& f, int delta) {
  AffineMap<D> g;
#pragma unroll
  for (int i = 0; i < D * D; ++i) g.m[i] = __shfl_up_sync(0xffffffffu, f.m[i], delta);
#pragma unroll
  for (int i = 0; i < D; ++i) g.v[i] = __shfl_up_sync(0xffffffffu, f.v[i], delta);
  return g;
}

template <int D>
__device__ inline void affine_apply(const AffineMap<D>& f, const float* x, float* out) {
#pragma unroll
  for (int r = 0; r < D; ++r) {
    float s = f.v[r];
#pragma unroll
    for (int k = 0; k < D; ++k) s = fmaf(f.m[r * D + k], x[k], s);
    out[r] = s;
  }
}

// One direction's scan over a line's segments, by a warp: `carry(j, v)` gives the carry of the
// j-th segment in processing order, `shorter` is the processing index of the line's last
// (possibly shorter: A_last) segment, and `entry(j, state)` receives the state entering it. Each lane composes a run of consecutive
// segments, a warp-wide inclusive scan over shuffles gives every lane the map of the segments
// before its run, and the lane walks its run again. Returns the state after the whole line
// (valid in every lane).
template <class Ops, class Carry, class Entry>
__device__ inline void warp_scan_line(const PassParams<Ops>& p, int shorter, const float* start, Carry carry,
                                      Entry entry, float* end) {
  constexpr int D = Ops::kCarry;
  const int lane = threadIdx.x % kWarp;
  const int run = (p.segments + kWarp - 1) / kWarp;
  const int j0 = min(p.segments, lane * run), j1 = min(p.segments, j0 + run);
  auto step_map = [&](int j) {
    AffineMap<D> f;
    const bool last = j == shorter;
#pragma unroll
    for (int i = 0; i < D * D; ++i) f.m[i] = segment_a(p, last, i);
    carry(j, f.v);
    return f;
  };
  AffineMap<D> mine = affine_identity<D>();
  for (int j = j0; j < j1; ++j) mine = affine_compose(step_map(j), mine);
  AffineMap<D> inclusive = mine;
#pragma unroll
  for (int delta = 1; delta < kWarp; delta *= 2) {
    const AffineMap<D> earlier = affine_shuffle_up(inclusive, delta);
    if (lane >= delta) inclusive = affine_compose(inclusive, earlier);
  }
  const AffineMap<D> before = affine_shuffle_up(inclusive, 1);  // the segments before this run
  float state[D];
  affine_apply(before, start, state);
  if (lane == 0)
#pragma unroll
    for (int d = 0; d < D; ++d) state[d] = start[d];
  for (int j = j0; j < j1; ++j) {
    const AffineMap<D> f = step_map(j);
    entry(j, state);
    float next[D];
    affine_apply(f, state, next);
#pragma unroll
    for (int d = 0; d < D; ++d) state[d] = next[d];
  }
  // The whole line's map is the last lane's inclusive one.
  AffineMap<D> total;
#pragma unroll
  for (int i = 0; i < D * D; ++i) total.m[i] = __shfl_sync(0xffffffffu, inclusive.m[i], kWarp - 1);
#pragma unroll
  for (int i = 0; i < D; ++i) total.v[i] = __shfl_sync(0xffffffffu, inclusive.v[i], kWarp - 1);
  affine_apply(total, start, end);
}

// Scan: replaces each F by the segment's causal entry state and each G~ by its anticausal entry
// state.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_scan_kernel(Lines l, Plane<TIn> in, float* causal, float* anticausal, PassParams<Ops> p) {
  constexpr int D = Ops::kCarry;
  const long warp = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  if (warp >= l.count) return;  // whole warps: the shuffles see all 32 lanes
  const int line = static_cast<int>(warp), S = p.segments;
  auto at = [&](float* base, int seg) { return base + record_index(line, seg, S, D); };

  // Causal, left to right from the exact left start.
  float start[D], end[D];
  Ops::pack(Ops::left_start(p.k, in.load(l, line, 0)), start);
  warp_scan_line(
      p, S - 1, start, [&](int j, float* v) { for (int d = 0; d < D; ++d) v[d] = at(causal, j)[d]; },
      [&](int j, const float* s) {
        // G~ -> G: the anticausal carry of this segment's causal response to its entry state.
        float* g = at(anticausal, j);
        const bool last = j == S - 1;
        float corrected[D];
        for (int r = 0; r < D; ++r) {
          float sum = g[r];
          for (int k = 0; k < D; ++k) sum = fmaf(segment_m(p, last, r * D + k), s[k], sum);
          corrected[r] = sum;
        }
        for (int d = 0; d < D; ++d) at(causal, j)[d] = s[d], g[d] = corrected[d];
      },
      end);
  __syncwarp();  // the corrected G of every lane's run, before other lanes read them

  // Anticausal, right to left from the exact right start.
  const float x_edge = in.load(l, line, l.length - 1);
  const typename Ops::State causal_end = Ops::causal_entry(p.k, end, x_edge);
  Ops::pack(Ops::right_start(p.k, causal_end, x_edge, p.start), start);
  warp_scan_line(
      p, 0, start, [&](int j, float* v) { for (int d = 0; d < D; ++d) v[d] = at(anticausal, S - 1 - j)[d]; },
      [&](int j, const float* s) { for (int d = 0; d < D; ++d) at(anticausal, S - 1 - j)[d] = s[d]; }, end);
}

// Apply: each segment from its entry states, the result written once.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
bp_apply_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, const float* causal, const float* anticausal,
                PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, kSegment, p.segments, it)) return;
  SegmentSamples<TIn> g;
  load_segment(l, in, it.line, it.s0, it.s1, g);
  float y[kSegment];
  typename Ops::State st =
      Ops::causal_entry(p.k, causal + record_index(it.line, it.seg, p.segments, Ops::kCarry), g.x_prev);
#pragma unroll
  for (int i = 0; i < kSegment; ++i)
    if (i < g.count) y[i] = Ops::causal_step(p.k, g.x[i], st);
  st = Ops::anticausal_entry(p.k, anticausal + record_index(it.line, it.seg, p.segments, Ops::kCarry),
                             g.x_next1, g.x_next2);
#pragma unroll
  for (int i = kSegment - 1; i >= 0; --i)
    if (i < g.count)
      out.store(l, it.line, it.s0 + i,
                Ops::combine(y[i], Ops::anticausal_step(p.k, Ops::kAnticausalReadsInput ? g.x[i] : y[i], st)));
}

// sigma 0 in a direction: that pass only converts.
template <typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
copy_kernel(Lines l, Plane<TIn> in, Plane<TOut> out) {
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long>(l.count) * l.length) return;
  const int line = static_cast<int>(t % l.count), i = static_cast<int>(t / l.count);
  out.store(l, line, i, in.load(l, line, i));
}

// ---- host side ---------------------------------------------------------------------------------

// A_m: the carry after m zero-input steps from each unit carry, in double, rounded to float.
template <template <typename> class OpsT>
void segment_matrix(const typename OpsT<double>::Coeffs& k, int m, float* a) {
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
    for (int r = 0; r < D; ++r) a[r * D + j] = static_cast<float>(out[r]);
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
};

PassPlan plan_pass(const RecursiveSettings& s, double sigma, int lines, int length) {
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
  p.warmup = static_cast<int>(std::ceil(s.kappa * sigma));
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
  return p;
}

unsigned blocks_for(long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

template <class Ops, typename TIn, typename TOut>
Status launch_pass(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                   float* carries, float* right, const PassParams<Ops>& p, LineSplit split,
                   cudaStream_t stream) {
  const long items = static_cast<long>(l.count) * p.segments;
  if (p.segments == 1 || split == LineSplit::OneWay) {
    one_way_kernel<Ops, TIn, TOut><<<blocks_for(l.count), kThreads, 0, stream>>>(l, in, mid, out, p);
  } else if (split == LineSplit::BlockParallel) {
    float* anticausal = carries + static_cast<size_t>(l.count) * p.segments * Ops::kCarry;
    bp_carries_kernel<Ops, TIn><<<blocks_for(items), kThreads, 0, stream>>>(l, in, carries, anticausal, p);
    bp_scan_kernel<Ops, TIn><<<blocks_for(static_cast<long>(l.count) * kWarp), kThreads, 0, stream>>>(
        l, in, carries, anticausal, p);
    bp_apply_kernel<Ops, TIn, TOut><<<blocks_for(items), kThreads, 0, stream>>>(l, in, out, carries, anticausal, p);
  } else {
    warm_causal_kernel<Ops, TIn><<<blocks_for(items), kThreads, 0, stream>>>(l, in, mid, right, p);
    warm_anticausal_kernel<Ops, TIn, TOut><<<blocks_for(items), kThreads, 0, stream>>>(
        l, in, mid, out, right, p);
  }
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}


// One pass's launch parameters, kept on the host: they travel as kernel arguments.
struct PassData {
  PassPlan plan;
  PassParams<YvvOps<float>> yvv;
  PassParams<DericheOps<float>> deriche;
};

PassData make_pass(const RecursiveSettings& s, double sigma, int lines, int length) {
  PassData pass{};
  pass.plan = plan_pass(s, sigma, lines, length);
  if (pass.plan.identity) return pass;
  if (s.filter == RecursiveFilter::Deriche) {
    const DericheSectionCoeffs c = deriche_section_coefficients(sigma);
    pass.deriche = make_params<DericheOps>(make_deriche_sections<float>(c),
                                           make_deriche_sections<double>(c), pass.plan, length, s.start);
  } else {
    const YvvVariant v = s.filter == RecursiveFilter::YoungVanVliet1995 ? YvvVariant::Y1995 : YvvVariant::Y2002;
    const YvvSectionCoeffs c = yvv_section_coefficients(sigma, v);
    pass.yvv = make_params<YvvOps>(make_yvv_sections<float>(c), make_yvv_sections<double>(c),
                                   pass.plan, length, s.start);
  }
  return pass;
}

template <typename TIn, typename TOut>
Status run_pass(const PassData& pass, const RecursiveSettings& s, const Lines& l,
                const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out, float* carries,
                float* right, cudaStream_t stream) {
  if (pass.plan.identity) {
    copy_kernel<TIn, TOut><<<blocks_for(static_cast<long>(l.count) * l.length), kThreads, 0, stream>>>(l, in, out);
    CG_CUDA_TRY(cudaGetLastError());
    return Status::success();
  }
  if (s.filter == RecursiveFilter::Deriche)
    return launch_pass(l, in, mid, out, carries, right, pass.deriche, s.split, stream);
  return launch_pass(l, in, mid, out, carries, right, pass.yvv, s.split, stream);
}

template <typename T>
Status run_plane(const PassData& px, const PassData& py, const RecursiveSettings& s,
                 const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                 float* mid, float* across, float* carries, float* right, cudaStream_t stream) {
  const int row_samples = g.samples_per_row();
  const float max_value = static_cast<float>(g.max_value());
  Plane<T> in{const_cast<T*>(static_cast<const T*>(src)), src_pitch / sizeof(T), g.shift, max_value};
  Plane<T> out{static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift, max_value};
  Plane<float> m{mid, static_cast<size_t>(row_samples), 0, 0.0f};
  Plane<float> a{across, static_cast<size_t>(row_samples), 0, 0.0f};
  const Lines rows{false, g.height * g.channels, g.width, g.channels};
  const Lines columns{true, row_samples, g.height, g.channels};
  CG_TRY(run_pass(px, s, rows, in, m, a, carries, right, stream));
  return run_pass(py, s, columns, a, m, out, carries, right, stream);
}

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

const char* line_split_name(LineSplit split) {
  switch (split) {
    case LineSplit::OneWay: return "one-way";
    case LineSplit::TwoWay: return "two-way";
    case LineSplit::KWay: return "k-way";
    case LineSplit::BlockParallel: return "block-parallel";
    case LineSplit::Auto: return "auto";
  }
  return "unknown";
}

Status RecursiveBlur::validate(const RecursiveSettings& settings, double sigma_x, double sigma_y) {
  for (double sigma : {sigma_x, sigma_y}) {
    if (sigma == 0.0) continue;
    if (const char* why = recursive_sigma_error(settings.filter, sigma)) return Status::invalid(why);
  }
  if (!(settings.kappa >= 0.0 && settings.kappa <= 100.0))
    return Status::invalid("kappa must be between 0 and 100 sigmas");
  if (settings.segments < 0) return Status::invalid("segments must be >= 0");
  return Status::success();
}

Status RecursiveBlur::plan(const PlaneGeometry& g, const RecursiveSettings& requested, double sigma_x,
                           double sigma_y) {
  release();
  RecursiveSettings settings = requested;
  if (settings.split == LineSplit::Auto) settings.split = LineSplit::BlockParallel;
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  CG_TRY(validate(settings, sigma_x, sigma_y));
  const int row_samples = g.samples_per_row();
  const PassData px = make_pass(settings, sigma_x, g.height * g.channels, g.width);
  const PassData py = make_pass(settings, sigma_y, row_samples, g.height);

  const size_t plane_floats = static_cast<size_t>(row_samples) * g.height;
  CG_TRY(mid_.reserve(plane_floats * sizeof(float)));
  CG_TRY(across_.reserve(plane_floats * sizeof(float)));
  // Carries for every (line, segment) of the larger pass, then a right start per line.
  carry_floats_ = std::max(static_cast<size_t>(g.height) * g.channels * px.plan.segments,
                           static_cast<size_t>(row_samples) * py.plan.segments) * kMaxCarry;
  const size_t right_floats = std::max(static_cast<size_t>(g.height) * g.channels,
                                       static_cast<size_t>(row_samples)) * kMaxCarry;
  carry_floats_ *= 2;  // block-parallel: the causal and the anticausal record of each segment
  CG_TRY(carries_.reserve((carry_floats_ + right_floats) * sizeof(float)));
  passes_ = std::make_unique<Passes>(Passes{px, py});
  // NaN everywhere: a read of a value no kernel wrote shows up in every test instead of hiding
  // behind whatever the allocation held before. Once per plan, not per frame.
  CG_CUDA_TRY(cudaMemset(mid_.get(), 0xff, plane_floats * sizeof(float)));
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
  float* right = carries + carry_floats_;
  auto* mid = static_cast<float*>(mid_.get());
  auto* across = static_cast<float*>(across_.get());
  if (g.bytes_per_sample == 1)
    return run_plane<uint8_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                              across, carries, right, stream);
  return run_plane<uint16_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                             across, carries, right, stream);
}

void RecursiveBlur::release() {
  mid_.release();
  across_.release();
  carries_.release();
  passes_.reset();
  planned_ = false;
}

}  // namespace cudagaussian
