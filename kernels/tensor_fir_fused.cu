// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core FIR in one kernel (tensor_fir_fused.h; the tables and their algebra:
// common/fused_fir_bands.h).
//
// A block stages its tile and halo as fp16 (v - 128), one plane per channel, then each warp
// takes strips of 16 output pixels over 32 or 64 output rows, every channel of them. For each
// 16 staged rows the warp forms the horizontal products mid[pixel][row] with mma.sync
// (m16n8k16: band block x staged samples); the accumulators of two 8-row products, rounded to
// fp16, are exactly the left operand of the next product, so the vertical band multiplies them
// at once into every 8-row output tile they reach. The warp ends with its outputs in
// registers: it adds the 128 back, finishes, rounds and stores each pixel's channels together.

#include "tensor_fir_fused.h"

#include <cstdint>
#include <cstring>

#include <cuda_fp16.h>

#include "border.h"
#include "tensor_channels.h"
#include "tensor_mma.cuh"
#include "tensor_staging.cuh"

namespace cudagaussian {
namespace {

constexpr int kWarps = 8;
constexpr int kThreads = kWarps * 32;
constexpr int kStageBatch = 4;  // pieces a thread loads before it stores them
// Samples are staged as v - 128, where fp16 has twice the precision it has up to 255.
constexpr float kBias = 128.0f;

// A warp's share of a tile: kStrips strips of 16 pixels (all channels) by kTiles tiles of 8
// rows.
template <int C>
struct WarpShare {
  static constexpr int kStrips = C == 1 ? 2 : 1;
  static constexpr int kTiles = fused_warp_rows(C) / 8;
  static constexpr int kTileStrips = fused_tile_pixels(C) / 16;
  static constexpr int kStripGroups = kTileStrips / kStrips;  // warps across the tile
  static_assert(kWarps / kStripGroups * kTiles * 8 == kFusedTileRows, "the warps cover the tile");
  static_assert(kStrips * C * kTiles == kFusedTileRows / 4, "the same accumulators a lane whatever the channels");
};
// Two blocks an SM: 128 registers a thread (docs/bench/kernel_choices.md, "FIR: tensor cores in
// one kernel").
constexpr int kBlocksPerSm = 2;

struct FusedPass {
  FusedFirLaunch l;
  const unsigned char* src;
  size_t src_pitch;
  unsigned char* dst;
  size_t dst_pitch;
  SampleFinish finish;
};

// Stages the tile at (px0, y0) with its halo, rows and pixels by the border rule; synchronizes
// the block.
template <int C>
__device__ void stage_tile(const FusedPass& p, half* stage, int rows, int px0, int y0) {
  constexpr int kShift = C == 4 ? 2 : C == 2 ? 1 : 0;
  const FusedFirLaunch& l = p.l;
  const int pieces = (fused_tile_pixels(C) + 2 * l.bands.halo_x) * C / kStagePiece, plane_halves = rows * l.bands.stage_stride;
  stage_rows<kThreads, kStageBatch>(p.src, p.src_pitch, l.width, l.height, kShift, l.border, y0 - l.bands.halo_y, rows,
                                    (px0 - l.bands.halo_x) * C, pieces, [&](int r, int at, uint4 piece) {
                                      store_planes<C>(stage, plane_halves, r, l.bands.stage_stride, at / C, piece);
                                    });
  stage_beyond_row_ends<C, kThreads>(stage, plane_halves, l.bands.stage_stride, rows, px0 - l.bands.halo_x,
                                     pieces * kStagePiece / C, l.width, l.border);
}

// Adds the bias back, finishes (kFinish), rounds (rounded_sample(): floor(v + 0.5) within
// [0, 255]) and stores the C channels of one pixel at `to` (`whole_pixels`: in one store).
template <int C, bool kFinish>
__device__ __forceinline__ void store_pixel(const FusedPass& p, const half* stage, int plane_halves,
                                            const float (&value)[C], int px, int y, unsigned char* to,
                                            bool whole_pixels) {
  const FusedFirLaunch& l = p.l;
  int level[4] = {0, 0, 0, 0};
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if (kFinish) {
      const half input = stage[c * plane_halves + (l.bands.halo_y + y) * l.bands.stage_stride + l.bands.halo_x + px];
      level[c] = __float2int_rd(finish_sample(p.finish, value[c] + kBias, __half2float(input) + kBias, c) + 0.5f);
    } else {
      level[c] = __float2int_rd(value[c] + (kBias + 0.5f));
    }
  }
  const uint32_t word = saturated_bytes(level[1], level[0], C == 4 ? saturated_bytes(level[3], level[2], 0) : 0);
  if (C == 4 && whole_pixels) {
    *reinterpret_cast<uint32_t*>(to) = word;
  } else if (C == 2 && whole_pixels) {
    *reinterpret_cast<uint16_t*>(to) = static_cast<uint16_t>(word);
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c) to[c] = static_cast<unsigned char>(word >> (8 * c));
  }
}

