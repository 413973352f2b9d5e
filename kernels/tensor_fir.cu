// SPDX-License-Identifier: LGPL-2.1-or-later
// TensorFir (tensor_fir.h): the separable FIR as two banded matrix products on tensor cores.
//
// Horizontal pass (tensor_rows_kernel): a block stages 16 rows of its 256 output scalars (256 / C
// pixels) plus `halo` pixels each side in shared memory, as fp16 (v - 128) planes, one a channel,
// the border rule resolved there. Each warp multiplies four 16x16 output blocks of one plane each
// (a strip of 16 pixels of one channel): sum over m of (staged plane columns 16 (j + m) ..) x B_m,
// the band of one channel (common/fir_bands.h), so that its radius is R pixels, not C R scalars.
// It interleaves the channels again as it writes the fp16 intermediate `mid`, whose rows run from
// `margin_rows` above row 0 to as far below the last row, so that the vertical pass reads every
// row it needs without a border rule.
// Vertical pass (tensor_columns_kernel): output row block t (16 rows) is the sum over m of T_m x
// (16 rows of mid from its first row + 16 m). Each warp makes 64 rows x 32 scalars, reading each
// 16-row block of the intermediate straight from memory (L2) once and multiplying it into every
// output block it reaches; then it adds the 128 back, finishes (sample_finish.h), rounds and
// stores.

#include "tensor_fir.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include <cuda_fp16.h>
#include <mma.h>

#include "async_copy.cuh"
#include "border.h"
#include "fir_bands.h"
#include "fused_fir_bands.h"
#include "tensor_channels.h"
#include "tensor_staging.cuh"

