// SPDX-License-Identifier: LGPL-2.1-or-later
// The four passes of the multirate Gaussian. The column passes give each thread one column of
// samples and kColumnSteps coarse steps: a window of coarse-rate samples in registers, every
// phase's taps applied to it in turn (the polyphase form, common/multirate_axis.h), so that each
// sample loaded serves every output it reaches. The row passes run on the coarse rows only; a
// block stages its part of a row in shared memory.
#include "multirate_blur.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "border.h"
#include "multirate_layout.h"
#include "sample_finish.h"
#include "sample_float.cuh"

namespace cudagaussian {

namespace {

constexpr int kColumnSteps = kMultirateColumnSteps;
constexpr int kColumnThreads = 64;  // columns of a block of the column passes
constexpr int kPhaseGroups = 4;     // threads that share a column's phases (at most)
// Blocks an SM holds of the column passes: three (at most 85 registers a thread) for 16 taps a
// phase, where it measured faster than two; two for more taps, which three would spill.
constexpr int column_blocks_per_sm(int taps) { return taps <= 16 ? 3 : 2; }
constexpr int kRowThreads = 128;
constexpr int kRowOutputs = kMultirateRowOutputs;
constexpr int kInterpolateRowOutputs = kMultirateRowPositions;

// A window of kCount samples of one column, rows first, first + step, ...: straight loads where
// they all lie in the frame, else each row through the border rule.
template <int kCount, typename T>
__device__ __forceinline__ void load_column_window(const T* __restrict__ column, size_t pitch, int shift, int rows,
                                                   Border border, int first, int step, float (&window)[kCount]) {
  if (first >= 0 && first + step * (kCount - 1) < rows) {
    const T* p = column + static_cast<size_t>(first) * pitch;
    const size_t stride = static_cast<size_t>(step) * pitch;
#pragma unroll
    for (int i = 0; i < kCount; ++i) window[i] = sample_as_float(p[i * stride], shift);
  } else {
#pragma unroll
    for (int i = 0; i < kCount; ++i)
      window[i] = sample_as_float(column[static_cast<size_t>(border_index(first + step * i, rows, border)) * pitch], shift);
  }
}

// acc[k] += sum_a taps[a] window[k + a]: kColumnSteps outputs of one phase.
template <int kTaps>
__device__ __forceinline__ void apply_phase(const float* __restrict__ taps, const float (&window)[kColumnSteps + kTaps - 1],
                                            float (&acc)[kColumnSteps]) {
#pragma unroll
  for (int a = 0; a < kTaps; ++a) {
    const float tap = __ldg(taps + a);
#pragma unroll
    for (int k = 0; k < kColumnSteps; ++k) acc[k] = fmaf(tap, window[k + a], acc[k]);
  }
}

// Column decimation: out[k][q] = sum_j taps x[position(k) - radius + j][q] for kColumnSteps
// coarse rows k of every sample column q, the frame's rows beyond its edges by the border rule.
// The blockDim.y threads of a column split its phases and add their sums in shared memory.
template <int kTaps, typename T>
__global__ void __launch_bounds__(kColumnThreads * kPhaseGroups, column_blocks_per_sm(kTaps))
decimate_columns_kernel(const T* __restrict__ src, size_t src_pitch, int shift, int rows, int columns,
                        Border border, int step, int lead, int radius, int coarse,
                        const float* __restrict__ taps, float* __restrict__ out, size_t out_pitch) {
  __shared__ float partial[kPhaseGroups - 1][kColumnSteps][kColumnThreads];
  const int q = blockIdx.x * kColumnThreads + threadIdx.x;
  const int k0 = blockIdx.y * kColumnSteps;
  float acc[kColumnSteps] = {};
  if (q < columns) {
    for (int v = threadIdx.y; v < step; v += blockDim.y) {
      // Phase v: x[step (k0 + i - lead) + v - radius], i = 0 .. kColumnSteps + kTaps - 2.
      float window[kColumnSteps + kTaps - 1];
      load_column_window(src + q, src_pitch, shift, rows, border, step * (k0 - lead) + v - radius, step, window);
      apply_phase<kTaps>(taps + v * kTaps, window, acc);
    }
  }
  if (threadIdx.y > 0) {
#pragma unroll
    for (int k = 0; k < kColumnSteps; ++k) partial[threadIdx.y - 1][k][threadIdx.x] = acc[k];
  }
  __syncthreads();
  if (threadIdx.y > 0 || q >= columns) return;
  for (int g = 1; g < static_cast<int>(blockDim.y); ++g)
#pragma unroll
    for (int k = 0; k < kColumnSteps; ++k) acc[k] += partial[g - 1][k][threadIdx.x];
#pragma unroll
  for (int k = 0; k < kColumnSteps; ++k)
    if (k0 + k < coarse) out[static_cast<size_t>(k0 + k) * out_pitch + q] = acc[k];
}

// Column interpolation into the frame: row m = step Q + phase takes coarse rows Q .. Q + kTaps
// - 1 with the phase's taps, then the finishing step, rounding and the store. A thread makes
// kColumnSteps values of Q for `phases` phases from blockIdx.z * phases on.
template <int kTaps, typename T>
__global__ void __launch_bounds__(kColumnThreads * kPhaseGroups, column_blocks_per_sm(kTaps))
interpolate_columns_kernel(const float* __restrict__ coarse, size_t coarse_pitch, int coarse_rows, int rows,
                           int columns, int channels, int step, int phases, const float* __restrict__ taps,
                           const T* __restrict__ src,
                           size_t src_pitch, T* __restrict__ dst, size_t dst_pitch, int shift, float max_value,
                           SampleFinish finish) {
  const int q = blockIdx.x * kColumnThreads + threadIdx.x;
  const int q0 = (blockIdx.y * blockDim.y + threadIdx.y) * kColumnSteps;
  if (q >= columns || q0 * step >= rows) return;
  float window[kColumnSteps + kTaps - 1];
#pragma unroll
  for (int i = 0; i < kColumnSteps + kTaps - 1; ++i)
    window[i] = coarse[static_cast<size_t>(min(q0 + i, coarse_rows - 1)) * coarse_pitch + q];
  const int channel = q % channels;
  const int phase_end = min(step, static_cast<int>(blockIdx.z + 1) * phases);
  for (int phase = blockIdx.z * phases; phase < phase_end; ++phase) {
    float acc[kColumnSteps] = {};
    apply_phase<kTaps>(taps + phase * kTaps, window, acc);
#pragma unroll
    for (int k = 0; k < kColumnSteps; ++k) {
      const int m = step * (q0 + k) + phase;
      if (m >= rows) break;
      float v = acc[k];
      if (finish.active())
        v = finish_sample(finish, v, sample_as_float(src[static_cast<size_t>(m) * src_pitch + q], shift), channel);
      dst[static_cast<size_t>(m) * dst_pitch + q] = stored_sample<T>(v, max_value, shift);
    }
  }
}

// Row decimation on the coarse rows: a block makes kRowOutputs coarse pixels of one row (every
// channel), its kPhaseGroups warps each a share of the phases, added in shared memory. The
// block's span of the row is staged by phase, position a step + v at [v][channel][a], so that
// the threads of a warp, at consecutive pixels, read consecutive words.
template <int kTaps>
__global__ void __launch_bounds__(kRowOutputs * kPhaseGroups)
decimate_rows_kernel(const float* __restrict__ in, size_t in_pitch, int width, int channels, Border border, int step,
                     int lead, int radius, const float* __restrict__ taps, int coarse, float* __restrict__ out,
                     size_t out_pitch) {
  extern __shared__ float staged[];
  __shared__ float partial[kPhaseGroups - 1][4][kRowOutputs];
  const int k0 = blockIdx.x * kRowOutputs;
  const int first = step * (k0 - lead) - radius;
  const int per_phase = kRowOutputs + kTaps - 1;
  const float* line = in + static_cast<size_t>(blockIdx.y) * in_pitch;
  const int thread = threadIdx.y * kRowOutputs + threadIdx.x;
  for (int p = thread; p < step * per_phase; p += kRowOutputs * kPhaseGroups) {
    const int a = p / step, v = p - a * step;
    const float* pixel = line + static_cast<size_t>(border_index(first + p, width, border)) * channels;
    for (int c = 0; c < channels; ++c) staged[(v * channels + c) * per_phase + a] = pixel[c];
  }
  __syncthreads();
  const int k = threadIdx.x;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int v = threadIdx.y; v < step; v += kPhaseGroups) {
    const float* t = taps + v * kTaps;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (c >= channels) break;
      const float* s = staged + (v * channels + c) * per_phase + k;
#pragma unroll
      for (int a = 0; a < kTaps; ++a) acc[c] = fmaf(__ldg(t + a), s[a], acc[c]);
    }
  }
  if (threadIdx.y > 0)
    for (int c = 0; c < 4; ++c) partial[threadIdx.y - 1][c][k] = acc[c];
  __syncthreads();
  if (threadIdx.y > 0 || k0 + k >= coarse) return;
  float* pixel = out + static_cast<size_t>(blockIdx.y) * out_pitch + static_cast<size_t>(k0 + k) * channels;
  for (int c = 0; c < channels; ++c) {
    float sum = acc[c];
    for (int g = 0; g < kPhaseGroups - 1; ++g) sum += partial[g][c][k];
    pixel[c] = sum;
  }
}

