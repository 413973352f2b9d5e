// SPDX-License-Identifier: LGPL-2.1-or-later
// Reading a tile of 8-bit interleaved samples into the tensor-core FIR's shared memory
// (tensor_fir.cu, tensor_fir_fused.cu): sixteen scalars at a time, the border rule applied to
// rows and to scalars beyond a row's ends.
#pragma once

#include <cstdint>

#include "border.h"

namespace cudagaussian {

constexpr int kStagePiece = 16;  // scalars a thread reads at a time

// Sixteen scalars of a row from scalar g on, one byte at a time, those beyond the row's ends by
// the border rule (scalar q is channel q % C of pixel q / C, C = 1 << channel_shift). Out of
// line: only pieces at the frame's edges or in unaligned rows take it.
static __device__ __noinline__ uint4 load_piece_bytes(const unsigned char* row, int g, int width, int channel_shift,
                                                      Border border) {
  const int channels = 1 << channel_shift;
  union {
    unsigned char b[kStagePiece];
    uint4 u;
  } piece;
#pragma unroll
  for (int k = 0; k < kStagePiece; ++k) {
    const int q = g + k;
    const int pixel = border_index(q >> channel_shift, width, border);  // >>: floor for q < 0
    piece.b[k] = __ldg(row + (pixel << channel_shift) + (q & (channels - 1)));
  }
  return piece.u;
}

// The same piece, in one 16-byte load where it lies inside the row and is aligned.
__device__ __forceinline__ uint4 load_piece(const unsigned char* row, int g, int width, int channel_shift,
                                            Border border) {
  const int row_scalars = width << channel_shift;
  if (g >= 0 && g + kStagePiece <= row_scalars && (reinterpret_cast<uintptr_t>(row + g) % kStagePiece) == 0)
    return __ldg(reinterpret_cast<const uint4*>(row + g));
  return load_piece_bytes(row, g, width, channel_shift, border);
}

// Stages `rows` rows of `pieces` pieces of 16 scalars: row r is frame row border_index(first_row +
// r), its pieces start at scalar first_scalar. Each thread loads kBatch pieces before it stores
// any (store(r, at, piece), `at` the piece's first scalar from first_scalar), so that their loads
// wait for memory together.
template <int kThreads, int kBatch, typename Store>
__device__ __forceinline__ void stage_rows(const unsigned char* src, size_t pitch, int width, int height,
                                           int channel_shift, Border border, int first_row, int rows,
                                           int first_scalar, int pieces, Store&& store) {
  const int total = rows * pieces;
  for (int i0 = threadIdx.x; i0 < total; i0 += kThreads * kBatch) {
    uint4 piece[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int i = i0 + b * kThreads;
      if (i >= total) break;
      const int r = i / pieces, at = (i - r * pieces) * kStagePiece;
      const int y = border_index(first_row + r, height, border);
      piece[b] = load_piece(src + static_cast<size_t>(y) * pitch, first_scalar + at, width, channel_shift, border);
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int i = i0 + b * kThreads;
      if (i >= total) break;
      const int r = i / pieces, at = (i - r * pieces) * kStagePiece;
      store(r, at, piece[b]);
    }
  }
}

}  // namespace cudagaussian
