// SPDX-License-Identifier: LGPL-2.1-or-later
// The three passes of the multirate Gaussian. The column passes give each thread one column of
// samples and a run of coarse steps (8-bit frames decimate on tensor cores instead, as a band
// matrix times the frame's rows): a window of coarse-rate samples in registers, every
// phase's taps applied to it in turn (the polyphase form, common/multirate_axis.h), so that each
// sample loaded serves every output it reaches. The column decimation stages each phase's rows
// in shared memory, the next phase's copied in the background while this one is applied. The
// row pass runs on the coarse rows only, in shared memory: a block takes rows of one channel in
// turn.
#include "multirate_blur.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "async_copy.cuh"
#include "border.h"
#include "multirate_layout.h"
#include "sample_finish.h"
#include "sample_float.cuh"
#include "tensor_mma.cuh"

namespace cudagaussian {

namespace {

constexpr int kColumnSteps = kMultirateColumnSteps;
constexpr int kColumnThreads = kMultirateColumnThreads;
constexpr int kInterpolateSteps = kMultirateInterpolateSteps;
constexpr int kInterpolateThreads = 128;  // sample columns of a block of the column interpolation
constexpr int kRowThreads = kMultirateRowThreads;
constexpr int kRowRun = kMultirateRowRun;
constexpr int kRowBatch = 4;  // positions a thread of the row pass stages at once
// Blocks of the row pass an SM holds at least where its registers are capped, so that a large
// plane's lines at moderate sigmas run in one wave; where the uncapped variant holds every line
// at once, it runs instead and keeps more of its loads in flight. Compute capability 7.5 holds
// only 1024 threads an SM: no cap there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kRowBlocksPerSm = 1;
#else
constexpr int kRowBlocksPerSm = 6;
#endif
constexpr int kBandTile = 16;           // rows of the frame a product of the band kernel takes
constexpr int kBandChunkTiles = 4;      // tiles staged at once
constexpr int kBandPitch = kColumnThreads + 16;  // bytes a staged row: lanes reading rows 2 t meet in no bank

// acc[k] += sum_a taps[a] window[k + a]: kSteps outputs of one phase.
template <int kTaps, int kSteps, int kWindow>
__device__ __forceinline__ void apply_phase(const float* __restrict__ taps, const float (&window)[kWindow],
                                            float (&acc)[kSteps]) {
  static_assert(kWindow >= kSteps + kTaps - 1, "the window holds every sample the phase reads");
#pragma unroll
  for (int a = 0; a < kTaps; ++a) {
    const float tap = __ldg(taps + a);
#pragma unroll
    for (int k = 0; k < kSteps; ++k) acc[k] = fmaf(tap, window[k + a], acc[k]);
  }
}

// `count` rows of the block's sample columns q0 .. q0 + kColumnThreads - 1 into `stage`, row i
// from the frame's row row_of(i) (a row inside the frame; none where it is negative), by all the
// block's threads: 16-byte pieces copied in the background where the frame allows (aligned,
// inside the row), else sample by sample at once; columns past the row's last as zeros.
template <int kRows, int kPitch, typename T, class RowOf>
__device__ __forceinline__ void stage_rows(T (&stage)[kRows][kPitch], const T* __restrict__ src, size_t pitch,
                                           bool aligned, int columns, int q0, int count, const RowOf& row_of) {
  constexpr int kPiece = 16 / sizeof(T);
  constexpr int kPieces = kColumnThreads / kPiece;
  for (int p = threadIdx.x; p < count * kPieces; p += blockDim.x) {
    const int i = p / kPieces, c = (p - i * kPieces) * kPiece, row = row_of(i);
    if (row < 0) continue;
    const T* line = src + static_cast<size_t>(row) * pitch + q0 + c;
    if (aligned && q0 + c + kPiece <= columns) {
      copy_async<16>(&stage[i][c], line);
    } else {
      for (int e = 0; e < kPiece; ++e) stage[i][c + e] = q0 + c + e < columns ? line[e] : T(0);
    }
  }
}

// Rows first, first + step, ... (`count` of them), those beyond the frame's edges by the border
// rule: what the column decimation reads.
template <int kRows, int kPitch, typename T>
__device__ __forceinline__ void stage_rows(T (&stage)[kRows][kPitch], const T* __restrict__ src, size_t pitch,
                                           bool aligned, int rows, int columns, Border border, int first, int step,
                                           int q0, int count = kRows) {
  stage_rows(stage, src, pitch, aligned, columns, q0, count,
             [=](int i) { return border_index(first + step * i, rows, border); });
}

// Rows first .. first + count - 1 of the block's sample columns into `stage` (those beyond the
// frame's edges by the border rule) where every 16-byte piece of the block's columns is aligned
// and inside the row; returns false, staging nothing, otherwise. Each thread (of kColumnThreads)
// copies one piece of every 16th row: a few instructions a piece, where stage_rows finds each
// piece's row and checks its columns.
template <int kRows, int kPitch>
__device__ __forceinline__ bool stage_aligned_rows(uint8_t (&stage)[kRows][kPitch], const uint8_t* __restrict__ src,
                                                   size_t pitch, bool aligned, int rows, int columns, Border border,
                                                   int first, int q0, int count) {
  constexpr int kPieces = kColumnThreads / 16;
  constexpr int kRowsAtOnce = kColumnThreads / kPieces;
  if (!aligned || q0 + kColumnThreads > columns) return false;
  const int c = threadIdx.x % kPieces * 16, i0 = threadIdx.x / kPieces;
  const uint8_t* columns_at = src + q0 + c;
  if (first >= 0 && first + count <= rows) {  // no border: the address steps from row to row
    const uint8_t* line = columns_at + static_cast<size_t>(first + i0) * pitch;
    for (int i = i0; i < count; i += kRowsAtOnce, line += kRowsAtOnce * pitch) copy_async<16>(&stage[i][c], line);
  } else {
    for (int i = i0; i < count; i += kRowsAtOnce)
      copy_async<16>(&stage[i][c], columns_at + static_cast<size_t>(border_index(first + i, rows, border)) * pitch);
  }
  return true;
}

// Column decimation: coarse[k][q] = sum_j taps x[position(k) - radius + j][q] for kColumnSteps
// coarse rows k of kColumnThreads sample columns q, the frame's rows beyond its edges by the
// border rule. Block z applies phases z * split_phases on and writes its sums into copy z of the
// coarse rows, planar: [z][channel][k][x].
template <int kTaps, typename T>
__global__ void __launch_bounds__(kColumnThreads)
decimate_columns_kernel(const T* __restrict__ src, size_t src_pitch, bool aligned, int shift, int rows, int width,
                        int channels, Border border, int step, int lead, int radius, int coarse, int split_phases,
                        const float* __restrict__ taps, float* __restrict__ out) {
  constexpr int kWindow = kColumnSteps + kTaps - 1;
  __shared__ alignas(16) T stage[2][kWindow][kColumnThreads];
  const int columns = width * channels;
  const int q0 = blockIdx.x * kColumnThreads, q = q0 + threadIdx.x;
  const int k0 = blockIdx.y * kColumnSteps;
  const int v0 = blockIdx.z * split_phases, v1 = min(step, v0 + split_phases);
  // Phase v reads rows step (k0 + i - lead) + v - radius, i = 0 .. kWindow - 1.
  const int first = step * (k0 - lead) - radius;
  stage_rows(stage[0], src, src_pitch, aligned, rows, columns, border, first + v0, step, q0);
  float acc[kColumnSteps] = {};
  for (int v = v0; v < v1; ++v) {
    const int b = (v - v0) & 1;
    wait_async_copies();
    __syncthreads();  // phase v staged; every thread done with the other buffer
    if (v + 1 < v1) stage_rows(stage[b ^ 1], src, src_pitch, aligned, rows, columns, border, first + v + 1, step, q0);
    float window[kWindow];
#pragma unroll
    for (int i = 0; i < kWindow; ++i) window[i] = sample_as_float(stage[b][i][threadIdx.x], shift);
    apply_phase<kTaps, kColumnSteps>(taps + v * kTaps, window, acc);
  }
  if (q >= columns) return;
  const int x = q / channels, channel = q - x * channels;
  float* column = out + (static_cast<size_t>(blockIdx.z) * channels + channel) * coarse * width + x;
#pragma unroll
  for (int k = 0; k < kColumnSteps; ++k)
    if (k0 + k < coarse) column[static_cast<size_t>(k0 + k) * width] = acc[k];
}

// Column decimation of 8-bit samples on tensor cores (compute capability 8.0 on). The coarse
// rows k0 .. k0 + 15 of a block's sample columns are the band matrix T[m][i] = decimate[i - step
// m] (fp16 taps in two parts, multirate_band_tiles) times the frame's rows first .. first + 16
// tiles - 1, one 16-row tile a product, less the tiles that reach only coarse rows past the last
// (in the last row of blocks); the copies (block z) share out the rest evenly. A warp multiplies
// 32 sample columns: product j takes its columns 4 n + j (n = 0 .. 7), so that one 4-byte load
// gives a lane its sample of all four products. Samples are exact in fp16; the sums are fp32.
__device__ __forceinline__ unsigned bytes_to_halves(unsigned low_row, unsigned high_row, int byte) {
  // 0x6400 | b is the fp16 1024 + b: byte `byte` of each row, less 1024, exactly.
  const unsigned picked = __byte_perm(low_row, high_row, byte | (4 + byte) << 8);
  const unsigned biased = (picked & 0x00ff00ffu) | 0x64006400u;
  half2 h;
  std::memcpy(&h, &biased, sizeof h);
  h = __hsub2(h, __float2half2_rn(1024.0f));
  unsigned u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}

template <int C>
__global__ void __launch_bounds__(kColumnThreads)
decimate_columns_band_kernel(const uint8_t* __restrict__ src, size_t src_pitch, bool aligned, int rows, int width,
                             Border border, int step, int lead, int radius, int coarse, int tiles,
                             const uint4* __restrict__ band, float* __restrict__ out) {
  __shared__ alignas(16) uint8_t stage[2][kBandChunkTiles * kBandTile][kBandPitch];
  __shared__ uint4 fragments[2][kBandChunkTiles][64];  // the band's tiles of a chunk: [part][lane]
  const int columns = width * C;
  const int q0 = blockIdx.x * kColumnThreads;
  const int k0 = blockIdx.y * kColumnSteps;
  const int needed = min(tiles, (step * (min(kColumnSteps, coarse - k0) - 1) + 2 * radius + kBandTile) / kBandTile);
  const int split_tiles = (needed + gridDim.z - 1) / gridDim.z;
  const int t0 = blockIdx.z * split_tiles, t1 = min(needed, t0 + split_tiles);
  const int first = step * (k0 - lead) - radius;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int g = lane / 4, t = lane % 4;
  // The frame's rows and the band's fragments of the tiles from `from` on, in the background.
  auto stage_chunk = [&](int buffer, int from) {
    const int count = min(kBandChunkTiles, t1 - from), row0 = first + kBandTile * from;
    if (!stage_aligned_rows(stage[buffer], src, src_pitch, aligned, rows, columns, border, row0, q0, kBandTile * count))
      stage_rows(stage[buffer], src, src_pitch, aligned, rows, columns, border, row0, 1, q0, kBandTile * count);
    for (int i = threadIdx.x; i < count * 64; i += kColumnThreads)
      copy_async<16>(&fragments[buffer][0][0] + i, band + static_cast<size_t>(from) * 64 + i);
  };
  float acc[4][4] = {};
  if (t0 < t1) stage_chunk(0, t0);
  for (int c = t0; c < t1; c += kBandChunkTiles) {
    const int b = (c - t0) / kBandChunkTiles & 1;
    wait_async_copies();
    __syncthreads();  // chunk c staged; every warp done with the other buffers
    if (c + kBandChunkTiles < t1) stage_chunk(b ^ 1, c + kBandChunkTiles);
    const int n = min(kBandChunkTiles, t1 - c);
    const uint8_t* rows_at = &stage[b][2 * t][warp * 32 + 4 * g];
    for (int j = 0; j < n; ++j) {
      const uint4 high = fragments[b][j][lane], low = fragments[b][j][32 + lane];
      const unsigned a_high[4] = {high.x, high.y, high.z, high.w}, a_low[4] = {low.x, low.y, low.z, low.w};
      const uint8_t* at = rows_at + kBandTile * kBandPitch * j;
      const unsigned r0 = *reinterpret_cast<const unsigned*>(at);
      const unsigned r1 = *reinterpret_cast<const unsigned*>(at + kBandPitch);
      const unsigned r8 = *reinterpret_cast<const unsigned*>(at + 8 * kBandPitch);
      const unsigned r9 = *reinterpret_cast<const unsigned*>(at + 9 * kBandPitch);
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const unsigned b0 = bytes_to_halves(r0, r1, p), b1 = bytes_to_halves(r8, r9, p);
        multiply_add(acc[p], a_high, b0, b1);
        multiply_add(acc[p], a_low, b0, b1);
      }
    }
  }
  // acc[p]: coarse rows g (0, 1) and g + 8 (2, 3) at the warp's columns 8 t + p (0, 2) and 8 t +
  // 4 + p (1, 3). With four channels those are channel p of pixels 2 t and 2 t + 1, stored
  // together; with fewer, the warp's 16 x 32 sums go through shared memory so that a store
  // writes consecutive pixels.
  float* copy = out + static_cast<size_t>(blockIdx.z) * C * coarse * width;
  if constexpr (C == 4) {
    const int x = q0 / 4 + warp * 8 + 2 * t;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int k = k0 + g + 8 * half;
      if (k >= coarse) continue;
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const float v0 = acc[p][2 * half] * kMultirateBandScaleInverse;
        const float v1 = acc[p][2 * half + 1] * kMultirateBandScaleInverse;
        float* at = copy + (static_cast<size_t>(p) * coarse + k) * width + x;
        if (x + 1 < width && width % 2 == 0) {
          *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
        } else {
          if (x < width) at[0] = v0;
          if (x + 1 < width) at[1] = v1;
        }
      }
    }
  } else {
    __syncthreads();  // every warp done with the staged rows, whose memory now holds the sums
    float(*sums)[kColumnSteps][33] = reinterpret_cast<float(*)[kColumnSteps][33]>(&stage[0][0][0]);
    static_assert(sizeof(stage) >= sizeof(float) * 4 * kColumnSteps * 33, "the sums fit the staged rows");
#pragma unroll
    for (int e = 0; e < 4; ++e)
#pragma unroll
      for (int p = 0; p < 4; ++p)
        sums[warp][g + 8 * (e / 2)][8 * t + 4 * (e % 2) + p] = acc[p][e] * kMultirateBandScaleInverse;
    __syncwarp();
    const int q = q0 + warp * 32 + lane;
    if (q >= columns) return;
    const int x = q / C, channel = q - x * C;
    float* at = copy + static_cast<size_t>(channel) * coarse * width + x;
    for (int r = 0; r < kColumnSteps && k0 + r < coarse; ++r) at[static_cast<size_t>(k0 + r) * width] = sums[warp][r][lane];
  }
}

