// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the multirate Gaussian's plan (common/multirate_axis.h) and of its double
// reference against the exact Gaussian.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"
#include "plane_helpers.h"
#include "multirate_axis.h"
#include "reference_blur.h"
#include "reference_multirate.h"

using namespace cudagaussian;

namespace {

double sum(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}

// Uniform samples of the plane's whole range.
PlaneValues random_samples(const PlaneGeometry& g, unsigned seed) {
  PlaneValues v = cgtest::random_plane(g, seed);
  if (g.max_value() > 255)
    for (double& x : v) x *= g.max_value() / 255.0;
  return v;
}

}  // namespace

CG_TEST(axis_steps_and_taps) {
  for (double sigma : {0.0, 0.5, 1.9, 2.0, 3.9, 4.0, 5.0, 10.0, 30.0, 100.0, 250.0})
    for (int length : {1, 2, 3, 17, 1080}) {
      const MultirateAxis a = plan_multirate_axis(length, sigma);
      // At least kMultirateSigmasPerStep sigmas a step where the axis is split, else step 1.
      CHECK(a.step >= 1);
      if (a.step > 1) CHECK(sigma / a.step >= kMultirateSigmasPerStep);
      CHECK_NEAR(sum(a.decimate.data(), static_cast<int>(a.decimate.size())), 1.0, 1e-12);
      CHECK(static_cast<int>(a.decimate.size()) == 2 * a.decimate_radius + 1);
      for (int phase = 0; phase < a.step; ++phase)
        CHECK_NEAR(sum(&a.interpolate[static_cast<size_t>(phase) * a.interpolate_taps], a.interpolate_taps), 1.0,
                   1e-12);
      // Every position's interpolation reads coarse samples that exist, and the first of them is m / step.
      CHECK((length - 1) / a.step + a.interpolate_taps <= a.coarse);
      CHECK(a.position(a.lead) == 0);
      // The polyphase view walks the same taps.
      double phases = 0.0;
      for (int v = 0; v < a.step; ++v)
        for (int t = 0; t < a.decimate_phase_taps(); ++t) phases += a.decimate_phase_tap(v, t);
      CHECK_NEAR(phases, 1.0, 1e-12);
    }
  // Below the split sigma an axis is one FIR of step 1 and the interpolation is the identity.
  const MultirateAxis small = plan_multirate_axis(50, 1.5);
  CHECK(small.step == 1 && small.interpolate_taps == 1 && small.interpolate[0] == 1.0);
  CHECK(plan_multirate_axis(50, 30.0).step == 15);
  // A sigma too small for its taps to be computed is the identity, not a plane of NaN.
  const MultirateAxis tiny = plan_multirate_axis(10, 1e-300);
  CHECK(tiny.decimate.size() == 1 && tiny.decimate[0] == 1.0 && tiny.interpolate[0] == 1.0);
}

// The composite of both stages is the Gaussian itself: far below the 8-bit rounding step on
// random samples (the worst content) at every border, size and sigma.
CG_TEST(reference_matches_the_exact_gaussian) {
  struct Size { int w, h, c; };
  for (const Size sz : {Size{1, 1, 1}, Size{3, 2, 4}, Size{41, 29, 3}, Size{97, 61, 1}, Size{64, 40, 2}})
    for (double sigma : {0.0, 1.0, 2.0, 3.5, 5.0, 10.0, 30.0, 100.0})
      for (Border b : {Border::Replicate, Border::Mirror, Border::Reflect}) {
        PlaneGeometry g;
        g.width = sz.w, g.height = sz.h, g.channels = sz.c;
        const PlaneValues in = random_samples(g, static_cast<unsigned>(sz.w * 7 + sigma * 3));
        const PlaneValues exact = exact_gaussian(g, in, sigma, sigma, b);
        const PlaneValues multirate = reference_multirate(g, in, plan_multirate_axis(g.width, sigma),
                                                          plan_multirate_axis(g.height, sigma), b);
        const double worst = cgtest::max_diff(exact, multirate);
        CHECK_MSG(worst < 2e-3, "%dx%d C%d sigma %g border %s: %g from the exact Gaussian", sz.w, sz.h, sz.c, sigma,
                  border_name(b), worst);
      }
}

// Anisotropic sigmas and 16-bit samples: each axis has its own step.
CG_TEST(reference_anisotropic_and_16_bit) {
  PlaneGeometry g;
  g.width = 150, g.height = 47, g.channels = 1, g.bytes_per_sample = 2;
  const PlaneValues in = random_samples(g, 11);
  for (auto [sx, sy] : {std::pair{24.0, 0.0}, std::pair{0.0, 9.0}, std::pair{40.0, 3.0}, std::pair{6.0, 17.0}}) {
    const PlaneValues exact = exact_gaussian(g, in, sx, sy, Border::Mirror);
    const PlaneValues multirate =
        reference_multirate(g, in, plan_multirate_axis(g.width, sx), plan_multirate_axis(g.height, sy), Border::Mirror);
    const double worst = cgtest::max_diff(exact, multirate);
    CHECK_MSG(worst < 0.3, "sigmas %g, %g: %g of 65535 from the exact Gaussian", sx, sy, worst);
  }
}

CG_TEST_MAIN()
