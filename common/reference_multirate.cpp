// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_multirate.h"

#include <stdexcept>

#include "border.h"

namespace cudagaussian {

namespace {

// A plane of `rows` x `columns` pixels of `channels` values, row-major.
struct Values {
  int rows, columns, channels;
  PlaneValues v;
  Values(int r, int c, int ch) : rows(r), columns(c), channels(ch), v(static_cast<size_t>(r) * c * ch, 0.0) {}
  double& at(int r, int c, int ch) { return v[(static_cast<size_t>(r) * columns + c) * channels + ch]; }
  double at(int r, int c, int ch) const { return v[(static_cast<size_t>(r) * columns + c) * channels + ch]; }
};

// Decimation along columns (vertical) or rows: coarse sample k from the border-extended input.
Values decimate(const Values& in, const MultirateAxis& a, Border border, bool vertical) {
  Values out(vertical ? a.coarse : in.rows, vertical ? in.columns : a.coarse, in.channels);
  for (int r = 0; r < out.rows; ++r)
    for (int c = 0; c < out.columns; ++c)
      for (int ch = 0; ch < in.channels; ++ch) {
        const int k = vertical ? r : c;
        double sum = 0.0;
        for (size_t j = 0; j < a.decimate.size(); ++j) {
          const int i = border_index(a.position(k) - a.decimate_radius + static_cast<int>(j), a.length, border);
          sum += a.decimate[j] * (vertical ? in.at(i, c, ch) : in.at(r, i, ch));
        }
        out.at(r, c, ch) = sum;
      }
  return out;
}

// Interpolation back to every position along columns or rows.
Values interpolate(const Values& in, const MultirateAxis& a, bool vertical) {
  Values out(vertical ? a.length : in.rows, vertical ? in.columns : a.length, in.channels);
  for (int r = 0; r < out.rows; ++r)
    for (int c = 0; c < out.columns; ++c)
      for (int ch = 0; ch < in.channels; ++ch) {
        const int m = vertical ? r : c;
        const double* taps = &a.interpolate[static_cast<size_t>(m % a.step) * a.interpolate_taps];
        double sum = 0.0;
        for (int t = 0; t < a.interpolate_taps; ++t)
          sum += taps[t] * (vertical ? in.at(m / a.step + t, c, ch) : in.at(r, m / a.step + t, ch));
        out.at(r, c, ch) = sum;
      }
  return out;
}

}  // namespace

PlaneValues reference_multirate(const PlaneGeometry& g, const PlaneValues& in, const MultirateAxis& x,
                                const MultirateAxis& y, Border border) {
  if (x.length != g.width || y.length != g.height) throw std::invalid_argument("multirate plan of another size");
  Values frame(g.height, g.width, g.channels);
  frame.v = in;
  const Values coarse_rows = decimate(frame, y, border, true);
  const Values coarse = decimate(coarse_rows, x, border, false);
  const Values rows_back = interpolate(coarse, x, false);
  return interpolate(rows_back, y, true).v;
}

}  // namespace cudagaussian
