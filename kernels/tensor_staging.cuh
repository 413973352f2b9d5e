// SPDX-License-Identifier: LGPL-2.1-or-later
// Moving 8-bit interleaved samples in and out of the tensor-core FIR kernels (tensor_fir.cu,
// tensor_fir_fused.cu, tensor_fir_rolling.cu): reading sixteen scalars at a time, the border
// rule applied to rows and to scalars beyond a row's ends; writing them as biased fp16 channel
// planes; packing rounded results into bytes.
#pragma once

#include <cstdint>
#include <cstring>

#include <cuda_fp16.h>

#include "border.h"

namespace cudagaussian {

constexpr int kStagePiece = 16;  // scalars a thread reads at a time

// border_index() out of line: the edge pieces call it for each of their pixels.
static __device__ __noinline__ int border_pixel(int i, int n, Border border) { return border_index(i, n, border); }

// The 16 / C whole pixels of a piece from pixel `first` on, each through the border rule once;
// RGBA pixels in one load where the row is 4-byte aligned, others byte by byte.
template <int C>
__device__ __forceinline__ uint4 load_border_pixels(const unsigned char* row, int first, int width, Border border) {
  union {
    unsigned char b[kStagePiece];
    uint32_t w[4];
    uint4 u;
  } piece;
  const bool whole = C == 4 && (reinterpret_cast<uintptr_t>(row) % 4) == 0;
#pragma unroll
  for (int j = 0; j < kStagePiece / C; ++j) {
    const unsigned char* at = row + border_pixel(first + j, width, border) * C;
    if (whole) {
      piece.w[j] = __ldg(reinterpret_cast<const uint32_t*>(at));
    } else {
#pragma unroll
      for (int c = 0; c < C; ++c) piece.b[j * C + c] = __ldg(at + c);
    }
  }
  return piece.u;
}

// Sixteen scalars of a row from scalar g on (g a multiple of C = 1 << channel_shift), those beyond
// the row's ends by the border rule. Out of line: only pieces at the frame's edges or in unaligned
// rows take it.
static __device__ __noinline__ uint4 load_piece_bytes(const unsigned char* row, int g, int width, int channel_shift,
                                                      Border border) {
  const int first = g >> channel_shift;  // >>: floor for g < 0
  return channel_shift == 2 ? load_border_pixels<4>(row, first, width, border)
         : channel_shift == 1 ? load_border_pixels<2>(row, first, width, border)
                              : load_border_pixels<1>(row, first, width, border);
}

// The same piece, in one 16-byte load where it lies inside the row and is aligned.
__device__ __forceinline__ uint4 load_piece(const unsigned char* row, int g, int width, int channel_shift,
                                            Border border) {
  const int row_scalars = width << channel_shift;
  if (g >= 0 && g + kStagePiece <= row_scalars && (reinterpret_cast<uintptr_t>(row + g) % kStagePiece) == 0)
    return __ldg(reinterpret_cast<const uint4*>(row + g));
  return load_piece_bytes(row, g, width, channel_shift, border);
}

// Whether stage_rows() leaves the piece at scalar g (from a row's first scalar) to
// stage_beyond_row_ends(): it lies wholly beyond the row's ends.
__device__ __forceinline__ bool piece_beyond_row(int g, int row_scalars) {
  return g + kStagePiece <= 0 || g >= row_scalars;
}

// Stages `rows` rows of `pieces` pieces of 16 scalars: row r is frame row border_index(first_row +
// r), its pieces start at scalar first_scalar (a multiple of C: the pieces hold whole pixels).
// Each thread loads kBatch pieces before it stores any (store(r, at, piece), `at` the piece's
// first scalar from first_scalar), so that their loads wait for memory together. A thread's
// pieces are kThreads apart: it steps its row and piece by whole rows and a remainder instead of
// dividing for each. kInside: every piece lies in the frame and is aligned, so the border rule and
// the checks are skipped. Otherwise pieces wholly beyond a row's ends are not loaded:
// stage_beyond_row_ends() fills them from shared memory.
template <bool kInside, int kThreads, int kBatch, typename Store>
__device__ __forceinline__ void stage_rows_from(const unsigned char* src, size_t pitch, int width, int height,
                                                int channel_shift, Border border, int first_row, int rows,
                                                int first_scalar, int pieces, Store& store) {
  const int total = rows * pieces;
  const int step_rows = kThreads / pieces, step_pieces = kThreads % pieces;
  const int row_scalars = width << channel_shift;
  int r = static_cast<int>(threadIdx.x) / pieces, k = static_cast<int>(threadIdx.x) % pieces;
  for (int i0 = threadIdx.x; i0 < total; i0 += kThreads * kBatch) {
    uint4 piece[kBatch];
    int place[kBatch];  // row << 16 | piece in the row; -1: beyond the row's ends, not loaded
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (i0 + b * kThreads >= total) break;
      place[b] = r << 16 | k;
      const int g = first_scalar + k * kStagePiece;
      if (kInside) {
        piece[b] = __ldg(reinterpret_cast<const uint4*>(src + static_cast<size_t>(first_row + r) * pitch + g));
      } else if (piece_beyond_row(g, row_scalars)) {
        place[b] = -1;
      } else {
        const int y = border_index(first_row + r, height, border);
        piece[b] = load_piece(src + static_cast<size_t>(y) * pitch, g, width, channel_shift, border);
      }
      r += step_rows;
      k += step_pieces;
      if (k >= pieces) {
        k -= pieces;
        ++r;
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (i0 + b * kThreads >= total) break;
      if (place[b] >= 0) store(place[b] >> 16, (place[b] & 0xffff) * kStagePiece, piece[b]);
    }
  }
}

template <int kThreads, int kBatch, typename Store>
__device__ __forceinline__ void stage_rows(const unsigned char* src, size_t pitch, int width, int height,
                                           int channel_shift, Border border, int first_row, int rows,
                                           int first_scalar, int pieces, Store&& store) {
  const bool inside = first_row >= 0 && first_row + rows <= height && first_scalar >= 0 &&
                      first_scalar + pieces * kStagePiece <= (width << channel_shift) &&
                      ((reinterpret_cast<uintptr_t>(src) | pitch | static_cast<unsigned>(first_scalar)) % kStagePiece) == 0;
  if (inside)
    stage_rows_from<true, kThreads, kBatch>(src, pitch, width, height, channel_shift, border, first_row, rows,
                                            first_scalar, pieces, store);
  else
    stage_rows_from<false, kThreads, kBatch>(src, pitch, width, height, channel_shift, border, first_row, rows,
                                             first_scalar, pieces, store);
}

// Completes staged planes after stage_rows(): each staged pixel beyond the frame's left or right
// edge is copied, in shared memory, from the staged pixel the border rule maps it to. Loading
// those pixels from global memory instead takes a wait for each (the pieces are gathered pixel by
// pixel), and the tiles at the frame's sides would take several times as long as the others. A
// piece that straddles a row's end (rows whose bytes are not a multiple of 16) is still loaded
// with the border rule; the copy rewrites its pixels beyond the end with the same values.
// Planes of `rows` rows x `pixels` staged pixels from frame pixel first_pixel on: plane c at
// c * plane_halves, row r at r * stride. Pixels no output of the tile reaches may map beyond the
// staged ones: they take the nearest staged pixel of the frame. Every thread of the block calls
// it: it synchronizes the block before it returns.
template <int C, int kThreads>
__device__ void stage_beyond_row_ends(half* planes, int plane_halves, int stride, int rows, int first_pixel,
                                      int pixels, int width, Border border) {
  __syncthreads();
  const int left = min(pixels, max(0, -first_pixel));         // staged pixels left of the frame
  const int end = max(left, min(pixels, width - first_pixel));  // one past the frame's last staged pixel
  const int beyond = left + pixels - end;
  if (beyond == 0) return;
  // A thread takes one staged pixel beyond the ends, its source found once, over every
  // `row_step`-th row.
  for (int k0 = 0; k0 < beyond; k0 += kThreads) {
    const int lanes = min(beyond - k0, kThreads), row_step = kThreads / lanes;
    if (static_cast<int>(threadIdx.x) >= row_step * lanes) continue;
    const int k = k0 + static_cast<int>(threadIdx.x) % lanes;
    const int j = k < left ? k : end + (k - left);
    const int from = min(max(border_index(first_pixel + j, width, border) - first_pixel, left), end - 1);
    for (int r = static_cast<int>(threadIdx.x) / lanes; r < rows; r += row_step) {
      half v[C];
#pragma unroll
      for (int c = 0; c < C; ++c) v[c] = planes[c * plane_halves + r * stride + from];
#pragma unroll
      for (int c = 0; c < C; ++c) planes[c * plane_halves + r * stride + j] = v[c];
    }
  }
  __syncthreads();
}

// Bytes `lo` and `hi` (0-3) of `word` as the fp16 pair (v_lo - 128, v_hi - 128), exactly: under a
// high byte of 0x64 a byte XX is the fp16 1024 + XX, and 1024 + XX - 1152 is representable.
__device__ __forceinline__ half2 biased_pair(uint32_t word, unsigned lo, unsigned hi) {
  const uint32_t bits = __byte_perm(word, 0x64646464u, lo | 4u << 4 | hi << 8 | 4u << 12);
  half2 pair;
  std::memcpy(&pair, &bits, sizeof pair);
  return __hsub2(pair, __half2half2(__ushort_as_half(0x6480)));  // 0x6480: 1152
}

// Writes a piece of 16 scalars (16 / C pixels) into the channel planes at row `r`, pixel `at`:
// per plane, pairs of neighbouring pixels gathered and biased two at a time (biased_pair()).
template <int C>
__device__ __forceinline__ void store_planes(half* stage, int plane_halves, int r, int stride, int at, uint4 piece) {
  const uint32_t w[4] = {piece.x, piece.y, piece.z, piece.w};
  constexpr int kPairs = kStagePiece / C / 2;  // pixel pairs a plane gets
  half2 pair[C][kPairs];
#pragma unroll
  for (int j = 0; j < kPairs; ++j) {
    if constexpr (C == 4) {
      // Pixels 2j and 2j + 1 are words 2j and 2j + 1: gather each channel pair first.
#pragma unroll
      for (int c = 0; c < 4; c += 2) {
        const uint32_t x = __byte_perm(w[2 * j], w[2 * j + 1], c | (4 + c) << 4 | (c + 1) << 8 | (5 + c) << 12);
        pair[c][j] = biased_pair(x, 0, 1);
        pair[c + 1][j] = biased_pair(x, 2, 3);
      }
    } else if constexpr (C == 2) {
      pair[0][j] = biased_pair(w[j], 0, 2);
      pair[1][j] = biased_pair(w[j], 1, 3);
    } else {
      pair[0][j] = biased_pair(w[j / 2], 2 * (j % 2), 2 * (j % 2) + 1);
    }
  }
#pragma unroll
  for (int c = 0; c < C; ++c) {
    uint2* to = reinterpret_cast<uint2*>(stage + c * plane_halves + r * stride + at);
#pragma unroll
    for (int j = 0; j < kPairs; j += 2) {
      uint2 u;
      std::memcpy(&u.x, &pair[c][j], sizeof u.x);
      std::memcpy(&u.y, &pair[c][j + 1], sizeof u.y);
      to[j / 2] = u;
    }
  }
}

// (sat(hi) << 8 | sat(lo)) with high << 16 above: each clamped to [0, 255].
__device__ __forceinline__ uint32_t saturated_bytes(int hi, int lo, uint32_t high) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 720
  uint32_t d;
  asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(hi), "r"(lo), "r"(high));
  return d;
#else
  return high << 16 | static_cast<uint32_t>(min(max(hi, 0), 255)) << 8 | static_cast<uint32_t>(min(max(lo, 0), 255));
#endif
}

}  // namespace cudagaussian
