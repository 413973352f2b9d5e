// SPDX-License-Identifier: LGPL-2.1-or-later
// One box pass of the integral-image variant of algorithm=box (Pardo; summed-area tables, Crow
// 1984), for the CUDA kernels (kernels/integral_box.cu) and their CPU replay. Exact integer
// arithmetic: a pass builds the summed-area table (SAT) of its input over the plane extended by the
// box radii (any border rule), and each output is the box *sum* from four SAT entries; the sums of
// all passes are divided by the product of the box areas once, at the end, and rounded half up.
// Unsigned 64-bit arithmetic wraps, and a box sum is the difference of SAT entries modulo 2^64, so
// it is exact as long as the sum itself fits (FrameBlur checks max_value x Π areas < 2^63). Rows
// and columns passes commute, so pass p is box x_p then box y_p in one SAT.
#pragma once

#include <cstddef>
#include <cstdint>

#include "border.h"

namespace cudagaussian {

struct SatShape {
  int width, height, channels;  // the plane
  int rx, ry;                   // box radii of this pass
  Border border;
  CG_HOST_DEVICE int ext_width() const { return width + 2 * rx; }
  CG_HOST_DEVICE int ext_height() const { return height + 2 * ry; }
  CG_HOST_DEVICE size_t at(int ex, int ey, int c) const {
    return (static_cast<size_t>(ey) * ext_width() + ex) * channels + c;
  }
};

// Row ey of channel c of the SAT: running sums along the extended row, the source row taken by
// the border rule. source(x, y, c) gives a value of the plane.
template <typename Source>
CG_HOST_DEVICE inline void sat_row(const SatShape& s, int ey, int c, Source source, uint64_t* sat) {
  const int y = border_index(ey - s.ry, s.height, s.border);
  uint64_t sum = 0;
  for (int ex = 0; ex < s.ext_width(); ++ex) {
    sum += source(border_index(ex - s.rx, s.width, s.border), y, c);
    sat[s.at(ex, ey, c)] = sum;
  }
}

// Column ex of channel c: running sums of the row sums, in place.
CG_HOST_DEVICE inline void sat_column(const SatShape& s, int ex, int c, uint64_t* sat) {
  uint64_t sum = 0;
  for (int ey = 0; ey < s.ext_height(); ++ey) {
    sum += sat[s.at(ex, ey, c)];
    sat[s.at(ex, ey, c)] = sum;
  }
}

// The box sum around plane pixel (x, y): the extended rectangle [x, x + 2rx] x [y, y + 2ry].
CG_HOST_DEVICE inline uint64_t sat_box(const SatShape& s, const uint64_t* sat, int x, int y, int c) {
  const int x1 = x + 2 * s.rx, y1 = y + 2 * s.ry;
  const uint64_t a = sat[s.at(x1, y1, c)];
  const uint64_t b = x > 0 ? sat[s.at(x - 1, y1, c)] : 0;
  const uint64_t d = y > 0 ? sat[s.at(x1, y - 1, c)] : 0;
  const uint64_t e = x > 0 && y > 0 ? sat[s.at(x - 1, y - 1, c)] : 0;
  return a - b - d + e;
}

// sum / denominator rounded half up, as store_plane() rounds the reference.
CG_HOST_DEVICE inline uint64_t integral_box_round(uint64_t sum, uint64_t denominator) {
  return (sum + denominator / 2) / denominator;
}

}  // namespace cudagaussian
