// SPDX-License-Identifier: LGPL-2.1-or-later
// Separable FIR Gaussian. See separable_fir.h for the contract.
//
// Two register-blocked building blocks, used by two schedules:
//
// * Column block: a thread owns one scalar column (a row is width * C independent scalars) and
//   kColumnBlock consecutive output rows. It reads each input row once and adds it to all the
//   outputs its taps reach, so an input is loaded (2R + 8) / 8 times per output, not 2R + 1.
// * Row block: a thread owns kRowBlock consecutive output pixels (all C channels) of a row held
//   in shared memory, with the same reuse along the row, and writes them as one vector.
//   Both use "padded taps": the 2R + 1 taps with B - 1 zeros in front and zeros behind, so that
//   each group of B inputs needs 2B - 1 taps at an aligned offset (float4 loads) and the B x B
//   multiply-adds have no range tests. At the smallest radii most of those products meet zero
//   taps: there (radius 1 to 4) the radius is a template constant and each output sums exactly
//   its 2R + 1 inputs.
//
// Schedules:
// * Fused (radius <= kMaxFusedRadius): one block makes a TileRows x kTilePixels output tile.
//   Column blocks filter the source vertically straight into shared memory (tile plus R halo
//   pixels each side), then row blocks filter those rows and write the result. The frame is
//   read once (halos come from L2) and written once: no intermediate in device memory.
// * Two-pass (any radius up to kMaxRadius): column blocks write a float intermediate; a second
//   kernel stages rows of it in shared memory and runs row blocks on them.
//
// Shared-memory rows store logical scalar q (q = pixel * C + channel, pixel 0 being R left of the
// tile) at q + q / (kRowBlock * C): one pad word per row block. Lanes then start kRowBlock*C + 1
// words apart, an odd number, so the 16 lanes of a row hit 16 distinct banks; rows are 16 mod 32
// words apart, so the two rows a warp serves hit the other 16.

#include "separable_fir.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "border.h"