// Channels a pass filters, `count` of them, in order: those the finish does not keep (a kept
// channel's coarse rows are never used). Packed, a byte a channel, so that a thread picks its
// own without a local copy of the list.
struct FilteredChannels {
  int count = 0;
  unsigned packed = 0;
  __host__ __device__ int channel(int i) const { return (packed >> (8 * i)) & 0xffu; }
  void add(int c) { packed |= static_cast<unsigned>(c) << (8 * count++); }
};

FilteredChannels all_channels(int channels) {
  FilteredChannels all;
  for (int c = 0; c < channels; ++c) all.add(c);
  return all;
}

// `count` rows of a block's sample columns q0 .. q0 + kColumnThreads - 1 from `rows_out` into the
// frame, row i into the frame's row row_of(i) (none where it is negative), by all the block's
// threads: 16-byte pieces where the frame allows (aligned, inside the row), else sample by sample;
// columns past the row's last are not stored.
template <int kRows, typename T, class RowOf>
__device__ __forceinline__ void store_rows(const T (&rows_out)[kRows][kColumnThreads], T* __restrict__ dst,
                                           size_t pitch, bool aligned, int columns, int q0, int count,
                                           const RowOf& row_of) {
  constexpr int kPiece = 16 / sizeof(T);
  constexpr int kPieces = kColumnThreads / kPiece;
  for (int p = threadIdx.x; p < count * kPieces; p += blockDim.x) {
    const int i = p / kPieces, c = (p - i * kPieces) * kPiece, row = row_of(i);
    if (row < 0) continue;
    T* line = dst + static_cast<size_t>(row) * pitch + q0 + c;
    if (aligned && q0 + c + kPiece <= columns) {
      *reinterpret_cast<uint4*>(line) = *reinterpret_cast<const uint4*>(&rows_out[i][c]);
    } else {
      for (int e = 0; e < kPiece && q0 + c + e < columns; ++e) line[e] = rows_out[i][c + e];
    }
  }
}

