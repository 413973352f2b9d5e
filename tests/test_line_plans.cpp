// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the host planning of the line filters (kernels/line_split.h,
// kernels/recursive_plan.h, kernels/edge_aware_plan.h): segment counts, launch forms and shapes,
// scratch sizes, and the block-parallel carry matrices against the recursions they summarise.

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "check.h"
#include "edge_aware_plan.h"
#include "line_split.h"
#include "recursive_plan.h"

using namespace cudagaussian;
using namespace cudagaussian::recursive;

namespace {

constexpr int kSmCount = 132;
const int kLengths[] = {1, 2, 3, 4, 31, 32, 33, 100, 289, 385, 1080, 1081, 1920, 4096};

RecursiveSettings settings(RecursiveFilter f, LineSplit split) {
  RecursiveSettings s;
  s.filter = f;
  s.split = split;
  return s;
}

}  // namespace

CG_TEST(line_split_segment_counts) {
  for (int n : kLengths) {
    CHECK(warm_split_segments(LineSplit::OneWay, 0, 100, n) == 1);
    CHECK(warm_split_segments(LineSplit::TwoWay, 0, 100, n) == std::min(2, n));
    CHECK(warm_split_segments(LineSplit::BlockParallel, 5, 100, n) == 1);
    CHECK(block_parallel_segments(n) == (n + 31) / 32);
    for (int lines : {1, 7, 1080, 8294400}) {
      const int k = warm_split_segments(LineSplit::KWay, 0, lines, n);
      CHECK(k >= 1 && k <= n);
      // Pieces of at least kKWayMinSegment samples where the line allows one.
      if (n >= kKWayMinSegment) CHECK(n / k >= kKWayMinSegment);
      // Enough for kKWayTargetThreads threads unless the line is too short for them.
      if (k < std::max(1, n / kKWayMinSegment)) CHECK(static_cast<long>(k) * lines >= kKWayTargetThreads);
    }
    CHECK(warm_split_segments(LineSplit::KWay, 7, 100, n) == std::min(7, std::max(1, n / kKWayMinSegment)));
  }
  CHECK(block_parallel_segments(1080) == 34);
}

CG_TEST(line_schedule_limits) {
  LineSchedule s;
  CHECK(line_schedule_error(s) == nullptr);
  s.kappa = -0.5;
  CHECK(line_schedule_error(s) != nullptr);
  s.kappa = 100.5;
  CHECK(line_schedule_error(s) != nullptr);
  s.kappa = std::nan("");
  CHECK(line_schedule_error(s) != nullptr);
  s.kappa = 100.0;
  s.segments = -1;
  CHECK(line_schedule_error(s) != nullptr);
  LineSchedule a, b;
  CHECK(a == b);
  b.launches = LaunchForm::One;
  CHECK(a != b);
}

// Every split, any length: segments cover the line with none empty, and the launch form's
// shapes fit their kernels' blocks.
CG_TEST(recursive_pass_plans_cover_lines) {
  for (RecursiveFilter f : {RecursiveFilter::YoungVanVliet2002, RecursiveFilter::Deriche})
    for (LineSplit split : {LineSplit::OneWay, LineSplit::TwoWay, LineSplit::KWay, LineSplit::BlockParallel})
      for (LaunchForm launches : {LaunchForm::Auto, LaunchForm::One, LaunchForm::Several})
        for (int n : kLengths)
          for (int group : {1, 3, 4}) {
            RecursiveSettings s = settings(f, split);
            s.launches = launches;
            const int lines = 576 * group;
            const PassPlan p = plan_pass(s, 3.0, lines, n, group, kSmCount);
            CHECK(!p.identity);
            CHECK(p.segments >= 1 && p.segment >= 1);
            CHECK(static_cast<long>(p.segments) * p.segment >= n);
            CHECK(static_cast<long>(p.segments - 1) * p.segment < n);
            if (split == LineSplit::BlockParallel && n > 1) CHECK(p.segment == kSegment);
            if (split == LineSplit::TwoWay && n < 3) CHECK(p.segments == 1);
            CHECK(p.warmup == static_cast<int>(std::ceil(s.kappa * 3.0)));
            CHECK(p.block_threads == kThreads || p.block_threads == kThreads / 2 || p.block_threads == kWarp);
            if (p.block_lines) {
              CHECK(split == LineSplit::BlockParallel && launches != LaunchForm::Several);
              CHECK(p.block_lines % group == 0);
              const WholeLineGrid grid = whole_line_grid(lines, p.block_lines, p.segments);
              CHECK(grid.threads % kWarp == 0 && grid.threads <= kFusedMaxThreads);
              CHECK(grid.threads >= p.block_lines * p.segments);
              CHECK(static_cast<long>(grid.blocks) * p.block_lines >= lines);
            }
            if (p.warm_block_lines) {
              CHECK(split == LineSplit::TwoWay || split == LineSplit::KWay);
              CHECK(launches == LaunchForm::One || (launches == LaunchForm::Auto && split == LineSplit::TwoWay));
              const WholeLineGrid grid = whole_line_grid(lines, p.warm_block_lines, p.segments);
              CHECK(grid.threads % kWarp == 0 && grid.threads <= kThreads);
            }
            // one_way_kernel and two_way_exact_kernel write into mid's margins.
            if (p.segments == 1 || split == LineSplit::OneWay || p.exact_two_way) CHECK(p.mid_margins);
          }
  RecursiveSettings s = settings(RecursiveFilter::Deriche, LineSplit::BlockParallel);
  CHECK(plan_pass(s, 0.0, 100, 100, 1, kSmCount).identity);
}

