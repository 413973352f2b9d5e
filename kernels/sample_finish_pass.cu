// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sample_finish_pass.h"

#include <cstdint>

#include "plane_blur.h"

namespace cudagaussian {
namespace {

constexpr int kThreadsX = 128, kThreadsY = 2;

// One thread per sample of a row; with no sharpening, only the kept channels' samples are
// touched (each written with its input).
template <typename T>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
finish_kernel(const unsigned char* src, size_t src_pitch, unsigned char* dst, size_t dst_pitch, int row_samples,
              int height, int channels, int shift, float max_value, SampleFinish finish) {
  const int i = blockIdx.x * kThreadsX + threadIdx.x;
  const int y = blockIdx.y * kThreadsY + threadIdx.y;
  if (i >= row_samples || y >= height) return;
  const int c = i % channels;
  if (finish.amount == 0.0f && !((finish.keep >> c) & 1u)) return;  // the blur stays as stored
  const T x = reinterpret_cast<const T*>(src + static_cast<size_t>(y) * src_pitch)[i];
  T* out = reinterpret_cast<T*>(dst + static_cast<size_t>(y) * dst_pitch) + i;
  const float v = finish_sample(finish, static_cast<float>(*out >> shift), static_cast<float>(x >> shift), c);
  *out = static_cast<T>(static_cast<unsigned>(rounded_sample(v, max_value)) << shift);
}

}  // namespace

Status finish_plane(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                    const SampleFinish& finish, cudaStream_t stream) {
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  const int row_samples = g.samples_per_row();
  const dim3 grid((row_samples + kThreadsX - 1) / kThreadsX, (g.height + kThreadsY - 1) / kThreadsY);
  if (grid.y > 65535u) return Status::invalid("plane is too tall");
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  const float max_value = static_cast<float>(g.max_value());
  if (g.bytes_per_sample == 1)
    finish_kernel<uint8_t><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(
        s, src_pitch, d, dst_pitch, row_samples, g.height, g.channels, g.shift, max_value, finish);
  else
    finish_kernel<uint16_t><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(
        s, src_pitch, d, dst_pitch, row_samples, g.height, g.channels, g.shift, max_value, finish);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

}  // namespace cudagaussian