namespace cudagaussian {
namespace {

// ---- tuning constants -------------------------------------------------------------------------

constexpr int kRowBlock = 4;        // output pixels per thread along a row
constexpr int kRowThreads = 16;     // threads per row segment
constexpr int kTilePixels = kRowBlock * kRowThreads;  // 64 output pixels per segment
constexpr int kColumnBlock = 8;     // output rows per thread down a column
static_assert(kRowBlock == 4, "row blocks load their 2 * 4 - 1 padded taps as two float4");
static_assert(kColumnBlock == 8, "column blocks load their 2 * 8 - 1 padded taps as four float4");
static_assert(32 % kRowThreads == 0, "a warp serves whole row segments");

// Fused tiles: TileRows (32, 16 or 8) rows by kTilePixels pixels. Tall tiles re-read fewer
// vertical halo rows; short ones make more blocks (an SD frame in 32-row tiles is 180 blocks
// for 132 SMs) with more loads in flight. A block has 16 threads per tile row, at most 256.
constexpr int kMaxTileRows = 32;
constexpr int kMaxFusedThreads = 256;
__host__ __device__ constexpr int fused_threads(int tile_rows) {
  return tile_rows * kRowThreads < kMaxFusedThreads ? tile_rows * kRowThreads : kMaxFusedThreads;
}
static_assert(kMaxTileRows % kColumnBlock == 0 && 8 % kColumnBlock == 0,
              "tile rows are whole column blocks");
constexpr int kMaxFusedRadius = SeparableFir::kMaxFusedRadius;

// Two-pass column kernel: 32 columns (one warp per 128-byte line of floats) x 8 column blocks.
constexpr int kColumnThreadsX = 32;
constexpr int kColumnThreadsY = 8;
constexpr int kMaxGridY = 65535;

__host__ __device__ constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Padded taps for blocks of B: B - 1 zeros, the 2R + 1 taps, zeros to a whole number of groups.
__host__ __device__ constexpr int padded_inputs(int radius, int block) { return round_up(2 * radius + block, block); }
__host__ __device__ constexpr int padded_taps(int radius, int block) { return padded_inputs(radius, block) + block; }

// Pixels a row segment reads: its 64 plus the halo, rounded up to whole groups of inputs (the
// extra ones meet zero taps but must still be real samples, never uninitialised words).
__host__ __device__ constexpr int row_input_pixels(int radius) {
  return kTilePixels - kRowBlock + padded_inputs(radius, kRowBlock);
}

// Shared-memory row layout (see the top of the file).
__host__ __device__ constexpr int smem_index(int q, int channels) {
  return q + q / (kRowBlock * channels);
}
__host__ __device__ constexpr int smem_row_stride(int radius, int channels) {
  const int words = smem_index(row_input_pixels(radius) * channels - 1, channels) + 1;
  return words + ((16 - words % 32) + 32) % 32;  // 16 mod 32: the two rows of a warp interleave
}
constexpr size_t fused_smem_bytes(int radius, int channels, int tile_rows) {
  return static_cast<size_t>(tile_rows) * smem_row_stride(radius, channels) * sizeof(float);
}
constexpr size_t row_pass_smem_bytes(int radius, int channels, int rows) {
  return static_cast<size_t>(rows) * smem_row_stride(radius, channels) * sizeof(float);
}
constexpr size_t kSm75MaxDynamicSmem = 64 * 1024;
static_assert(fused_smem_bytes(kMaxFusedRadius, 4, kMaxTileRows) <= kSm75MaxDynamicSmem,
              "the largest fused tile must fit sm_75's 64 KB of shared memory per block");
static_assert(row_pass_smem_bytes(SeparableFir::kMaxRadius, 4, 1) <= kSm75MaxDynamicSmem,
              "one row of the largest radius must fit sm_75's 64 KB of shared memory");

// ---- samples ----------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ float load_sample(const unsigned char* row, int index, int shift) {
  return static_cast<float>(__ldg(reinterpret_cast<const T*>(row) + index) >> shift);
}
__device__ __forceinline__ float load_value(const float* row, int index, int) {
  return __ldg(row + index);
}

template <typename T>
__device__ __forceinline__ T to_sample(float value, float max_value, int shift) {
  // Round half up, like store_plane() in the reference.
  const float v = rounded_sample(value, max_value);
  return static_cast<T>(static_cast<unsigned>(v) << shift);
}

// ---- column block -----------------------------------------------------------------------------

// Filters kColumnBlock rows (first_row ..) of scalar column `column` of `src` (rows of `pitch`
// bytes, any row index allowed: the border rule resolves it) into acc[]. Radius > 0: the radius
// is that constant, and each output takes exactly its 2R + 1 inputs (no padded zero taps).
template <typename In, int Radius = 0>
__device__ __forceinline__ void column_block(const unsigned char* src, size_t pitch, int column,
                                             int first_row, int height, int shift,
                                             const float* __restrict__ padded, int radius,
                                             Border border, float (&acc)[kColumnBlock]) {
#pragma unroll
  for (int r = 0; r < kColumnBlock; ++r) acc[r] = 0.0f;
  if constexpr (Radius > 0) {
    constexpr int kTaps = 2 * Radius + 1, kInputs = kColumnBlock + 2 * Radius;
    float w[kTaps];
#pragma unroll
    for (int k = 0; k < kTaps; ++k) w[k] = __ldg(padded + kColumnBlock - 1 + k);  // after the leading zeros
    const int top = first_row - Radius;
    const bool interior = top >= 0 && top + kInputs <= height;
    float v[kInputs];
#pragma unroll
    for (int i = 0; i < kInputs; ++i) {
      const int y = interior ? top + i : border_index(top + i, height, border);
      v[i] = load_sample<In>(src + static_cast<size_t>(y) * pitch, column, shift);
    }
#pragma unroll
    for (int r = 0; r < kColumnBlock; ++r)
#pragma unroll
      for (int k = 0; k < kTaps; ++k) acc[r] = fmaf(w[k], v[r + k], acc[r]);
    return;
  }
  const int inputs = padded_inputs(radius, kColumnBlock);
  // Away from the top and bottom edges, rows are consecutive: step a pointer, skip the rule.
  const int top = first_row - radius;
  const bool interior = top >= 0 && top + inputs <= height;
  const unsigned char* p = src + static_cast<size_t>(interior ? top : 0) * pitch;
  for (int j0 = 0; j0 < inputs; j0 += kColumnBlock) {
    float v[kColumnBlock];
#pragma unroll
    for (int jj = 0; jj < kColumnBlock; ++jj) {
      const unsigned char* row = p;
      if (interior)
        p += pitch;
      else  // the row is the same across the warp: the border rule costs no divergence
        row = src + static_cast<size_t>(border_index(top + j0 + jj, height, border)) * pitch;
      if constexpr (std::is_same_v<In, float>)
        v[jj] = load_value(reinterpret_cast<const float*>(row), column, shift);
      else
        v[jj] = load_sample<In>(row, column, shift);
    }
    // Output r takes input jj with padded tap j0 + jj - r + 7: taps j0 .. j0 + 14.
    float w[2 * kColumnBlock];
    const float4* w4 = reinterpret_cast<const float4*>(padded + j0);
#pragma unroll
    for (int q = 0; q < 2 * kColumnBlock / 4; ++q) {
      const float4 t = __ldg(w4 + q);
      w[4 * q] = t.x, w[4 * q + 1] = t.y, w[4 * q + 2] = t.z, w[4 * q + 3] = t.w;
    }
#pragma unroll
    for (int jj = 0; jj < kColumnBlock; ++jj)
#pragma unroll
      for (int r = 0; r < kColumnBlock; ++r)
        acc[r] = fmaf(w[jj - r + kColumnBlock - 1], v[jj], acc[r]);
  }
}

// ---- row block --------------------------------------------------------------------------------

// Stores the N bytes of one row block with the widest accesses the alignment allows.
template <int N>
__device__ __forceinline__ void store_bytes(unsigned char* dst, const unsigned char (&b)[N],
                                            int align) {
  if (N % 16 == 0 && align >= 16) {
#pragma unroll
    for (int i = 0; i < N; i += 16)
      *reinterpret_cast<uint4*>(dst + i) = *reinterpret_cast<const uint4*>(b + i);
  } else if (N % 8 == 0 && align >= 8) {
#pragma unroll
    for (int i = 0; i < N; i += 8)
      *reinterpret_cast<uint2*>(dst + i) = *reinterpret_cast<const uint2*>(b + i);
  } else if (N % 4 == 0 && align >= 4) {
#pragma unroll
    for (int i = 0; i < N; i += 4)
      *reinterpret_cast<uint32_t*>(dst + i) = *reinterpret_cast<const uint32_t*>(b + i);
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) dst[i] = b[i];
  }
}