template <int C, bool kFinish>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) tensor_fused_kernel(FusedPass p) {
  using Share = WarpShare<C>;
  extern __shared__ __align__(16) unsigned char smem[];
  const FusedFirLaunch& l = p.l;
  const int rows = kFusedTileRows + 2 * l.bands.halo_y, stride = l.bands.stage_stride, plane_halves = rows * stride;
  half* stage = reinterpret_cast<half*>(smem);
  half* row_bands = stage + C * plane_halves;
  const half* column_bands = row_bands + l.bands.row_blocks * kFusedRowBlockValues;
  const int px0 = blockIdx.x * fused_tile_pixels(C), y0 = blockIdx.y * kFusedTileRows;

  copy_swizzled_tables(row_bands, l.values,
                       l.bands.row_blocks * kFusedRowBlockValues + l.bands.column_blocks * kFusedColumnBlockValues, kThreads);
  stage_tile<C>(p, stage, rows, px0, y0);

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int first_strip = (warp % Share::kStripGroups) * Share::kStrips;
  const int out_row0 = warp / Share::kStripGroups * Share::kTiles * 8;
  const FragmentLanes at(lane);

  float out[Share::kStrips][C][Share::kTiles][4];
#pragma unroll
  for (int s = 0; s < Share::kStrips; ++s)
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int t = 0; t < Share::kTiles; ++t)
#pragma unroll
        for (int e = 0; e < 4; ++e) out[s][c][t][e] = 0.0f;

  // The 16-row blocks of staged rows that the warp's output rows reach.
  const int first = (out_row0 + l.bands.halo_y - l.bands.radius_y) / 16;
  const int last = (out_row0 + Share::kTiles * 8 - 1 + l.bands.halo_y + l.bands.radius_y) / 16;
  for (int block = first; block <= last; ++block) {
#pragma unroll
    for (int s = 0; s < Share::kStrips; ++s) {
      const int strip_pixel = (first_strip + s) * 16;
      float mid[C][2][4];
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int e = 0; e < 4; ++e) mid[c][0][e] = mid[c][1][e] = 0.0f;
      const half* staged = stage + (16 * block + at.staged_row) * stride + strip_pixel + 16 * l.bands.first_block + at.staged_column;
      for (int m = 0; m < l.bands.row_blocks; ++m) {
        unsigned band[4];
        load_matrices_x4(band, row_bands + m * kFusedRowBlockValues + at.band_at);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          unsigned in[4];
          load_matrices_x4(in, staged + c * plane_halves + 16 * m);
          multiply_add(mid[c][0], band, in[0], in[1]);
          multiply_add(mid[c][1], band, in[2], in[3]);
        }
      }
      // Rows 0-7 and 8-15 of the block, rounded to fp16: the left operand, 16 pixels x 16 rows.
      unsigned left[C][4];
#pragma unroll
      for (int c = 0; c < C; ++c) {
        left[c][0] = pack_halves(mid[c][0][0], mid[c][0][1]);
        left[c][1] = pack_halves(mid[c][0][2], mid[c][0][3]);
        left[c][2] = pack_halves(mid[c][1][0], mid[c][1][1]);
        left[c][3] = pack_halves(mid[c][1][2], mid[c][1][3]);
      }
