// Separable FIR Gaussian: horizontal pass (samples -> float intermediate), then vertical pass
// (float intermediate -> rounded samples). See separable_fir.h for the contract.
//
// Horizontal pass: one block per (row, segment of kTileWidth pixels). The segment and R halo
// pixels on each side are staged in shared memory as floats, channels interleaved, with the
// border rule resolved while loading, so the inner loop has no branches. Thread t computes the
// samples s = t + j * kHorizontalThreads of the segment; sample s (pixel s / C, channel s % C)
// reads tile[s + k * C] for k = 0..2R: consecutive threads read consecutive words, so there are
// no bank conflicts whatever C is. The taps are read through the read-only cache (one uniform
// address per warp, reused for all of a thread's samples): next to the largest tile they would
// push the block past sm_75's 64 KB of shared memory.
//
// Vertical pass: every row is width * C independent scalar columns. A thread owns one column
// and kRowsPerThread consecutive output rows; it reads each input row once (coalesced across
// the warp) and adds it to every output row whose tap covers it (register blocking), so the
// intermediate is read (2R + kRowsPerThread) / kRowsPerThread times per output instead of
// 2R + 1 times. The taps sit in shared memory padded with zeros so that the 8 x 8 block of
// multiply-adds of each group of 8 input rows needs no range test.

#include "separable_fir.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <string>

#include "border.h"

