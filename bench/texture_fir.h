// SPDX-License-Identifier: LGPL-2.1-or-later
// A texture-read variant of the per-pixel FIR, for bench_fir only: RGBA8 input and the
// float intermediate read through texture objects (the 2D texture cache, clamp addressing =
// the replicate border), taps from a table. It is measured against PerPixelFir (plain loads,
// same taps, same loop) to decide whether texture reads are worth shipping.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "device_memory.h"

namespace cudagaussian {

class TextureFir {
 public:
  TextureFir() = default;
  ~TextureFir();
  TextureFir(const TextureFir&) = delete;
  TextureFir& operator=(const TextureFir&) = delete;

  // width x height RGBA8 frames; the same one-sided taps as gaussian_taps(sigma, radius).
  Status plan(int width, int height, double sigma, int radius);
  // src must be 2D-texture friendly (e.g. from cudaMallocPitch); a texture object is made for it
  // on its first use and kept (bench frames are reused).
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t stream);

 private:
  int width_ = 0, height_ = 0, radius_ = 0;
  DeviceBuffer taps_;
  DevicePlane intermediate_;  // float4 per pixel
  cudaTextureObject_t intermediate_tex_ = 0;
  static constexpr int kMaxSources = 16;
  const void* sources_[kMaxSources] = {};
  cudaTextureObject_t source_tex_[kMaxSources] = {};
  int source_count_ = 0;
};

}  // namespace cudagaussian
