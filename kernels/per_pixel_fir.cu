// SPDX-License-Identifier: LGPL-2.1-or-later
// Per-pixel separable FIR (per_pixel_fir.h): t[0] x[0] + Σ_{i=1..R} t[i] (x[-i] + x[i]) per output,
// taps from a table (read through the read-only cache) or generated as the loop goes.

#include "per_pixel_fir.h"

#include <cstdint>
#include <string>
#include <vector>

#include "channel_loop.h"
#include "fir_taps.h"
#include "separable_fir.h"  // kMaxRadius

namespace cudagaussian {
namespace {

constexpr dim3 kBlock(32, 8);

// One axis's taps: `table` (t[0..radius]) or the incremental recurrence.
struct Taps {
  const float* table;
  IncrementalGaussian incremental;
  int radius;
};

template <bool kIncremental>
struct TapWalk {
  const Taps& t;
  float tap, ratio;  // t[i]; r[i] - 1 (incremental)
  __device__ explicit TapWalk(const Taps& taps)
      : t(taps), tap(kIncremental ? taps.incremental.centre : __ldg(taps.table)),
        ratio(taps.incremental.ratio_minus_one) {}
  // t[i] for i = 1, 2, ... in turn.
  __device__ float next(int i) {
    if constexpr (kIncremental) {
      incremental_advance(tap, ratio, t.incremental.step_minus_one);
      return tap;
    } else {
      return __ldg(t.table + i);
    }
  }
};

dim3 grid_for(int width, int height) {
  return dim3((width + kBlock.x - 1) / kBlock.x, (height + kBlock.y - 1) / kBlock.y);
}

// Samples (>> shift) of one row -> the float intermediate, along x; one thread per pixel.
template <typename T, bool kIncremental>
__global__ void row_pass_kernel(const unsigned char* src, size_t pitch, PlaneGeometry g, Taps taps, Border border,
                                float* dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  const T* row = reinterpret_cast<const T*>(src + static_cast<size_t>(y) * pitch);
  auto load = [&](int xx, int c) { return static_cast<float>(row[static_cast<size_t>(xx) * g.channels + c] >> g.shift); };
  TapWalk<kIncremental> walk(taps);
  float acc[kMaxChannels] = {};
  CG_FOR_CHANNELS(c, g.channels) { acc[c] = walk.tap * load(x, c); }
  for (int i = 1; i <= taps.radius; ++i) {
    const float t = walk.next(i);
    const int left = border_index(x - i, g.width, border), right = border_index(x + i, g.width, border);
    CG_FOR_CHANNELS(c, g.channels) { acc[c] = fmaf(t, load(left, c) + load(right, c), acc[c]); }
  }
  float* out = dst + (static_cast<size_t>(y) * g.width + x) * g.channels;
  CG_FOR_CHANNELS(c, g.channels) { out[c] = acc[c]; }
}

// The float intermediate -> samples, along y; one thread per sample of a row.
template <typename T, bool kIncremental>
__global__ void column_pass_kernel(const float* src, PlaneGeometry g, float max_value, Taps taps, Border border,
                                   unsigned char* dst, size_t pitch, const unsigned char* source,
                                   size_t source_pitch, SampleFinish finish) {
  const int row_samples = g.width * g.channels;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= row_samples || y >= g.height) return;
  auto load = [&](int yy) { return __ldg(src + static_cast<size_t>(yy) * row_samples + i); };
  TapWalk<kIncremental> walk(taps);
  float acc = walk.tap * load(y);
  for (int k = 1; k <= taps.radius; ++k) {
    const float t = walk.next(k);
    acc = fmaf(t, load(border_index(y - k, g.height, border)) + load(border_index(y + k, g.height, border)), acc);
  }
  if (finish.active()) {
    const T x = __ldg(reinterpret_cast<const T*>(source + static_cast<size_t>(y) * source_pitch) + i);
    acc = finish_sample(finish, acc, static_cast<float>(x >> g.shift), i % g.channels);
  }
  // Round half up, like store_plane() in the reference.
  const float v = rounded_sample(acc, max_value);
  reinterpret_cast<T*>(dst + static_cast<size_t>(y) * pitch)[i] = static_cast<T>(static_cast<unsigned>(v) << g.shift);
}

template <typename T, bool kIncremental>
void launch(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch, const Taps& tx,
            const Taps& ty, Border border, float* intermediate, const SampleFinish& finish, cudaStream_t stream) {
  row_pass_kernel<T, kIncremental><<<grid_for(g.width, g.height), kBlock, 0, stream>>>(
      static_cast<const unsigned char*>(src), src_pitch, g, tx, border, intermediate);
  column_pass_kernel<T, kIncremental><<<grid_for(g.width * g.channels, g.height), kBlock, 0, stream>>>(
      intermediate, g, static_cast<float>(g.max_value()), ty, border, static_cast<unsigned char*>(dst), dst_pitch,
      static_cast<const unsigned char*>(src), src_pitch, finish);
}

// The one-sided half t[0..R] of gaussian_taps().
std::vector<float> one_sided(double sigma, int radius) {
  const std::vector<double> taps = gaussian_taps(sigma, radius);
  const int r = static_cast<int>(taps.size() / 2);
  return std::vector<float>(taps.begin() + r, taps.end());
}

}  // namespace

