// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core FIR rolling down the frame (tensor_fir_rolling.h; its order of work:
// common/rolling_fir_schedule.h; its tables: common/fused_fir_bands.h).
//
// A block of 16 warps takes 256 scalars of the frame down a segment of rows. Each step it stages
// 16 input rows and their horizontal halo as fp16 (v - 128) channel planes, while the loads of
// the next 16 rows are in flight. Each warp, a 16-pixel strip of one channel, forms the
// horizontal products of the step's rows with mma.sync as the one kernel does, and adds them
// through the vertical band into its ring of 8-row output tiles. The two tiles a step completes
// go to shared memory, channel by channel; from there the block adds the 128 back, finishes,
// rounds and stores them, whole pixels at a time.

#include "tensor_fir_rolling.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <cuda_fp16.h>

#include "border.h"
#include "rolling_fir_schedule.h"
#include "tensor_channels.h"
#include "tensor_mma.cuh"
#include "tensor_staging.cuh"

namespace cudagaussian {
namespace {

constexpr int kWarps = 16;
constexpr int kThreads = kWarps * 32;
constexpr int kTileScalars = 256;  // a block's width: 16 warps of 16 scalars
constexpr int kStepRows = 16;
constexpr int kMaxPieces = 2;  // staged pieces of 16 scalars a thread holds for the next step
constexpr float kBias = 128.0f;

// Floats from one kept output row to the next: 4 more than a channel's pixels, so that the rows
// a warp writes together (2 apart) start 8 banks apart and its 32 lanes meet 32 banks.
constexpr int kept_stride(int channels) { return kTileScalars / channels + 4; }

int staged_pieces(const FusedBands& b, int channels) { return b.staged_pixels(channels) * channels / kStagePiece; }

struct RollingPass {
  RollingFirLaunch l;
  const unsigned char* src;
  size_t src_pitch;
  unsigned char* dst;
  size_t dst_pitch;
  SampleFinish finish;
};

// One block's work. Shared memory: the staged rows [2][C][16][stage_stride] halves, the band
// tables, the kept output rows [2][C][16][kept_stride] floats.
template <int C, int kRing, bool kFinish>
struct RollingBlock {
  static constexpr int kTilePixels = kTileScalars / C;
  static constexpr int kKeptStride = kept_stride(C);
  static constexpr int kShift = C == 4 ? 2 : C == 2 ? 1 : 0;
  static constexpr int kPeriod = kRing / 2;  // steps after which the ring's tiles repeat

  const RollingPass& p;
  const RollingFirLaunch& l;
  half* stage;
  half* row_bands;
  const half* column_bands;
  float* kept;
  int plane;  // halves of one staged channel plane
  int px0, first_row, end_row;
  RollingFirSchedule schedule;
  int lane, strip, channel;
  FragmentLanes at;
  // This thread's staged pieces: row in the step (-1: none, or wholly beyond the frame's sides)
  // and first scalar in the row.
  int piece_row[kMaxPieces], piece_at[kMaxPieces];
  int first_scalar;
  bool columns_inside;  // every piece of a row inside the frame and aligned
  float acc[kRing][4];