namespace cudagaussian {
namespace {

using namespace nvcuda;

constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;
constexpr int kWarpBlocks = 4;                             // 16-scalar output blocks per warp
constexpr int kWarpScalars = kWarpBlocks * kBandBlock;     // 64
constexpr int kTileScalars = kRowTileScalars;              // 256 output scalars per block
static_assert(kTileScalars == kWarps * kWarpScalars, "the horizontal tile is its warps' blocks");
constexpr int kTileRows = kBandBlock;                      // 16
constexpr int kBlockValues = kBandBlock * kBandBlock;      // 256 values in a 16x16 block
// The vertical pass: a warp makes kColumnRowBlocks x kColumnBlocks blocks of 16x16 outputs.
constexpr int kColumnRowBlocks = 4;
constexpr int kColumnBlocks = 2;
static_assert(kColumnTileRows == kColumnRowBlocks * kBandBlock, "the vertical tile is its warps' rows of blocks");
constexpr int kColumnTileScalars = kWarps * kColumnBlocks * kBandBlock;        // 128
static_assert(kTileScalars % kColumnTileScalars == 0, "both passes tile the intermediate's pitch");
constexpr int kStagePad = 8;  // halves after each staged row, so that rows start in other banks
constexpr int kStageBatch = 4;   // pieces a thread loads before it stores them
// Samples are staged as v - 128: the intermediate then stays within +-128, where fp16 has twice
// the precision it has up to 255.
constexpr float kBias = 128.0f;

using BandA = wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>;
using BandB = wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major>;
using Accumulator = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;

// A staged plane's row: the tile's 256 / C pixels, `halo` pixels each side and a pad.
__host__ __device__ constexpr int stage_stride(int halo, int channels) {
  return kTileScalars / channels + 2 * halo + kStagePad;
}
// The staged planes, or (once the products are done) each warp's four blocks of fp32 results.
constexpr size_t row_smem_bytes(int halo, int channels) {
  const size_t staged = static_cast<size_t>(channels) * kTileRows * stage_stride(halo, channels) * sizeof(half);
  const size_t results = static_cast<size_t>(kWarps) * kWarpBlocks * kBlockValues * sizeof(float);
  return staged > results ? staged : results;
}
// The widest halo (4 channels at kMaxRadius) fits the 48 KB any GPU gives a block without opting in.
static_assert(row_smem_bytes((TensorFir::kMaxRadius + kBandBlock - 1) / kBandBlock * kBandBlock, 4) <= 48 * 1024,
              "the horizontal tile outgrows 48 KB of shared memory");

struct RowPass {
  const unsigned char* src;
  size_t src_pitch;
  int width;  // pixels
  int height;
  int channel_shift;  // log2 of the channels (1, 2 or 4)
  Border border;
  const half* bands;  // B_m of one channel, 16x16 each
  int blocks;
  int halo;  // pixels staged before the tile's first output
  half* mid;
  size_t mid_pitch;  // halves
  int margin_rows;
};

struct ColumnPass {
  const half* mid;
  size_t mid_pitch;
  const half* bands;  // T_m, 16x16 each
  int blocks;
  unsigned char* dst;
  size_t dst_pitch;
  const unsigned char* src;  // the input, for the finishing step
  size_t src_pitch;
  int row_scalars;
  int height;
  int channels;  // 1, 2 or 4
  SampleFinish finish;
};

// The horizontal products of a warp's kWarpBlocks output blocks, acc[j] += sum over m of
// (staged block j + m) x B_m, in one of two orders (the sums are the same, in the same order).
// By staged block, where the four blocks are neighbours in one plane (one channel): each staged
// block k is loaded once and multiplied into the (up to) four output blocks it reaches, through
// band blocks m = k - j kept in registers, the last four (band block m in slot m % 4; k runs in
// steps of four so that the slots are known at compile time). Fewer loads, more branches: faster
// up to kWindowMaxBands band blocks (docs/bench/kernel_choices.md, "FIR: tensor cores").
constexpr int kWindowMaxBands = 12;
__device__ __forceinline__ void multiply_by_staged_block(const RowPass& p, const half* a, int stride,
                                                         Accumulator (&acc)[kWarpBlocks]) {
  const int steps = p.blocks + kWarpBlocks - 1;
  BandB band[kWarpBlocks];
  for (int k0 = 0; k0 < steps; k0 += kWarpBlocks) {
#pragma unroll
    for (int u = 0; u < kWarpBlocks; ++u) {
      const int k = k0 + u;
      if (k >= steps) break;
      if (k < p.blocks) wmma::load_matrix_sync(band[u], p.bands + k * kBlockValues, kBandBlock);
      BandA in;
      wmma::load_matrix_sync(in, a + k * kBandBlock, stride);
#pragma unroll
      for (int j = 0; j < kWarpBlocks; ++j) {
        const int m = k - j;
        if (m >= 0 && m < p.blocks) wmma::mma_sync(acc[j], in, band[(u - j + kWarpBlocks) % kWarpBlocks], acc[j]);
      }
    }
  }
}
// By band block: each band block is loaded once and multiplied with the four staged blocks it
// meets, output block j's (channel j % C, the warp's strip j / C) from a on.
template <int C>
__device__ __forceinline__ void multiply_by_band_block(const RowPass& p, const half* a, int stride, int plane,
                                                       Accumulator (&acc)[kWarpBlocks]) {
  for (int m = 0; m < p.blocks; ++m) {
    BandB band;
    wmma::load_matrix_sync(band, p.bands + m * kBlockValues, kBandBlock);
#pragma unroll
    for (int j = 0; j < kWarpBlocks; ++j) {
      BandA in;
      wmma::load_matrix_sync(in, a + (j % C) * plane + (j / C + m) * kBandBlock, stride);
      wmma::mma_sync(acc[j], in, band, acc[j]);
    }
  }
}

// Eight blocks per SM asked for: 64 registers, without spills. Output block j of warp w is strip
// w * 4 / C + j / C of channel j % C: 16 pixels, the warp's 64 scalars whatever the channels.
template <int C>
__global__ void __launch_bounds__(kThreads, 8) tensor_rows_kernel(RowPass p) {
  extern __shared__ __align__(32) unsigned char smem[];
  constexpr int kStripsPerWarp = kWarpBlocks / C;
  const int stride = stage_stride(p.halo, C), plane = kTileRows * stride;
  half* staged = reinterpret_cast<half*>(smem);

  const int x0 = blockIdx.x * kTileScalars;
  const int mid_row0 = blockIdx.y * kTileRows;
  const int pieces = (kTileScalars + 2 * p.halo * C) / kStagePiece;
  stage_rows<kThreads, kStageBatch>(p.src, p.src_pitch, p.width, p.height, p.channel_shift, p.border,
                                    mid_row0 - p.margin_rows, kTileRows, x0 - p.halo * C, pieces,
                                    [&](int r, int at, uint4 piece) { store_planes<C>(staged, plane, r, stride, at / C, piece); });
  stage_beyond_row_ends<C, kThreads>(staged, plane, stride, kTileRows, x0 / C - p.halo, pieces * kStagePiece / C,
                                     p.width, p.border);

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Accumulator acc[kWarpBlocks];
#pragma unroll
  for (int j = 0; j < kWarpBlocks; ++j) wmma::fill_fragment(acc[j], 0.0f);
  const half* a = staged + warp * kStripsPerWarp * kBandBlock;
  if (C == 1 && p.blocks <= kWindowMaxBands)
    multiply_by_staged_block(p, a, stride, acc);
  else
    multiply_by_band_block<C>(p, a, stride, plane, acc);

  // The staged planes are spent: each warp's results go where they were, then each lane gathers
  // eight neighbouring scalars of a row (channels interleaved again) and writes them as one
  // 16-byte store.
  __syncthreads();
  float* mine = reinterpret_cast<float*>(smem) + warp * kWarpBlocks * kBlockValues;
#pragma unroll
  for (int j = 0; j < kWarpBlocks; ++j) wmma::store_matrix_sync(mine + j * kBlockValues, acc[j], kBandBlock, wmma::mem_row_major);
  __syncwarp();
  constexpr int kChunks = kWarpScalars / 8;  // of a row
#pragma unroll
  for (int k = 0; k < kTileRows * kChunks / 32; ++k) {
    const int i = k * 32 + lane, row = i / kChunks, first = i % kChunks * 8;
    union {
      half2 h[4];
      uint4 u;
    } pack;
#pragma unroll
    for (int e = 0; e < 8; e += 2) {
      float v[2];
#pragma unroll
      for (int d = 0; d < 2; ++d) {
        const int scalar = first + e + d, pixel = scalar / C, channel = scalar % C;
        v[d] = mine[((pixel / kBandBlock) * C + channel) * kBlockValues + row * kBandBlock + pixel % kBandBlock];
      }
      pack.h[e / 2] = __floats2half2_rn(v[0], v[1]);
    }
    *reinterpret_cast<uint4*>(p.mid + static_cast<size_t>(mid_row0 + row) * p.mid_pitch + x0 + warp * kWarpScalars +
                              first) = pack.u;
  }
}

// The input samples a warp's output blocks finish with (kColumnTileRows rows of kColumnBlocks
// x 16 scalars from (y0, q0)), copied into `staged` in the background (cp.async, 16 bytes at a
// time where aligned) while the warp multiplies; pieces at the plane's edges or unaligned are
// copied byte by byte. wait_async_copies() and a __syncwarp() make them visible.
constexpr int kWarpColumnScalars = kColumnBlocks * kBandBlock;  // 32
__device__ void stage_finish_inputs(const ColumnPass& p, int y0, int q0,
                                    unsigned char (*staged)[kWarpColumnScalars]) {
  constexpr int kPiece = 16, kPiecesPerRow = kWarpColumnScalars / kPiece;
  const int lane = threadIdx.x % 32;
  for (int k = lane; k < kColumnTileRows * kPiecesPerRow; k += 32) {
    const int row = k / kPiecesPerRow, at = (k % kPiecesPerRow) * kPiece;
    const int y = y0 + row, q = q0 + at;
    if (y >= p.height || q >= p.row_scalars) continue;
    const unsigned char* from = p.src + static_cast<size_t>(y) * p.src_pitch + q;
    if (q + kPiece <= p.row_scalars && (reinterpret_cast<uintptr_t>(from) % kPiece) == 0) {
      copy_async<kPiece>(&staged[row][at], from);
    } else {
      for (int i = 0; i < kPiece && q + i < p.row_scalars; ++i) staged[row][at + i] = __ldg(from + i);
    }
  }
}

// Rounds, finishes and stores the 16x16 block `acc` whose top-left sample is (y0, q0), through the
// warp's scratch block; each lane stores eight samples of a row. `inputs`: the block's input
// samples (rows kWarpColumnScalars apart) where the finishing step needs them.
__device__ __forceinline__ void store_block(const ColumnPass& p, const Accumulator& acc, float* scratch, int y0,
                                            int q_block, const unsigned char* inputs) {
  const int lane = threadIdx.x % 32;
  wmma::store_matrix_sync(scratch, acc, kBandBlock, wmma::mem_row_major);
  __syncwarp();
  const int row = lane / 2, half_row = (lane % 2) * 8;
  const int y = y0 + row, q0 = q_block + half_row;
  if (y < p.height && q0 < p.row_scalars) {
    const float* v = scratch + row * kBandBlock + half_row;
    const int n = p.row_scalars - q0 < 8 ? p.row_scalars - q0 : 8;
    const bool whole = n == 8;
    unsigned char b[8];
    if (p.finish.active()) {
      const uint2 w = *reinterpret_cast<const uint2*>(inputs + row * kWarpColumnScalars + half_row);
      std::memcpy(b, &w, 8);
    }
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      float value = v[k] + kBias;
      if (p.finish.active())
        value = finish_sample(p.finish, value, static_cast<float>(b[k]), (q0 + k) & (p.channels - 1));
      b[k] = static_cast<unsigned char>(rounded_sample(value, 255.0f));
    }
    unsigned char* to = p.dst + static_cast<size_t>(y) * p.dst_pitch + q0;
    if (whole && (reinterpret_cast<uintptr_t>(to) & 7) == 0) {
      uint2 w;
      std::memcpy(&w, b, 8);
      *reinterpret_cast<uint2*>(to) = w;
    } else {
      for (int k = 0; k < n; ++k) to[k] = b[k];
    }
  }
  __syncwarp();
}

// A warp makes kColumnRowBlocks x kColumnBlocks output blocks: each 16-row block of the
// intermediate it loads serves every output row block its band reaches (block m of T for output
// row block t multiplies intermediate block t + m), so each is loaded once per warp instead of
// once per band block.
__global__ void __launch_bounds__(kThreads) tensor_columns_kernel(ColumnPass p) {
  __shared__ __align__(32) half bands[TensorFir::kMaxColumnBands * kBlockValues];
  __shared__ __align__(32) float scratch[kWarps][kBlockValues];
  __shared__ __align__(16) unsigned char staged[kWarps][kColumnTileRows][kWarpColumnScalars];
  const int warp = threadIdx.x / 32;
  const int y0 = blockIdx.y * kColumnTileRows;
  const int x0 = blockIdx.x * kColumnTileScalars + warp * kWarpColumnScalars;
  if (p.finish.active()) stage_finish_inputs(p, y0, x0, staged[warp]);
  for (int i = threadIdx.x; i < p.blocks * kBlockValues; i += kThreads) bands[i] = p.bands[i];
  __syncthreads();

  Accumulator acc[kColumnRowBlocks][kColumnBlocks];
#pragma unroll
  for (int t = 0; t < kColumnRowBlocks; ++t)
#pragma unroll
    for (int j = 0; j < kColumnBlocks; ++j) wmma::fill_fragment(acc[t][j], 0.0f);
  // Intermediate row block r starts at mid row y0 + 16 r (mid row i is input row i - margin rows).
  const half* column = p.mid + static_cast<size_t>(y0) * p.mid_pitch + x0;
  const int row_blocks_in = kColumnRowBlocks + p.blocks - 1;
  for (int r = 0; r < row_blocks_in; ++r) {
    BandB in[kColumnBlocks];
    const half* rows = column + static_cast<size_t>(r) * kBandBlock * p.mid_pitch;
#pragma unroll
    for (int j = 0; j < kColumnBlocks; ++j)
      wmma::load_matrix_sync(in[j], rows + j * kBandBlock, static_cast<unsigned>(p.mid_pitch));
#pragma unroll
    for (int t = 0; t < kColumnRowBlocks; ++t) {
      const int m = r - t;
      if (m < 0 || m >= p.blocks) continue;
      BandA band;
      wmma::load_matrix_sync(band, bands + m * kBlockValues, kBandBlock);
#pragma unroll
      for (int j = 0; j < kColumnBlocks; ++j) wmma::mma_sync(acc[t][j], band, in[j], acc[t][j]);
    }
  }

  wait_async_copies();
  __syncwarp();
#pragma unroll
  for (int t = 0; t < kColumnRowBlocks; ++t)
#pragma unroll
    for (int j = 0; j < kColumnBlocks; ++j)
      store_block(p, acc[t][j], scratch[warp], y0 + t * kBandBlock, x0 + j * kBandBlock,
                  &staged[warp][t * kBandBlock][j * kBandBlock]);
}

// Uploads fp16 copies of band values (synchronous on purpose: plan() is not per frame and the
// host vector dies on return).
Status upload_halves(DeviceBuffer& to, const std::vector<float>& values) {
  std::vector<half> h;
  h.reserve(values.size());
  for (float v : values) h.push_back(__float2half_rn(v));
  CG_TRY(to.reserve(h.size() * sizeof(half)));
  CG_CUDA_TRY(cudaMemcpy(to.get(), h.data(), h.size() * sizeof(half), cudaMemcpyHostToDevice));
  return Status::success();
}

}  // namespace

