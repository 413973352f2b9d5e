// SPDX-License-Identifier: LGPL-2.1-or-later
#include "fused_fir_bands.h"

namespace cudagaussian {
namespace {

int round_up(int v, int to) { return (v + to - 1) / to * to; }

float tap(const std::vector<double>& taps, int distance) {
  const int radius = static_cast<int>(taps.size() / 2);
  return distance < -radius || distance > radius ? 0.0f : static_cast<float>(taps[distance + radius]);
}

}  // namespace

FusedBands fused_bands(const std::vector<double>& taps_x, const std::vector<double>& taps_y, int channels) {
  const int rx = static_cast<int>(taps_x.size() / 2), ry = static_cast<int>(taps_y.size() / 2);
  FusedBands b;
  // A staged row starts halo_x pixels before a tile that starts on a multiple of 256 scalars:
  // 16-byte aligned when halo_x x channels is a multiple of 16 (and halo_x of 8, for the
  // 16-byte rows of the matrix loads).
  b.halo_x = round_up(rx, channels == 1 ? 16 : 8);
  b.halo_y = round_up(ry, 8);
  b.radius_y = ry;
  b.first_block = (b.halo_x - rx) / 16;
  b.row_blocks = (b.halo_x + rx + 15) / 16 - b.first_block + 1;
  b.first_delta = -8 * ((ry + 15) / 8);
  b.column_blocks = (8 * ((ry + 7) / 8) - b.first_delta) / 8 + 1;
  b.values.assign(static_cast<size_t>(b.row_blocks) * kFusedRowBlockValues +
                      static_cast<size_t>(b.column_blocks) * kFusedColumnBlockValues,
                  0.0f);
  for (int m = 0; m < b.row_blocks; ++m)
    for (int i = 0; i < 16; ++i)
      for (int k = 0; k < 16; ++k)
        b.values[(static_cast<size_t>(m) * 16 + i) * 16 + k] = tap(taps_x, 16 * (b.first_block + m) + k - b.halo_x - i);
  float* columns = b.values.data() + static_cast<size_t>(b.row_blocks) * kFusedRowBlockValues;
  for (int d = 0; d < b.column_blocks; ++d)
    for (int n = 0; n < 8; ++n)
      for (int k = 0; k < 16; ++k)
        columns[(static_cast<size_t>(d) * 8 + n) * 16 + k] = tap(taps_y, b.first_delta + 8 * d + k - n);
  return b;
}

}  // namespace cudagaussian