  __device__ RollingBlock(const RollingPass& pass, unsigned char* smem)
      : p(pass), l(pass.l), at(threadIdx.x % 32) {
    plane = kStepRows * l.bands.stage_stride;
    stage = reinterpret_cast<half*>(smem);
    row_bands = stage + 2 * C * plane;
    column_bands = row_bands + l.bands.row_blocks * kFusedRowBlockValues;
    kept = reinterpret_cast<float*>(row_bands + l.bands.row_blocks * kFusedRowBlockValues +
                                    l.bands.column_blocks * kFusedColumnBlockValues);
    px0 = blockIdx.x * kTilePixels;
    first_row = blockIdx.y * l.segment_rows;
    end_row = min(l.height, first_row + l.segment_rows);
    schedule = RollingFirSchedule{l.bands.first_delta, l.bands.column_blocks};
    const int warp = threadIdx.x / 32;
    lane = threadIdx.x % 32;
    strip = warp / C;
    channel = warp % C;
    const int pieces = (kTilePixels + 2 * l.bands.halo_x) * C / kStagePiece;
#pragma unroll
    for (int b = 0; b < kMaxPieces; ++b) {
      const int i = threadIdx.x + b * kThreads;
      piece_row[b] = i < kStepRows * pieces ? i / pieces : -1;
      piece_at[b] = i % pieces * kStagePiece;
    }
    first_scalar = (px0 - l.bands.halo_x) * C;
#pragma unroll
    for (int b = 0; b < kMaxPieces; ++b)
      if (piece_beyond_row(first_scalar + piece_at[b], l.width * C)) piece_row[b] = -1;  // beyond_row_ends()
    columns_inside = first_scalar >= 0 && first_scalar + pieces * kStagePiece <= l.width * C &&
                     ((reinterpret_cast<uintptr_t>(p.src) | p.src_pitch | static_cast<unsigned>(first_scalar)) %
                      kStagePiece) == 0;
#pragma unroll
    for (int t = 0; t < kRing; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[t][e] = 0.0f;
  }

  // The pieces of step s's input rows, border rule applied where they leave the frame.
  __device__ void load(int s, uint4 (&held)[kMaxPieces]) const {
    const int row0 = schedule.input_row(first_row, s);
    const bool inside = columns_inside && row0 >= 0 && row0 + kStepRows <= l.height;
#pragma unroll
    for (int b = 0; b < kMaxPieces; ++b) {
      if (piece_row[b] < 0) continue;
      const int g = first_scalar + piece_at[b];
      if (inside) {
        held[b] = __ldg(reinterpret_cast<const uint4*>(p.src + static_cast<size_t>(row0 + piece_row[b]) * p.src_pitch + g));
      } else {
        const int y = border_index(row0 + piece_row[b], l.height, l.border);
        held[b] = load_piece(p.src + static_cast<size_t>(y) * p.src_pitch, g, l.width, kShift, l.border);
      }
    }
  }

  // The staged pixels of `buffer` beyond the frame's sides, copied from those the border rule
  // names (stage_beyond_row_ends()); synchronizes the block.
  __device__ void beyond_row_ends(int buffer) const {
    const int pieces = (kTilePixels + 2 * l.bands.halo_x) * C / kStagePiece;
    stage_beyond_row_ends<C, kThreads>(stage + buffer * C * plane, plane, l.bands.stage_stride, kStepRows,
                                       px0 - l.bands.halo_x, pieces * kStagePiece / C, l.width, l.border);
  }

  __device__ void stage_held(int buffer, const uint4 (&held)[kMaxPieces]) const {
#pragma unroll
    for (int b = 0; b < kMaxPieces; ++b)
      if (piece_row[b] >= 0)
        store_planes<C>(stage + buffer * C * plane, plane, piece_row[b], l.bands.stage_stride, piece_at[b] / C, held[b]);
  }

  // The horizontal product of the staged rows in `buffer`, rounded to fp16: the left operand of
  // the vertical one, 16 pixels x 16 rows (as in tensor_fir_fused.cu). Even and odd row blocks
  // accumulate apart, and each pair's matrices are loaded before either is multiplied, so that
  // a warp has independent products in flight.
  __device__ void horizontal(int buffer, unsigned (&left)[4]) const {
    float mid[2][2][4] = {};  // [row block parity][rows 0-7, 8-15]
    const half* staged = stage + (buffer * C + channel) * plane + at.staged_row * l.bands.stage_stride + strip * 16 +
                         16 * l.bands.first_block + at.staged_column;
    const half* bands = row_bands + at.band_at;
    int m = 0;
    for (; m + 1 < l.bands.row_blocks; m += 2) {
      unsigned band[2][4], in[2][4];
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        load_matrices_x4(band[q], bands + (m + q) * kFusedRowBlockValues);
        load_matrices_x4(in[q], staged + 16 * (m + q));
      }
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        multiply_add(mid[q][0], band[q], in[q][0], in[q][1]);
        multiply_add(mid[q][1], band[q], in[q][2], in[q][3]);
      }
    }
    if (m < l.bands.row_blocks) {
      unsigned band[4], in[4];
      load_matrices_x4(band, bands + m * kFusedRowBlockValues);
      load_matrices_x4(in, staged + 16 * m);
      multiply_add(mid[0][0], band, in[0], in[1]);
      multiply_add(mid[0][1], band, in[2], in[3]);
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      left[2 * h] = pack_halves(mid[0][h][0] + mid[1][h][0], mid[0][h][1] + mid[1][h][1]);
      left[2 * h + 1] = pack_halves(mid[0][h][2] + mid[1][h][2], mid[0][h][3] + mid[1][h][3]);
    }
  }

