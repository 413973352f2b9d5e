// SPDX-License-Identifier: LGPL-2.1-or-later
// The order of work of the rolling tensor-core FIR (kernels/tensor_fir_rolling.cu), shared with
// its CPU model (tests/test_fir_bands.cpp). It uses the one kernel's tables (fused_fir_bands.h).
//
// A block runs down a segment of output rows [first_row, end_row), 16 input rows a step. Each
// warp keeps the 8-row output tiles still in progress in a ring of accumulator tiles, numbered
// from the segment's start. Step s stages frame rows input_row(s) .. + 15, multiplies them
// horizontally, and adds the product into ring tiles 2 s + j (j < column_blocks) through column
// block column_blocks - 1 - j. Ring tiles 2 s and 2 s + 1 then receive nothing more: they are
// output rows output_row(s) .. + 15. Each input row is staged and multiplied once, and shared
// memory does not grow with the vertical radius.
//
// Why it adds up: ring tile k is output row Y = output_row(0) + 8 k and meets input block s
// through column block d = column_blocks - 1 - (k - 2 s). Then input_row(s) - Y = first_delta +
// 8 d, the offset that column block d holds. Tiles in progress never span more than
// column_blocks ring tiles, so a ring of that many tiles never holds two tiles at once.
#pragma once

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

struct RollingFirSchedule {
  int first_delta = 0;    // FusedBands::first_delta: a multiple of 8, at most 0
  int column_blocks = 0;  // FusedBands::column_blocks

  // 1 where first_delta is an odd multiple of 8: the input blocks then start 8 rows later.
  CG_HOST_DEVICE int lead() const { return (first_delta / 8) % 2 != 0 ? 1 : 0; }
  CG_HOST_DEVICE int input_row(int first_row, int step) const {
    return first_row + first_delta + 8 * lead() + 16 * step;
  }
  CG_HOST_DEVICE int output_row(int first_row, int step) const {
    return first_row + 8 * (lead() - column_blocks + 1) + 16 * step;
  }
  // Steps until the segment's last row is complete.
  CG_HOST_DEVICE int steps(int first_row, int end_row) const {
    return (end_row - output_row(first_row, 0) + 15) / 16;
  }
};

// Accumulator tiles a warp keeps: column_blocks rounded up to 8 or to kRollingMaxRing, the
// kernel's two instances (more than kRollingMaxRing where the rolling layout does not run).
constexpr int kRollingMaxRing = 16;
constexpr int rolling_ring_tiles(int column_blocks) {
  return column_blocks <= 8 ? 8 : column_blocks <= kRollingMaxRing ? kRollingMaxRing : column_blocks;
}

}  // namespace cudagaussian