// What the column interpolation divides by, found on the host: a thread's pixel and channel
// come from its index and column, a phase's rows from rows = step whole + part.
struct InterpolateDivisors {
  FastDivisor by_filtered, by_channels;
  int whole = 0, part = 0;
};

// Column interpolation into the frame: row m = step Q + phase takes coarse rows Q .. Q + kTaps
// - 1 with the phase's taps, then the finishing step and rounding. A thread makes
// kInterpolateSteps values of Q of one sample column for the phases from blockIdx.z * phases
// on, all from one window. The coarse rows are planar: [channel][Q][x]. A block takes
// kInterpolateThreads sample columns, a pixel's `filtered` channels a thread each, in order:
// where the columns hold whole pixels, the channels not kept; otherwise every channel (and the
// finish keeps what it keeps). The block's rows are made in shared memory and stored whole.
// kStages: the block first copies the input rows it writes into that memory (16-byte pieces in
// the background where the frame allows) while it loads its window, so that the samples no
// thread makes (the kept channels) are stored as they were. kFinishes (staging too): a thread's
// own samples go through the finish (the unsharp mask, or kept channels with threads of their
// own), which reads them.
template <int kTaps, bool kStages, bool kFinishes, typename T>
__global__ void __launch_bounds__(kInterpolateThreads)
interpolate_columns_kernel(const float* __restrict__ coarse, int coarse_rows, int rows, int width, int channels,
                           FilteredChannels filtered, InterpolateDivisors divisors, int step, int phases,
                           const float* __restrict__ taps, const T* __restrict__ src, size_t src_pitch,
                           bool src_aligned, T* __restrict__ dst, size_t dst_pitch, bool dst_aligned, int shift,
                           float max_value, SampleFinish finish) {
  static_assert(!kFinishes || kStages, "the finish reads the staged input");
  constexpr int kWindow = kInterpolateSteps + kTaps - 1;
  __shared__ alignas(16) T block_rows[kInterpolateSteps * kMultirateInterpolatePhases][kInterpolateThreads];
  const int columns = width * channels;
  const int pixel = divisors.by_filtered.divide(threadIdx.x), slot = threadIdx.x - pixel * filtered.count;
  const int own = pixel * channels + filtered.channel(slot);  // the thread's column in the block
  const int qb = blockIdx.x * kInterpolateThreads, q = qb + own;
  const int q0 = blockIdx.y * kInterpolateSteps;
  const int phase_begin = blockIdx.z * phases, phase_end = min(step, phase_begin + phases);
  const int phase_count = phase_end - phase_begin;
  // Block row (phase - phase_begin) kInterpolateSteps + k is frame row step (q0 + k) + phase: the
  // row of a piece comes without a division.
  const auto frame_row = [=](int i) {
    const int row = step * (q0 + i % kInterpolateSteps) + phase_begin + i / kInterpolateSteps;
    return row < rows ? row : -1;  // past the last: neither staged nor stored
  };
  static_assert(kInterpolateThreads == kColumnThreads, "stage_rows and store_rows cover a block's columns");
  // Where the block's columns lie inside the row, its rows go as 16-byte pieces: piece v % kPieces
  // of block rows v / kPieces + j kRowsAtOnce for v = threadIdx.x, + blockDim.x, ... (a block may
  // have fewer threads than columns). Those rows keep their k, so their frame rows step by
  // kRowStep: no division or border rule a piece.
  constexpr int kPiece = 16 / sizeof(T), kPieces = kInterpolateThreads / kPiece;
  constexpr int kRowsAtOnce = kInterpolateThreads / kPieces, kRowStep = kRowsAtOnce / kInterpolateSteps;
  static_assert(kRowsAtOnce % kInterpolateSteps == 0, "a thread's pieces keep their k");
  const int block_row_count = kInterpolateSteps * phase_count;
  const bool inner = qb + kInterpolateThreads <= columns;
  const auto for_each_piece = [&](const auto& piece) {  // piece(block row, column, frame row)
    for (int v = threadIdx.x; v < kInterpolateThreads; v += blockDim.x) {
      const int c = v % kPieces * kPiece, i0 = v / kPieces;
      int row = step * (q0 + i0 % kInterpolateSteps) + phase_begin + i0 / kInterpolateSteps;
      for (int i = i0; i < block_row_count && row < rows; i += kRowsAtOnce, row += kRowStep) piece(i, c, row);
    }
  };
  if constexpr (kStages) {
    if (src_aligned && inner)
      for_each_piece([&](int i, int c, int row) {
        copy_async<16>(&block_rows[i][c], src + static_cast<size_t>(row) * src_pitch + qb + c);
      });
    else
      stage_rows(block_rows, src, src_pitch, src_aligned, columns, qb, block_row_count, frame_row);
  }
  const bool inside = q < columns;
  const int x = inside ? divisors.by_channels.divide(q) : 0, channel = q - x * channels;
  float window[kWindow] = {};
  if (inside) {
    // Rows past the last coarse row read the last again (never used); offsets from the block's
    // first row fit an int, as the coarse rows do.
    const int row0 = min(q0, coarse_rows - 1), last = coarse_rows - 1 - row0;
    const float* at = coarse + (static_cast<size_t>(channel) * coarse_rows + row0) * width + x;
    if (last >= kWindow - 1) {
#pragma unroll
      for (int i = 0; i < kWindow; ++i) window[i] = at[i * width];
    } else {
#pragma unroll
      for (int i = 0; i < kWindow; ++i) window[i] = at[min(i, last) * width];
    }
  }
  if constexpr (kStages) {
    wait_async_copies();
    __syncthreads();
  }
  for (int phase = phase_begin; phase < phase_end && inside; ++phase) {
    float acc[kInterpolateSteps] = {};
    apply_phase<kTaps, kInterpolateSteps>(taps + phase * kTaps, window, acc);
    T* out = &block_rows[(phase - phase_begin) * kInterpolateSteps][own];
    const int count = divisors.whole + (phase < divisors.part) - q0;
#pragma unroll
    for (int k = 0; k < kInterpolateSteps; ++k) {
      if (k >= count) break;
      float v = acc[k];
      if constexpr (kFinishes) v = finish_sample(finish, v, sample_as_float(*out, shift), channel);
      *out = stored_sample<T>(v, max_value, shift);
      out += kInterpolateThreads;
    }
  }
  __syncthreads();
  if (dst_aligned && inner)
    for_each_piece([&](int i, int c, int row) {
      *reinterpret_cast<uint4*>(dst + static_cast<size_t>(row) * dst_pitch + qb + c) =
          *reinterpret_cast<const uint4*>(&block_rows[i][c]);
    });
  else
    store_rows(block_rows, dst, dst_pitch, dst_aligned, columns, qb, block_row_count, frame_row);
}