  // Step s = kPhase (mod kPeriod): `left` into ring tiles 2 s + j through column block
  // column_blocks - 1 - j; then ring tiles 2 s and 2 s + 1, complete, into the kept rows of
  // `buffer` (rows 0-7 and 8-15), and cleared. The lane holds pixels lane / 4 and + 8 of its
  // strip (elements e / 2), rows 2 (lane % 4) and + 1 of each tile (e % 2).
  template <int kPhase>
  __device__ __forceinline__ void vertical(const unsigned (&left)[4], int buffer) {
#pragma unroll
    for (int j = 0; j < kRing; ++j) {
      if (j >= l.bands.column_blocks) break;
      unsigned taps[2];
      load_matrices_x2(taps, column_bands + (l.bands.column_blocks - 1 - j) * kFusedColumnBlockValues + at.column_at);
      multiply_add(acc[(2 * kPhase + j) % kRing], left, taps[0], taps[1]);
    }
    float* rows = kept + (buffer * C + channel) * kStepRows * kKeptStride + strip * 16 + lane / 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float(&tile)[4] = acc[(2 * kPhase + h) % kRing];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        rows[(8 * h + 2 * (lane % 4) + e % 2) * kKeptStride + 8 * (e / 2)] = tile[e];
        tile[e] = 0.0f;
      }
    }
  }

  template <int... kPhases>
  __device__ __forceinline__ void vertical_at(int phase, const unsigned (&left)[4], int buffer,
                                              std::integer_sequence<int, kPhases...>) {
    // Each phase its own code, so that every ring index is a constant and the ring stays in
    // registers.
    (void)((phase == kPhases && (vertical<kPhases>(left, buffer), true)) || ...);
  }

  // The kept rows of `buffer` (frame rows y0 ..): a thread takes 8 scalars of one row, adds the
  // bias back, finishes, rounds and stores them.
  __device__ void store_kept(int buffer, int y0) const {
    const int row = threadIdx.x / 32, x = threadIdx.x % 32 * 8;
    const int y = y0 + row, xs = px0 * C + x, row_scalars = l.width * C;
    if (y < first_row || y >= end_row || xs >= row_scalars) return;
    const unsigned char* in = p.src + static_cast<size_t>(y) * p.src_pitch + xs;
    int level[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const float v = kept[((buffer * C + i % C) * kStepRows + row) * kKeptStride + x / C + i / C];
      if (kFinish) {
        const float input = xs + i < row_scalars ? static_cast<float>(__ldg(in + i)) : 0.0f;
        level[i] = __float2int_rd(finish_sample(p.finish, v + kBias, input, i % C) + 0.5f);
      } else {
        level[i] = __float2int_rd(v + (kBias + 0.5f));
      }
    }
    const uint32_t word[2] = {saturated_bytes(level[1], level[0], saturated_bytes(level[3], level[2], 0)),
                              saturated_bytes(level[5], level[4], saturated_bytes(level[7], level[6], 0))};
    unsigned char* to = p.dst + static_cast<size_t>(y) * p.dst_pitch + xs;
    if (xs + 8 <= row_scalars && reinterpret_cast<uintptr_t>(to) % 8 == 0) {
      *reinterpret_cast<uint2*>(to) = make_uint2(word[0], word[1]);
    } else {
#pragma unroll
      for (int i = 0; i < 8; ++i)
        if (xs + i < row_scalars) to[i] = static_cast<unsigned char>(word[i / 4] >> (8 * (i % 4)));
    }
  }

  __device__ void run() {
    copy_swizzled_tables(row_bands, l.values,
                         l.bands.row_blocks * kFusedRowBlockValues + l.bands.column_blocks * kFusedColumnBlockValues, kThreads);
    uint4 held[kMaxPieces];
    load(0, held);
    stage_held(0, held);
    beyond_row_ends(0);
    const int steps = schedule.steps(first_row, end_row);
    for (int s = 0; s < steps; ++s) {
      const int buffer = s % 2;
      const bool more = s + 1 < steps;
      if (more) load(s + 1, held);
      unsigned left[4];
      horizontal(buffer, left);
      vertical_at(s % kPeriod, left, buffer, std::make_integer_sequence<int, kPeriod>{});
      if (more) {
        stage_held(1 - buffer, held);
        beyond_row_ends(1 - buffer);
      } else {
        __syncthreads();
      }
      store_kept(buffer, schedule.output_row(first_row, s));
    }
  }
};