CG_TEST(recursive_launch_form_auto) {
  RecursiveSettings s = settings(RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel);
  // Few items per SM: one launch; many: three.
  CHECK(plan_pass(s, 2.0, 288 * 4, 352, 4, kSmCount).block_lines > 0);
  CHECK(plan_pass(s, 2.0, 3840 * 4, 2160, 4, kSmCount).block_lines == 0);
  s.launches = LaunchForm::One;
  CHECK(plan_pass(s, 2.0, 3840 * 4, 2160, 4, kSmCount).block_lines > 0);
  s.launches = LaunchForm::Several;
  CHECK(plan_pass(s, 2.0, 288 * 4, 352, 4, kSmCount).block_lines == 0);
  // Lines whose segments do not fit a block: three launches whatever is asked.
  s.launches = LaunchForm::One;
  CHECK(plan_pass(s, 2.0, 16, kSegment * (kFusedMaxThreads + 1), 1, kSmCount).block_lines == 0);
  // Two-way warmed up: one launch by default, k-way two.
  RecursiveSettings w = settings(RecursiveFilter::YoungVanVliet2002, LineSplit::TwoWay);
  w.two_way_form = TwoWayForm::Warm;
  CHECK(plan_pass(w, 2.0, 1080, 1920, 1, kSmCount).warm_block_lines > 0);
  w.split = LineSplit::KWay;
  CHECK(plan_pass(w, 2.0, 1080, 1920, 1, kSmCount).warm_block_lines == 0);
  w.launches = LaunchForm::One;
  CHECK(plan_pass(w, 2.0, 1080, 1920, 1, kSmCount).warm_block_lines > 0);
}

CG_TEST(recursive_two_way_form) {
  RecursiveSettings d = settings(RecursiveFilter::Deriche, LineSplit::TwoWay);
  d.two_way_form = TwoWayForm::Warm;  // Deriche's two-way is exact whatever is asked
  CHECK(plan_pass(d, 2.0, 1080, 1920, 1, kSmCount).exact_two_way);
  RecursiveSettings y = settings(RecursiveFilter::YoungVanVliet2002, LineSplit::TwoWay);
  for (double sigma : {1.0, 2.0, 5.0, 10.0, 12.0, 20.0, 50.0}) {
    const int warmup = static_cast<int>(std::ceil(y.kappa * sigma));
    y.two_way_form = TwoWayForm::Auto;
    CHECK(plan_pass(y, sigma, 1080, 1920, 1, kSmCount).exact_two_way == (25L * warmup >= 1920));
    y.two_way_form = TwoWayForm::Exact;
    CHECK(plan_pass(y, sigma, 1080, 1920, 1, kSmCount).exact_two_way);
    y.two_way_form = TwoWayForm::Warm;
    CHECK(!plan_pass(y, sigma, 1080, 1920, 1, kSmCount).exact_two_way);
  }
  // The simple start-up has no parallel form: warmed up even when asked for exact.
  y.start = StartUp::Simple;
  y.two_way_form = TwoWayForm::Exact;
  CHECK(!plan_pass(y, 20.0, 1080, 1920, 1, kSmCount).exact_two_way);
}

CG_TEST(recursive_block_shapes) {
  for (int sm : {1, 28, 132})
    for (long items : {1L, 100L, 2304L, 100000L}) {
      const int t = block_threads_for(items, sm);
      if (t != kWarp) CHECK((items + t - 1) / t >= 2L * sm);
    }
  for (int segments : {2, 3, 17, 34, 68, 200})
    for (int lines : {8, 1080, 8640})
      for (int group : {1, 2, 4}) {
        const int f = fused_block_lines(segments, lines, group, kSmCount);
        if (segments * group > kFusedMaxThreads) {
          CHECK(f == 0);
          continue;
        }
        CHECK(f >= group && f % group == 0);
        CHECK(f * segments <= std::max(kFusedTargetThreads, segments * group));
        if (group == 1) CHECK(f <= kWarp && (f & (f - 1)) == 0);
        const int w = warm_block_lines(segments, lines, group, kSmCount);
        if (segments * group > kThreads) CHECK(w == 0);
        else CHECK(w >= group && w % group == 0 && w * segments <= kThreads);
      }
}