// Loads the N bytes of one row block with the widest accesses the alignment allows.
template <int N>
__device__ __forceinline__ void load_bytes(const unsigned char* src, unsigned char (&b)[N], int align) {
  if (N % 16 == 0 && align >= 16) {
#pragma unroll
    for (int i = 0; i < N; i += 16) *reinterpret_cast<uint4*>(b + i) = __ldg(reinterpret_cast<const uint4*>(src + i));
  } else if (N % 8 == 0 && align >= 8) {
#pragma unroll
    for (int i = 0; i < N; i += 8) *reinterpret_cast<uint2*>(b + i) = __ldg(reinterpret_cast<const uint2*>(src + i));
  } else if (N % 4 == 0 && align >= 4) {
#pragma unroll
    for (int i = 0; i < N; i += 4)
      *reinterpret_cast<uint32_t*>(b + i) = __ldg(reinterpret_cast<const uint32_t*>(src + i));
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) b[i] = __ldg(src + i);
  }
}

// Filters the kRowBlock pixels of row block `group` of one shared-memory row and writes them to
// `out_row` (pixel `first_pixel` of the tile is output pixel 0 of the row). Radius > 0: as for
// column_block.
template <int C, typename T, int Radius = 0>
__device__ __forceinline__ void row_block(const float* row, int group, int first_pixel, int width,
                                          const float* __restrict__ padded, int radius,
                                          unsigned char* out_row, float max_value, int shift,
                                          int align, const unsigned char* source_row, int source_align,
                                          const SampleFinish& finish) {
  float acc[C][kRowBlock];
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int p = 0; p < kRowBlock; ++p) acc[c][p] = 0.0f;

  // Input pixel i of this block is tile pixel group * 4 + i; see smem_index().
  const float* base = row + group * kRowBlock * C + group;
  if constexpr (Radius > 0) {
    constexpr int kTaps = 2 * Radius + 1;
    float w[kTaps];
#pragma unroll
    for (int k = 0; k < kTaps; ++k) w[k] = __ldg(padded + kRowBlock - 1 + k);  // after the leading zeros
#pragma unroll
    for (int i = 0; i < kRowBlock + 2 * Radius; ++i)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const float v = base[i * C + c + i / kRowBlock];  // one pad word per kRowBlock pixels
#pragma unroll
        for (int p = 0; p < kRowBlock; ++p)
          if (i - p >= 0 && i - p < kTaps) acc[c][p] = fmaf(w[i - p], v, acc[c][p]);
      }
  } else {
    const int inputs = padded_inputs(radius, kRowBlock);
    for (int i0 = 0; i0 < inputs; i0 += kRowBlock) {
      float w[2 * kRowBlock];
      const float4* w4 = reinterpret_cast<const float4*>(padded + i0);
      const float4 t0 = __ldg(w4), t1 = __ldg(w4 + 1);
      w[0] = t0.x, w[1] = t0.y, w[2] = t0.z, w[3] = t0.w;
      w[4] = t1.x, w[5] = t1.y, w[6] = t1.z, w[7] = t1.w;
      const float* in = base + i0 * C + i0 / kRowBlock;
#pragma unroll
      for (int c = 0; c < C; ++c) {
#pragma unroll
        for (int ii = 0; ii < kRowBlock; ++ii) {
          const float v = in[ii * C + c];
#pragma unroll
          for (int p = 0; p < kRowBlock; ++p)
            acc[c][p] = fmaf(w[ii - p + kRowBlock - 1], v, acc[c][p]);
        }
      }
    }
  }

  const int x = first_pixel + group * kRowBlock;
  T* out = reinterpret_cast<T*>(out_row) + static_cast<size_t>(x) * C;
  if (finish.active()) {  // the last pass's finishing step, from the input samples
    const T* in = reinterpret_cast<const T*>(source_row) + static_cast<size_t>(x) * C;
    union {
      T s[kRowBlock * C];
      unsigned char b[kRowBlock * C * sizeof(T)];
    } pack;
    if (x + kRowBlock <= width) {
      load_bytes(reinterpret_cast<const unsigned char*>(in), pack.b, source_align);
    } else {  // the partial block at the right edge
#pragma unroll
      for (int p = 0; p < kRowBlock; ++p)
#pragma unroll
        for (int c = 0; c < C; ++c) pack.s[p * C + c] = x + p < width ? __ldg(in + p * C + c) : T(0);
    }
#pragma unroll
    for (int p = 0; p < kRowBlock; ++p)
#pragma unroll
      for (int c = 0; c < C; ++c)
        acc[c][p] = finish_sample(finish, acc[c][p], static_cast<float>(pack.s[p * C + c] >> shift), c);
  }
  if (x + kRowBlock <= width) {
    union {
      T s[kRowBlock * C];
      unsigned char b[kRowBlock * C * sizeof(T)];
    } pack;
#pragma unroll
    for (int p = 0; p < kRowBlock; ++p)
#pragma unroll
      for (int c = 0; c < C; ++c) pack.s[p * C + c] = to_sample<T>(acc[c][p], max_value, shift);
    store_bytes(reinterpret_cast<unsigned char*>(out), pack.b, align);
  } else {  // the partial block at the right edge
#pragma unroll
    for (int p = 0; p < kRowBlock; ++p)
      if (x + p < width)
#pragma unroll
        for (int c = 0; c < C; ++c) out[p * C + c] = to_sample<T>(acc[c][p], max_value, shift);
  }
}

