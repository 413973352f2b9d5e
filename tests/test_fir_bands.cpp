// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU test of the tensor-core FIR's arithmetic (common/fir_bands.h and kernels/tensor_fir.cu,
// common/fused_fir_bands.h and kernels/tensor_fir_fused.cu): the band matrices, multiplied tile
// by tile and block by block as the kernels do (their tile constants, staged windows and
// intermediate of the sizes they allocate, bounds-checked here), give the double reference FIR
// exactly in double; with the kernels' fp16 roundings (taps, staged samples as v - 128, the
// intermediate) they stay within the documented error bound.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "border.h"
#include "check.h"
#include "fir_bands.h"
#include "fir_taps.h"
#include "fused_fir_bands.h"
#include "reference_blur.h"
#include "rolling_fir_schedule.h"

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

// Rounds to the nearest fp16 value (ties to even), subnormals included.
double to_half(double v) {
  if (v == 0.0) return 0.0;
  int e = 0;
  std::frexp(v, &e);  // |v| in [2^(e-1), 2^e): 11 significant bits, spacing 2^-24 at least
  const double unit = std::ldexp(1.0, std::max(e - 11, -24));
  return std::nearbyint(v / unit) * unit;
}

// Both passes as the kernels tile them, in double; `fp16`: with the kernels' roundings.
PlaneValues banded_fir(const PlaneGeometry& g, const PlaneValues& in, const std::vector<double>& taps_x,
                       const std::vector<double>& taps_y, Border border, bool fp16) {
  const int c = g.channels, row_scalars = g.width * c, tile_pixels = kRowTileScalars / c;
  const FirBands rows = row_bands(taps_x, 1), columns = column_bands(taps_y);
  auto round = [&](double v) { return fp16 ? to_half(v) : v; };
  auto band = [&](const FirBands& b, int m, int i, int k) { return round(b.at(m, i, k)); };
  const int pitch = intermediate_pitch(row_scalars), mid_rows = intermediate_rows(g.height, columns);
  std::vector<double> mid(static_cast<size_t>(mid_rows) * pitch);
  // Horizontal: a tile stages 16 rows of its pixels and `halo` pixels each side, one plane a
  // channel, border rule applied; 16-pixel strips of each plane take the band of one channel.
  std::vector<double> staged(static_cast<size_t>(tile_pixels + 2 * rows.halo));
  for (int r = 0; r < mid_rows; ++r) {
    const int y = border_index(r - columns.halo, g.height, border);
    for (int x0 = 0; x0 < pitch / c; x0 += tile_pixels)
      for (int ch = 0; ch < c; ++ch) {
        for (size_t s = 0; s < staged.size(); ++s) {
          const int x = border_index(x0 - rows.halo + static_cast<int>(s), g.width, border);
          staged[s] = round(in[static_cast<size_t>(y) * row_scalars + static_cast<size_t>(x) * c + ch] - 128.0);
        }
        for (int j = 0; j < tile_pixels / kBandBlock; ++j)
          for (int n = 0; n < kBandBlock; ++n) {
            double acc = 0.0;
            for (int m = 0; m < rows.blocks; ++m)
              for (int k = 0; k < kBandBlock; ++k)
                acc += staged.at(static_cast<size_t>(kBandBlock * (j + m) + k)) * band(rows, m, k, n);
            mid.at(static_cast<size_t>(r) * pitch + static_cast<size_t>(x0 + kBandBlock * j + n) * c + ch) = round(acc);
          }
      }
  }
  // Vertical: output row block t of a tile takes intermediate block t + m with band block m.
  PlaneValues out(static_cast<size_t>(g.height) * row_scalars);
  for (int y0 = 0; y0 < g.height; y0 += kColumnTileRows)
    for (int t = 0; t < kColumnTileRows / kBandBlock; ++t)
      for (int i = 0; i < kBandBlock; ++i) {
        const int y = y0 + kBandBlock * t + i;
        if (y >= g.height) continue;
        for (int q = 0; q < row_scalars; ++q) {
          double acc = 0.0;
          for (int m = 0; m < columns.blocks; ++m)
            for (int k = 0; k < kBandBlock; ++k)
              acc += band(columns, m, i, k) * mid.at(static_cast<size_t>(y0 + kBandBlock * (t + m) + k) * pitch + q);
          out[static_cast<size_t>(y) * row_scalars + q] = acc + 128.0;
        }
      }
  return out;
}

