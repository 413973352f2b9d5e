// SPDX-License-Identifier: LGPL-2.1-or-later
// One thread per output pixel; each block stages its tile of luma plus a one-pixel halo in shared
// memory (coordinates clamped: the replicate border), then computes Gx, Gy from it.
#include "sobel.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace cudagaussian {
namespace {

constexpr int kTileW = 32;  // a warp reads a row of 32 (+2) pixels
constexpr int kTileH = 8;
constexpr int kHaloW = kTileW + 2;
constexpr int kHaloH = kTileH + 2;

template <int C, typename Out, bool kDirection>
__global__ void __launch_bounds__(kTileW * kTileH)
sobel_kernel(const uint8_t* __restrict__ src, size_t src_pitch, int width, int height, int r_off,
             int g_off, int b_off, uint8_t* __restrict__ dst, size_t dst_pitch, float scale,
             float max_value, float levels) {
  __shared__ int tile[kHaloH][kHaloW];

  const int x0 = static_cast<int>(blockIdx.x) * kTileW - 1;
  const int y0 = static_cast<int>(blockIdx.y) * kTileH - 1;
  const int tid = static_cast<int>(threadIdx.y) * kTileW + static_cast<int>(threadIdx.x);
  for (int i = tid; i < kHaloW * kHaloH; i += kTileW * kTileH) {
    const int ty = i / kHaloW, tx = i - ty * kHaloW;
    const int x = min(max(x0 + tx, 0), width - 1);
    const int y = min(max(y0 + ty, 0), height - 1);
    const uint8_t* p = src + static_cast<size_t>(y) * src_pitch + static_cast<size_t>(x) * C;
    int v;
    if (C == 1)
      v = p[0];
    else
      v = sobel_luma(p[r_off], p[g_off], p[b_off]);
    tile[ty][tx] = v;
  }
  __syncthreads();

  const int x = static_cast<int>(blockIdx.x) * kTileW + static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.y) * kTileH + static_cast<int>(threadIdx.y);
  if (x >= width || y >= height) return;
  const int tx = static_cast<int>(threadIdx.x) + 1, ty = static_cast<int>(threadIdx.y) + 1;
  const int gx = (tile[ty - 1][tx + 1] + 2 * tile[ty][tx + 1] + tile[ty + 1][tx + 1]) -
                 (tile[ty - 1][tx - 1] + 2 * tile[ty][tx - 1] + tile[ty + 1][tx - 1]);
  const int gy = (tile[ty + 1][tx - 1] + 2 * tile[ty + 1][tx] + tile[ty + 1][tx + 1]) -
                 (tile[ty - 1][tx - 1] + 2 * tile[ty - 1][tx] + tile[ty - 1][tx + 1]);

  float code;
  if (kDirection) {
    // [-π, π] onto [0, L]; +π wraps onto 0 (it is -π).
    const float t = atan2f(static_cast<float>(gy), static_cast<float>(gx));
    code = floorf(fmaf(t, levels * 0.159154943091895f, levels * 0.5f) + 0.5f);
    if (code >= levels) code -= levels;
    if (code < 0.0f) code += levels;
  } else {
    // gx² + gy² <= 2 × 1020² < 2^24: exact in float; the square root is correctly rounded.
    const float m = __fsqrt_rn(static_cast<float>(gx * gx + gy * gy)) * scale;
    code = floorf(fminf(m, max_value) + 0.5f);
  }
  Out* row = reinterpret_cast<Out*>(dst + static_cast<size_t>(y) * dst_pitch);
  row[x] = static_cast<Out>(code);
}

template <int C, typename Out, bool kDirection>
void launch(const SobelPlane& in, const SobelTarget& out, float scale, float max_value,
            float levels, cudaStream_t stream) {
  const dim3 block(kTileW, kTileH);
  const dim3 grid((in.width + kTileW - 1) / kTileW, (in.height + kTileH - 1) / kTileH);
  sobel_kernel<C, Out, kDirection><<<grid, block, 0, stream>>>(
      static_cast<const uint8_t*>(in.data), in.pitch, in.width, in.height, in.layout.r,
      in.layout.g, in.layout.b, static_cast<uint8_t*>(out.data), out.pitch, scale, max_value,
      levels);
}

template <typename Out, bool kDirection>
void launch_channels(const SobelPlane& in, const SobelTarget& out, float scale, float max_value,
                     float levels, cudaStream_t stream) {
  switch (in.layout.channels) {
    case 1: launch<1, Out, kDirection>(in, out, scale, max_value, levels, stream); break;
    case 3: launch<3, Out, kDirection>(in, out, scale, max_value, levels, stream); break;
    default: launch<4, Out, kDirection>(in, out, scale, max_value, levels, stream); break;
  }
}

}  // namespace

Status sobel(const SobelPlane& in, const SobelTarget& out, const SobelSettings& settings,
             cudaStream_t stream) {
  if (in.width <= 0 || in.height <= 0)
    return Status::invalid("sobel: empty image " + std::to_string(in.width) + "x" +
                           std::to_string(in.height));
  if (in.height > 65535 * kTileH)
    return Status::invalid("sobel: image taller than " + std::to_string(65535 * kTileH) + " rows");
  if (!in.layout.valid())
    return Status::invalid("sobel: unsupported pixel layout (channels " +
                           std::to_string(in.layout.channels) + ")");
  if (out.bytes_per_sample != 1 && out.bytes_per_sample != 2)
    return Status::invalid("sobel: output samples must be 1 or 2 bytes");
  if (!in.data || !out.data) return Status::invalid("sobel: null plane");
  if (in.pitch < static_cast<size_t>(in.width) * in.layout.channels)
    return Status::invalid("sobel: input pitch smaller than a row");
  if (out.pitch < static_cast<size_t>(in.width) * out.bytes_per_sample)
    return Status::invalid("sobel: output pitch smaller than a row");
  if (out.bytes_per_sample == 2 &&
      ((reinterpret_cast<uintptr_t>(out.data) | out.pitch) & 1u) != 0)
    return Status::invalid("sobel: 16-bit output must be 2-byte aligned (data and pitch)");
  if (!(settings.scale >= 0.0 && settings.scale <= kSobelMaxScale))
    return Status::invalid("sobel: scale must be in [0, 65535]");

  const bool direction = settings.output == SobelOutput::Direction;
  const float levels = out.bytes_per_sample == 1 ? 256.0f : 65536.0f;
  const float max_value = levels - 1.0f;
  const float scale = static_cast<float>(settings.scale);
  if (out.bytes_per_sample == 1) {
    if (direction)
      launch_channels<uint8_t, true>(in, out, scale, max_value, levels, stream);
    else
      launch_channels<uint8_t, false>(in, out, scale, max_value, levels, stream);
  } else {
    if (direction)
      launch_channels<uint16_t, true>(in, out, scale, max_value, levels, stream);
    else
      launch_channels<uint16_t, false>(in, out, scale, max_value, levels, stream);
  }
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

}  // namespace cudagaussian
