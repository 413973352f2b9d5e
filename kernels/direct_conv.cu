// SPDX-License-Identifier: LGPL-2.1-or-later
// Direct 2D convolution: a block stages a 16 x 16 tile of pixels plus an R-pixel halo in shared
// memory (border rule resolved while loading), then each thread sums (2R + 1)² taps for every
// channel of its pixel. Taps are read from shared memory too (the same address across a warp).

#include "direct_conv.h"

#include <cstdint>
#include <string>

#include "border.h"

namespace cudagaussian {
namespace {

constexpr int kTile = 16;

template <typename T>
__device__ __forceinline__ float load(const unsigned char* row, int index, int shift) {
  return static_cast<float>(reinterpret_cast<const T*>(row)[index] >> shift);
}

template <typename T>
__global__ void __launch_bounds__(kTile * kTile)
direct_kernel(const unsigned char* __restrict__ src, size_t src_pitch, unsigned char* __restrict__ dst,
              size_t dst_pitch, int width, int height, int channels, int shift, float max_value,
              const float* __restrict__ taps, int radius, Border border, SampleFinish finish) {
  extern __shared__ float smem[];
  const int span = kTile + 2 * radius;
  const int size = 2 * radius + 1;
  float* tile = smem;                            // span * span * channels
  float* k = smem + span * span * channels;      // size * size
  const int tid = threadIdx.y * kTile + threadIdx.x;
  for (int i = tid; i < size * size; i += kTile * kTile) k[i] = taps[i];
  const int x0 = blockIdx.x * kTile - radius, y0 = blockIdx.y * kTile - radius;
  for (int i = tid; i < span * span * channels; i += kTile * kTile) {
    const int c = i % channels, p = i / channels, ty = p / span, tx = p % span;
    const int y = border_index(y0 + ty, height, border), x = border_index(x0 + tx, width, border);
    tile[i] = load<T>(src + static_cast<size_t>(y) * src_pitch, x * channels + c, shift);
  }
  __syncthreads();

  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x >= width || y >= height) return;
  T* out = reinterpret_cast<T*>(dst + static_cast<size_t>(y) * dst_pitch) + static_cast<size_t>(x) * channels;
  for (int c = 0; c < channels; ++c) {
    float acc = 0.0f;
    for (int j = 0; j < size; ++j) {
      const float* row = tile + ((threadIdx.y + j) * span + threadIdx.x) * channels + c;
      for (int i = 0; i < size; ++i) acc = fmaf(k[j * size + i], row[i * channels], acc);
    }
    // The tile's centre is this pixel's input.
    if (finish.active())
      acc = finish_sample(finish, acc, tile[((threadIdx.y + radius) * span + threadIdx.x + radius) * channels + c], c);
    const float v = rounded_sample(acc, max_value);
    out[c] = static_cast<T>(static_cast<unsigned>(v) << shift);
  }
}

size_t smem_bytes(int radius, int channels) {
  const size_t span = kTile + 2 * radius, size = 2 * radius + 1;
  return (span * span * channels + size * size) * sizeof(float);
}

}  // namespace

Status DirectConvolution::plan(const PlaneGeometry& g, const std::vector<double>& kernel, int size,
                               Border border) {
  release();
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  if (size < 1 || size % 2 == 0 || static_cast<int>(kernel.size()) != size * size)
    return Status::invalid("the direct kernel must be square with an odd size");
  if (size / 2 > kMaxRadius)
    return Status::invalid("algorithm=direct supports a radius of at most " + std::to_string(kMaxRadius) +
                           " (ceil(truncate x sigma) = " + std::to_string(size / 2) +
                           "); use fir or a recursive algorithm for larger blurs");
  int device = 0, optin = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const size_t need = smem_bytes(size / 2, g.channels);
  if (need > static_cast<size_t>(optin))
    return Status::invalid("the direct kernel's tile does not fit this GPU's shared memory");
  const void* fn = g.bytes_per_sample == 1 ? reinterpret_cast<const void*>(direct_kernel<uint8_t>)
                                           : reinterpret_cast<const void*>(direct_kernel<uint16_t>);
  CG_CUDA_TRY(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  const std::vector<float> taps(kernel.begin(), kernel.end());
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));
  geometry_ = g;
  border_ = border;
  radius_ = size / 2;
  planned_ = true;
  return Status::success();
}

Status DirectConvolution::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                              cudaStream_t stream) const {
  if (!planned_) return Status::invalid("DirectConvolution::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  const dim3 block(kTile, kTile), grid((g.width + kTile - 1) / kTile, (g.height + kTile - 1) / kTile);
  const size_t smem = smem_bytes(radius_, g.channels);
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  const auto* taps = static_cast<const float*>(taps_.get());
  const float max_value = static_cast<float>(g.max_value());
  if (g.bytes_per_sample == 1)
    direct_kernel<uint8_t><<<grid, block, smem, stream>>>(in, src_pitch, out, dst_pitch, g.width, g.height,
                                                          g.channels, g.shift, max_value, taps, radius_, border_, finish_);
  else
    direct_kernel<uint16_t><<<grid, block, smem, stream>>>(in, src_pitch, out, dst_pitch, g.width, g.height,
                                                           g.channels, g.shift, max_value, taps, radius_, border_, finish_);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

void DirectConvolution::release() {
  taps_.release();
  planned_ = false;
}

}  // namespace cudagaussian