// Row interpolation on the coarse rows: position m = step Q + phase from coarse pixels Q ..
// Q + kTaps - 1 of the same row, a thread a position (every channel). The block stages the
// coarse pixels its positions read, and the taps as [tap][phase].
template <int kTaps>
__global__ void __launch_bounds__(kRowThreads)
interpolate_rows_kernel(const float* __restrict__ in, size_t in_pitch, int coarse, int channels, int width, int step,
                        const float* __restrict__ taps, float* __restrict__ out, size_t out_pitch) {
  extern __shared__ float staged[];
  const int m0 = blockIdx.x * kInterpolateRowOutputs;
  const int m1 = min(m0 + kInterpolateRowOutputs, width);
  const int q0 = m0 / step, q1 = (m1 - 1) / step + kTaps;
  float* phase_taps = staged + (q1 - q0) * channels;
  const float* line = in + static_cast<size_t>(blockIdx.y) * in_pitch;
  // Padded taps (zero) may reach past the row's last coarse pixel: zeros there, not whatever follows.
  const int available = (min(q1, coarse) - q0) * channels;
  for (int i = threadIdx.x; i < (q1 - q0) * channels; i += blockDim.x)
    staged[i] = i < available ? line[q0 * channels + i] : 0.0f;
  for (int i = threadIdx.x; i < step * kTaps; i += blockDim.x) {
    const int phase = i / kTaps, a = i - phase * kTaps;
    phase_taps[a * step + phase] = taps[i];
  }
  __syncthreads();
  float* row = out + static_cast<size_t>(blockIdx.y) * out_pitch;
  for (int m = m0 + threadIdx.x; m < m1; m += blockDim.x) {
    const int q = m / step, phase = m - q * step;
    const float* s = staged + (q - q0) * channels;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int a = 0; a < kTaps; ++a) {
      const float tap = phase_taps[a * step + phase];
#pragma unroll
      for (int c = 0; c < 4; ++c)
        if (c < channels) acc[c] = fmaf(tap, s[a * channels + c], acc[c]);
    }
    for (int c = 0; c < channels; ++c) row[static_cast<size_t>(m) * channels + c] = acc[c];
  }
}