// sum[b] = the sum of value(copy, b) over the `copies` copies of the coarse rows, `stride` floats
// apart from `first`: added in order, the loads of kCopiesAtOnce copies in flight together.
template <int kBatch, class Value>
__device__ __forceinline__ void add_copies(const float* __restrict__ first, size_t stride, int copies,
                                           const Value& value, float (&sum)[kBatch]) {
  constexpr int kCopiesAtOnce = 4;
#pragma unroll
  for (int b = 0; b < kBatch; ++b) sum[b] = value(first, b);
  const float* copy = first + stride;
  int z = 1;
  for (; z + kCopiesAtOnce <= copies; z += kCopiesAtOnce, copy += kCopiesAtOnce * stride) {
    float loaded[kCopiesAtOnce][kBatch];
#pragma unroll
    for (int u = 0; u < kCopiesAtOnce; ++u)
#pragma unroll
      for (int b = 0; b < kBatch; ++b) loaded[u][b] = value(copy + u * stride, b);
#pragma unroll
    for (int u = 0; u < kCopiesAtOnce; ++u)
#pragma unroll
      for (int b = 0; b < kBatch; ++b) sum[b] += loaded[u][b];
  }
  for (; z < copies; ++z, copy += stride)
#pragma unroll
    for (int b = 0; b < kBatch; ++b) sum[b] += value(copy, b);
}

