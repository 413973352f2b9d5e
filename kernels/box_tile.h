// SPDX-License-Identifier: LGPL-2.1-or-later
// Box passes of one axis, one kernel for all of them. A block holds whole lines (one row with its
// interleaved channels, or a strip of adjacent columns); each thread keeps 16 consecutive samples
// of one line in registers from the first pass to the last. A pass turns them into the line's
// prefix sums (in registers, then a scan of the threads' totals), shares those in shared memory,
// and each output is the difference of two of them: the cost does not depend on the box width,
// and the frame crosses global memory once per axis instead of once per pass. Used by
// box_filter.cu where a tile fits one block.
#pragma once

#include <cstddef>

#include "border.h"
#include "cuda_status.h"
#include "plane.h"

namespace cudagaussian {

constexpr int kMaxBoxTilePasses = 6;

// The tiles of one axis of a plane.
struct BoxTileShape {
  bool vertical = false;
  int length = 0;          // samples per line
  int lines = 0;           // rows (horizontal) or samples per row (vertical)
  int channels = 1;        // samples per pixel
  int lines_per_tile = 0;  // horizontal: channels of one row (all, or a group); vertical: adjacent columns
  int chunks = 0;          // threads per line (16 samples each)
  int apron = 0;           // prefix sums kept past each end: the widest radius + 1, rounded up to 16
  int line_stride = 0;     // shared-memory elements between the prefix sums of two lines
  int threads = 0;         // per block
  size_t shared_bytes = 0;
  int blocks() const {
    return vertical ? (lines + lines_per_tile - 1) / lines_per_tile : lines * (channels / lines_per_tile);
  }
};

struct BoxTilePasses {
  int radius[kMaxBoxTilePasses];
  int count;
};

// The tile shape of one axis for boxes up to `max_radius`, and whether it fits one block (768 threads, `shared_limit` bytes
// of shared memory; false: run that axis with the line kernels of box_filter.cu). A strip of
// columns is 8 wide, or narrower where 8 would need too many threads; `columns_forced` > 0: that
// width.
bool box_tile_shape(const PlaneGeometry& g, bool vertical, int max_radius, size_t shared_limit,
                    int columns_forced, BoxTileShape& shape);

// Allows the kernels of one sample type to use `bytes` of shared memory.
template <typename T>
Status allow_box_tile_shared(size_t bytes);

}  // namespace cudagaussian
