// SPDX-License-Identifier: LGPL-2.1-or-later
// The separable FIR on tensor cores, for 8-bit planes of 1, 2 or 4 interleaved channels: each
// pass is a product of the samples with a banded matrix of the taps, in fp16 operands (8-bit
// samples are exact there) with fp32 accumulation. Three layouts: one kernel that keeps the
// intermediate in registers (tensor_fir_fused.h; compute capability 8.0 on, where its tile fits
// shared memory), two passes, a horizontal one writing an fp16 intermediate (rows of the border
// rule's extension included) and a vertical one reading it, and one kernel rolling down the
// frame (tensor_fir_rolling.h; pinned only). All store the rounded (and finished) samples;
// docs/algorithms.md bounds the error of rounding the taps and the intermediate to fp16.
// SeparableFir runs it where it applies.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "device_memory.h"
#include "fir_bands.h"
#include "plane.h"
#include "sample_finish.h"
#include "tensor_fir_fused.h"
#include "tensor_fir_rolling.h"

namespace cudagaussian {

class TensorFir {
 public:
  // The largest radius in either direction (common/fir_bands.h says why).
  static constexpr int kMaxRadius = kTensorFirMaxRadius;
  // Below this radius in both directions the CUDA-core fused kernel is faster than the two
  // passes (docs/bench/kernel_choices.md, "FIR: tensor cores").
  static constexpr int kMinRadius = 12;
  // Below this radius it is faster than the one kernel too, on frames of at least one of its
  // tiles per two SMs (SD RGBA on 132 SMs: 108 tiles); below four times this radius on smaller frames:
  // docs/bench/bench_fir.md and bench_fir_sizes.md.
  static constexpr int kOneKernelMinRadius = 2;
  static int one_kernel_min_radius(const PlaneGeometry& geometry, int sm_count) {
    const long tiles = static_cast<long>((geometry.width + fused_tile_pixels(geometry.channels) - 1) /
                                         fused_tile_pixels(geometry.channels)) *
                       ((geometry.height + kFusedTileRows - 1) / kFusedTileRows);
    return 2 * tiles >= sm_count ? kOneKernelMinRadius : 4 * kOneKernelMinRadius;
  }
  // 16x16 blocks of the vertical band at kMaxRadius (kept in the vertical pass's shared memory).
  static constexpr int kMaxColumnBands = (kMaxRadius + (kMaxRadius + 15) / 16 * 16 + 15) / 16 + 1;

  // Whether a plane and its taps can run here: plane_suits_tensor_cores (8-bit samples without
  // shift, 1, 2 or 4 channels, taps of radius up to kMaxRadius that are none negative and sum to
  // 1: the error bound of docs/algorithms.md rests on it), on a GPU with tensor cores (compute
  // capability 7.0 or later).
  static bool applies(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                      const std::vector<double>& taps_y, int compute_major);
  // Whether it is also the faster choice than the CUDA cores in two passes: a radius of at least
  // kMinRadius.
  static bool faster(int radius_x, int radius_y) { return radius_x >= kMinRadius || radius_y >= kMinRadius; }

  // One kernel where it runs and is faster (Measured: up to kOneKernelMaxRadius both ways, where
  // two of its blocks share an SM), one kernel wherever it runs (OneKernel), two passes
  // (TwoPasses), or rolling down the frame wherever it runs (Rolling, tensor_fir_rolling.h).
  enum class Layout { Measured, OneKernel, TwoPasses, Rolling };
  static constexpr int kOneKernelMaxRadius = 24;
  // Whether the one-kernel layout runs there: compute capability 8.0 or later and its tile in
  // `shared_optin` bytes (the device's opt-in limit).
  static bool one_kernel_runs(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                              const std::vector<double>& taps_y, int compute_major, int shared_optin);
  // Whether the rolling layout runs there: compute capability 8.0 or later, a vertical radius up
  // to 56 and its shared memory within `shared_optin`.
  static bool rolling_runs(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                           const std::vector<double>& taps_y, int compute_major, int shared_optin);
  // The layout plan() takes: one kernel where `layout` asks for it and it runs.
  static bool chooses_one_kernel(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                                 const std::vector<double>& taps_y, int compute_major, int shared_optin,
                                 Layout layout);

  // Builds the band matrices (uploaded once) and, for two passes, reserves the intermediate;
  // refuses what applies() refuses (compute_major and shared_optin: the current device's, which
  // the caller has queried; sm_count: its SMs, which the rolling layout fills). Call with the
  // CUDA context current; not per frame.
  Status plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
              const std::vector<double>& taps_y, Border border, int compute_major, int shared_optin,
              int sm_count, Layout layout = Layout::Measured);
  // One frame: src into dst (device planes, pitches in bytes, already checked by the caller),
  // each stored sample finished by `finish`. Enqueues on `stream`.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, const SampleFinish& finish,
             cudaStream_t stream) const;
  void release();
  bool planned() const { return planned_; }
  bool one_kernel() const { return one_kernel_; }
  bool rolling() const { return rolling_; }

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  int halo_ = 0;            // pixels staged beyond each side of a horizontal tile
  int row_bands_ = 0;       // 16x16 blocks of the horizontal band matrix
  int margin_rows_ = 0;     // rows of the intermediate above row 0 (and at least as many below)
  int column_bands_ = 0;    // 16x16 blocks of the vertical band matrix
  int mid_rows_ = 0;
  size_t mid_pitch_ = 0;    // halves
  size_t row_smem_ = 0;     // dynamic shared memory of the horizontal kernel
  DeviceBuffer bands_;      // half: the horizontal blocks, then the vertical ones (either layout's)
  DeviceBuffer mid_;        // half: mid_rows_ x mid_pitch_
  bool one_kernel_ = false;
  FusedFirLaunch fused_;    // the one-kernel layout's launch
  bool rolling_ = false;
  RollingFirLaunch rolling_launch_;
  bool planned_ = false;
};

}  // namespace cudagaussian