// ---- kernels ----------------------------------------------------------------------------------

struct RowParams {
  const float* padded_taps;  // for kRowBlock
  int radius;
  unsigned char* dst;
  size_t dst_pitch;
  float max_value;
  int shift;
  int align;  // largest power of two (<= 16) dividing dst and dst_pitch
  // The finishing step (sample_finish.h) and, where it is active, the frame's input plane.
  SampleFinish finish;
  const unsigned char* source;
  size_t source_pitch;
  int source_align;  // as align, for the source and its pitch
};

// The frames of one fused launch: blockIdx.z picks one. They share geometry and pitches.
struct FusedFrames {
  const unsigned char* src[kMaxBatchFrames];
  unsigned char* dst[kMaxBatchFrames];
};

// Fused: vertical column blocks into a shared-memory tile, then row blocks out of it. The
// destination is frames.dst[blockIdx.z] (row.dst is not used).
template <int C, typename T, int TileRows, int Radius = 0>
__global__ void __launch_bounds__(kMaxFusedThreads, 4)
fused_kernel(FusedFrames frames, size_t src_pitch, int width, int height,
             const float* __restrict__ padded_y, int radius_y, Border border, RowParams row) {
  constexpr int kThreads = fused_threads(TileRows);
  const unsigned char* __restrict__ src = frames.src[blockIdx.z];
  row.dst = frames.dst[blockIdx.z];
  extern __shared__ float tile[];
  const int stride = smem_row_stride(row.radius, C);
  const int first_pixel = blockIdx.x * kTilePixels;
  const int first_row = blockIdx.y * TileRows;
  const int columns = row_input_pixels(row.radius) * C;

  // Vertical: every (tile column, column block) pair; columns left and right of the image take
  // their pixel by the border rule, exactly as the two-pass horizontal load does.
  for (int b = 0; b < TileRows / kColumnBlock; ++b) {
    for (int q = threadIdx.x; q < columns; q += kThreads) {
      const int pixel = q / C;  // C is a compile-time constant: no division
      const int column =
          border_index(first_pixel - row.radius + pixel, width, border) * C + (q - pixel * C);
      float acc[kColumnBlock];
      column_block<T, Radius>(src, src_pitch, column, first_row + b * kColumnBlock, height, row.shift,
                      padded_y, radius_y, border, acc);
#pragma unroll
      for (int r = 0; r < kColumnBlock; ++r)
        tile[(b * kColumnBlock + r) * stride + smem_index(q, C)] = acc[r];
    }
  }
  __syncthreads();

  // Horizontal: 16 threads per tile row.
  const int group = threadIdx.x % kRowThreads;
  for (int r = threadIdx.x / kRowThreads; r < TileRows; r += kThreads / kRowThreads) {
    const int y = first_row + r;
    if (y >= height || first_pixel + group * kRowBlock >= width) continue;
    row_block<C, T, Radius>(tile + r * stride, group, first_pixel, width, row.padded_taps, row.radius,
                    row.dst + static_cast<size_t>(y) * row.dst_pitch, row.max_value, row.shift,
                    row.align, src + static_cast<size_t>(y) * src_pitch, row.source_align, row.finish);
  }
}

