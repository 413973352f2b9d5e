// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU test of the band matrices the tensor-core FIR multiplies (common/fir_bands.h): the two
// passes computed block by block as kernels/tensor_fir.cu tiles them (16-scalar output blocks, the
// halo before them, the border rule applied to the staged inputs and to the intermediate's margin
// rows) must give the double reference FIR, for every channel count, radius and border.

#include <cmath>
#include <random>
#include <vector>

#include "border.h"
#include "check.h"
#include "fir_bands.h"
#include "fir_taps.h"
#include "reference_blur.h"

using namespace cudagaussian;

namespace {

PlaneGeometry geometry(int w, int h, int c) {
  PlaneGeometry g;
  g.width = w;
  g.height = h;
  g.channels = c;
  g.bytes_per_sample = 1;
  return g;
}

int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Both passes as the kernels run them, in double.
PlaneValues banded_fir(const PlaneGeometry& g, const PlaneValues& in, const std::vector<double>& taps_x,
                       const std::vector<double>& taps_y, Border border) {
  const int c = g.channels, row_scalars = g.width * c;
  const FirBands rows = row_bands(taps_x, c), columns = column_bands(taps_y);
  const int padded = round_up(row_scalars, kBandBlock);
  // The intermediate: rows from `columns.halo` above row 0, the border rule's rows included.
  const int mid_rows = round_up(g.height, kBandBlock) + kBandBlock * (columns.blocks - 1);
  std::vector<double> mid(static_cast<size_t>(mid_rows) * padded, 0.0);
  for (int r = 0; r < mid_rows; ++r) {
    const int y = border_index(r - columns.halo, g.height, border);
    auto input = [&](int q) {  // scalar q of row y, any q
      const int pixel = q >= 0 ? q / c : -((-q + c - 1) / c);
      return in[static_cast<size_t>(y) * row_scalars + border_index(pixel, g.width, border) * c + (q - pixel * c)];
    };
    for (int q0 = 0; q0 < padded; q0 += kBandBlock)
      for (int n = 0; n < kBandBlock; ++n) {
        double acc = 0.0;
        for (int m = 0; m < rows.blocks; ++m)
          for (int k = 0; k < kBandBlock; ++k) acc += input(q0 - rows.halo + kBandBlock * m + k) * rows.at(m, k, n);
        mid[static_cast<size_t>(r) * padded + q0 + n] = acc;
      }
  }
  PlaneValues out(static_cast<size_t>(g.height) * row_scalars);
  for (int y0 = 0; y0 < g.height; y0 += kBandBlock)
    for (int i = 0; i < kBandBlock && y0 + i < g.height; ++i)
      for (int q = 0; q < row_scalars; ++q) {
        double acc = 0.0;
        for (int m = 0; m < columns.blocks; ++m)
          for (int k = 0; k < kBandBlock; ++k)
            acc += columns.at(m, i, k) * mid[static_cast<size_t>(y0 + kBandBlock * m + k) * padded + q];
        out[static_cast<size_t>(y0 + i) * row_scalars + q] = acc;
      }
  return out;
}

}  // namespace

CG_TEST(bands_give_the_reference_fir) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> sample(0.0, 255.0);
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int checked = 0;
  for (int c : {1, 2, 4})
    for (auto wh : {std::pair<int, int>{1, 1}, {3, 2}, {37, 29}, {70, 18}})
      for (auto radii : {std::pair<int, int>{0, 0}, {1, 3}, {5, 5}, {20, 2}, {0, 40}, {40, 17}})
        for (Border b : borders) {
          const PlaneGeometry g = geometry(wh.first, wh.second, c);
          PlaneValues in(static_cast<size_t>(g.width) * c * g.height);
          for (double& v : in) v = sample(rng);
          const std::vector<double> tx = gaussian_taps(radii.first / 4.0, radii.first);
          const std::vector<double> ty = gaussian_taps(radii.second / 4.0, radii.second);
          const PlaneValues want = reference_fir(g, in, tx, ty, b);
          const PlaneValues got = banded_fir(g, in, tx, ty, b);
          double worst = 0.0;
          for (size_t i = 0; i < want.size(); ++i) worst = std::fmax(worst, std::fabs(want[i] - got[i]));
          // The band values are floats: about 1e-7 of a sample's range.
          CHECK_MSG(worst < 1e-4, "%dx%d, %d channels, radii %d/%d, border %d: off by %g", g.width, g.height, c,
                    radii.first, radii.second, static_cast<int>(b), worst);
          ++checked;
        }
  CHECK(checked == 3 * 4 * 6 * 3);
}

CG_TEST(band_shapes) {
  // A radius of R pixels of C channels reaches C R scalars each way: a halo of C R rounded up to
  // 16, and blocks up to the farthest distance from every output of a block.
  const FirBands r = row_bands(gaussian_taps(5.0, 20), 4);
  CHECK(r.halo == 80);
  CHECK(r.blocks == (80 + 80 + 15) / 16 + 1);
  const FirBands col = column_bands(gaussian_taps(2.0, 8));
  CHECK(col.halo == 16);
  CHECK(col.blocks == 3);
  // The identity: one block, the unit matrix.
  const FirBands one = row_bands({1.0}, 2);
  CHECK(one.halo == 0 && one.blocks == 1);
  for (int k = 0; k < kBandBlock; ++k)
    for (int n = 0; n < kBandBlock; ++n) CHECK(one.at(0, k, n) == (k == n ? 1.0f : 0.0f));
  // Every tap appears once per output column (the taps of one channel), and only there.
  const std::vector<double> taps = gaussian_taps(1.0, 4);
  const FirBands b = row_bands(taps, 2);
  for (int n = 0; n < kBandBlock; ++n) {
    double sum = 0.0;
    int nonzero = 0;
    for (int m = 0; m < b.blocks; ++m)
      for (int k = 0; k < kBandBlock; ++k) {
        sum += b.at(m, k, n);
        nonzero += b.at(m, k, n) != 0.0f;
      }
    CHECK_NEAR(sum, 1.0, 1e-6);
    CHECK(nonzero == 9);
  }
}

CG_TEST_MAIN()
