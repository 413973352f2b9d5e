// SPDX-License-Identifier: LGPL-2.1-or-later
#include "multirate_axis.h"

#include <algorithm>
#include <cmath>

namespace cudagaussian {

namespace {

constexpr double kPi = 3.14159265358979323846;

double gaussian_density(double t, double sigma) {
  return std::exp(-t * t / (2.0 * sigma * sigma)) / (sigma * std::sqrt(2.0 * kPi));
}

void normalise(double* taps, int count) {
  double sum = 0.0;
  for (int i = 0; i < count; ++i) sum += taps[i];
  for (int i = 0; i < count; ++i) taps[i] /= sum;
}

}  // namespace

MultirateAxis plan_multirate_axis(int length, double sigma) {
  MultirateAxis a;
  a.length = length;
  if (sigma < kMultirateMinSigma) sigma = 0.0;  // its taps would underflow: the identity
  const bool split = sigma >= kMultirateMinSplitSigma;
  a.step = split ? std::max(1, static_cast<int>(std::floor(sigma / kMultirateSigmasPerStep))) : 1;
  // Unsplit, the decimation is the whole Gaussian (at step 1) and the interpolation the identity.
  const double sigma_decimate = split ? sigma / std::sqrt(2.0) : sigma;
  const double sigma_interpolate = split ? sigma / std::sqrt(2.0) : 0.0;

  a.decimate_radius = static_cast<int>(std::ceil(kMultirateTruncate * sigma_decimate));
  a.decimate.assign(2 * a.decimate_radius + 1, 1.0);
  if (sigma_decimate > 0.0) {
    for (int j = 0; j < static_cast<int>(a.decimate.size()); ++j)
      a.decimate[j] = gaussian_density(j - a.decimate_radius, sigma_decimate);
    normalise(a.decimate.data(), static_cast<int>(a.decimate.size()));
  }

  // Position m = step q + phase reads coarse samples q + lead + d, at distance phase - step d
  // from m, for every d with |phase - step d| <= radius: d from -floor(radius / step) (phase 0)
  // to floor((step - 1 + radius) / step) (the last phase).
  const int radius = static_cast<int>(std::ceil(kMultirateTruncate * sigma_interpolate));
  const int first = -(radius / a.step), last = (a.step - 1 + radius) / a.step;
  a.lead = -first;
  a.interpolate_taps = last - first + 1;
  a.interpolate.assign(static_cast<size_t>(a.step) * a.interpolate_taps, 0.0);
  for (int phase = 0; phase < a.step; ++phase) {
    double* taps = &a.interpolate[static_cast<size_t>(phase) * a.interpolate_taps];
    for (int t = 0; t < a.interpolate_taps; ++t) {
      const int distance = phase - a.step * (first + t);
      if (std::abs(distance) > radius) continue;
      taps[t] = sigma_interpolate > 0.0 ? gaussian_density(distance, sigma_interpolate) : 1.0;
    }
    normalise(taps, a.interpolate_taps);
  }
  a.coarse = (length - 1) / a.step + a.lead + last + 1;
  return a;
}

}  // namespace cudagaussian
