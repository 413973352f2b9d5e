// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the edge-aware references (common/reference_edge_aware.h):
// limits of sigma_r, the iteration schedule's variance, guides, and the Gaussian's non-uniform
// step against uniform filtering of the linearly interpolated line.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>

#include "check.h"
#include "plane_helpers.h"
#include "domain_transform.h"
#include "recursive_coeffs.h"
#include "reference_edge_aware.h"
#include "reference_recursive.h"

using namespace cudagaussian;
using cgtest::geometry;
using cgtest::max_diff;
using cgtest::random_plane;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double sum(const PlaneValues& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// Variance along x of a one-channel plane's response (weights = the response).
double variance_x(const PlaneGeometry& g, const PlaneValues& v, double centre) {
  double m = 0, s = 0;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      const double w = v[static_cast<size_t>(y) * g.width + x];
      m += w;
      s += w * (x - centre) * (x - centre);
    }
  return s / m;
}

}  // namespace

CG_TEST(schedule_variances_add_up_to_sigma_s_squared) {
  for (int n = 1; n <= 5; ++n) {
    double total = 0;
    for (int i = 1; i <= n; ++i) total += std::pow(iteration_sigma(7.0, i, n), 2);
    CHECK_NEAR(total, 49.0, 1e-12);
  }
}

CG_TEST(constant_image_is_unchanged) {
  const PlaneGeometry g = geometry(33, 21, 3);
  const PlaneValues in(static_cast<size_t>(g.samples_per_row()) * g.height, 117.0);
  const PlaneValues rf = reference_domain_transform_rf(g, in, 6.0, 20.0, 3);
  const PlaneValues gauss = reference_domain_transform_gaussian(g, in, 6.0, 20.0, 3);
  std::printf("  constant 117: RF max error %.3g, Gaussian max error %.3g\n", max_diff(rf, in),
              max_diff(gauss, in));
  CHECK(max_diff(rf, in) <= 1e-12);
  CHECK(max_diff(gauss, in) <= 1e-12);
}

CG_TEST(step_edge_is_preserved_as_sigma_r_goes_to_zero) {
  const PlaneGeometry g = geometry(40, 12, 1);
  PlaneValues in(static_cast<size_t>(g.width) * g.height);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) in[y * g.width + x] = x < 17 ? 30.0 : 220.0;
  const PlaneValues rf = reference_domain_transform_rf(g, in, 8.0, 1e-3, 3);
  // The Gaussian interpolates the input linearly across the edge, now Δ ~ 1e6 samples long: the
  // ramp's slope leaks in as O(sigma_r), so it needs a smaller sigma_r for the same 1e-6.
  const PlaneValues gauss = reference_domain_transform_gaussian(g, in, 8.0, 1e-3, 3);
  const PlaneValues gauss_sharper = reference_domain_transform_gaussian(g, in, 8.0, 1e-7, 3);
  std::printf("  step 30|220, sigma_r 1e-3: RF max error %.3g, Gaussian %.3g (sigma_r 1e-7: %.3g)\n",
              max_diff(rf, in), max_diff(gauss, in), max_diff(gauss_sharper, in));
  CHECK(max_diff(rf, in) <= 1e-6);
  CHECK(max_diff(gauss, in) <= 1e-3);
  CHECK(max_diff(gauss_sharper, in) <= 1e-6);
  // A moderate sigma_r still keeps most of the step (reported, not asserted beyond "sharper").
  const PlaneValues soft = reference_domain_transform_rf(g, in, 8.0, 30.0, 3);
  const PlaneValues plain = reference_domain_transform_rf(g, in, 8.0, kInf, 3);
  const double step_soft = soft[6 * g.width + 17] - soft[6 * g.width + 16];
  const double step_plain = plain[6 * g.width + 17] - plain[6 * g.width + 16];
  std::printf("  step across the edge: sigma_r 30 -> %.3f, sigma_r inf -> %.3f (input 190)\n",
              step_soft, step_plain);
  CHECK(step_soft > 5 * step_plain);
}

