// SPDX-License-Identifier: LGPL-2.1-or-later
// Integral-image box blur kernels (integral_box.h); the per-thread work is common/summed_area.h.

#include "integral_box.h"

#include <algorithm>
#include <cmath>

#include "summed_area.h"

namespace cudagaussian {
namespace {

constexpr int kThreads = 128;
constexpr dim3 kBlock2d(32, 8);

unsigned blocks_for(long threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

// Pass 1 reads samples (>> shift); later passes the previous pass's sums.
template <typename T>
struct SampleSource {
  const T* data;
  size_t pitch;  // elements
  int channels, shift;
  __device__ uint64_t operator()(int x, int y, int c) const {
    return static_cast<uint64_t>(data[static_cast<size_t>(y) * pitch + static_cast<size_t>(x) * channels + c] >> shift);
  }
};
struct SumSource {
  const uint64_t* data;
  int width, channels;
  __device__ uint64_t operator()(int x, int y, int c) const {
    return data[(static_cast<size_t>(y) * width + x) * channels + c];
  }
};

template <typename Source>
__global__ void __launch_bounds__(kThreads) sat_row_kernel(SatShape s, Source source, uint64_t* sat) {
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long>(s.ext_height()) * s.channels) return;
  sat_row(s, static_cast<int>(t / s.channels), static_cast<int>(t % s.channels), source, sat);
}

__global__ void __launch_bounds__(kThreads) sat_column_kernel(SatShape s, uint64_t* sat) {
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long>(s.ext_width()) * s.channels) return;
  sat_column(s, static_cast<int>(t / s.channels), static_cast<int>(t % s.channels), sat);
}

// Box sums into `sums`, or (last pass) the rounded averages into the destination samples.
// A kept channel is its input sample; with the unsharp mask, the average is finished in float
// from the input sample; otherwise the average is rounded exactly from the integer sum.
template <typename T>
__global__ void box_kernel(SatShape s, const uint64_t* sat, uint64_t* sums, T* dst, size_t dst_pitch, int shift,
                           uint64_t denominator, const T* source, size_t source_pitch, float max_value,
                           SampleFinish finish) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= s.width * s.channels || y >= s.height) return;
  if (dst && ((finish.keep >> (i % s.channels)) & 1u)) {
    dst[static_cast<size_t>(y) * dst_pitch + i] = source[static_cast<size_t>(y) * source_pitch + i];
    return;
  }
  const uint64_t sum = sat_box(s, sat, i / s.channels, y, i % s.channels);
  if (dst && finish.amount != 0.0f) {
    const float x = static_cast<float>(source[static_cast<size_t>(y) * source_pitch + i] >> shift);
    const float mean = static_cast<float>(static_cast<double>(sum) / static_cast<double>(denominator));
    const float v = rounded_sample(finish_sample(finish, mean, x, i % s.channels), max_value);
    dst[static_cast<size_t>(y) * dst_pitch + i] = static_cast<T>(static_cast<unsigned>(v) << shift);
  } else if (dst)
    dst[static_cast<size_t>(y) * dst_pitch + i] =
        static_cast<T>(static_cast<unsigned>(integral_box_round(sum, denominator)) << shift);
  else
    sums[static_cast<size_t>(y) * s.width * s.channels + i] = sum;
}

template <typename T>
void run_passes(const PlaneGeometry& g, const std::vector<int>& rx, const std::vector<int>& ry, Border border,
                uint64_t denominator, const void* src, size_t src_pitch, void* dst, size_t dst_pitch, uint64_t* sums,
                uint64_t* sat, const SampleFinish& finish, cudaStream_t stream) {
  const dim3 grid((g.samples_per_row() + kBlock2d.x - 1) / kBlock2d.x, (g.height + kBlock2d.y - 1) / kBlock2d.y);
  for (size_t p = 0; p < rx.size(); ++p) {
    const SatShape s{g.width, g.height, g.channels, rx[p], ry[p], border};
    if (p == 0)
      sat_row_kernel<<<blocks_for(static_cast<long>(s.ext_height()) * g.channels), kThreads, 0, stream>>>(
          s, SampleSource<T>{static_cast<const T*>(src), src_pitch / sizeof(T), g.channels, g.shift}, sat);
    else
      sat_row_kernel<<<blocks_for(static_cast<long>(s.ext_height()) * g.channels), kThreads, 0, stream>>>(
          s, SumSource{sums, g.width, g.channels}, sat);
    sat_column_kernel<<<blocks_for(static_cast<long>(s.ext_width()) * g.channels), kThreads, 0, stream>>>(s, sat);
    const bool last = p + 1 == rx.size();
    box_kernel<T><<<grid, kBlock2d, 0, stream>>>(s, sat, sums, last ? static_cast<T*>(dst) : nullptr,
                                                 dst_pitch / sizeof(T), g.shift, denominator,
                                                 static_cast<const T*>(src), src_pitch / sizeof(T),
                                                 static_cast<float>(g.max_value()), finish);
  }
}

}  // namespace

Status IntegralBoxBlur::plan(const PlaneGeometry& g, const std::vector<int>& widths_x, const std::vector<int>& widths_y,
                             Border border) {
  release();
  CG_TRY(validate(g, widths_x, widths_y));
  radii_x_.clear();
  radii_y_.clear();
  denominator_ = 1;
  int max_rx = 0, max_ry = 0;
  for (size_t p = 0; p < widths_x.size(); ++p) {
    radii_x_.push_back(widths_x[p] / 2);
    radii_y_.push_back(widths_y[p] / 2);
    max_rx = std::max(max_rx, widths_x[p] / 2);
    max_ry = std::max(max_ry, widths_y[p] / 2);
    denominator_ *= static_cast<uint64_t>(widths_x[p]) * static_cast<uint64_t>(widths_y[p]);
  }
  const size_t samples = static_cast<size_t>(g.samples_per_row()) * g.height;
  const size_t sat = (static_cast<size_t>(g.width) + 2 * max_rx) * (static_cast<size_t>(g.height) + 2 * max_ry) *
                     g.channels;
  if (widths_x.size() > 1) CG_TRY(sums_.reserve(samples * sizeof(uint64_t)));
  CG_TRY(sat_.reserve(sat * sizeof(uint64_t)));
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

Status IntegralBoxBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t stream) const {
  if (!planned_) return Status::invalid("IntegralBoxBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  auto* sums = static_cast<uint64_t*>(sums_.get());
  auto* sat = static_cast<uint64_t*>(sat_.get());
  if (g.bytes_per_sample == 1)
    run_passes<uint8_t>(g, radii_x_, radii_y_, border_, denominator_, src, src_pitch, dst, dst_pitch, sums, sat, finish_, stream);
  else
    run_passes<uint16_t>(g, radii_x_, radii_y_, border_, denominator_, src, src_pitch, dst, dst_pitch, sums, sat, finish_,
                         stream);
  return launch_check();
}

void IntegralBoxBlur::release() {
  sums_.release();
  sat_.release();
  planned_ = false;
}

}  // namespace cudagaussian