namespace cudagaussian {
namespace {

// ---- tuning constants -------------------------------------------------------------------------

// Pixels per horizontal block. Wider tiles amortise the 2R halo over more outputs; 256 keeps the
// worst case, (256 + 2 * 1536) pixels x 4 channels x 4 bytes = 52 KB, within the 64 KB of
// dynamic shared memory that sm_75 allows per block (sm_80+ allow more).
constexpr int kTileWidth = 256;
constexpr int kHorizontalThreads = 128;
// Resident blocks the compiler must allow per SM. It sets the register cap, 65536 / (12 x 128)
// = 40: with the cap of 32 that full occupancy would imply, ptxas spills on sm_80, and 40 is
// still 1536 threads per SM. Turing runs at most 1024 threads per SM, so 8 there (cap 64).
// (Large radii are limited by shared memory long before this.)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kHorizontalMinBlocks = 8;
#else
constexpr int kHorizontalMinBlocks = 12;
#endif
static_assert(kHorizontalMinBlocks * kHorizontalThreads <= 2048, "more threads than an SM holds");
static_assert(kTileWidth % kHorizontalThreads == 0,
              "each horizontal thread computes a whole number of pixels' samples");
// Samples of one tile each thread computes, per channel count.
template <int C>
constexpr int kHorizontalOutputs = kTileWidth * C / kHorizontalThreads;

constexpr size_t horizontal_smem_bytes(int radius, int channels) {
  return static_cast<size_t>(kTileWidth + 2 * radius) * channels * sizeof(float);
}
constexpr size_t kSm75MaxDynamicSmem = 64 * 1024;
static_assert(horizontal_smem_bytes(SeparableFir::kMaxRadius, 4) <= kSm75MaxDynamicSmem,
              "the largest horizontal tile must fit sm_75's 64 KB of shared memory per block");

// Grid y is limited to 65535; taller images loop over rows inside the block.
constexpr int kMaxGridY = 65535;

// Vertical blocks are kVerticalColumns x kVerticalGroups threads: one warp spans 32 adjacent
// columns (one 128-byte line of the float intermediate per row), and the warps of a block take
// consecutive row groups, so the rows they share are served from L1.
constexpr int kVerticalColumns = 32;
constexpr int kVerticalGroups = 8;
// Output rows per thread: each input row loaded is used kRowsPerThread times from a register.
constexpr int kRowsPerThread = 8;
static_assert(kVerticalColumns == 32, "a warp must span one row segment for coalescing");
static_assert(kRowsPerThread == 8,
              "the vertical inner block loads its 16 taps as four float4 (2 * 8 - 1 used)");
constexpr int kVerticalRowsPerBlock = kVerticalGroups * kRowsPerThread;

constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Input rows one vertical thread reads: 2R + kRowsPerThread, rounded up to whole groups.
constexpr int vertical_input_rows(int radius) { return round_up(2 * radius + kRowsPerThread, kRowsPerThread); }
// Padded taps: kRowsPerThread - 1 zeros, the 2R + 1 taps, zeros up to the last group's reach.
constexpr int vertical_padded_taps(int radius) { return vertical_input_rows(radius) + kRowsPerThread; }
static_assert(vertical_padded_taps(SeparableFir::kMaxRadius) * sizeof(float) <= 48 * 1024,
              "the vertical taps must fit the default 48 KB of dynamic shared memory");

// ---- sample access ----------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ float load_sample(const unsigned char* row, int index, int shift) {
  return static_cast<float>(__ldg(reinterpret_cast<const T*>(row) + index) >> shift);
}

template <typename T>
__device__ __forceinline__ void store_sample(unsigned char* row, int index, float value,
                                             float max_value, int shift) {
  // Round half up, like store_plane() in the reference.
  const float v = fminf(fmaxf(floorf(value + 0.5f), 0.0f), max_value);
  reinterpret_cast<T*>(row)[index] = static_cast<T>(static_cast<unsigned>(v) << shift);
}

// ---- horizontal pass --------------------------------------------------------------------------

template <int C, typename T>
__global__ void __launch_bounds__(kHorizontalThreads, kHorizontalMinBlocks)
horizontal_pass(const unsigned char* __restrict__ src, size_t src_pitch, float* __restrict__ dst,
                int width, int height, int shift, const float* __restrict__ taps, int radius,
                Border border) {
  extern __shared__ float tile[];  // (kTileWidth + 2R) * C floats
  constexpr int kOutputs = kHorizontalOutputs<C>;
  const int tile_samples = (kTileWidth + 2 * radius) * C;
  const int first_pixel = blockIdx.x * kTileWidth;
  const int samples = min(kTileWidth, width - first_pixel) * C;  // partial last tile
  const int row_samples = width * C;

  for (int y = blockIdx.y; y < height; y += gridDim.y) {
    const unsigned char* in = src + static_cast<size_t>(y) * src_pitch;
    // The whole tile is loaded, also past the image's right edge for a partial tile: the border
    // rule gives every position a valid sample, and the inner loop then reads only loaded words.
    for (int i = threadIdx.x; i < tile_samples; i += kHorizontalThreads) {
      const int p = i / C;  // C is a compile-time constant: no division
      const int x = border_index(first_pixel - radius + p, width, border);
      tile[i] = load_sample<T>(in, x * C + (i - p * C), shift);
    }
    __syncthreads();

    float acc[kOutputs];
#pragma unroll
    for (int j = 0; j < kOutputs; ++j) acc[j] = 0.0f;
    const float* base = tile + threadIdx.x;
    for (int k = 0; k <= 2 * radius; ++k) {
      // Uniform across the warp: one read-only cache broadcast, reused for kOutputs samples.
      // (Shared memory would not fit next to the largest tile within sm_75's 64 KB.)
      const float tap = __ldg(taps + k);
#pragma unroll
      for (int j = 0; j < kOutputs; ++j) acc[j] = fmaf(tap, base[j * kHorizontalThreads + k * C], acc[j]);
    }

    float* out = dst + static_cast<size_t>(y) * row_samples + static_cast<size_t>(first_pixel) * C;
#pragma unroll
    for (int j = 0; j < kOutputs; ++j) {
      const int s = threadIdx.x + j * kHorizontalThreads;
      if (s < samples) out[s] = acc[j];
    }
    __syncthreads();  // the next row overwrites the tile
  }
}

// ---- vertical pass ----------------------------------------------------------------------------

template <typename T>
__global__ void __launch_bounds__(kVerticalColumns * kVerticalGroups)
vertical_pass(const float* __restrict__ src, int row_samples, int height,
              unsigned char* __restrict__ dst, size_t dst_pitch, int shift, float max_value,
              const float* __restrict__ taps, int radius, Border border) {
  // padded[i] = taps[i - (kRowsPerThread - 1)], zero outside 0..2R. Output row r of a thread
  // takes input row j (counted from y0 - R) with tap j - r, i.e. padded[j - r + kRowsPerThread - 1].
  extern __shared__ float4 padded4[];
  float* padded = reinterpret_cast<float*>(padded4);
  const int input_rows = vertical_input_rows(radius);
  const int padded_count = vertical_padded_taps(radius);
  const int tid = threadIdx.y * kVerticalColumns + threadIdx.x;
  for (int i = tid; i < padded_count; i += kVerticalColumns * kVerticalGroups) {
    const int k = i - (kRowsPerThread - 1);
    padded[i] = (k >= 0 && k <= 2 * radius) ? __ldg(taps + k) : 0.0f;
  }
  __syncthreads();

  const int x = blockIdx.x * kVerticalColumns + threadIdx.x;
  const int y0 = (blockIdx.y * kVerticalGroups + threadIdx.y) * kRowsPerThread;
  if (x >= row_samples || y0 >= height) return;  // partial tiles; no barrier follows

  float acc[kRowsPerThread];
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) acc[r] = 0.0f;