// The row pass: a block takes coarse rows (those of the channels in `channels`, planar) in turn.
// Each is staged with its borders (by the border rule), the decimation's copies added, by phase:
// position first + step n + v at line[v (span + 1) + (n % kRowRun) slice + n / kRowRun]. The
// decimation gives a thread kRowRun consecutive coarse pixels and a share of the phases (the
// polyphase form, as in the column passes); the shares are added in order. The interpolation
// gives a thread kRowRun positions of one phase at consecutive coarse steps, into the line,
// which is then written over the first copy.
template <int kTaps, bool kCapped>
__global__ void __launch_bounds__(kRowThreads, kCapped ? kRowBlocksPerSm : 1)
blur_coarse_rows_kernel(float* __restrict__ rows, FilteredChannels channels, Border border,
                        const float* __restrict__ decimate, const float* __restrict__ interpolate,
                        MultirateRowPlan p) {
  constexpr int kWindow = kRowRun + kTaps - 1;
  extern __shared__ float4 shared[];  // each part starts on 16 bytes (MultirateLayout)
  float* line = reinterpret_cast<float*>(shared);
  float* coarse_pixels = line + p.line_floats;  // zeros past `coarse`
  float* partial = coarse_pixels + p.coarse_floats;
  // The interpolation's taps, [phase][kTaps + 4]: a row's 16-byte pieces at consecutive phases
  // fall in different banks, whatever phases a warp's threads take.
  constexpr int kTapPitch = kTaps + 4;
  float* phase_taps = partial + p.partial_floats;
  for (int i = threadIdx.x; i < p.step * kTaps; i += kRowThreads) {
    const int phase = i / kTaps, a = i - phase * kTaps;
    phase_taps[phase * kTapPitch + a] = interpolate[i];
  }
  // A thread's first staged position, as (phase, slot).
  const int n_first = p.by_step.divide(threadIdx.x), v_first = threadIdx.x - n_first * p.step;

  const int lines = channels.count * p.channel_lines;
  for (int index = blockIdx.x; index < lines; index += gridDim.x) {
    const int c = p.by_channel_lines.divide(index);
    float* row = rows + (static_cast<size_t>(channels.channel(c)) * p.channel_lines + index - c * p.channel_lines) *
                            p.width;
    // Position first + e goes to phase v = e % step, slot n = e / step. Consecutive threads
    // read consecutive positions, kRowBatch at once so that their loads are in flight
    // together, and each carries its (v, n) from one to the next by additions.
    int v = v_first, n = n_first;
    for (int e0 = threadIdx.x; e0 < p.slots; e0 += kRowThreads * kRowBatch) {
      float* to[kRowBatch];
#pragma unroll
      for (int b = 0; b < kRowBatch; ++b) {
        to[b] = line + v * p.phase_stride + static_cast<int>(static_cast<unsigned>(n) % kRowRun) * p.slice +
                static_cast<int>(static_cast<unsigned>(n) / kRowRun);
        n += p.next_n;
        v += p.next_v;
        if (v >= p.step) v -= p.step, ++n;
      }
      float sum[kRowBatch] = {};
      if (e0 >= p.inner_begin && e0 + (kRowBatch - 1) * kRowThreads < p.inner_end) {
        // Every position of the batch inside the row and the extent.
        add_copies(row + (p.first + e0), p.split_stride, p.splits,
                   [](const float* copy, int b) { return copy[b * kRowThreads]; }, sum);
      } else if (e0 < p.extent) {
        // Positions past the extent read as zeros (their loads, unpredicated, take the row's first
        // sample and are zeroed after), those beyond the row's ends by the border rule.
        int at[kRowBatch];
#pragma unroll
        for (int b = 0; b < kRowBatch; ++b) {
          const int e = e0 + b * kRowThreads, position = p.first + e;
          at[b] = e >= p.extent                          ? -1
                  : position >= 0 && position < p.width ? position
                                                         : border_index(position, p.width, border);
        }
        add_copies(row, p.split_stride, p.splits, [&](const float* copy, int b) { return copy[max(at[b], 0)]; }, sum);
#pragma unroll
        for (int b = 0; b < kRowBatch; ++b)
          if (at[b] < 0) sum[b] = 0.0f;
      }
#pragma unroll
      for (int b = 0; b < kRowBatch; ++b)
        if (e0 + b * kRowThreads < p.slots) *to[b] = sum[b];
    }
    __syncthreads();

    // Coarse pixels run * kRowRun + r = sum over phases v, taps a: decimate[v][a] line_v[run * kRowRun + r + a].
    for (int job = threadIdx.x; job < p.runs * p.groups; job += kRowThreads) {
      const int g = p.by_runs.divide(job), run = job - g * p.runs;
      float acc[kRowRun] = {};
      for (int phase = g; phase < p.step; phase += p.groups) {
        const float* phase_line = line + phase * p.phase_stride + run;
        float window[kWindow];
#pragma unroll
        for (int i = 0; i < kWindow; ++i) window[i] = phase_line[(i % kRowRun) * p.slice + i / kRowRun];
        apply_phase<kTaps, kRowRun>(decimate + phase * kTaps, window, acc);
      }
      auto* sums = reinterpret_cast<float4*>(partial + job * kRowRun);
#pragma unroll
      for (int r = 0; r < kRowRun; r += 4) sums[r / 4] = make_float4(acc[r], acc[r + 1], acc[r + 2], acc[r + 3]);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < p.coarse_floats; j += kRowThreads) {
      float sum = 0.0f;
      if (j < p.coarse)
        for (int g = 0; g < p.groups; ++g) sum += partial[g * p.runs * kRowRun + j];
      coarse_pixels[j] = sum;
    }
    __syncthreads();

    // Position m = step Q + phase from coarse pixels Q .. Q + kTaps - 1, into the line.
    for (int job = threadIdx.x; job < p.position_runs * p.step; job += kRowThreads) {
      const int run = p.by_step.divide(job), phase = job - run * p.step;
      const auto* pixels = reinterpret_cast<const float4*>(coarse_pixels + run * kRowRun);
      float window[kWindow + 1];
#pragma unroll
      for (int i = 0; i <= kWindow; i += 4) {
        const float4 q = pixels[i / 4];
        window[i] = q.x, window[i + 1] = q.y, window[i + 2] = q.z, window[i + 3] = q.w;
      }
      float acc[kRowRun] = {};
      const auto* taps = reinterpret_cast<const float4*>(phase_taps + phase * kTapPitch);
#pragma unroll
      for (int a = 0; a < kTaps; a += 4) {
        const float4 t = taps[a / 4];
#pragma unroll
        for (int r = 0; r < kRowRun; ++r) {
          acc[r] = fmaf(t.x, window[r + a], acc[r]);
          acc[r] = fmaf(t.y, window[r + a + 1], acc[r]);
          acc[r] = fmaf(t.z, window[r + a + 2], acc[r]);
          acc[r] = fmaf(t.w, window[r + a + 3], acc[r]);
        }
      }
      const int m0 = p.step * run * kRowRun + phase;
      if (m0 + p.step * (kRowRun - 1) < p.width) {
#pragma unroll
        for (int r = 0; r < kRowRun; ++r) line[m0 + p.step * r] = acc[r];
      } else {
#pragma unroll
        for (int r = 0; r < kRowRun; ++r)
          if (m0 + p.step * r < p.width) line[m0 + p.step * r] = acc[r];
      }
    }
    __syncthreads();
    for (int m = threadIdx.x; m < p.width; m += kRowThreads) row[m] = line[m];
    __syncthreads();  // the line is staged again for the next row
  }
}

