// Recursive Gaussian kernels: the section recursions of common/recursive_sections.h spread over
// threads in four ways (recursive_filter.h). Each pass filters lines: rows (a line is one
// channel of one row, read with a stride of C) or columns (a line is one scalar column). A
// thread owns a (line, segment) pair; consecutive threads take consecutive lines (columns) or
// consecutive channels and segments of a row, so that their reads share cache lines.
//
// Exact block-parallel (Nehab, Maximo, Lima, Hoppe 2011, in 1D): a section recursion is linear
// in its state, so over a segment of m samples
//     state_out = A_m state_in + F(inputs),
// where F is the state reached from a zero state. Five launches per pass:
//   causal carries   F_k of every segment, from zero states;
//   causal scan      per line, sequentially over its segments: the true state entering each
//                    segment (A_m from the host), then the exact right start (Triggs–Sdika);
//   causal apply     each segment from its true state, writing the causal result; then the
//                    anticausal carry G_k of the segment from a zero state;
//   anticausal scan  per line, right to left;
//   anticausal apply each segment from its true state, writing the result.
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
  StartUp start;
  int segment;   // samples per segment (the last may be shorter)
  int segments;  // per line
  int warmup;    // TwoWay / KWay: samples run before a segment to forget the unknown start
};

__device__ inline void apply_matrix(const float* a, int n, const float* in, const float* add, float* out) {
  for (int r = 0; r < n; ++r) {
    float s = add[r];
    for (int c = 0; c < n; ++c) s = fmaf(a[r * n + c], in[c], s);
    out[r] = s;
  }
}


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

// BlockParallel 1: the causal carry of each segment from a zero state.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_causal_carry_kernel(Lines l, Plane<TIn> in, float* carries, PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, p.segment, p.segments, it)) return;
  const int line = it.line, seg = it.seg, s0 = it.s0, s1 = it.s1;
  const float zero[kMaxCarry] = {};
  typename Ops::State st = Ops::causal_entry(p.k, zero, in.load(l, line, max(s0 - 1, 0)));
  for (int i = s0; i < s1; ++i) Ops::causal_step(p.k, in.load(l, line, i), st);
  Ops::pack(st, carries + (static_cast<size_t>(seg) * l.count + line) * Ops::kCarry);
}

// BlockParallel 2 and 4: per line, the true state entering each segment (replacing its carry).
// Causal: left to right from the left start, ending with the right start in `right`.
// Anticausal: right to left from `right`.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_scan_kernel(Lines l, Plane<TIn> in, float* carries, float* right, PassParams<Ops> p,
               bool causal) {
  const int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= l.count) return;
  constexpr int D = Ops::kCarry;
  float state[D], next[D], carry[D];
  if (causal) Ops::pack(Ops::left_start(p.k, in.load(l, line, 0)), state);
  else for (int d = 0; d < D; ++d) state[d] = right[static_cast<size_t>(line) * D + d];
  for (int j = 0; j < p.segments; ++j) {
    const int seg = causal ? j : p.segments - 1 - j;
    float* c = carries + (static_cast<size_t>(seg) * l.count + line) * D;
    for (int d = 0; d < D; ++d) carry[d] = c[d], c[d] = state[d];
    apply_matrix(seg == p.segments - 1 ? p.a_last : p.a_full, D, state, carry, next);
    for (int d = 0; d < D; ++d) state[d] = next[d];
  }
  if (causal) {
    const float x_edge = in.load(l, line, l.length - 1);
    typename Ops::State end = Ops::causal_entry(p.k, state, x_edge);
    Ops::pack(Ops::right_start(p.k, end, x_edge, p.start), right + static_cast<size_t>(line) * D);
  }
}

// BlockParallel 3: each segment's causal result from its true state, then its anticausal carry.
template <class Ops, typename TIn>
__global__ void __launch_bounds__(kThreads)
bp_causal_apply_kernel(Lines l, Plane<TIn> in, Plane<float> mid, float* carries, PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, p.segment, p.segments, it)) return;
  const int line = it.line, seg = it.seg, s0 = it.s0, s1 = it.s1;
  float* c = carries + (static_cast<size_t>(seg) * l.count + line) * Ops::kCarry;
  const int n = l.length;
  typename Ops::State st = Ops::causal_entry(p.k, c, in.load(l, line, max(s0 - 1, 0)));
  for (int i = s0; i < s1; ++i) mid.store(l, line, i, Ops::causal_step(p.k, in.load(l, line, i), st));
  const float zero[kMaxCarry] = {};
  st = Ops::anticausal_entry(p.k, zero, in.load(l, line, min(s1, n - 1)), in.load(l, line, min(s1 + 1, n - 1)));
  for (int i = s1 - 1; i >= s0; --i) {
    // The causal results just written come back from L1.
    const float a_in = Ops::kAnticausalReadsInput ? in.load(l, line, i) : mid.load(l, line, i);
    Ops::anticausal_step(p.k, a_in, st);
  }
  Ops::pack(st, c);
}

// BlockParallel 5: each segment's anticausal half from its true state, and the result.
template <class Ops, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
bp_anticausal_apply_kernel(Lines l, Plane<TIn> in, Plane<float> mid, Plane<TOut> out,
                           const float* carries, PassParams<Ops> p) {
  SegmentItem it;
  if (!segment_item(l, p.segment, p.segments, it)) return;
  const int line = it.line, seg = it.seg, s0 = it.s0, s1 = it.s1;
  const int n = l.length;
  const float* c = carries + (static_cast<size_t>(seg) * l.count + line) * Ops::kCarry;
  typename Ops::State st =
      Ops::anticausal_entry(p.k, c, in.load(l, line, min(s1, n - 1)), in.load(l, line, min(s1 + 1, n - 1)));
  for (int i = s1 - 1; i >= s0; --i) {
    const float m = mid.load(l, line, i);
    const float a_in = Ops::kAnticausalReadsInput ? in.load(l, line, i) : m;
    out.store(l, line, i, Ops::combine(m, Ops::anticausal_step(p.k, a_in, st)));
  }
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
    bp_causal_carry_kernel<Ops, TIn><<<blocks_for(items), kThreads, 0, stream>>>(l, in, carries, p);
    bp_scan_kernel<Ops, TIn><<<blocks_for(l.count), kThreads, 0, stream>>>(l, in, carries, right, p, true);
    bp_causal_apply_kernel<Ops, TIn><<<blocks_for(items), kThreads, 0, stream>>>(l, in, mid, carries, p);
    bp_scan_kernel<Ops, TIn><<<blocks_for(l.count), kThreads, 0, stream>>>(l, in, carries, right, p, false);
    bp_anticausal_apply_kernel<Ops, TIn, TOut><<<blocks_for(items), kThreads, 0, stream>>>(
        l, in, mid, out, carries, p);
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