bool TensorFir::applies(const PlaneGeometry& g, const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                        int compute_major) {
  return compute_major >= 7 && plane_suits_tensor_cores(g, taps_x, taps_y);
}

bool TensorFir::one_kernel_runs(const PlaneGeometry& g, const std::vector<double>& taps_x,
                                const std::vector<double>& taps_y, int compute_major, int shared_optin) {
  return compute_major >= 8 && applies(g, taps_x, taps_y, compute_major) &&
         fused_bands(taps_x, taps_y, g.channels).shared_bytes(g.channels) <= static_cast<size_t>(shared_optin);
}

bool TensorFir::rolling_runs(const PlaneGeometry& g, const std::vector<double>& taps_x,
                             const std::vector<double>& taps_y, int compute_major, int shared_optin) {
  if (compute_major < 8 || !applies(g, taps_x, taps_y, compute_major)) return false;
  const FusedBands bands = fused_bands(taps_x, taps_y, g.channels);
  return rolling_fir_fits(bands, g.channels) &&
         rolling_fir_shared_bytes(bands, g.channels) <= static_cast<size_t>(shared_optin);
}

bool TensorFir::chooses_one_kernel(const PlaneGeometry& g, const std::vector<double>& taps_x,
                                   const std::vector<double>& taps_y, int compute_major, int shared_optin,
                                   Layout layout) {
  const int radius = static_cast<int>(std::max(taps_x.size(), taps_y.size()) / 2);
  return layout != Layout::TwoPasses && one_kernel_runs(g, taps_x, taps_y, compute_major, shared_optin) &&
         (layout == Layout::OneKernel || radius <= kOneKernelMaxRadius);
}

