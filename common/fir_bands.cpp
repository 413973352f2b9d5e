// SPDX-License-Identifier: LGPL-2.1-or-later
#include "fir_bands.h"

#include <cmath>

namespace cudagaussian {
namespace {

int round_up_to_block(int v) { return (v + kBandBlock - 1) / kBandBlock * kBandBlock; }

// Blocks 0 .. m reach the largest distance (radius_scalars) from every output of a block.
int blocks_for(int radius_scalars, int halo) { return (radius_scalars + halo + kBandBlock - 1) / kBandBlock + 1; }

}  // namespace

FirBands row_bands(const std::vector<double>& taps, int channels) {
  const int radius = static_cast<int>(taps.size() / 2);
  FirBands b;
  b.halo = round_up_to_block(radius * channels);
  b.blocks = blocks_for(radius * channels, b.halo);
  b.values.assign(static_cast<size_t>(b.blocks) * kBandBlock * kBandBlock, 0.0f);
  for (int m = 0; m < b.blocks; ++m)
    for (int k = 0; k < kBandBlock; ++k)
      for (int n = 0; n < kBandBlock; ++n) {
        const int distance = kBandBlock * m + k - b.halo - n;  // in scalars
        if (distance % channels != 0) continue;
        const int pixels = distance / channels;
        if (pixels < -radius || pixels > radius) continue;
        b.values[(static_cast<size_t>(m) * kBandBlock + k) * kBandBlock + n] =
            static_cast<float>(taps[pixels + radius]);
      }
  return b;
}

// T_m[i][k] = tap(16 m + k - halo - i) is B_m[k][i] of one channel: the row bands transposed.
FirBands column_bands(const std::vector<double>& taps) {
  const FirBands rows = row_bands(taps, 1);
  FirBands b = rows;
  for (int m = 0; m < b.blocks; ++m)
    for (int i = 0; i < kBandBlock; ++i)
      for (int k = 0; k < kBandBlock; ++k)
        b.values[(static_cast<size_t>(m) * kBandBlock + i) * kBandBlock + k] = rows.at(m, k, i);
  return b;
}

bool taps_suit_tensor_cores(const std::vector<double>& taps) {
  double sum = 0.0;
  for (double t : taps) {
    if (!(t >= 0.0)) return false;
    sum += t;
  }
  return std::fabs(sum - 1.0) <= 1e-6;
}

bool plane_suits_tensor_cores(const PlaneGeometry& g, const std::vector<double>& taps_x,
                              const std::vector<double>& taps_y) {
  // The intermediate's rows (the plane's, rounded to a vertical tile, and the margins) make at
  // most 65535 blocks of a grid's y dimension.
  constexpr int kMaxRows = 65535 * kBandBlock - 4 * kTensorFirMaxRadius;
  const int radius_x = static_cast<int>(taps_x.size() / 2), radius_y = static_cast<int>(taps_y.size() / 2);
  return g.bytes_per_sample == 1 && g.shift == 0 && (g.channels == 1 || g.channels == 2 || g.channels == 4) &&
         radius_x <= kTensorFirMaxRadius && radius_y <= kTensorFirMaxRadius && g.height <= kMaxRows &&
         taps_suit_tensor_cores(taps_x) && taps_suit_tensor_cores(taps_y);
}

}  // namespace cudagaussian
