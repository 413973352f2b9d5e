// SPDX-License-Identifier: LGPL-2.1-or-later
// The band tables of the tensor-core FIR in one kernel (kernels/tensor_fir_fused.cu), which
// keeps the intermediate in registers. A block makes a tile of kFusedTileRows rows x
// fused_tile_pixels(C) pixels; it stages the tile and a halo of halo_x pixels and halo_y rows
// each side, one plane of fp16 per channel. A warp then works on strips 16 pixels wide:
//
// Horizontal (transposed, so that its result is the next product's left operand): for staged
// rows 16 b .. 16 b + 15, mid[i][r] (output pixel o + i of the strip, row r) is the sum over
// m of row_block(m)[i][k] x staged[r][o + 16 (first_block + m) + k], where
// row_block(m)[i][k] = tap_x(16 (first_block + m) + k - halo_x - i).
// Vertical: output rows Y .. Y + 7 (Y relative to the tile, a multiple of 8) take, from staged
// rows 16 b .. 16 b + 15, mid[i][16 b + k] x column_block(d)[n][k] summed over k, where
// delta = 16 b - halo_y - Y, d = (delta - first_delta) / 8 and
// column_block(d)[n][k] = tap_y(first_delta + 8 d + k - n); a delta outside the table meets
// only zero taps.
#pragma once

#include <cstddef>
#include <vector>

namespace cudagaussian {

constexpr int kFusedTileRows = 64;
// 256 scalars a row whatever the channels: 64 RGBA pixels, 128 of two channels, 256 of one.
constexpr int fused_tile_pixels(int channels) { return 256 / channels; }
// Output rows a warp makes (over 16-pixel strips, every channel): 32 for RGBA, 64 otherwise, so
// that a lane holds the same 64 accumulators whatever the channels.
constexpr int fused_warp_rows(int channels) { return channels == 4 ? 32 : 64; }
constexpr int kFusedRowBlockValues = 16 * 16;    // row_block(m): 16 x 16, row-major
constexpr int kFusedColumnBlockValues = 8 * 16;  // column_block(d): 8 x 16, row-major

struct FusedBands {
  int halo_x = 0;          // pixels staged each side: the radius rounded up so that rows of the
                           // halo start on 16-byte boundaries in the frame and in shared memory
  int halo_y = 0;          // rows staged above and below: the radius rounded up to 8
  int radius_y = 0;
  int first_block = 0;     // the strip's first staged block of 16 pixels that meets a tap
  int row_blocks = 0;
  int first_delta = 0;     // a multiple of 8, at most 0
  int column_blocks = 0;
  std::vector<float> values;  // row_blocks row blocks, then column_blocks column blocks
  float row_block(int m, int i, int k) const { return values[(static_cast<size_t>(m) * 16 + i) * 16 + k]; }
  float column_block(int d, int n, int k) const {
    return values[static_cast<size_t>(row_blocks) * kFusedRowBlockValues + (static_cast<size_t>(d) * 8 + n) * 16 + k];
  }
  int staged_rows() const { return kFusedTileRows + 2 * halo_y; }
  int staged_pixels(int channels) const { return fused_tile_pixels(channels) + 2 * halo_x; }
  // Halves from one staged row to the next: an odd number of 16-byte pieces, so that the eight
  // rows of a matrix load fall in different banks.
  int stage_stride(int channels) const {
    const int w = staged_pixels(channels);
    return (w / 8) % 2 == 0 ? w + 8 : w;
  }
  // Shared memory of a block: the staged planes, then the tables.
  size_t shared_bytes(int channels) const {
    return 2 * (static_cast<size_t>(channels) * staged_rows() * stage_stride(channels) + values.size());
  }
};

// What the kernels take of FusedBands, by value (the values go to device memory).
struct FusedBandShape {
  int halo_x = 0, halo_y = 0, radius_y = 0, first_block = 0, row_blocks = 0, first_delta = 0, column_blocks = 0;
  int stage_stride = 0;  // FusedBands::stage_stride(channels)
};
inline FusedBandShape band_shape(const FusedBands& b, int channels) {
  return {b.halo_x, b.halo_y, b.radius_y, b.first_block, b.row_blocks, b.first_delta, b.column_blocks,
          b.stage_stride(channels)};
}

// `taps_x`, `taps_y`: 2R + 1 centred taps; `channels`: 1, 2 or 4.
FusedBands fused_bands(const std::vector<double>& taps_x, const std::vector<double>& taps_y, int channels);

}  // namespace cudagaussian