// What the scan relies on: over a segment, the causal carry from entry carry s is A s + F (F from
// a zero carry, same inputs), and the anticausal carry of that causal result is G~ + M s.
template <template <typename> class OpsT, typename Coeffs>
void check_carry_matrices(const Coeffs& k, int m, unsigned seed) {
  using Ops = OpsT<double>;
  constexpr int D = Ops::kCarry;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 255.0);
  std::vector<double> x(static_cast<size_t>(m));
  for (double& v : x) v = u(rng);
  const double x_prev = u(rng), x_next1 = u(rng), x_next2 = u(rng);
  double s[kMaxCarry], zero[kMaxCarry] = {};
  for (int i = 0; i < D; ++i) s[i] = u(rng) - 128.0;
  auto run = [&](const double* entry, double* causal_out, double* anticausal_out) {
    typename Ops::State st = Ops::causal_entry(k, entry, x_prev);
    std::vector<double> y(static_cast<size_t>(m));
    for (int i = 0; i < m; ++i) y[i] = Ops::causal_step(k, x[i], st);
    Ops::pack(st, causal_out);
    st = Ops::anticausal_entry(k, zero, x_next1, x_next2);
    for (int i = m - 1; i >= 0; --i) Ops::anticausal_step(k, Ops::kAnticausalReadsInput ? x[i] : y[i], st);
    Ops::pack(st, anticausal_out);
  };
  double f_s[kMaxCarry], g_s[kMaxCarry], f_0[kMaxCarry], g_0[kMaxCarry];
  run(s, f_s, g_s);
  run(zero, f_0, g_0);
  double a[kMaxCarry * kMaxCarry];
  float mm[kMaxCarry * kMaxCarry];
  segment_matrix(k, m, a);
  correction_matrix(k, m, mm);
  for (int r = 0; r < D; ++r) {
    double as = f_0[r], ms = g_0[r];
    for (int c = 0; c < D; ++c) as += a[r * D + c] * s[c], ms += mm[r * D + c] * s[c];
    CHECK_NEAR(as, f_s[r], 1e-9 * (1.0 + std::fabs(f_s[r])));
    // M is rounded to float.
    CHECK_NEAR(ms, g_s[r], 1e-4 * (1.0 + std::fabs(g_s[r])));
  }
}

CG_TEST(recursive_carry_matrices) {
  for (double sigma : {0.8, 2.0, 10.0, 100.0})
    for (int m : {1, 7, 32}) {
      check_carry_matrices<YvvOps>(make_yvv_sections<double>(yvv_section_coefficients(sigma, YvvVariant::Y2002)), m,
                                   11u + m);
      check_carry_matrices<DericheOps>(make_deriche_sections<double>(deriche_section_coefficients(sigma)), m, 17u + m);
      // Deriche's anticausal half reads the input alone: no correction.
      float mm[kMaxCarry * kMaxCarry];
      correction_matrix(make_deriche_sections<double>(deriche_section_coefficients(sigma)), m, mm);
      for (float v : mm) CHECK(v == 0.0f);
    }
}

// The scan's powers: A_segment^(run·2^d) is A over run·2^d segments.
CG_TEST(recursive_run_powers) {
  const YvvSections<double> k = make_yvv_sections<double>(yvv_section_coefficients(5.0, YvvVariant::Y2002));
  double a[kMaxCarry * kMaxCarry];
  segment_matrix(k, kSegment, a);
  for (int run : {1, 2, 3}) {
    float powers[kRunPowers][kMaxCarry * kMaxCarry];
    run_powers(a, 3, run, powers);
    for (int d = 0; d < kRunPowers; ++d) {
      double expect[kMaxCarry * kMaxCarry];
      segment_matrix(k, kSegment * run * (1 << d), expect);
      for (int i = 0; i < 9; ++i) CHECK_NEAR(powers[d][i], expect[i], 1e-5 * (1.0 + std::fabs(expect[i])));
    }
  }
}