  for (int j0 = 0; j0 < input_rows; j0 += kRowsPerThread) {
    float v[kRowsPerThread];
#pragma unroll
    for (int jj = 0; jj < kRowsPerThread; ++jj) {
      // The row is the same for the whole warp, so the border rule costs no divergence.
      const int row = border_index(y0 - radius + j0 + jj, height, border);
      v[jj] = __ldg(src + static_cast<size_t>(row) * row_samples + x);
    }
    // Taps j0 .. j0 + 14 of the padded array cover every (jj, r) pair of this group; j0 is a
    // multiple of 8, so they are four aligned float4 broadcasts.
    float w[2 * kRowsPerThread];
#pragma unroll
    for (int q = 0; q < 2 * kRowsPerThread / 4; ++q) {
      const float4 t = padded4[j0 / 4 + q];
      w[4 * q + 0] = t.x;
      w[4 * q + 1] = t.y;
      w[4 * q + 2] = t.z;
      w[4 * q + 3] = t.w;
    }
#pragma unroll
    for (int jj = 0; jj < kRowsPerThread; ++jj) {
#pragma unroll
      for (int r = 0; r < kRowsPerThread; ++r)
        acc[r] = fmaf(w[jj - r + kRowsPerThread - 1], v[jj], acc[r]);
    }
  }

#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) {
    if (y0 + r < height)
      store_sample<T>(dst + static_cast<size_t>(y0 + r) * dst_pitch, x, acc[r], max_value, shift);
  }
}

// ---- dispatch ---------------------------------------------------------------------------------

using HorizontalKernel = void (*)(const unsigned char*, size_t, float*, int, int, int,
                                  const float*, int, Border);
using VerticalKernel = void (*)(const float*, int, int, unsigned char*, size_t, int, float,
                                const float*, int, Border);

// Bounded template dispatch: 4 channel counts x 2 sample types.
HorizontalKernel horizontal_kernel(const PlaneGeometry& g) {
  const bool wide = g.bytes_per_sample == 2;
  switch (g.channels) {
    case 1: return wide ? horizontal_pass<1, uint16_t> : horizontal_pass<1, uint8_t>;
    case 2: return wide ? horizontal_pass<2, uint16_t> : horizontal_pass<2, uint8_t>;
    case 3: return wide ? horizontal_pass<3, uint16_t> : horizontal_pass<3, uint8_t>;
    case 4: return wide ? horizontal_pass<4, uint16_t> : horizontal_pass<4, uint8_t>;
    default: return nullptr;
  }
}

VerticalKernel vertical_kernel(const PlaneGeometry& g) {
  return g.bytes_per_sample == 2 ? vertical_pass<uint16_t> : vertical_pass<uint8_t>;
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

}  // namespace