// Two-pass, first pass: samples -> float intermediate, vertically.
template <typename T>
__global__ void __launch_bounds__(kColumnThreadsX * kColumnThreadsY)
column_kernel(const unsigned char* __restrict__ src, size_t src_pitch, int row_samples, int height,
              int shift, float* __restrict__ dst, const float* __restrict__ padded, int radius,
              Border border) {
  const int x = blockIdx.x * kColumnThreadsX + threadIdx.x;
  const int y0 = (blockIdx.y * kColumnThreadsY + threadIdx.y) * kColumnBlock;
  if (x >= row_samples || y0 >= height) return;
  float acc[kColumnBlock];
  column_block<T>(src, src_pitch, x, y0, height, shift, padded, radius, border, acc);
#pragma unroll
  for (int r = 0; r < kColumnBlock; ++r)
    if (y0 + r < height) dst[static_cast<size_t>(y0 + r) * row_samples + x] = acc[r];
}

// Two-pass, second pass: rows of the intermediate staged in shared memory, then row blocks.
// Block: kRowThreads x rows_per_block threads, one tile row each.
template <int C, typename T>
__global__ void row_kernel(const float* __restrict__ src, int width, int height, Border border,
                           RowParams row) {
  extern __shared__ float rows[];
  const int stride = smem_row_stride(row.radius, C);
  const int first_pixel = blockIdx.x * kTilePixels;
  const int columns = row_input_pixels(row.radius) * C;
  const int threads = blockDim.x * blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;

  for (int y0 = blockIdx.y * blockDim.y; y0 < height; y0 += gridDim.y * blockDim.y) {
    const int rows_here = min(static_cast<int>(blockDim.y), height - y0);
    for (int r = 0; r < rows_here; ++r) {
      const float* in = src + static_cast<size_t>(y0 + r) * width * C;
      for (int q = tid; q < columns; q += threads) {
        const int pixel = q / C;
        const int x = border_index(first_pixel - row.radius + pixel, width, border);
        rows[r * stride + smem_index(q, C)] = __ldg(in + x * C + (q - pixel * C));
      }
    }
    __syncthreads();
    const int y = y0 + threadIdx.y;
    if (y < height && first_pixel + threadIdx.x * kRowBlock < width)
      row_block<C, T>(rows + threadIdx.y * stride, threadIdx.x, first_pixel, width,
                      row.padded_taps, row.radius, row.dst + static_cast<size_t>(y) * row.dst_pitch,
                      row.max_value, row.shift, row.align, row.source + static_cast<size_t>(y) * row.source_pitch,
                      row.source_align, row.finish);
    __syncthreads();  // the next rows overwrite the staging
  }
}

// ---- dispatch ---------------------------------------------------------------------------------

using FusedKernel = void (*)(FusedFrames, size_t, int, int, const float*, int, Border, RowParams);
using RowKernel = void (*)(const float*, int, int, Border, RowParams);
using ColumnKernel = void (*)(const unsigned char*, size_t, int, int, int, float*, const float*,
                              int, Border);

// 8-row tiles: more, smaller blocks keep more column loads in flight, which outweighs re-reading
// the vertical halo (the fastest at every size and radius measured: docs/bench/kernel_choices.md, "FIR").
constexpr int kChosenTileRows = 8;
// Radii up to this, the same both ways, run in 8-row tiles as a kernel constant: each output
// takes exactly its 2R + 1 inputs instead of the padded blocks' zero taps.
constexpr int kMaxFixedRadius = 4;