Status PerPixelFir::plan(const PlaneGeometry& g, double sigma_x, int radius_x, double sigma_y, int radius_y,
                         Border border, TapSource source) {
  release();
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  if (radius_x < 0 || radius_y < 0) return Status::invalid("FIR radius must be >= 0");
  if (radius_x > SeparableFir::kMaxRadius || radius_y > SeparableFir::kMaxRadius)
    return Status::invalid("the FIR radius exceeds the supported " + std::to_string(SeparableFir::kMaxRadius));
  radius_x_ = sigma_x > 0.0 ? radius_x : 0;
  radius_y_ = sigma_y > 0.0 ? radius_y : 0;
  incremental_x_ = make_incremental_gaussian(sigma_x, radius_x_);
  incremental_y_ = make_incremental_gaussian(sigma_y, radius_y_);
  std::vector<float> taps = one_sided(sigma_x, radius_x_);
  const std::vector<float> taps_y = one_sided(sigma_y, radius_y_);
  taps.insert(taps.end(), taps_y.begin(), taps_y.end());
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));
  CG_TRY(intermediate_.reserve(static_cast<size_t>(g.samples_per_row()) * g.height * sizeof(float)));
  geometry_ = g;
  border_ = border;
  source_ = source;
  planned_ = true;
  return Status::success();
}

Status PerPixelFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t stream) const {
  if (!planned_) return Status::invalid("PerPixelFir::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  const float* table = static_cast<const float*>(taps_.get());
  const Taps tx{table, incremental_x_, radius_x_};
  const Taps ty{table + radius_x_ + 1, incremental_y_, radius_y_};
  auto* intermediate = static_cast<float*>(intermediate_.get());
  const bool incremental = source_ == TapSource::Incremental;
  if (g.bytes_per_sample == 1) {
    if (incremental) launch<uint8_t, true>(g, src, src_pitch, dst, dst_pitch, tx, ty, border_, intermediate, finish_, stream);
    else launch<uint8_t, false>(g, src, src_pitch, dst, dst_pitch, tx, ty, border_, intermediate, finish_, stream);
  } else {
    if (incremental) launch<uint16_t, true>(g, src, src_pitch, dst, dst_pitch, tx, ty, border_, intermediate, finish_, stream);
    else launch<uint16_t, false>(g, src, src_pitch, dst, dst_pitch, tx, ty, border_, intermediate, finish_, stream);
  }
  return launch_check();
}

void PerPixelFir::release() {
  taps_.release();
  intermediate_.release();
  planned_ = false;
}

}  // namespace cudagaussian
