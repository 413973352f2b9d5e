// SPDX-License-Identifier: LGPL-2.1-or-later
// Texture-read per-pixel FIR (texture_fir.h).

#include "texture_fir.h"

#include <vector>

#include "fir_taps.h"

namespace cudagaussian {
namespace {

constexpr dim3 kBlock(32, 8);

dim3 grid_for(int width, int height) {
  return dim3((width + kBlock.x - 1) / kBlock.x, (height + kBlock.y - 1) / kBlock.y);
}

__device__ inline float4 operator+(float4 a, float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ inline float4 fma4(float t, float4 v, float4 acc) {
  return {fmaf(t, v.x, acc.x), fmaf(t, v.y, acc.y), fmaf(t, v.z, acc.z), fmaf(t, v.w, acc.w)};
}

// Along x: normalised uchar4 reads (0..1) scaled back to 0..255 at the end.
__global__ void texture_row_kernel(cudaTextureObject_t src, int width, int height, const float* taps, int radius,
                                   float4* dst, size_t dst_pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float fy = y + 0.5f;
  float4 acc = fma4(__ldg(taps), tex2D<float4>(src, x + 0.5f, fy), float4{0, 0, 0, 0});
  for (int i = 1; i <= radius; ++i)
    acc = fma4(__ldg(taps + i), tex2D<float4>(src, x - i + 0.5f, fy) + tex2D<float4>(src, x + i + 0.5f, fy), acc);
  reinterpret_cast<float4*>(reinterpret_cast<char*>(dst) + y * dst_pitch)[x] =
      float4{acc.x * 255.0f, acc.y * 255.0f, acc.z * 255.0f, acc.w * 255.0f};
}

__device__ inline unsigned char to_u8(float v) { return static_cast<unsigned char>(fminf(fmaxf(floorf(v + 0.5f), 0.0f), 255.0f)); }

// Along y from the float intermediate, rounded to RGBA8.
__global__ void texture_column_kernel(cudaTextureObject_t src, int width, int height, const float* taps, int radius,
                                      uchar4* dst, size_t dst_pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float fx = x + 0.5f;
  float4 acc = fma4(__ldg(taps), tex2D<float4>(src, fx, y + 0.5f), float4{0, 0, 0, 0});
  for (int i = 1; i <= radius; ++i)
    acc = fma4(__ldg(taps + i), tex2D<float4>(src, fx, y - i + 0.5f) + tex2D<float4>(src, fx, y + i + 0.5f), acc);
  reinterpret_cast<uchar4*>(reinterpret_cast<char*>(dst) + y * dst_pitch)[x] =
      uchar4{to_u8(acc.x), to_u8(acc.y), to_u8(acc.z), to_u8(acc.w)};
}

Status make_texture(const void* data, size_t pitch, int width, int height, cudaChannelFormatDesc format,
                    cudaTextureReadMode mode, cudaTextureObject_t* tex) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = const_cast<void*>(data);
  res.res.pitch2D.desc = format;
  res.res.pitch2D.width = width;
  res.res.pitch2D.height = height;
  res.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;  // the replicate border
  desc.filterMode = cudaFilterModePoint;
  desc.readMode = mode;
  desc.normalizedCoords = 0;
  CG_CUDA_TRY(cudaCreateTextureObject(tex, &res, &desc, nullptr));
  return Status::success();
}

}  // namespace

TextureFir::~TextureFir() {
  for (int i = 0; i < source_count_; ++i) cudaDestroyTextureObject(source_tex_[i]);
  if (intermediate_tex_) cudaDestroyTextureObject(intermediate_tex_);
}

Status TextureFir::plan(int width, int height, double sigma, int radius) {
  width_ = width;
  height_ = height;
  radius_ = radius;
  const std::vector<double> taps = gaussian_taps(sigma, radius);
  const std::vector<float> one_sided(taps.begin() + radius, taps.end());
  CG_TRY(taps_.reserve(one_sided.size() * sizeof(float)));
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), one_sided.data(), one_sided.size() * sizeof(float), cudaMemcpyHostToDevice));
  CG_TRY(intermediate_.allocate(static_cast<size_t>(width) * sizeof(float4), height));
  return make_texture(intermediate_.get(), intermediate_.pitch(), width, height, cudaCreateChannelDesc<float4>(),
                      cudaReadModeElementType, &intermediate_tex_);
}

Status TextureFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t stream) {
  int k = 0;
  while (k < source_count_ && sources_[k] != src) ++k;
  if (k == source_count_) {
    if (k == kMaxSources) return Status::invalid("TextureFir: too many source frames");
    CG_TRY(make_texture(src, src_pitch, width_, height_, cudaCreateChannelDesc<uchar4>(), cudaReadModeNormalizedFloat,
                        &source_tex_[k]));
    sources_[k] = src;
    ++source_count_;
  }
  const float* taps = static_cast<const float*>(taps_.get());
  texture_row_kernel<<<grid_for(width_, height_), kBlock, 0, stream>>>(
      source_tex_[k], width_, height_, taps, radius_, static_cast<float4*>(intermediate_.get()), intermediate_.pitch());
  texture_column_kernel<<<grid_for(width_, height_), kBlock, 0, stream>>>(intermediate_tex_, width_, height_, taps,
                                                                          radius_, static_cast<uchar4*>(dst), dst_pitch);
  return launch_check();
}

}  // namespace cudagaussian
