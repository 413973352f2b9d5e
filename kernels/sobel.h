// SPDX-License-Identifier: LGPL-2.1-or-later
// Sobel gradient magnitude or direction of an 8-bit image on the GPU (rules in
// common/sobel_params.h): luma of 1-, 3- or 4-channel input, replicate border, float math,
// rounded to nearest, 8- or 16-bit output. Any size and pitch. No GStreamer types.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "sobel_params.h"

namespace cudagaussian {

// The input: device memory, `layout.channels` interleaved bytes per pixel.
struct SobelPlane {
  const void* data = nullptr;
  size_t pitch = 0;  // bytes between rows, >= width × channels
  int width = 0;
  int height = 0;
  SobelLayout layout;
};

// The output: device memory of the input's size, one sample per pixel.
struct SobelTarget {
  void* data = nullptr;
  size_t pitch = 0;          // bytes between rows, >= width × bytes_per_sample
  int bytes_per_sample = 1;  // 1 (GRAY8) or 2 (GRAY16, little-endian; data and pitch even)
};

// Enqueues the filter on `stream` (in and out must not overlap) and returns without waiting.
// Invalid arguments give a Status with cuda == cudaSuccess. Call with the CUDA context current.
Status sobel(const SobelPlane& in, const SobelTarget& out, const SobelSettings& settings,
             cudaStream_t stream);

}  // namespace cudagaussian
