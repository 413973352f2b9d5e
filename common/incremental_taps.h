// SPDX-License-Identifier: LGPL-2.1-or-later
// Turkowski's incremental Gaussian (GPU Gems 3, ch. 40, 2007): the taps of the sampled
// Gaussian from the centre outwards with two multiply-adds each, instead of a table or an exp:
//   t[0] = 1 / Σ_k exp(-k²/2σ²)  (normalised like gaussian_taps()),
//   t[i+1] = t[i] · r[i],  r[i+1] = r[i] · c,   r[0] = exp(-1/2σ²), c = exp(-1/σ²),
// since t[i+1]/t[i] = exp(-(2i+1)/2σ²). The ratios are kept as r - 1 and c - 1 (from expm1):
// at large sigma c is 1 - 1/σ², and float keeps only a few digits of the 1/σ² in c itself, an
// error that compounds over the R steps (16-bit output ~45 LSB off at sigma 250); as r - 1 it
// stays within 0.06 LSB. Going outwards the taps only shrink, so an underflow is harmless.
#pragma once

#include <cmath>

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

struct IncrementalGaussian {
  float centre;            // t[0]
  float ratio_minus_one;   // r[0] - 1
  float step_minus_one;    // c - 1
};

// In double, then rounded once; sigma 0 (or radius 0) gives the identity (t[0] = 1).
inline IncrementalGaussian make_incremental_gaussian(double sigma, int radius) {
  if (!(sigma > 0.0) || radius <= 0) return {1.0f, 0.0f, 0.0f};
  double sum = 1.0;
  for (int k = 1; k <= radius; ++k) sum += 2.0 * std::exp(-double(k) * k / (2.0 * sigma * sigma));
  return {static_cast<float>(1.0 / sum), static_cast<float>(std::expm1(-1.0 / (2.0 * sigma * sigma))),
          static_cast<float>(std::expm1(-1.0 / (sigma * sigma)))};
}

// Moves (tap, r - 1) from t[i], r[i] to t[i+1], r[i+1].
CG_HOST_DEVICE inline void incremental_advance(float& tap, float& ratio_minus_one, float step_minus_one) {
  tap = fmaf(tap, ratio_minus_one, tap);
  ratio_minus_one = fmaf(ratio_minus_one, step_minus_one, ratio_minus_one + step_minus_one);
}

}  // namespace cudagaussian
