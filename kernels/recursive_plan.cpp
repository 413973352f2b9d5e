// SPDX-License-Identifier: LGPL-2.1-or-later
#include "recursive_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace cudagaussian {
namespace recursive {

namespace {

// The matrices of recursive_plan.h, for either family (OpsT: YvvOps or DericheOps), in double.
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

// A_m rounded to float.
template <template <typename> class OpsT>
void segment_matrix(const typename OpsT<double>::Coeffs& k, int m, float* a) {
  double d[kMaxCarry * kMaxCarry];
  segment_matrix<OpsT>(k, m, d);
  for (int i = 0; i < OpsT<double>::kCarry * OpsT<double>::kCarry; ++i) a[i] = static_cast<float>(d[i]);
}

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

}  // namespace

void segment_matrix(const YvvSections<double>& k, int m, double* a) { segment_matrix<YvvOps>(k, m, a); }
void segment_matrix(const DericheSections<double>& k, int m, double* a) { segment_matrix<DericheOps>(k, m, a); }
void correction_matrix(const YvvSections<double>& k, int m, float* out_m) { correction_matrix<YvvOps>(k, m, out_m); }
void correction_matrix(const DericheSections<double>& k, int m, float* out_m) {
  correction_matrix<DericheOps>(k, m, out_m);
}

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

int block_threads_for(long items, int sm_count) {
  for (int threads : {kThreads, kThreads / 2})
    if ((items + threads - 1) / threads >= 2L * sm_count) return threads;
  return kWarp;
}

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

bool exact_two_way(const RecursiveSettings& s, int warmup, int length) {
  const TwoWayForm form = s.two_way_form;
  if (s.filter == RecursiveFilter::Deriche) return true;
  if (s.start != StartUp::Exact || form == TwoWayForm::Warm) return false;
  return form == TwoWayForm::Exact || 25L * warmup >= length;
}

PassPlan plan_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group, int sm_count) {
  const LaunchForm launches = s.launches;
  PassPlan p;
  if (!(sigma > 0.0)) return p;
  p.identity = false;
  if (s.split == LineSplit::BlockParallel)
    p.segments = block_parallel_segments(length);
  else
    p.segments = warm_split_segments(s.split, s.segments, lines, length);
  p.segment = s.split == LineSplit::BlockParallel ? kBlockSegment
                                                  : (length + p.segments - 1) / p.segments;
  p.segments = (length + p.segment - 1) / p.segment;  // no empty segment at the end
  // two_way_exact_kernel's right half reads one sample ahead of its output, which on lines of
  // under 3 samples passes the line's end: those run whole (exact too).
  if (s.split == LineSplit::TwoWay && length < 3) p.segments = 1, p.segment = length;
  p.warmup = static_cast<int>(std::ceil(s.kappa * sigma));
  p.block_threads = block_threads_for(static_cast<long>(lines) * p.segments, sm_count);
  p.scan_threads = block_threads_for(lines, sm_count);
  // One launch where the multi-launch kernels would not fill the GPU (their launches and tails
  // then dominate), three otherwise.
  const bool small = static_cast<long>(lines) * p.segments <= static_cast<long>(sm_count) * kFusedMaxItemsPerSm;
  if (s.split == LineSplit::BlockParallel && p.segments > 1 &&
      (launches == LaunchForm::One || (launches == LaunchForm::Auto && small)))
    p.block_lines = fused_block_lines(p.segments, lines, group, sm_count);
  if (s.split == LineSplit::TwoWay && p.segments == 2 && exact_two_way(s, p.warmup, length)) {
    p.exact_two_way = p.mid_margins = true;
    return p;
  }
  p.mid_margins = p.segments == 1 || s.split == LineSplit::OneWay;  // launch_pass: one_way_kernel
  // The warmed-up halves in one launch: two-way by default, k-way only when forced (the faster
  // forms: docs/bench/kernel_choices.md, "Recursive Gaussians: launch forms").
  const bool warm = s.split == LineSplit::TwoWay || s.split == LineSplit::KWay;
  if (warm && p.segments > 1 &&
      (launches == LaunchForm::One ||
       (launches == LaunchForm::Auto && s.split == LineSplit::TwoWay)))
    p.warm_block_lines = warm_block_lines(p.segments, lines, group, sm_count);
  return p;
}

WholeLineGrid whole_line_grid(int lines, int lines_per_block, int segments) {
  return {static_cast<unsigned>((lines + lines_per_block - 1) / lines_per_block),
          (lines_per_block * segments + kWarp - 1) / kWarp * kWarp};
}

PassData make_pass(const RecursiveSettings& s, double sigma, int lines, int length, int group, int sm_count) {
  PassData pass{};
  pass.plan = plan_pass(s, sigma, lines, length, group, sm_count);
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

size_t mid_pitch(const PlaneGeometry& g, bool margins) {
  return static_cast<size_t>(g.width + (margins ? 2 * kMidMargin : 0)) * g.channels;
}
size_t mid_floats(const PlaneGeometry& g, bool margins) {
  return mid_pitch(g, margins) * (g.height + (margins ? 2 * kMidMargin : 0));
}
size_t mid_offset(const PlaneGeometry& g, bool margins) {
  return margins ? kMidMargin * mid_pitch(g, margins) + static_cast<size_t>(kMidMargin) * g.channels : 0;
}

size_t record_floats(int lines, int segments) { return static_cast<size_t>(lines) * segments * kMaxCarry * 2; }

RecursiveBuffers recursive_buffers(const PlaneGeometry& g, const PassPlan& x, const PassPlan& y) {
  const int row_samples = g.samples_per_row();
  RecursiveBuffers b;
  b.mid = mid_floats(g, x.mid_margins || y.mid_margins);
  b.across = static_cast<size_t>(row_samples) * g.height;
  b.row_carries = record_floats(g.height * g.channels, x.segments);
  b.carries = b.row_carries + record_floats(row_samples, y.segments);
  b.right = std::max(static_cast<size_t>(g.height) * g.channels, static_cast<size_t>(row_samples)) * kMaxCarry;
  return b;
}

const char* recursive_buffers_error(const RecursiveBuffers& b) {
  // Line kernels address mid with 32-bit offsets (line_access.cuh), margins included, and
  // bp_scan_kernel indexes the records in 32 bits.
  if (b.mid >= 2147483647u || b.carries + b.right > UINT32_MAX) return "frame too large for the recursive filters";
  return nullptr;
}

}  // namespace recursive
}  // namespace cudagaussian