Status TensorFir::plan(const PlaneGeometry& g, const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                       Border border, int compute_major, int shared_optin, int sm_count, Layout layout) {
  release();
  if (!g.valid() || !applies(g, taps_x, taps_y, compute_major))
    return Status::invalid("the tensor-core FIR takes 8-bit planes of 1, 2 or 4 channels, Gaussian taps of radius up to " +
                           std::to_string(kMaxRadius) + ", on compute capability 7.0 or later");
  // The one kernel and the rolling layout share the fused tables.
  const bool rolling = layout == Layout::Rolling && rolling_runs(g, taps_x, taps_y, compute_major, shared_optin);
  if (rolling || chooses_one_kernel(g, taps_x, taps_y, compute_major, shared_optin, layout)) {
    const FusedBands bands = fused_bands(taps_x, taps_y, g.channels);
    CG_TRY(upload_halves(bands_, bands.values));
    // The limit is per function and shared by every plan: always the device's maximum.
    if (rolling) {
      CG_TRY(allow_rolling_fir_shared_memory(g.channels, shared_optin));
      rolling_launch_ = rolling_fir_launch(g, border, bands, bands_.get(), sm_count);
    } else {
      CG_TRY(allow_fused_fir_shared_memory(g.channels, shared_optin));
      fused_ = fused_fir_launch(g, border, bands, bands_.get());
    }
    geometry_ = g;
    border_ = border;
    rolling_ = rolling;
    one_kernel_ = !rolling;
    planned_ = true;
    return Status::success();
  }
  const FirBands rows = row_bands(taps_x, 1);  // the horizontal pass multiplies channel planes
  const FirBands columns = column_bands(taps_y);
  std::vector<float> values = rows.values;
  values.insert(values.end(), columns.values.begin(), columns.values.end());
  CG_TRY(upload_halves(bands_, values));

  halo_ = rows.halo;
  row_bands_ = rows.blocks;
  margin_rows_ = columns.halo;
  column_bands_ = columns.blocks;
  mid_rows_ = intermediate_rows(g.height, columns);
  mid_pitch_ = static_cast<size_t>(intermediate_pitch(g.samples_per_row()));
  CG_TRY(mid_.reserve(static_cast<size_t>(mid_rows_) * mid_pitch_ * sizeof(half)));
  row_smem_ = row_smem_bytes(halo_, g.channels);
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

Status TensorFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, const SampleFinish& finish,
                      cudaStream_t stream) const {
  if (!planned_) return Status::invalid("TensorFir::run before a successful plan()");
  if (one_kernel_) return run_fused_fir(fused_, src, src_pitch, dst, dst_pitch, finish, stream);
  if (rolling_) return run_rolling_fir(rolling_launch_, src, src_pitch, dst, dst_pitch, finish, stream);
  const PlaneGeometry& g = geometry_;
  const auto* bands = static_cast<const half*>(bands_.get());
  auto* mid = static_cast<half*>(mid_.get());
  const unsigned tiles_x = static_cast<unsigned>(mid_pitch_ / kTileScalars);
  const int channel_shift = g.channels == 4 ? 2 : g.channels == 2 ? 1 : 0;

  const RowPass rows{static_cast<const unsigned char*>(src), src_pitch, g.width, g.height, channel_shift, border_,
                     bands, row_bands_, halo_, mid, mid_pitch_, margin_rows_};
  const dim3 row_grid(tiles_x, static_cast<unsigned>(mid_rows_ / kTileRows));
  with_tensor_channels(g.channels, [&](auto c) {
    tensor_rows_kernel<c()><<<row_grid, kThreads, row_smem_, stream>>>(rows);
  });
  CG_CUDA_TRY(cudaGetLastError());

  const ColumnPass columns{mid, mid_pitch_, bands + static_cast<size_t>(row_bands_) * kBlockValues, column_bands_,
                           static_cast<unsigned char*>(dst), dst_pitch, static_cast<const unsigned char*>(src),
                           src_pitch, g.samples_per_row(), g.height, g.channels, finish};
  tensor_columns_kernel<<<dim3(static_cast<unsigned>(mid_pitch_ / kColumnTileScalars),
                               static_cast<unsigned>((g.height + kColumnTileRows - 1) / kColumnTileRows)),
                          kThreads, 0, stream>>>(columns);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

void TensorFir::release() {
  bands_.release();
  mid_.release();
  geometry_ = PlaneGeometry();
  border_ = Border::Replicate;
  halo_ = row_bands_ = margin_rows_ = column_bands_ = mid_rows_ = 0;
  mid_pitch_ = row_smem_ = 0;
  one_kernel_ = false;
  fused_ = FusedFirLaunch();
  rolling_ = false;
  rolling_launch_ = RollingFirLaunch();
  planned_ = false;
}

}  // namespace cudagaussian
