// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_box.h"

#include "border.h"

namespace cudagaussian {

namespace {
// One box pass of odd width w along rows (vertical = false) or columns.
PlaneValues box_pass(const PlaneGeometry& g, const PlaneValues& in, int w, bool vertical, Border border) {
  const int r = w / 2, n = g.samples_per_row(), c = g.channels;
  PlaneValues out(in.size());
  for (int y = 0; y < g.height; ++y)
    for (int i = 0; i < n; ++i) {
      double sum = 0.0;
      for (int k = -r; k <= r; ++k) {
        if (vertical)
          sum += in[static_cast<size_t>(border_index(y + k, g.height, border)) * n + i];
        else
          sum += in[static_cast<size_t>(y) * n + border_index(i / c + k, g.width, border) * c + i % c];
      }
      out[static_cast<size_t>(y) * n + i] = sum / w;
    }
  return out;
}
}  // namespace

PlaneValues reference_box(const PlaneGeometry& g, const PlaneValues& in, const std::vector<int>& widths_x,
                          const std::vector<int>& widths_y, Border border) {
  PlaneValues v = in;
  for (int w : widths_x) v = box_pass(g, v, w, false, border);
  for (int w : widths_y) v = box_pass(g, v, w, true, border);
  return v;
}

PlaneValues reference_direct(const PlaneGeometry& g, const PlaneValues& in,
                             const std::vector<double>& kernel, int size, Border border) {
  const int r = size / 2, n = g.samples_per_row(), c = g.channels;
  PlaneValues out(in.size());
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      for (int ch = 0; ch < c; ++ch) {
        double acc = 0.0;
        for (int j = -r; j <= r; ++j) {
          const size_t row = static_cast<size_t>(border_index(y + j, g.height, border)) * n;
          for (int i = -r; i <= r; ++i)
            acc += kernel[(j + r) * size + (i + r)] * in[row + border_index(x + i, g.width, border) * c + ch];
        }
        out[static_cast<size_t>(y) * n + x * c + ch] = acc;
      }
  return out;
}

std::vector<double> afif_5x5_kernel() {
  static const int k[25] = {1, 4,  7,  4,  1,  4, 16, 26, 16, 4, 7, 26, 41,
                            26, 7, 4, 16, 26, 16, 4, 1,  4,  7,  4, 1};
  std::vector<double> out(25);
  for (int i = 0; i < 25; ++i) out[i] = k[i] / 273.0;
  return out;
}

}  // namespace cudagaussian