// The one-kernel layout as kernels/tensor_fir_fused.cu tiles it, in double; `fp16`: with its
// roundings. Staged planes of the tile's size and halo; each warp's 16-pixel strip and rows
// (fused_warp_rows) take the horizontal products of the 16-row blocks the kernel's loop visits,
// and each block meets the 8-row output tiles its delta reaches; every access bounds-checked.
PlaneValues fused_banded_fir(const PlaneGeometry& g, const PlaneValues& in, const std::vector<double>& taps_x,
                             const std::vector<double>& taps_y, Border border, bool fp16) {
  const int c = g.channels, row_scalars = g.width * c, tile_pixels = fused_tile_pixels(c);
  const int warp_rows = fused_warp_rows(c);
  const FusedBands b = fused_bands(taps_x, taps_y, c);
  auto round = [&](double v) { return fp16 ? to_half(v) : v; };
  const int rows = b.staged_rows(), pixels = b.staged_pixels(c);
  std::vector<double> staged(static_cast<size_t>(c) * rows * pixels);
  std::vector<double> mid(16 * 16), acc(static_cast<size_t>(warp_rows) * 16);
  PlaneValues out(static_cast<size_t>(g.height) * row_scalars);
  for (int y0 = 0; y0 < g.height; y0 += kFusedTileRows)
    for (int px0 = 0; px0 < g.width; px0 += tile_pixels) {
      for (int ch = 0; ch < c; ++ch)
        for (int r = 0; r < rows; ++r)
          for (int s = 0; s < pixels; ++s) {
            const int y = border_index(y0 - b.halo_y + r, g.height, border);
            const int x = border_index(px0 - b.halo_x + s, g.width, border);
            staged.at((static_cast<size_t>(ch) * rows + r) * pixels + s) =
                round(in[static_cast<size_t>(y) * row_scalars + static_cast<size_t>(x) * c + ch] - 128.0);
          }
      for (int row0 = 0; row0 < kFusedTileRows; row0 += warp_rows)
        for (int o = 0; o < tile_pixels; o += 16)
          for (int ch = 0; ch < c; ++ch) {
            std::fill(acc.begin(), acc.end(), 0.0);
            const int first = (row0 + b.halo_y - b.radius_y) / 16;
            const int last = (row0 + warp_rows - 1 + b.halo_y + b.radius_y) / 16;
            for (int block = first; block <= last; ++block) {
              // Horizontal: the block's 16 staged rows, 16 pixels of the strip.
              for (int k = 0; k < 16; ++k)
                for (int i = 0; i < 16; ++i) {
                  double sum = 0.0;
                  for (int m = 0; m < b.row_blocks; ++m)
                    for (int j = 0; j < 16; ++j)
                      sum += round(b.row_block(m, i, j)) *
                             staged.at((static_cast<size_t>(ch) * rows + 16 * block + k) * pixels + o +
                                       16 * (b.first_block + m) + j);
                  mid[static_cast<size_t>(k) * 16 + i] = round(sum);
                }
              // Vertical: into every 8-row tile of the warp's rows whose delta is in the table.
              for (int t = 0; t < warp_rows / 8; ++t) {
                const int delta = 16 * block - b.halo_y - row0 - 8 * t;
                if (delta < b.first_delta || delta >= b.first_delta + 8 * b.column_blocks) continue;
                for (int n = 0; n < 8; ++n)
                  for (int i = 0; i < 16; ++i)
                    for (int k = 0; k < 16; ++k)
                      acc.at(static_cast<size_t>(8 * t + n) * 16 + i) +=
                          mid[static_cast<size_t>(k) * 16 + i] * round(b.column_block((delta - b.first_delta) / 8, n, k));
              }
            }
            for (int r = 0; r < warp_rows; ++r)
              for (int i = 0; i < 16; ++i) {
                const int y = y0 + row0 + r, x = px0 + o + i;
                if (y < g.height && x < g.width)
                  out[static_cast<size_t>(y) * row_scalars + static_cast<size_t>(x) * c + ch] =
                      acc[static_cast<size_t>(r) * 16 + i] + 128.0;
              }
          }
    }
  return out;
}

