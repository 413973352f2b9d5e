// SPDX-License-Identifier: LGPL-2.1-or-later
// Sampled, normalised Gaussian taps (docs/algorithms.md, "Exact Gaussian").
#pragma once

#include <vector>

namespace cudagaussian {

constexpr double kMinTruncate = 1.0;
constexpr double kMaxTruncate = 8.0;
constexpr double kDefaultTruncate = 4.0;

// Support of the truncated FIR: R = ceil(truncate * sigma); 0 when sigma is 0.
int fir_radius(double sigma, double truncate);

// g[k] = exp(-k^2 / 2 sigma^2) / sum, k = -radius..radius (2*radius+1 values).
// sigma == 0 gives the identity {1}.
std::vector<double> gaussian_taps(double sigma, int radius);

// The exact reference's support, |k| <= ceil(8 sigma) + 1.
int exact_radius(double sigma);

std::vector<float> to_float(const std::vector<double>& taps);

// The square 2D kernel of algorithm=direct: the outer product of the vertical and horizontal
// taps, the shorter direction padded with zero taps; *size gets its side.
std::vector<double> outer_product_kernel(const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                                         int* size);

}  // namespace cudagaussian