CG_TEST(recursive_pass_arguments) {
  RecursiveSettings s = settings(RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel);
  s.launches = LaunchForm::Several;
  const PassData p = make_pass(s, 3.0, 1080, 1920, 1, kSmCount);
  CHECK(p.yvv.segment == kSegment && p.yvv.segments == 60 && p.yvv.run == 2);
  CHECK(p.yvv.start == StartUp::Exact);
  // The last segment is whole here: A_last = A_full.
  for (int i = 0; i < 9; ++i) CHECK(p.yvv.a_last[i] == p.yvv.a_full[i]);
  const PassData q = make_pass(s, 3.0, 1080, 1900, 1, kSmCount);
  bool differs = false;
  for (int i = 0; i < 9; ++i) differs |= q.yvv.a_last[i] != q.yvv.a_full[i];
  CHECK(differs);
  RecursiveSettings d = settings(RecursiveFilter::Deriche, LineSplit::TwoWay);
  const PassData e = make_pass(d, 3.0, 1080, 1920, 1, kSmCount);
  CHECK(e.plan.exact_two_way && e.parallel.term[0].den != 0.0f);
}

CG_TEST(recursive_scratch) {
  PlaneGeometry g;
  g.width = 385, g.height = 289, g.channels = 3, g.bytes_per_sample = 1;
  for (bool margins : {false, true}) {
    const size_t pitch = mid_pitch(g, margins), offset = mid_offset(g, margins);
    // The last sample, and a margin's worth past it, lie inside.
    const size_t last = offset + (g.height - 1) * pitch + static_cast<size_t>(g.width) * g.channels - 1;
    CHECK(last + (margins ? kMidMargin * g.channels + kMidMargin * pitch : 0) < mid_floats(g, margins));
    if (margins) CHECK(offset >= kMidMargin * pitch + kMidMargin * g.channels);
  }
  RecursiveSettings s = settings(RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel);
  const PassData x = make_pass(s, 2.0, g.height * g.channels, g.width, g.channels, kSmCount);
  const PassData y = make_pass(s, 2.0, g.samples_per_row(), g.height, 1, kSmCount);
  const RecursiveBuffers b = recursive_buffers(g, x.plan, y.plan);
  CHECK(b.row_carries == record_floats(g.height * g.channels, x.plan.segments));
  CHECK(b.carries == b.row_carries + record_floats(g.samples_per_row(), y.plan.segments));
  CHECK(b.across == static_cast<size_t>(g.samples_per_row()) * g.height);
  CHECK(recursive_buffers_error(b) == nullptr);
  RecursiveBuffers huge = b;
  huge.mid = 1ull << 31;
  CHECK(recursive_buffers_error(huge) != nullptr);
  huge = b;
  huge.carries = 1ull << 32;
  CHECK(recursive_buffers_error(huge) != nullptr);
}

CG_TEST(edge_aware_pass_plans) {
  EdgeAwareSettings s;
  for (int n : kLengths) {
    s.split = LineSplit::BlockParallel;
    CHECK(edge_aware::make_pass(s, 3.0, 100, n).segments == block_parallel_segments(n));
    CHECK(edge_aware::make_pass(s, 3.0, 100, n).block_parallel);
    s.split = LineSplit::KWay;
    s.segments = 0;
    CHECK(edge_aware::make_pass(s, 3.0, 1080, n).segments == warm_split_segments(LineSplit::KWay, 0, 1080, n));
    s.segments = 5;
    CHECK(edge_aware::make_pass(s, 3.0, 1080, n).segments == warm_split_segments(LineSplit::KWay, 5, 1080, n));
    s.split = LineSplit::OneWay;
    CHECK(edge_aware::make_pass(s, 3.0, 1080, n).segments == 1);
  }
  s.kappa = 2.0;
  CHECK_NEAR(edge_aware::make_pass(s, 3.0, 100, 100).extent, 6.0, 1e-6);
  CHECK(edge_aware::make_pass(s, 0.0, 100, 100).identity);

  PlaneSpec luma, chroma;
  luma.geometry.width = 385, luma.geometry.height = 289, luma.geometry.channels = 1, luma.geometry.bytes_per_sample = 1;
  chroma = luma;
  chroma.geometry.width = 193, chroma.geometry.height = 145;
  chroma.subsample_x = chroma.subsample_y = 2;
  s.iterations = 3;
  s.split = LineSplit::BlockParallel;
  std::vector<edge_aware::PlanePlan> planes{edge_aware::plan_plane(s, luma, 4.0, 0.0005),
                                            edge_aware::plan_plane(s, chroma, 4.0, 0.0005)};
  CHECK(planes[0].x.size() == 3 && planes[0].y.size() == 3);
  for (const edge_aware::PassParams& p : planes[1].y) CHECK(p.identity);  // below kMinSigma
  for (const edge_aware::PassParams& p : planes[1].x) CHECK(!p.identity && p.segments == block_parallel_segments(193));
  const edge_aware::EdgeAwareBuffers b = edge_aware::edge_aware_buffers(s, planes);
  CHECK(b.work == 385u * 289u && b.other == 193u * 145u);
  CHECK(b.carries >= static_cast<size_t>(289) * block_parallel_segments(385));
}

CG_TEST_MAIN()