CG_TEST(rf_without_edges_is_a_symmetric_low_pass_of_variance_sigma_s_squared) {
  // Large enough that the borders (where left→right and right→left do not commute) are ~e^-13
  // away at sigma_s 16.
  const int size = 401, c = 200;
  const PlaneGeometry g = geometry(size, size, 1);
  PlaneValues impulse(static_cast<size_t>(size) * size, 0.0);
  impulse[static_cast<size_t>(c) * size + c] = 1.0;
  for (double sigma_s : {4.0, 8.0, 16.0}) {
    const PlaneValues out = reference_domain_transform_rf(g, impulse, sigma_s, 1e9, 3);
    double asym = 0;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const double v = out[static_cast<size_t>(y) * size + x];
        asym = std::fmax(asym, std::fabs(v - out[static_cast<size_t>(y) * size + (size - 1 - x)]));
        asym = std::fmax(asym, std::fabs(v - out[static_cast<size_t>(size - 1 - y) * size + x]));
        asym = std::fmax(asym, std::fabs(v - out[static_cast<size_t>(x) * size + y]));
      }
    const double var = variance_x(g, out, c);
    // Sampled two-sided exponential per iteration: 2a/(1-a)² instead of sigma_H².
    double expected = 0;
    for (int i = 1; i <= 3; ++i) {
      const double a = rf_feedback(iteration_sigma(sigma_s, i, 3));
      expected += 2 * a / ((1 - a) * (1 - a));
    }
    std::printf("  RF impulse sigma_s %4.1f: asymmetry %.2g (peak %.3g), variance %.4f vs sigma_s² %.1f "
                "(rel %.4f; sampled-exponential sum %.4f), mass %.12f\n",
                sigma_s, asym, out[static_cast<size_t>(c) * size + c], var, sigma_s * sigma_s,
                var / (sigma_s * sigma_s) - 1, expected, sum(out));
    // sigma_r = 1e9 still leaves d = 1 + O(1e-8) near the impulse, and with a non-uniform d the
    // two directions do not commute: ~1e-9 of the peak, measured.
    CHECK(asym <= 1e-8 * out[static_cast<size_t>(c) * size + c]);
    // The sampled exponential falls short of sigma_H² by ~1/6 per pass, most at small sigma_H
    // (-3.0% at sigma_s 4, -0.8% at 8, -0.2% at 16).
    CHECK_NEAR(var / (sigma_s * sigma_s), 1.0, 0.04);
    CHECK_NEAR(var, expected, 1e-6 * expected);
  }
}

CG_TEST(gaussian_without_edges_has_variance_sigma_s_squared) {
  const int size = 161, c = 80;
  const PlaneGeometry g = geometry(size, size, 1);
  PlaneValues impulse(static_cast<size_t>(size) * size, 0.0);
  impulse[static_cast<size_t>(c) * size + c] = 1.0;
  for (double sigma_s : {4.0, 8.0, 16.0}) {
    const PlaneValues out = reference_domain_transform_gaussian(g, impulse, sigma_s, kInf, 3);
    const double var = variance_x(g, out, c);
    std::printf("  Gaussian impulse sigma_s %4.1f: variance %.4f vs %.1f (rel %.5f), mass %.12f\n",
                sigma_s, var, sigma_s * sigma_s, var / (sigma_s * sigma_s) - 1, sum(out));
    CHECK_NEAR(var / (sigma_s * sigma_s), 1.0, 0.01);
  }
}

CG_TEST(mass_with_edges_is_reported) {
  // RF does not conserve mass where d varies (its normalisation is per sample, not per kernel).
  const PlaneGeometry g = geometry(64, 48, 3);
  const PlaneValues in = random_plane(g, 5);
  const PlaneValues rf = reference_domain_transform_rf(g, in, 8.0, 40.0, 3);
  const PlaneValues gauss = reference_domain_transform_gaussian(g, in, 8.0, 40.0, 3);
  std::printf("  random RGB 64x48, sigma_s 8, sigma_r 40: mass ratio RF %.6f, Gaussian %.6f\n",
              sum(rf) / sum(in), sum(gauss) / sum(in));
  CHECK(std::isfinite(sum(rf)) && std::isfinite(sum(gauss)));
}

CG_TEST(flat_guide_equals_infinite_sigma_r) {
  const PlaneGeometry g = geometry(50, 30, 2);
  const PlaneValues in = random_plane(g, 7);
  const PlaneGeometry guide_g = geometry(50, 30, 1);
  const PlaneValues flat(static_cast<size_t>(50) * 30, 90.0);
  const PlaneValues guided = reference_domain_transform_rf_guided(g, in, guide_g, flat, 5.0, 10.0, 3);
  const PlaneValues plain = reference_domain_transform_rf(g, in, 5.0, kInf, 3);
  const PlaneValues huge = reference_domain_transform_rf(g, in, 5.0, 1e9, 3);
  const PlaneValues gguided =
      reference_domain_transform_gaussian_guided(g, in, guide_g, flat, 5.0, 10.0, 3);
  const PlaneValues gplain = reference_domain_transform_gaussian(g, in, 5.0, kInf, 3);
  std::printf("  flat guide vs sigma_r inf: RF %.3g, Gaussian %.3g; RF sigma_r 1e9 vs inf %.3g\n",
              max_diff(guided, plain), max_diff(gguided, gplain), max_diff(huge, plain));
  CHECK(max_diff(guided, plain) <= 1e-12);
  CHECK(max_diff(gguided, gplain) <= 1e-12);
  CHECK(max_diff(huge, plain) <= 1e-4);
}

