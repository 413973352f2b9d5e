// SPDX-License-Identifier: LGPL-2.1-or-later
// The FIR as banded matrix products, cut into 16x16 blocks for tensor cores (kernels/tensor_fir.cu
// multiplies them; tests/test_fir_bands.cpp multiplies them on the CPU against the reference).
//
// Horizontal, on rows of scalars with C channels a pixel: the output scalars q0 .. q0+15 of a row
// are the sum over blocks m of (input scalars s0 + 16 m .. s0 + 16 m + 15) x B_m, where s0 = q0 -
// halo and B_m[k][n] is the tap of the pixel distance (16 m + k - halo - n) / C when that distance
// is a whole number of pixels within the radius, else 0. The kernels stage one plane per channel
// and take the bands of C = 1; the interleaved form (C > 1) stays for the tests.
// Vertical: output rows y0 .. y0+15 of a column are the sum over m of T_m x (input rows
// y0 - halo + 16 m .. + 15), T_m[i][k] the tap of distance 16 m + k - halo - i.
#pragma once

#include <cstddef>
#include <vector>

#include "plane.h"

namespace cudagaussian {

constexpr int kBandBlock = 16;

struct FirBands {
  int halo = 0;               // input scalars (or rows) before the first output, a multiple of 16
  int blocks = 0;             // 16x16 blocks
  std::vector<float> values;  // blocks x 16 x 16, each row-major
  float at(int block, int row, int column) const {
    return values[(static_cast<size_t>(block) * kBandBlock + row) * kBandBlock + column];
  }
};

// `taps`: 2R + 1 centred taps. `channels` divides 16.
FirBands row_bands(const std::vector<double>& taps, int channels);
FirBands column_bands(const std::vector<double>& taps);

// How the tensor-core kernels tile the products (shared with the CPU model of the tests):
// a horizontal tile makes 16 rows of kRowTileScalars outputs (kRowTileScalars / C pixels) from
// its pixels and `halo` pixels each side, a vertical tile kColumnTileRows rows.
constexpr int kRowTileScalars = 256;
constexpr int kColumnTileRows = 64;
// The intermediate between the passes: a row per input row from `columns.halo` above the plane
// to as far below it as the last vertical tile reads, and whole horizontal tiles per row.
inline int intermediate_rows(int height, const FirBands& columns) {
  return (height + kColumnTileRows - 1) / kColumnTileRows * kColumnTileRows + kBandBlock * (columns.blocks - 1);
}
inline int intermediate_pitch(int row_scalars) {
  return (row_scalars + kRowTileScalars - 1) / kRowTileScalars * kRowTileScalars;
}

// The largest error of the tensor-core FIR's blur against the exact FIR of the same taps, in
// levels of an 8-bit sample, before rounding (docs/algorithms.md, "The FIR on tensor cores").
constexpr double kTensorFirErrorBound = 0.17;
// Whether taps suit the fp16 products that bound assumes: none negative, summing to 1.
bool taps_suit_tensor_cores(const std::vector<double>& taps);

// The largest radius of the tensor-core kernels in either direction: a horizontal tile and its
// halo (4R scalars each side for RGBA) then fit the 48 KB of shared memory any GPU gives a block.
constexpr int kTensorFirMaxRadius = 128;
// Whether a plane and its taps suit the tensor-core kernels, whatever the GPU: 8-bit samples
// without shift, 1, 2 or 4 channels, radii up to kTensorFirMaxRadius, taps_suit_tensor_cores.
bool plane_suits_tensor_cores(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                              const std::vector<double>& taps_y);

}  // namespace cudagaussian