// Taps [phase][padded] as floats, zero past each phase's own.
template <class Tap>
void append_phases(std::vector<float>& all, int phases, int padded, int taps, const Tap& tap) {
  for (int v = 0; v < phases; ++v)
    for (int a = 0; a < padded; ++a) all.push_back(a < taps ? static_cast<float>(tap(v, a)) : 0.0f);
}

// The column decimation's band, T[m][i] = decimate[i - step m] (m < 16 coarse rows, i the frame
// rows from the first a block reads), in tiles of 16 rows as the lanes of mma.sync hold it,
// [tile][high part, low part][lane][8 halves]:
// register r of lane (g = lane / 4, t = lane % 4) holds row g + 8 (r % 2), columns 2 t + 8 (r / 2)
// and the next. Each tap, scaled by kMultirateBandScale, is a high fp16 part and the low part
// left over, so that the two products carry it to about 2^-22 of its value.
std::vector<half> band_fragments(const MultirateAxis& y, int tiles) {
  std::vector<half> band(static_cast<size_t>(tiles) * 32 * 16);
  const int taps = static_cast<int>(y.decimate.size());
  for (int tile = 0; tile < tiles; ++tile)
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < 4; ++r)
        for (int h = 0; h < 2; ++h) {
          const int m = lane / 4 + 8 * (r % 2), i = kBandTile * tile + 2 * (lane % 4) + 8 * (r / 2) + h;
          const int j = i - y.step * m;
          const double v = j >= 0 && j < taps ? y.decimate[j] * kMultirateBandScale : 0.0;
          const half high = __float2half_rn(static_cast<float>(v));
          const half low = __float2half_rn(static_cast<float>(v - static_cast<double>(__half2float(high))));
          const size_t at = (static_cast<size_t>(tile) * 64 + lane) * 8 + 2 * r + h;
          band[at] = high;
          band[at + 32 * 8] = low;
        }
  return band;
}