// The rolling layout (kernels/tensor_fir_rolling.cu) step by step, as rolling_fir_schedule.h
// orders it, in double; `fp16`: with its roundings. Blocks of fused_tile_pixels(C) pixels run
// down segments of `segment_rows` rows; each warp's strip and channel keeps `ring` accumulator
// tiles. Adding into a slot that still holds another unfinished tile counts a clash.
PlaneValues rolling_banded_fir(const PlaneGeometry& g, const PlaneValues& in, const std::vector<double>& taps_x,
                               const std::vector<double>& taps_y, Border border, bool fp16, int segment_rows,
                               int ring, int* clashes) {
  const int c = g.channels, row_scalars = g.width * c, tile_pixels = fused_tile_pixels(c);
  const FusedBands b = fused_bands(taps_x, taps_y, c);
  const RollingFirSchedule schedule{b.first_delta, b.column_blocks};
  auto round = [&](double v) { return fp16 ? to_half(v) : v; };
  auto staged = [&](int y, int x, int ch) {
    const size_t at = static_cast<size_t>(border_index(y, g.height, border)) * row_scalars +
                      static_cast<size_t>(border_index(x, g.width, border)) * c + ch;
    return round(in[at] - 128.0);
  };
  std::vector<double> mid(16 * 16), acc(static_cast<size_t>(ring) * 8 * 16);
  std::vector<int> owner(static_cast<size_t>(ring));
  PlaneValues out(static_cast<size_t>(g.height) * row_scalars, -1.0);
  for (int first_row = 0; first_row < g.height; first_row += segment_rows) {
    const int end_row = std::min(g.height, first_row + segment_rows);
    for (int px0 = 0; px0 < g.width; px0 += tile_pixels)
      for (int o = 0; o < tile_pixels; o += 16)
        for (int ch = 0; ch < c; ++ch) {
          std::fill(acc.begin(), acc.end(), 0.0);
          std::fill(owner.begin(), owner.end(), -1);
          for (int s = 0; s < schedule.steps(first_row, end_row); ++s) {
            const int input = schedule.input_row(first_row, s);
            for (int k = 0; k < 16; ++k)
              for (int i = 0; i < 16; ++i) {
                double sum = 0.0;
                for (int m = 0; m < b.row_blocks; ++m)
                  for (int j = 0; j < 16; ++j) {
                    const int at = o + 16 * (b.first_block + m) + j;  // in the staged row
                    CHECK(at < b.staged_pixels(c));
                    sum += round(b.row_block(m, i, j)) * staged(input + k, px0 - b.halo_x + at, ch);
                  }
                mid[static_cast<size_t>(k) * 16 + i] = round(sum);
              }
            for (int j = 0; j < b.column_blocks; ++j) {
              const int tile = 2 * s + j, slot = tile % ring;
              if (owner[slot] != -1 && owner[slot] != tile) ++*clashes;
              owner[slot] = tile;
              for (int n = 0; n < 8; ++n)
                for (int i = 0; i < 16; ++i)
                  for (int k = 0; k < 16; ++k)
                    acc[(static_cast<size_t>(slot) * 8 + n) * 16 + i] +=
                        mid[static_cast<size_t>(k) * 16 + i] * round(b.column_block(b.column_blocks - 1 - j, n, k));
            }
            for (int h = 0; h < 2; ++h) {
              const int slot = (2 * s + h) % ring;
              for (int n = 0; n < 8; ++n)
                for (int i = 0; i < 16; ++i) {
                  const int y = schedule.output_row(first_row, s) + 8 * h + n, x = px0 + o + i;
                  double& a = acc[(static_cast<size_t>(slot) * 8 + n) * 16 + i];
                  if (y >= first_row && y < end_row && x < g.width)
                    out[static_cast<size_t>(y) * row_scalars + static_cast<size_t>(x) * c + ch] = a + 128.0;
                  a = 0.0;
                }
              owner[slot] = -1;
            }
          }
        }
  }
  return out;
}