template <int C, int kRing, bool kFinish>
__global__ void __launch_bounds__(kThreads, 1) tensor_rolling_kernel(RollingPass p) {
  extern __shared__ __align__(16) unsigned char smem[];
  RollingBlock<C, kRing, kFinish>(p, smem).run();
}

template <int C, int kRing>
void launch(const RollingPass& p, dim3 grid, cudaStream_t stream) {
  if (p.finish.active())
    tensor_rolling_kernel<C, kRing, true><<<grid, kThreads, p.l.shared_bytes, stream>>>(p);
  else
    tensor_rolling_kernel<C, kRing, false><<<grid, kThreads, p.l.shared_bytes, stream>>>(p);
}

template <int C>
void launch(const RollingPass& p, dim3 grid, cudaStream_t stream) {
  if (p.l.ring == 8)
    launch<C, 8>(p, grid, stream);
  else
    launch<C, kRollingMaxRing>(p, grid, stream);
}

template <int C>
Status allow_shared_memory(int bytes) {
  for (const void* k : {reinterpret_cast<const void*>(&tensor_rolling_kernel<C, 8, false>),
                        reinterpret_cast<const void*>(&tensor_rolling_kernel<C, 8, true>),
                        reinterpret_cast<const void*>(&tensor_rolling_kernel<C, kRollingMaxRing, false>),
                        reinterpret_cast<const void*>(&tensor_rolling_kernel<C, kRollingMaxRing, true>)})
    CG_CUDA_TRY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  return Status::success();
}

}  // namespace

bool rolling_fir_fits(const FusedBands& b, int channels) {
  return rolling_ring_tiles(b.column_blocks) <= kRollingMaxRing &&
         kStepRows * staged_pieces(b, channels) <= kMaxPieces * kThreads;
}

size_t rolling_fir_shared_bytes(const FusedBands& b, int channels) {
  const size_t staged = 2 * static_cast<size_t>(channels) * kStepRows * b.stage_stride(channels);
  const size_t kept = 2 * static_cast<size_t>(channels) * kStepRows * kept_stride(channels);
  return staged * sizeof(half) + b.values.size() * sizeof(half) + kept * sizeof(float);
}

RollingFirLaunch rolling_fir_launch(const PlaneGeometry& g, Border border, const FusedBands& b,
                                    const void* device_bands, int sm_count) {
  RollingFirLaunch l;
  l.width = g.width;
  l.height = g.height;
  l.channels = g.channels;
  l.border = border;
  l.bands = band_shape(b, g.channels);
  l.ring = rolling_ring_tiles(b.column_blocks);
  const int columns = (g.width * g.channels + kTileScalars - 1) / kTileScalars;
  const int row_steps = (g.height + kStepRows - 1) / kStepRows;
  const int wanted = std::max(1, std::min(sm_count / columns, row_steps));
  l.segment_rows = (row_steps + wanted - 1) / wanted * kStepRows;
  l.segments = (g.height + l.segment_rows - 1) / l.segment_rows;
  l.shared_bytes = rolling_fir_shared_bytes(b, g.channels);
  l.values = device_bands;
  return l;
}

Status allow_rolling_fir_shared_memory(int channels, int bytes) {
  return with_tensor_channels(channels, [&](auto c) { return allow_shared_memory<c()>(bytes); });
}

Status run_rolling_fir(const RollingFirLaunch& l, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                       const SampleFinish& finish, cudaStream_t stream) {
  const RollingPass p{l, static_cast<const unsigned char*>(src), src_pitch, static_cast<unsigned char*>(dst), dst_pitch,
                      finish};
  const dim3 grid(static_cast<unsigned>((l.width * l.channels + kTileScalars - 1) / kTileScalars),
                  static_cast<unsigned>(l.segments));
  with_tensor_channels(l.channels, [&](auto c) { launch<c()>(p, grid, stream); });
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

}  // namespace cudagaussian