// Calls f(std::integral_constant<int, taps>()) for a padded tap count of the layout.
template <class F>
void with_taps(int taps, const F& f) {
  switch (taps) {
    case 16: f(std::integral_constant<int, 16>()); break;
    case 24: f(std::integral_constant<int, 24>()); break;
    default: f(std::integral_constant<int, 32>()); break;
  }
}

// Calls f(std::integral_constant<int, channels>()) for 1 to 4 channels.
template <class F>
void with_channels(int channels, const F& f) {
  switch (channels) {
    case 1: f(std::integral_constant<int, 1>()); break;
    case 2: f(std::integral_constant<int, 2>()); break;
    case 3: f(std::integral_constant<int, 3>()); break;
    default: f(std::integral_constant<int, 4>()); break;
  }
}

}  // namespace

Status MultirateBlur::plan(const PlaneGeometry& g, double sigma_x, double sigma_y, Border border) {
  release();
  CG_TRY(plan_multirate_plane(g, sigma_x, sigma_y, &x_, &y_, &layout_));
  row_plan_ = multirate_row_plan(g, x_, y_, layout_);
  // The row pass's blocks may use more than the default 48 KB of shared memory. The limit
  // belongs to the kernel, shared by every plan: always the device's maximum, so that a plan for
  // a narrower plane (a chroma plane) never lowers what another plan relies on.
  int device = 0, optin = 0, major = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  Status attributes = Status::success();
  int sms = 0;
  CG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  with_taps(layout_.row_taps, [&](auto taps_count) {
    // Both variants of the row pass: the shared memory they may use, and how many blocks an SM
    // holds of each.
    auto prepare = [&](auto kernel, int* per_sm) {
      cudaFuncAttributes attributes_of{};
      cudaError_t e = cudaFuncGetAttributes(&attributes_of, kernel);
      if (e != cudaSuccess) {
        attributes = cuda_failure(e, "cudaFuncGetAttributes", __FILE__, __LINE__);
        return;
      }
      const int most = optin - static_cast<int>(attributes_of.sharedSizeBytes);
      if (static_cast<size_t>(most) < layout_.row_bytes) {
        attributes = Status::invalid("multirate: this GPU's shared memory is too small for sigma_x " +
                                     std::to_string(sigma_x) + " on a plane this wide");
        return;
      }
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most);
      if (e != cudaSuccess) {
        attributes = cuda_failure(e, "cudaFuncSetAttribute", __FILE__, __LINE__);
        return;
      }
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, kRowThreads, layout_.row_bytes);
      if (e != cudaSuccess)
        attributes = cuda_failure(e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
    };
    int capped_per_sm = 0, free_per_sm = 0;
    prepare(blur_coarse_rows_kernel<taps_count(), true>, &capped_per_sm);
    if (attributes.ok()) prepare(blur_coarse_rows_kernel<taps_count(), false>, &free_per_sm);
    row_capped_blocks_ = std::max(1, capped_per_sm) * sms;
    row_free_blocks_ = std::max(1, free_per_sm) * sms;
  });
  CG_TRY(attributes);

  std::vector<float> taps;
  taps_at_[0] = taps.size();
  append_phases(taps, y_.step, layout_.decimate_column_taps, y_.decimate_phase_taps(),
                [&](int v, int a) { return y_.decimate_phase_tap(v, a); });
  taps_at_[1] = taps.size();
  append_phases(taps, y_.step, layout_.interpolate_column_taps, y_.interpolate_taps,
                [&](int v, int a) { return y_.interpolate[static_cast<size_t>(v) * y_.interpolate_taps + a]; });
  taps_at_[2] = taps.size();
  append_phases(taps, x_.step, layout_.row_taps, x_.decimate_phase_taps(),
                [&](int v, int a) { return x_.decimate_phase_tap(v, a); });
  taps_at_[3] = taps.size();
  append_phases(taps, x_.step, layout_.row_taps, x_.interpolate_taps,
                [&](int v, int a) { return x_.interpolate[static_cast<size_t>(v) * x_.interpolate_taps + a]; });
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));

  band_columns_ = g.bytes_per_sample == 1 && major >= 8 && layout_.column_splits <= kMultirateBandMaxSplits;
  if (band_columns_) {
    const std::vector<half> band = band_fragments(y_, layout_.band_tiles);
    CG_TRY(band_.reserve(band.size() * sizeof(half)));
    CG_CUDA_TRY(cudaMemcpy(band_.get(), band.data(), band.size() * sizeof(half), cudaMemcpyHostToDevice));
  }
  CG_TRY(coarse_rows_.reserve(static_cast<size_t>(layout_.column_splits) * y_.coarse * g.samples_per_row() *
                              sizeof(float)));
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