double worst_difference(const PlaneValues& a, const PlaneValues& b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::fmax(worst, std::fabs(a[i] - b[i]));
  return worst;
}

}  // namespace

CG_TEST(bands_give_the_reference_fir) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> sample(0, 255);
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int checked = 0;
  for (int c : {1, 2, 4})
    for (auto wh : {std::pair<int, int>{1, 1}, {3, 2}, {37, 29}, {70, 18}, {300, 70}})
      for (auto radii : {std::pair<int, int>{0, 0}, {1, 3}, {5, 5}, {20, 2}, {0, 40}, {40, 17}})
        for (Border b : borders) {
          const PlaneGeometry g = geometry(wh.first, wh.second, c);
          PlaneValues in(static_cast<size_t>(g.width) * c * g.height);
          for (double& v : in) v = sample(rng);
          const std::vector<double> tx = gaussian_taps(radii.first / 4.0, radii.first);
          const std::vector<double> ty = gaussian_taps(radii.second / 4.0, radii.second);
          const PlaneValues want = reference_fir(g, in, tx, ty, b);
          const double worst = worst_difference(want, banded_fir(g, in, tx, ty, b, false));
          const double worst_fused = worst_difference(want, fused_banded_fir(g, in, tx, ty, b, false));
          // The band values are floats: about 1e-7 of a sample's range.
          CHECK_MSG(worst < 1e-4 && worst_fused < 1e-4, "%dx%d, %d channels, radii %d/%d, border %d: off by %g (%g in one kernel)",
                    g.width, g.height, c, radii.first, radii.second, static_cast<int>(b), worst, worst_fused);
          ++checked;
        }
  CHECK(checked == 3 * 5 * 6 * 3);
}

CG_TEST(rolling_layout_gives_the_reference_fir) {
  // Every output row once and right, for segments of one step, a few and the whole frame, to
  // vertical radius 56 (the largest ring); a ring one tile short of column_blocks clashes.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> sample(0, 255);
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int checked = 0, short_clashed = 0, k = 0;
  for (int c : {1, 2, 4})
    for (auto wh : {std::pair<int, int>{1, 1}, {3, 2}, {37, 29}, {70, 45}})
      for (auto radii : {std::pair<int, int>{0, 0}, {1, 3}, {5, 5}, {20, 2}, {0, 40}, {40, 17}, {8, 48}, {3, 56}})
        for (int segment_rows : {16, 48, 1024}) {
          const Border b = borders[k++ % 3];
          const PlaneGeometry g = geometry(wh.first, wh.second, c);
          PlaneValues in(static_cast<size_t>(g.width) * c * g.height);
          for (double& v : in) v = sample(rng);
          const std::vector<double> tx = gaussian_taps(radii.first / 4.0, radii.first);
          const std::vector<double> ty = gaussian_taps(radii.second / 4.0, radii.second);
          const int blocks = fused_bands(tx, ty, c).column_blocks;
          CHECK(rolling_ring_tiles(blocks) <= kRollingMaxRing);
          int clashes = 0;
          const PlaneValues got =
              rolling_banded_fir(g, in, tx, ty, b, false, segment_rows, rolling_ring_tiles(blocks), &clashes);
          const double worst = worst_difference(reference_fir(g, in, tx, ty, b), got);
          CHECK_MSG(worst < 1e-4 && clashes == 0, "%dx%d, %d channels, radii %d/%d, segments of %d: off by %g, %d clashes",
                    g.width, g.height, c, radii.first, radii.second, segment_rows, worst, clashes);
          int short_clashes = 0;
          rolling_banded_fir(g, in, tx, ty, b, false, segment_rows, blocks - 1, &short_clashes);
          short_clashed += short_clashes > 0;
          ++checked;
        }
  CHECK(checked == 3 * 4 * 8 * 3);
  CHECK(short_clashed == checked);
}

