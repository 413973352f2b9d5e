// CPU tests of the box widths and the box / direct-2D references.
#include <cmath>
#include <random>

#include "box_widths.h"
#include "check.h"
#include "fir_taps.h"
#include "reference_box.h"

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

CG_TEST_MAIN()