// Taps [phase][padded] as floats, zero past each phase's own.
template <class Tap>
void append_phases(std::vector<float>& all, int phases, int padded, int taps, const Tap& tap) {
  for (int v = 0; v < phases; ++v)
    for (int a = 0; a < padded; ++a) all.push_back(a < taps ? static_cast<float>(tap(v, a)) : 0.0f);
}

// Calls f(std::integral_constant<int, taps>()) for a padded tap count of the layout.
template <class F>
void with_taps(int taps, const F& f) {
  switch (taps) {
    case 16: f(std::integral_constant<int, 16>()); break;
    case 24: f(std::integral_constant<int, 24>()); break;
    default: f(std::integral_constant<int, 32>()); break;
  }
}

}  // namespace

Status MultirateBlur::plan(const PlaneGeometry& g, double sigma_x, double sigma_y, Border border) {
  release();
  CG_TRY(plan_multirate_plane(g, sigma_x, sigma_y, &x_, &y_, &layout_));
  // The row decimation's blocks may stage more than the default 48 KB of shared memory. The limit
  // belongs to the kernel, shared by every plan: always the device's maximum, so that a plan for
  // a smaller plane (a chroma plane) never lowers what another plan relies on.
  int device = 0, optin = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  Status attributes = Status::success();
  with_taps(layout_.decimate_row_taps, [&](auto taps_count) {
    cudaFuncAttributes kernel{};
    cudaError_t e = cudaFuncGetAttributes(&kernel, decimate_rows_kernel<taps_count()>);
    const int most = optin - static_cast<int>(kernel.sharedSizeBytes);
    if (e == cudaSuccess && static_cast<size_t>(most) < layout_.decimate_row_bytes) {
      attributes = Status::invalid("multirate: this GPU's shared memory is too small for sigma_x " +
                                   std::to_string(sigma_x));
      return;
    }
    if (e == cudaSuccess)
      e = cudaFuncSetAttribute(decimate_rows_kernel<taps_count()>, cudaFuncAttributeMaxDynamicSharedMemorySize, most);
    if (e != cudaSuccess) attributes = cuda_failure(e, "cudaFuncSetAttribute", __FILE__, __LINE__);
  });
  CG_TRY(attributes);

  std::vector<float> taps;
  taps_at_[0] = taps.size();
  append_phases(taps, y_.step, layout_.decimate_column_taps, y_.decimate_phase_taps(),
                [&](int v, int a) { return y_.decimate_phase_tap(v, a); });
  taps_at_[1] = taps.size();
  append_phases(taps, y_.step, layout_.interpolate_column_taps, y_.interpolate_taps,
                [&](int v, int a) { return y_.interpolate[static_cast<size_t>(v) * y_.interpolate_taps + a]; });
  taps_at_[2] = taps.size();
  append_phases(taps, x_.step, layout_.decimate_row_taps, x_.decimate_phase_taps(),
                [&](int v, int a) { return x_.decimate_phase_tap(v, a); });
  taps_at_[3] = taps.size();
  append_phases(taps, x_.step, layout_.interpolate_row_taps, x_.interpolate_taps,
                [&](int v, int a) { return x_.interpolate[static_cast<size_t>(v) * x_.interpolate_taps + a]; });
  CG_TRY(taps_.reserve(taps.size() * sizeof(float)));
  CG_CUDA_TRY(cudaMemcpy(taps_.get(), taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));

  const size_t row_samples = static_cast<size_t>(g.samples_per_row());
  CG_TRY(coarse_rows_.reserve(static_cast<size_t>(y_.coarse) * row_samples * sizeof(float)));
  CG_TRY(coarse_.reserve(static_cast<size_t>(y_.coarse) * x_.coarse * g.channels * sizeof(float)));
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

template <typename T>
Status MultirateBlur::run_passes(const T* src, size_t src_pitch, T* dst, size_t dst_pitch,
                                 cudaStream_t stream) const {
  const PlaneGeometry& g = geometry_;
  const int columns = g.samples_per_row();
  const auto* taps = static_cast<const float*>(taps_.get());
  auto* coarse_rows = static_cast<float*>(coarse_rows_.get());
  auto* coarse = static_cast<float*>(coarse_.get());
  const unsigned column_blocks = (columns + kColumnThreads - 1) / kColumnThreads;
  const size_t coarse_pitch = static_cast<size_t>(x_.coarse) * g.channels;

  // 1. The columns, decimated from the frame.
  with_taps(layout_.decimate_column_taps, [&](auto taps_count) {
    const dim3 block(kColumnThreads, std::min(kPhaseGroups, y_.step));
    const dim3 grid(column_blocks, (y_.coarse + kColumnSteps - 1) / kColumnSteps);
    decimate_columns_kernel<taps_count(), T><<<grid, block, 0, stream>>>(
        src, src_pitch, g.shift, g.height, columns, border_, y_.step, y_.lead, y_.decimate_radius, y_.coarse,
        taps + taps_at_[0], coarse_rows, columns);
  });
  CG_CUDA_TRY(cudaGetLastError());
  // 2. The coarse rows, decimated.
  with_taps(layout_.decimate_row_taps, [&](auto taps_count) {
    const dim3 grid((x_.coarse + kRowOutputs - 1) / kRowOutputs, y_.coarse);
    decimate_rows_kernel<taps_count()><<<grid, dim3(kRowOutputs, kPhaseGroups), layout_.decimate_row_bytes, stream>>>(
        coarse_rows, columns, g.width, g.channels, border_, x_.step, x_.lead, x_.decimate_radius, taps + taps_at_[2],
        x_.coarse, coarse, coarse_pitch);
  });
  CG_CUDA_TRY(cudaGetLastError());
  // 3. The coarse rows, interpolated back to every column (over the first pass's rows).
  with_taps(layout_.interpolate_row_taps, [&](auto taps_count) {
    const dim3 grid((g.width + kInterpolateRowOutputs - 1) / kInterpolateRowOutputs, y_.coarse);
    interpolate_rows_kernel<taps_count()><<<grid, kRowThreads, layout_.interpolate_row_bytes, stream>>>(
        coarse, coarse_pitch, x_.coarse, g.channels, g.width, x_.step, taps + taps_at_[3], coarse_rows, columns);
  });
  CG_CUDA_TRY(cudaGetLastError());
  // 4. The columns, interpolated back into the frame, finished and stored.
  with_taps(layout_.interpolate_column_taps, [&](auto taps_count) {
    const int steps = (g.height + y_.step - 1) / y_.step;
    // The phases in as few even groups of at most kPhaseGroups as there can be.
    const int groups = (y_.step + kPhaseGroups - 1) / kPhaseGroups, phases = (y_.step + groups - 1) / groups;
    const dim3 block(kColumnThreads, kPhaseGroups);
    const dim3 grid(column_blocks, (steps + kPhaseGroups * kColumnSteps - 1) / (kPhaseGroups * kColumnSteps), groups);
    interpolate_columns_kernel<taps_count(), T><<<grid, block, 0, stream>>>(
        coarse_rows, columns, y_.coarse, g.height, columns, g.channels, y_.step, phases, taps + taps_at_[1], src,
        src_pitch,
        dst, dst_pitch, g.shift, static_cast<float>(g.max_value()), finish_);
  });
  CG_CUDA_TRY(cudaGetLastError());
  return launch_check();
}

Status MultirateBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                          cudaStream_t stream) const {
  if (!planned_) return Status::invalid("MultirateBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  if (g.bytes_per_sample == 1)
    return run_passes(static_cast<const uint8_t*>(src), src_pitch, static_cast<uint8_t*>(dst), dst_pitch, stream);
  return run_passes(static_cast<const uint16_t*>(src), src_pitch / 2, static_cast<uint16_t*>(dst), dst_pitch / 2,
                    stream);
}

void MultirateBlur::release() {
  taps_.release();
  coarse_rows_.release();
  coarse_.release();
  planned_ = false;
}

}  // namespace cudagaussian