#pragma unroll
      for (int t = 0; t < Share::kTiles; ++t) {
        const int delta = 16 * block - l.bands.halo_y - out_row0 - 8 * t;
        if (delta < l.bands.first_delta || delta >= l.bands.first_delta + 8 * l.bands.column_blocks) continue;
        unsigned taps[2];
        load_matrices_x2(taps, column_bands + ((delta - l.bands.first_delta) >> 3) * kFusedColumnBlockValues + at.column_at);
#pragma unroll
        for (int c = 0; c < C; ++c) multiply_add(out[s][c][t], left[c], taps[0], taps[1]);
      }
    }
  }

  // Lane holds pixels lane / 4 and lane / 4 + 8 of each strip (accumulator elements e / 2), rows
  // 2 (lane % 4) and + 1 of each tile (e % 2).
  const bool whole_pixels = ((reinterpret_cast<uintptr_t>(p.dst) | p.dst_pitch) % C) == 0;
#pragma unroll
  for (int s = 0; s < Share::kStrips; ++s) {
    const int px = (first_strip + s) * 16 + lane / 4;
#pragma unroll
    for (int t = 0; t < Share::kTiles; ++t)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int y = out_row0 + 8 * t + (lane % 4) * 2 + h;
        if (y0 + y >= l.height) continue;
        unsigned char* row = p.dst + static_cast<size_t>(y0 + y) * p.dst_pitch + static_cast<size_t>(px0 + px) * C;
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          if (px0 + px + 8 * j >= l.width) continue;
          float value[C];
#pragma unroll
          for (int c = 0; c < C; ++c) value[c] = out[s][c][t][2 * j + h];
          store_pixel<C, kFinish>(p, stage, plane_halves, value, px + 8 * j, y, row + 8 * j * C, whole_pixels);
        }
      }
  }
}

template <int C>
void launch(const FusedPass& p, dim3 grid, cudaStream_t stream) {
  if (p.finish.active())
    tensor_fused_kernel<C, true><<<grid, kThreads, p.l.shared_bytes, stream>>>(p);
  else
    tensor_fused_kernel<C, false><<<grid, kThreads, p.l.shared_bytes, stream>>>(p);
}

template <int C>
Status allow_shared_memory(int bytes) {
  for (const void* k : {reinterpret_cast<const void*>(&tensor_fused_kernel<C, false>),
                        reinterpret_cast<const void*>(&tensor_fused_kernel<C, true>)})
    CG_CUDA_TRY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  return Status::success();
}

}  // namespace

FusedFirLaunch fused_fir_launch(const PlaneGeometry& g, Border border, const FusedBands& b, const void* device_bands) {
  FusedFirLaunch l;
  l.width = g.width;
  l.height = g.height;
  l.channels = g.channels;
  l.border = border;
  l.bands = band_shape(b, g.channels);
  l.shared_bytes = b.shared_bytes(g.channels);
  l.values = device_bands;
  return l;
}

Status allow_fused_fir_shared_memory(int channels, int bytes) {
  return with_tensor_channels(channels, [&](auto c) { return allow_shared_memory<c()>(bytes); });
}

Status run_fused_fir(const FusedFirLaunch& l, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                     const SampleFinish& finish, cudaStream_t stream) {
  const FusedPass p{l, static_cast<const unsigned char*>(src), src_pitch, static_cast<unsigned char*>(dst), dst_pitch,
                    finish};
  const int tile_pixels = fused_tile_pixels(l.channels);
  const dim3 grid(static_cast<unsigned>((l.width + tile_pixels - 1) / tile_pixels),
                  static_cast<unsigned>((l.height + kFusedTileRows - 1) / kFusedTileRows));
  with_tensor_channels(l.channels, [&](auto c) { launch<c()>(p, grid, stream); });
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

}  // namespace cudagaussian