CG_TEST(fp16_error_within_the_bound) {
  // The kernels' roundings (taps, staged samples, the intermediate) against the exact FIR of the
  // same taps, at radii up to TensorFir's largest (128), on random samples, flat extremes and
  // edges, where the bound's worst cases lie.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> sample(0, 255);
  struct Plane {
    int w, h, c;
    int rx, ry;
  };
  const Plane planes[] = {{300, 40, 4, 20, 20}, {90, 300, 1, 12, 128}, {40, 20, 4, 128, 3},
                          {129, 70, 2, 40, 40}, {33, 33, 4, 64, 64}};
  double worst_seen = 0.0;
  for (const Plane& p : planes)
    for (int content = 0; content < 3; ++content) {
      const PlaneGeometry g = geometry(p.w, p.h, p.c);
      PlaneValues in(static_cast<size_t>(g.width) * p.c * g.height);
      for (size_t i = 0; i < in.size(); ++i)
        in[i] = content == 0 ? sample(rng) : content == 1 ? 255.0 : ((i / p.c) % 7 < 3 ? 0.0 : 255.0);
      const std::vector<double> tx = gaussian_taps(p.rx / 4.0, p.rx), ty = gaussian_taps(p.ry / 4.0, p.ry);
      const PlaneValues want = reference_fir(g, in, tx, ty, Border::Replicate);
      double worst = std::fmax(worst_difference(want, banded_fir(g, in, tx, ty, Border::Replicate, true)),
                               worst_difference(want, fused_banded_fir(g, in, tx, ty, Border::Replicate, true)));
      const int blocks = fused_bands(tx, ty, p.c).column_blocks;
      if (rolling_ring_tiles(blocks) <= kRollingMaxRing) {
        int clashes = 0;
        worst = std::fmax(worst, worst_difference(want, rolling_banded_fir(g, in, tx, ty, Border::Replicate, true, 64,
                                                                           rolling_ring_tiles(blocks), &clashes)));
        CHECK(clashes == 0);
      }
      worst_seen = std::fmax(worst_seen, worst);
      CHECK_MSG(worst <= kTensorFirErrorBound, "%dx%dx%d radii %d/%d content %d: off by %g", p.w, p.h, p.c, p.rx,
                p.ry, content, worst);
    }
  std::printf("  largest fp16 error: %.4f levels (bound %.2f)\n", worst_seen, kTensorFirErrorBound);
  CHECK(worst_seen > 0.0);  // the model does round
}

CG_TEST(taps_the_tensor_cores_take) {
  // Gaussian taps of every radius (and the identity) suit them; taps with a negative value or
  // not summing to 1 do not (the error bound rests on both).
  for (double sigma : {0.0, 0.5, 3.0, 32.0}) CHECK(taps_suit_tensor_cores(gaussian_taps(sigma, fir_radius(sigma, 4.0))));
  CHECK(!taps_suit_tensor_cores({-0.25, 1.5, -0.25}));
  CHECK(!taps_suit_tensor_cores({0.25, 0.25, 0.25}));
  CHECK(!taps_suit_tensor_cores({0.5, 1.0, 0.5}));
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