template <typename T>
Status MultirateBlur::run_passes(const T* src, size_t src_pitch, T* dst, size_t dst_pitch,
                                 cudaStream_t stream) const {
  const PlaneGeometry& g = geometry_;
  const int columns = g.samples_per_row();
  const auto* taps = static_cast<const float*>(taps_.get());
  auto* coarse_rows = static_cast<float*>(coarse_rows_.get());
  if (finish_.keeps_all(g.channels)) {  // nothing filtered: the plane is its input
    if (src == dst) return Status::success();
    return copy_2d_async(dst, dst_pitch * sizeof(T), src, src_pitch * sizeof(T), g.row_bytes(), g.height, stream);
  }

  // 1. The columns, decimated from the frame into the copies of the coarse rows.
  const bool aligned = reinterpret_cast<uintptr_t>(src) % 16 == 0 && src_pitch * sizeof(T) % 16 == 0;
  const dim3 column_grid((columns + kColumnThreads - 1) / kColumnThreads,
                         (y_.coarse + kColumnSteps - 1) / kColumnSteps, layout_.column_splits);
  if constexpr (std::is_same_v<T, uint8_t>) {
    if (band_columns_)
      with_channels(g.channels, [&](auto c) {
        decimate_columns_band_kernel<c()><<<column_grid, kColumnThreads, 0, stream>>>(
            src, src_pitch, aligned, g.height, g.width, border_, y_.step, y_.lead, y_.decimate_radius, y_.coarse,
            layout_.band_tiles, static_cast<const uint4*>(band_.get()), coarse_rows);
      });
  }
  if (!band_columns_) with_taps(layout_.decimate_column_taps, [&](auto taps_count) {
    decimate_columns_kernel<taps_count(), T><<<column_grid, kColumnThreads, 0, stream>>>(
        src, src_pitch, aligned, g.shift, g.height, g.width, g.channels, border_, y_.step, y_.lead,
        y_.decimate_radius, y_.coarse, layout_.split_phases, taps + taps_at_[0], coarse_rows);
  });
  CG_CUDA_TRY(cudaGetLastError());
  // 2. The coarse rows, decimated and interpolated back to every column.
  FilteredChannels filtered, kept;
  for (int c = 0; c < g.channels; ++c) ((finish_.keep >> c) & 1u ? kept : filtered).add(c);
  // The row pass's blocks take the lines in turn: as many as the GPU holds at once. The capped
  // variant runs only where the uncapped one would take more than one wave.
  const int lines = filtered.count * y_.coarse;
  const bool capped = lines > row_free_blocks_;
  const int row_blocks = std::min(lines, capped ? row_capped_blocks_ : row_free_blocks_);
  with_taps(layout_.row_taps, [&](auto taps_count) {
    auto kernel = capped ? blur_coarse_rows_kernel<taps_count(), true> : blur_coarse_rows_kernel<taps_count(), false>;
    kernel<<<row_blocks, kRowThreads, layout_.row_bytes, stream>>>(coarse_rows, filtered, border_, taps + taps_at_[2],
                                                                  taps + taps_at_[3], row_plan_);
  });
  CG_CUDA_TRY(cudaGetLastError());
  // 3. The columns, interpolated back into the frame, finished and stored: a thread for each
  // filtered sample where a block's columns hold whole pixels (the kept ones staged from the
  // input and stored as they were), else for every sample (the finish keeps what it keeps).
  const bool whole_pixels = kInterpolateThreads % g.channels == 0;
  const FilteredChannels threaded = whole_pixels ? filtered : all_channels(g.channels);
  const int threads = whole_pixels ? kInterpolateThreads / g.channels * threaded.count : kInterpolateThreads;
  const bool finishes = finish_.amount != 0.0f || (!whole_pixels && kept.count > 0);
  const bool stages = finishes || kept.count > 0;
  const bool dst_aligned = reinterpret_cast<uintptr_t>(dst) % 16 == 0 && dst_pitch * sizeof(T) % 16 == 0;
  InterpolateDivisors divisors;
  divisors.by_filtered = FastDivisor(threaded.count);
  divisors.by_channels = FastDivisor(g.channels);
  divisors.whole = g.height / y_.step;
  divisors.part = g.height - divisors.whole * y_.step;
  with_taps(layout_.interpolate_column_taps, [&](auto taps_count) {
    const int steps = (g.height + y_.step - 1) / y_.step;
    const dim3 grid((columns + kInterpolateThreads - 1) / kInterpolateThreads,
                    (steps + kInterpolateSteps - 1) / kInterpolateSteps, layout_.interpolate_splits);
    auto kernel = finishes ? interpolate_columns_kernel<taps_count(), true, true, T>
                  : stages ? interpolate_columns_kernel<taps_count(), true, false, T>
                           : interpolate_columns_kernel<taps_count(), false, false, T>;
    kernel<<<grid, threads, 0, stream>>>(coarse_rows, y_.coarse, g.height, g.width, g.channels, threaded, divisors,
                                         y_.step, layout_.interpolate_phases, taps + taps_at_[1], src, src_pitch,
                                         aligned, dst, dst_pitch, dst_aligned, g.shift,
                                         static_cast<float>(g.max_value()), finish_);
  });
  CG_CUDA_TRY(cudaGetLastError());
  return launch_check();
}

Status MultirateBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                          cudaStream_t stream) const {
  if (!planned_) return Status::invalid("MultirateBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  if (g.bytes_per_sample == 1)
    return run_passes(static_cast<const uint8_t*>(src), src_pitch, static_cast<uint8_t*>(dst), dst_pitch, stream);
  return run_passes(static_cast<const uint16_t*>(src), src_pitch / 2, static_cast<uint16_t*>(dst), dst_pitch / 2,
                    stream);
}

void MultirateBlur::release() {
  taps_.release();
  band_.release();
  band_columns_ = false;
  coarse_rows_.release();
  planned_ = false;
}

}  // namespace cudagaussian