// Bounded template dispatch: 4 channel counts x 2 sample types (x 3 tile heights, and in 8-row
// tiles the radii 1 to kMaxFixedRadius as constants).
template <int TileRows, int Radius = 0>
FusedKernel fused_kernel_for(const PlaneGeometry& g) {
  const bool wide = g.bytes_per_sample == 2;
  switch (g.channels) {
    case 1: return wide ? fused_kernel<1, uint16_t, TileRows, Radius> : fused_kernel<1, uint8_t, TileRows, Radius>;
    case 2: return wide ? fused_kernel<2, uint16_t, TileRows, Radius> : fused_kernel<2, uint8_t, TileRows, Radius>;
    case 3: return wide ? fused_kernel<3, uint16_t, TileRows, Radius> : fused_kernel<3, uint8_t, TileRows, Radius>;
    default: return wide ? fused_kernel<4, uint16_t, TileRows, Radius> : fused_kernel<4, uint8_t, TileRows, Radius>;
  }
}
// fixed_radius: 0, or 1 to kMaxFixedRadius with 8-row tiles.
FusedKernel fused_kernel_for(const PlaneGeometry& g, int tile_rows, int fixed_radius) {
  static_assert(kChosenTileRows == 8 && kMaxFixedRadius == 4, "the cases below");
  switch (fixed_radius) {
    case 1: return fused_kernel_for<8, 1>(g);
    case 2: return fused_kernel_for<8, 2>(g);
    case 3: return fused_kernel_for<8, 3>(g);
    case 4: return fused_kernel_for<8, 4>(g);
    default: break;
  }
  return tile_rows == 32 ? fused_kernel_for<32>(g)
         : tile_rows == 16 ? fused_kernel_for<16>(g)
                           : fused_kernel_for<8>(g);
}

RowKernel row_kernel_for(const PlaneGeometry& g) {
  const bool wide = g.bytes_per_sample == 2;
  switch (g.channels) {
    case 1: return wide ? row_kernel<1, uint16_t> : row_kernel<1, uint8_t>;
    case 2: return wide ? row_kernel<2, uint16_t> : row_kernel<2, uint8_t>;
    case 3: return wide ? row_kernel<3, uint16_t> : row_kernel<3, uint8_t>;
    default: return wide ? row_kernel<4, uint16_t> : row_kernel<4, uint8_t>;
  }
}

ColumnKernel column_kernel_for(const PlaneGeometry& g) {
  return g.bytes_per_sample == 2 ? column_kernel<uint16_t> : column_kernel<uint8_t>;
}

std::vector<float> pad_taps(const std::vector<double>& taps, int block) {
  const int radius = static_cast<int>(taps.size() / 2);
  std::vector<float> padded(padded_taps(radius, block), 0.0f);
  for (size_t k = 0; k < taps.size(); ++k) padded[k + block - 1] = static_cast<float>(taps[k]);
  return padded;
}

Status check_taps(const std::vector<double>& taps, const char* axis) {
  const std::string name = std::string("taps_") + axis;
  if (taps.empty() || taps.size() % 2 == 0)
    return Status::invalid(name + " must have an odd number of taps (2R + 1), got " +
                           std::to_string(taps.size()));
  const size_t radius = taps.size() / 2;
  if (radius > static_cast<size_t>(SeparableFir::kMaxRadius))
    return Status::invalid(name + ": radius " + std::to_string(radius) + " exceeds the supported " +
                           std::to_string(SeparableFir::kMaxRadius));
  for (double t : taps)
    if (!std::isfinite(t)) return Status::invalid(name + " contains a value that is not finite");
  return Status::success();
}

bool ranges_overlap(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

int alignment_of(const void* p, size_t pitch) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(p) | pitch | 16;
  return static_cast<int>(bits & (~bits + 1));  // lowest set bit, at most 16
}

}  // namespace

Status SeparableFir::plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                          const std::vector<double>& taps_y, Border border, const Schedule& schedule) {
  release();
  const Status st = plan_kernels(geometry, taps_x, taps_y, border, schedule);
  if (!st.ok()) release();  // nothing of a failed plan stays
  return st;
}