CG_TEST(guide_equal_to_input_equals_unguided) {
  const PlaneGeometry g = geometry(40, 25, 4);
  const PlaneValues in = random_plane(g, 11);
  CHECK(max_diff(reference_domain_transform_rf_guided(g, in, g, in, 6.0, 25.0, 2),
                 reference_domain_transform_rf(g, in, 6.0, 25.0, 2)) == 0.0);
}

CG_TEST(gaussian_at_unit_spacing_is_deriche_1993) {
  // One iteration, one row, no edges: Δ = 1 everywhere, so Φ = 0 and each term is Deriche's.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(0, 255);
  std::vector<double> line(300);
  for (double& x : line) x = dist(rng);
  const PlaneGeometry g = geometry(300, 1, 1);
  for (double sigma : {2.0, 10.0, 40.0}) {
    const PlaneValues ours = reference_domain_transform_gaussian(g, line, sigma, kInf, 1);
    const std::vector<double> deriche = recursive_line(RecursiveFilter::Deriche, sigma, line, StartUp::Exact);
    std::printf("  sigma %4.1f: transformed-domain Gaussian vs Deriche 1993 max diff %.3g\n", sigma,
                max_diff(ours, deriche));
    CHECK(max_diff(ours, deriche) <= 1e-9);
  }
}

CG_TEST(gaussian_nonuniform_step_equals_uniform_filter_of_interpolated_line) {
  // Guide steps s with ratio s = sqrt(Δ² - 1) give integer spacings Δ ∈ {1, 2, 3}; the result must
  // equal the uniform filter (flat guide) over the line linearly interpolated at unit steps.
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> pick(1, 3);
  std::uniform_real_distribution<double> dist(0, 255);
  const int n = 120;
  std::vector<int> delta(n, 1);
  std::vector<double> f(n), guide(n, 0.0);
  for (int k = 0; k < n; ++k) {
    f[k] = dist(rng);
    if (k > 0) {
      delta[k] = pick(rng);
      guide[k] = guide[k - 1] + std::sqrt(double(delta[k] * delta[k] - 1));  // ratio 1
    }
  }
  std::vector<double> dense{f[0]};
  std::vector<int> position{0};
  for (int k = 1; k < n; ++k) {
    for (int j = 1; j <= delta[k]; ++j) dense.push_back(f[k - 1] + (f[k] - f[k - 1]) * j / delta[k]);
    position.push_back(static_cast<int>(dense.size()) - 1);
  }
  const PlaneGeometry g = geometry(n, 1, 1);
  const PlaneGeometry dg = geometry(static_cast<int>(dense.size()), 1, 1);
  for (double sigma : {1.5, 6.0, 25.0}) {
    // iterations = 1 so sigma_H = sigma_s; sigma_r = sigma_s makes ratio = 1.
    const PlaneValues ours = reference_domain_transform_gaussian_guided(g, f, g, guide, sigma, sigma, 1);
    const PlaneValues uniform = reference_domain_transform_gaussian(dg, dense, sigma, kInf, 1);
    double err = 0;
    for (int k = 0; k < n; ++k) err = std::fmax(err, std::fabs(ours[k] - uniform[position[k]]));
    std::printf("  sigma %4.1f: non-uniform step vs interpolated uniform line max diff %.3g\n", sigma, err);
    CHECK(err <= 1e-9);
  }
}

