// SPDX-License-Identifier: LGPL-2.1-or-later
#include "fir_taps.h"

#include <algorithm>
#include <cmath>

namespace cudagaussian {

int fir_radius(double sigma, double truncate) {
  if (!(sigma > 0.0)) return 0;
  // The small epsilon keeps e.g. 4 * 2.5 = 10 from becoming 11 through rounding noise.
  return static_cast<int>(std::ceil(truncate * sigma - 1e-9));
}

std::vector<double> gaussian_taps(double sigma, int radius) {
  if (!(sigma > 0.0) || radius <= 0) return {1.0};
  std::vector<double> taps(2 * radius + 1);
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    const double v = std::exp(-(double(k) * k) / (2.0 * sigma * sigma));
    taps[k + radius] = v;
    sum += v;
  }
  for (double& v : taps) v /= sum;
  return taps;
}

int exact_radius(double sigma) {
  if (!(sigma > 0.0)) return 0;
  return static_cast<int>(std::ceil(8.0 * sigma)) + 1;
}

std::vector<float> to_float(const std::vector<double>& taps) {
  return std::vector<float>(taps.begin(), taps.end());
}

std::vector<double> outer_product_kernel(const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                                         int* size) {
  const int n = static_cast<int>(std::max(taps_x.size(), taps_y.size()));
  std::vector<double> k(static_cast<size_t>(n) * n, 0.0);
  const int ox = (n - static_cast<int>(taps_x.size())) / 2, oy = (n - static_cast<int>(taps_y.size())) / 2;
  for (size_t j = 0; j < taps_y.size(); ++j)
    for (size_t i = 0; i < taps_x.size(); ++i) k[(j + oy) * n + (i + ox)] = taps_y[j] * taps_x[i];
  *size = n;
  return k;
}

}  // namespace cudagaussian
