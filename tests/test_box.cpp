// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the box widths and the box / direct-2D references.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "box_widths.h"
#include "check.h"
#include "fir_taps.h"
#include "reference_box.h"
#include "summed_area.h"

using namespace cudagaussian;

CG_TEST(widths_are_odd_and_match_the_variance) {
  for (int n = 1; n <= 6; ++n)
    for (double sigma : {2.0, 3.5, 5.0, 10.0, 30.0, 100.0}) {
      const std::vector<int> w = box_widths(sigma, n);
      CHECK(static_cast<int>(w.size()) == n);
      for (int x : w) CHECK(x >= 1 && x % 2 == 1);
      // Odd widths move in steps of 2, so the variance is matched to within one such step.
      const double v = box_variance(w), step = (4.0 * w.back() + 4.0) / 12.0;
      CHECK_MSG(std::fabs(v - sigma * sigma) <= step, "n %d sigma %g: variance %g", n, sigma, v);
    }
  CHECK(box_widths(0.0, 3) == std::vector<int>(3, 1));
}

CG_TEST(box_keeps_constants_and_averages_a_step) {
  PlaneGeometry g;
  g.width = 9, g.height = 5, g.channels = 2;
  PlaneValues in(static_cast<size_t>(g.samples_per_row()) * g.height, 7.0);
  for (Border b : {Border::Replicate, Border::Mirror, Border::Reflect}) {
    const PlaneValues out = reference_box(g, in, {3, 5}, {3}, b);
    for (double v : out) CHECK_NEAR(v, 7.0, 1e-12);
  }
  // One row, one box of width 3 across a step 0 | 3: the edge sample averages to 1 and 2.
  PlaneGeometry r;
  r.width = 4, r.height = 1;
  const PlaneValues out = reference_box(r, {0, 0, 3, 3}, {3}, {}, Border::Replicate);
  CHECK_NEAR(out[1], 1.0, 1e-12);
  CHECK_NEAR(out[2], 2.0, 1e-12);
}

CG_TEST(direct_with_separable_taps_equals_the_fir_reference) {
  PlaneGeometry g;
  g.width = 23, g.height = 17, g.channels = 3;
  std::mt19937 rng(3);
  PlaneValues in(static_cast<size_t>(g.samples_per_row()) * g.height);
  for (double& v : in) v = rng() % 256;
  const std::vector<double> t = gaussian_taps(1.5, fir_radius(1.5, 3.0));
  const int size = static_cast<int>(t.size());
  std::vector<double> k(static_cast<size_t>(size) * size);
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < size; ++i) k[j * size + i] = t[j] * t[i];
  for (Border b : {Border::Replicate, Border::Mirror, Border::Reflect}) {
    const PlaneValues d = reference_direct(g, in, k, size, b), f = reference_fir(g, in, t, t, b);
    double worst = 0;
    for (size_t i = 0; i < d.size(); ++i) worst = std::fmax(worst, std::fabs(d[i] - f[i]));
    CHECK_MSG(worst < 1e-9, "border %s: %g", border_name(b), worst);
  }
}

CG_TEST(afif_kernel_is_normalised) {
  const std::vector<double> k = afif_5x5_kernel();
  double sum = 0;
  for (double v : k) sum += v;
  CHECK_NEAR(sum, 1.0, 1e-12);
  CHECK_NEAR(k[12], 41.0 / 273.0, 1e-15);
}

namespace {
// Replays kernels/integral_box.cu: per pass the SAT rows, then its columns, then the box sums;
// the last pass divides by the product of the box areas and rounds.
std::vector<uint64_t> integral_box_replay(const PlaneGeometry& g, const std::vector<uint64_t>& in,
                                          const std::vector<int>& wx, const std::vector<int>& wy, Border border) {
  std::vector<uint64_t> sums = in, out(in.size());
  uint64_t denominator = 1;
  for (size_t p = 0; p < wx.size(); ++p) denominator *= uint64_t(wx[p]) * uint64_t(wy[p]);
  for (size_t p = 0; p < wx.size(); ++p) {
    const SatShape s{g.width, g.height, g.channels, wx[p] / 2, wy[p] / 2, border};
    std::vector<uint64_t> sat(static_cast<size_t>(s.ext_width()) * s.ext_height() * g.channels);
    auto source = [&](int x, int y, int c) { return sums[(static_cast<size_t>(y) * g.width + x) * g.channels + c]; };
    for (int ey = 0; ey < s.ext_height(); ++ey)
      for (int c = 0; c < g.channels; ++c) sat_row(s, ey, c, source, sat.data());
    for (int ex = 0; ex < s.ext_width(); ++ex)
      for (int c = 0; c < g.channels; ++c) sat_column(s, ex, c, sat.data());
    for (int y = 0; y < g.height; ++y)
      for (int i = 0; i < g.samples_per_row(); ++i)
        out[static_cast<size_t>(y) * g.samples_per_row() + i] = sat_box(s, sat.data(), i / g.channels, y, i % g.channels);
    sums = out;
  }
  for (uint64_t& v : sums) v = integral_box_round(v, denominator);
  return sums;
}
}  // namespace

CG_TEST(integral_box_replay_equals_the_reference) {
  std::mt19937 rng(9);
  struct Case { int w, h, c; double sigma_x, sigma_y; int passes; Border border; int max_value; };
  const Case cases[] = {{1, 1, 1, 3.0, 3.0, 3, Border::Replicate, 255},   {3, 2, 4, 1.0, 1.0, 2, Border::Mirror, 255},
                        {37, 23, 3, 2.5, 2.5, 3, Border::Reflect, 255},   {64, 40, 2, 9.0, 9.0, 4, Border::Replicate, 65535},
                        {50, 70, 1, 20.0, 20.0, 1, Border::Mirror, 1023}, {41, 17, 1, 6.0, 6.0, 6, Border::Reflect, 255},
                        {60, 30, 2, 40.0, 0.0, 3, Border::Replicate, 255}, {33, 50, 1, 1.0, 13.0, 2, Border::Mirror, 1023}};
  for (const Case& k : cases) {
    PlaneGeometry g;
    g.width = k.w, g.height = k.h, g.channels = k.c;
    std::vector<uint64_t> in(static_cast<size_t>(g.samples_per_row()) * g.height);
    for (uint64_t& v : in) v = rng() % (k.max_value + 1);
    const std::vector<int> wx = box_widths(k.sigma_x, k.passes), wy = box_widths(k.sigma_y, k.passes);
    const std::vector<uint64_t> got = integral_box_replay(g, in, wx, wy, k.border);
    const PlaneValues ref = reference_box(g, PlaneValues(in.begin(), in.end()), wx, wy, k.border);
    double worst = 0;
    int ties = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double d = std::fabs(double(got[i]) - std::floor(ref[i] + 0.5));
      worst = std::max(worst, d);
      ties += d > 0;
    }
    std::printf("  %dx%d C%d sigma %g/%g, %d passes, %s: max |integral - round(ref)| = %g (%d samples)\n", k.w, k.h,
                k.c, k.sigma_x, k.sigma_y, k.passes, border_name(k.border), worst, ties);
    CHECK(worst == 0.0);  // exact: the denominator is odd, so no exact ties to round
  }
}

CG_TEST_MAIN()