Status SeparableFir::plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                          const std::vector<double>& taps_y, Border border) {
  release();
  if (!geometry.valid())
    return Status::invalid("invalid plane geometry: " + std::to_string(geometry.width) + "x" +
                           std::to_string(geometry.height) + ", " +
                           std::to_string(geometry.channels) + " channels, " +
                           std::to_string(geometry.bytes_per_sample) + " bytes per sample, shift " +
                           std::to_string(geometry.shift));
  // Sample indices are int inside the kernels.
  if (static_cast<long long>(geometry.width) * geometry.channels > INT_MAX / 2)
    return Status::invalid("plane is too wide");
  if (geometry.height > kMaxGridY * kVerticalRowsPerBlock)
    return Status::invalid("plane is too tall");
  if (border != Border::Replicate && border != Border::Mirror && border != Border::Reflect)
    return Status::invalid("unknown border rule");
  CG_TRY(check_taps(taps_x, "x"));
  CG_TRY(check_taps(taps_y, "y"));
  const int rx = static_cast<int>(taps_x.size() / 2);

  // Allow the horizontal kernel the largest tile it can ever get, so that plans with different
  // radii never lower a limit another instance relies on (the attribute is per function).
  int device = 0, optin = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const size_t needed = horizontal_smem_bytes(rx, geometry.channels);
  if (needed > static_cast<size_t>(optin))
    return Status::invalid("horizontal radius " + std::to_string(rx) + " with " +
                           std::to_string(geometry.channels) + " channels needs " +
                           std::to_string(needed) + " bytes of shared memory; this GPU allows " +
                           std::to_string(optin));
  const size_t allowed = horizontal_smem_bytes(kMaxRadius, geometry.channels);
  CG_CUDA_TRY(cudaFuncSetAttribute(reinterpret_cast<const void*>(horizontal_kernel(geometry)),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(allowed < size_t(optin) ? allowed : size_t(optin))));

  std::vector<float> taps(taps_x.begin(), taps_x.end());
  taps.insert(taps.end(), taps_y.begin(), taps_y.end());
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  // Synchronous on purpose: plan() is not per frame and the host vector dies on return.
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float),
                         cudaMemcpyHostToDevice));
  CG_TRY(intermediate_.reserve(static_cast<size_t>(geometry.samples_per_row()) * geometry.height *
                               sizeof(float)));

  geometry_ = geometry;
  border_ = border;
  radius_x_ = rx;
  radius_y_ = static_cast<int>(taps_y.size() / 2);
  planned_ = true;
  return Status::success();
}

Status SeparableFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                         cudaStream_t stream) const {
  if (!planned_) return Status::invalid("SeparableFir::run before a successful plan()");
  if (!src || !dst) return Status::invalid("null source or destination plane");
  const PlaneGeometry& g = geometry_;
  const size_t row_bytes = g.row_bytes();
  if (src_pitch < row_bytes || dst_pitch < row_bytes)
    return Status::invalid("pitch (src " + std::to_string(src_pitch) + ", dst " +
                           std::to_string(dst_pitch) + ") is smaller than a row of " +
                           std::to_string(row_bytes) + " bytes");
  if (g.bytes_per_sample == 2 &&
      ((reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst) | src_pitch | dst_pitch) & 1))
    return Status::invalid("16-bit planes need 2-byte aligned pointers and pitches");
  const size_t last = static_cast<size_t>(g.height - 1);
  if (ranges_overlap(src, last * src_pitch + row_bytes, dst, last * dst_pitch + row_bytes))
    return Status::invalid("source and destination planes overlap");

  const auto* taps = static_cast<const float*>(taps_.get());
  auto* tmp = static_cast<float*>(intermediate_.get());
  const int row_samples = g.samples_per_row();

  const dim3 h_grid((g.width + kTileWidth - 1) / kTileWidth, g.height < kMaxGridY ? g.height : kMaxGridY);
  horizontal_kernel(g)<<<h_grid, kHorizontalThreads, horizontal_smem_bytes(radius_x_, g.channels),
                         stream>>>(static_cast<const unsigned char*>(src), src_pitch, tmp, g.width,
                                   g.height, g.shift, taps, radius_x_, border_);
  CG_CUDA_TRY(cudaGetLastError());

  const dim3 v_block(kVerticalColumns, kVerticalGroups);
  const dim3 v_grid((row_samples + kVerticalColumns - 1) / kVerticalColumns,
                    (g.height + kVerticalRowsPerBlock - 1) / kVerticalRowsPerBlock);
  vertical_kernel(g)<<<v_grid, v_block, vertical_padded_taps(radius_y_) * sizeof(float), stream>>>(
      tmp, row_samples, g.height, static_cast<unsigned char*>(dst), dst_pitch, g.shift,
      static_cast<float>(g.max_value()), taps + (2 * radius_x_ + 1), radius_y_, border_);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

void SeparableFir::release() {
  taps_.release();
  intermediate_.release();
  planned_ = false;
  radius_x_ = radius_y_ = 0;
  geometry_ = PlaneGeometry();
}

}  // namespace cudagaussian