Status SeparableFir::plan_kernels(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                                  const std::vector<double>& taps_y, Border border, const Schedule& schedule) {
  if (!geometry.valid())
    return Status::invalid("invalid plane geometry: " + std::to_string(geometry.width) + "x" +
                           std::to_string(geometry.height) + ", " +
                           std::to_string(geometry.channels) + " channels, " +
                           std::to_string(geometry.bytes_per_sample) + " bytes per sample, shift " +
                           std::to_string(geometry.shift));
  // Sample indices are int inside the kernels.
  if (static_cast<long long>(geometry.width) * geometry.channels > INT_MAX / 2)
    return Status::invalid("plane is too wide");
  if (static_cast<long long>(geometry.height) > static_cast<long long>(kMaxGridY) * kColumnThreadsY * kColumnBlock)
    return Status::invalid("plane is too tall");
  if (border != Border::Replicate && border != Border::Mirror && border != Border::Reflect)
    return Status::invalid("unknown border rule");
  CG_TRY(check_taps(taps_x, "x"));
  CG_TRY(check_taps(taps_y, "y"));
  const int rx = static_cast<int>(taps_x.size() / 2);
  const int ry = static_cast<int>(taps_y.size() / 2);
  const int c = geometry.channels;

  int device = 0, optin = 0, major = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (schedule.tile_rows != 0 && schedule.tile_rows != 32 && schedule.tile_rows != 16 && schedule.tile_rows != 8)
    return Status::invalid("fused tiles have 32, 16 or 8 rows, not " + std::to_string(schedule.tile_rows));
  geometry_ = geometry;
  border_ = border;
  radius_x_ = rx;
  radius_y_ = ry;
  using Cores = Schedule::Cores;
  const bool one_kernel =
      TensorFir::chooses_one_kernel(geometry, taps_x, taps_y, major, optin, schedule.tensor_layout);
  int sms = 0;
  CG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const bool tensor_faster = one_kernel ? std::max(rx, ry) >= TensorFir::one_kernel_min_radius(geometry, sms)
                                        : TensorFir::faster(rx, ry);
  if (schedule.cores != Cores::Cuda && TensorFir::applies(geometry, taps_x, taps_y, major) &&
      (schedule.cores == Cores::Tensor || tensor_faster)) {
    CG_TRY(tensor_.plan(geometry, taps_x, taps_y, border, major, optin, sms, schedule.tensor_layout));
    planned_ = true;
    return Status::success();
  }
  const int tile_rows = schedule.tile_rows ? schedule.tile_rows : kChosenTileRows;
  fused_ = rx <= kMaxFusedRadius && ry <= kMaxFusedRadius &&
           fused_smem_bytes(rx, c, tile_rows) <= static_cast<size_t>(optin);
  if (fused_) {
    smem_bytes_ = fused_smem_bytes(rx, c, tile_rows);
    rows_per_block_ = tile_rows;
    if (tile_rows == kChosenTileRows && rx == ry && rx >= 1 && rx <= kMaxFixedRadius) fixed_radius_ = rx;
  } else {
    // As many rows per block (up to 8) as the staging allows; one row always fits (static_assert).
    rows_per_block_ = 8;
    while (rows_per_block_ > 1 &&
           row_pass_smem_bytes(rx, c, rows_per_block_) > static_cast<size_t>(optin) / 2)
      rows_per_block_ /= 2;
    smem_bytes_ = row_pass_smem_bytes(rx, c, rows_per_block_);
    if (smem_bytes_ > static_cast<size_t>(optin))
      return Status::invalid("horizontal radius " + std::to_string(rx) + " needs " +
                             std::to_string(smem_bytes_) + " bytes of shared memory; this GPU allows " +
                             std::to_string(optin));
  }
  // The limit is per function and shared by every instance: always allow the device's maximum,
  // so plans never lower a limit another one relies on (launches still ask only what they use).
  const void* kernel = fused_ ? reinterpret_cast<const void*>(fused_kernel_for(geometry, tile_rows, fixed_radius_))
                              : reinterpret_cast<const void*>(row_kernel_for(geometry));
  CG_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));

  std::vector<float> taps = pad_taps(taps_x, kRowBlock);
  taps_y_offset_ = round_up(static_cast<int>(taps.size()), 4);  // float4 alignment
  taps.resize(taps_y_offset_, 0.0f);
  const std::vector<float> padded_y = pad_taps(taps_y, kColumnBlock);
  taps.insert(taps.end(), padded_y.begin(), padded_y.end());
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  // Synchronous on purpose: plan() is not per frame and the host vector dies on return.
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float),
                         cudaMemcpyHostToDevice));
  if (!fused_)
    CG_TRY(intermediate_.reserve(static_cast<size_t>(geometry.samples_per_row()) *
                                 geometry.height * sizeof(float)));
  planned_ = true;
  return Status::success();
}

Status SeparableFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                         cudaStream_t stream) const {
  const PlanePair frame{src, src_pitch, dst, dst_pitch};
  return run_batch(&frame, 1, stream);
}

Status SeparableFir::check_frame(const PlanePair& f) const {
  const PlaneGeometry& g = geometry_;
  if (!f.src || !f.dst) return Status::invalid("null source or destination plane");
  const size_t row_bytes = g.row_bytes();
  if (f.src_pitch < row_bytes || f.dst_pitch < row_bytes)
    return Status::invalid("pitch (src " + std::to_string(f.src_pitch) + ", dst " +
                           std::to_string(f.dst_pitch) + ") is smaller than a row of " +
                           std::to_string(row_bytes) + " bytes");
  if (g.bytes_per_sample == 2 && ((reinterpret_cast<uintptr_t>(f.src) |
                                   reinterpret_cast<uintptr_t>(f.dst) | f.src_pitch | f.dst_pitch) & 1))
    return Status::invalid("16-bit planes need 2-byte aligned pointers and pitches");
  const size_t last = static_cast<size_t>(g.height - 1);
  if (ranges_overlap(f.src, last * f.src_pitch + row_bytes, f.dst, last * f.dst_pitch + row_bytes))
    return Status::invalid("source and destination planes overlap");
  return Status::success();
}