CG_TEST(float_steps_track_double) {
  // The kernels run these steps in float32: one RF line and one Gaussian term (in the deviation
  // form e = g - S f of dt_gaussian_apply, with the weights the kernels use) against the published
  // form in double, over 0..255 and over 16-bit values at the element's largest sigma.
  struct Case { double sigma, range, rf_limit, g_limit; };
  for (const Case& c : {Case{20.0, 255.0, 1e-2, 1e-2}, Case{250.0, 65535.0, 0.5, 0.5}, Case{1000.0, 65535.0, 0.5, 0.5}}) {
    const int n = 4096;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> dist(0, c.range);
    std::vector<double> v(n);
    for (double& x : v) x = dist(rng);
    for (int k = 1; k < n; ++k)
      if ((k / 300) % 2) v[k] = v[k - 1];  // flat runs as well as noise
    double rf_err = 0, g_err = 0;
    const double ratio = 20.0 / (30.0 * c.range / 255.0);
    const double a = rf_feedback(c.sigma);
    const float log_a = static_cast<float>(std::log(a));
    double jd = v[0];
    float jf = float(v[0]);
    DtGaussianTerm<double> td[2];
    DtGaussianTerm<float> tf[2];
    dt_gaussian_terms(c.sigma, td);
    dt_gaussian_terms_rounded(c.sigma, tf);
    DtComplex<double> gd = dt_gaussian_steady(td[0], v[0]);
    DtComplex<float> ef = {0.0f, 0.0f};
    for (int k = 1; k < n; ++k) {
      const double pd[1] = {v[k - 1]}, cd[1] = {v[k]};
      const float pf[1] = {float(v[k - 1])}, cf[1] = {float(v[k])};
      jd = rf_step(a, rf_distance(pd, cd, 1, ratio), jd, v[k]);
      jf = rf_apply(rf_weight(log_a, rf_distance(pf, cf, 1, float(ratio))), jf, cf[0]);
      gd = dt_gaussian_step(td[0], gaussian_spacing(pd, cd, 1, ratio), v[k - 1], v[k], gd);
      ef = dt_gaussian_apply(dt_gaussian_weights(tf[0], gaussian_spacing(pf, cf, 1, float(ratio))), pf[0], cf[0], ef);
      rf_err = std::fmax(rf_err, std::fabs(jd - jf));
      g_err = std::fmax(g_err, std::fabs(gd.re - (tf[0].steady.re * cf[0] + ef.re)));
    }
    std::printf("  float32 vs double, %d samples of 0..%g, sigma %g: RF %.3g, Gaussian term %.3g\n", n, c.range,
                c.sigma, rf_err, g_err);
    CHECK(rf_err <= c.rf_limit);
    CHECK(g_err <= c.g_limit);
  }
}

CG_TEST(an_axis_with_sigma_zero_gets_no_passes) {
  // Rows constant, columns varying: with sigma_y = 0 nothing changes; with sigma_x = 0 the
  // columns are filtered like a plane of one column.
  const PlaneGeometry g = geometry(9, 40, 1);
  PlaneValues in(static_cast<size_t>(9) * 40);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 9; ++x) in[y * 9 + x] = (y * 53) % 256;
  for (EdgeFilter f : {EdgeFilter::Gaussian, EdgeFilter::Rf}) {
    const EdgeSpacing sp = reference_edge_spacing(g, in, f, 0.2, 0.2);
    CHECK(max_diff(reference_edge_aware(g, in, sp, f, 5.0, 0.0, 3), in) < 1e-9);
    const PlaneValues cols = reference_edge_aware(g, in, sp, f, 0.0, 5.0, 3);
    const PlaneGeometry g1 = geometry(1, 40, 1);
    PlaneValues column(40);
    for (int y = 0; y < 40; ++y) column[y] = in[y * 9];
    const PlaneValues one = reference_edge_aware(g1, column, reference_edge_spacing(g1, column, f, 0.2, 0.2), f,
                                                 1.0, 5.0, 3);
    double d = 0;
    for (int y = 0; y < 40; ++y) d = std::fmax(d, std::fabs(cols[y * 9 + 4] - one[y]));
    CHECK(d < 1e-9);
  }
}

CG_TEST(invalid_arguments_throw) {
  const PlaneGeometry g = geometry(4, 4, 1);
  const PlaneValues in(16, 1.0);
  auto throws = [&](auto f) {
    try { f(); } catch (const std::invalid_argument&) { return true; }
    return false;
  };
  CHECK(throws([&] { reference_domain_transform_rf(g, in, 0.0, 1.0, 3); }));
  CHECK(throws([&] { reference_domain_transform_rf(g, in, 1.0, 0.0, 3); }));
  CHECK(throws([&] { reference_domain_transform_rf(g, in, 1.0, 1.0, 0); }));
  CHECK(throws([&] { reference_domain_transform_rf_guided(g, in, geometry(2, 4, 1), PlaneValues(8), 1, 1, 1); }));
}

CG_TEST_MAIN()