Status SeparableFir::run_batch(const PlanePair* frames, int count, cudaStream_t stream) const {
  if (!planned_) return Status::invalid("SeparableFir::run before a successful plan()");
  for (int i = 0; i < count; ++i) CG_TRY(check_frame(frames[i]));
  if (tensor_.planned()) {
    for (int i = 0; i < count; ++i)
      CG_TRY(tensor_.run(frames[i].src, frames[i].src_pitch, frames[i].dst, frames[i].dst_pitch, finish_, stream));
    return Status::success();
  }
  const PlaneGeometry& g = geometry_;
  const auto* taps = static_cast<const float*>(taps_.get());
  const float* padded_y = taps + taps_y_offset_;
  const int tiles_x = (g.width + kTilePixels - 1) / kTilePixels;

  if (fused_) {
    // Frames with the same pitches share a launch, up to kMaxBatchFrames (grid z).
    const int tile_rows = rows_per_block_;
    const dim3 grid(tiles_x, (g.height + tile_rows - 1) / tile_rows);
    if (grid.y > static_cast<unsigned>(kMaxGridY)) return Status::invalid("plane is too tall");
    for (int first = 0; first < count;) {
      const PlanePair& f0 = frames[first];
      FusedFrames batch{};
      int align = 16, source_align = 16, n = 0;
      for (; n < kMaxBatchFrames && first + n < count; ++n) {
        const PlanePair& f = frames[first + n];
        if (f.src_pitch != f0.src_pitch || f.dst_pitch != f0.dst_pitch) break;
        batch.src[n] = static_cast<const unsigned char*>(f.src);
        batch.dst[n] = static_cast<unsigned char*>(f.dst);
        align = std::min(align, alignment_of(f.dst, f.dst_pitch));
        source_align = std::min(source_align, alignment_of(f.src, f.src_pitch));
      }
      const RowParams row{taps, radius_x_, nullptr, f0.dst_pitch, static_cast<float>(g.max_value()), g.shift,
                          align, finish_, nullptr, 0, source_align};
      fused_kernel_for(g, tile_rows, fixed_radius_)<<<dim3(grid.x, grid.y, n), fused_threads(tile_rows),
                                       smem_bytes_, stream>>>(
          batch, f0.src_pitch, g.width, g.height, padded_y, radius_y_, border_, row);
      CG_CUDA_TRY(cudaGetLastError());
      first += n;
    }
    return Status::success();
  }

  // Two passes share one intermediate: one frame after another.
  auto* tmp = static_cast<float*>(intermediate_.get());
  const int row_samples = g.samples_per_row();
  const dim3 c_block(kColumnThreadsX, kColumnThreadsY);
  const dim3 c_grid((row_samples + kColumnThreadsX - 1) / kColumnThreadsX,
                    (g.height + kColumnThreadsY * kColumnBlock - 1) / (kColumnThreadsY * kColumnBlock));
  const int row_groups = (g.height + rows_per_block_ - 1) / rows_per_block_;
  const dim3 r_grid(tiles_x, row_groups < kMaxGridY ? row_groups : kMaxGridY);
  for (int i = 0; i < count; ++i) {
    const PlanePair& f = frames[i];
    column_kernel_for(g)<<<c_grid, c_block, 0, stream>>>(
        static_cast<const unsigned char*>(f.src), f.src_pitch, row_samples, g.height, g.shift,
        tmp, padded_y, radius_y_, border_);
    CG_CUDA_TRY(cudaGetLastError());
    const RowParams row{taps, radius_x_, static_cast<unsigned char*>(f.dst), f.dst_pitch,
                        static_cast<float>(g.max_value()), g.shift, alignment_of(f.dst, f.dst_pitch),
                        finish_, static_cast<const unsigned char*>(f.src), f.src_pitch,
                        alignment_of(f.src, f.src_pitch)};
    row_kernel_for(g)<<<r_grid, dim3(kRowThreads, rows_per_block_), smem_bytes_, stream>>>(
        tmp, g.width, g.height, border_, row);
    CG_CUDA_TRY(cudaGetLastError());
  }
  return Status::success();
}

void SeparableFir::release() {
  tensor_.release();
  taps_.release();
  intermediate_.release();
  planned_ = false;
  fused_ = false;
  fixed_radius_ = 0;
  radius_x_ = radius_y_ = 0;
  border_ = Border::Replicate;
  smem_bytes_ = 0;
  rows_per_block_ = taps_y_offset_ = 0;
  geometry_ = PlaneGeometry();
}

}  // namespace cudagaussian
