// SPDX-License-Identifier: LGPL-2.1-or-later
// The separable FIR on tensor cores, for 8-bit planes of 1, 2 or 4 interleaved channels: each
// pass is a product of the samples with a banded matrix of the taps, in fp16 operands (8-bit
// samples are exact there) with fp32 accumulation. A horizontal pass writes an fp16
// intermediate, rows of the border rule's extension included; a vertical pass reads it and
// stores the rounded (and finished) samples. docs/algorithms.md bounds the error of rounding
// the taps and the intermediate to fp16. SeparableFir runs it where it applies.
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

namespace cudagaussian {

class TensorFir {
 public:
  // The largest radius in either direction (common/fir_bands.h says why).
  static constexpr int kMaxRadius = kTensorFirMaxRadius;
  // Below this radius in both directions the CUDA-core fused kernel is faster
  // (docs/bench/kernel_choices.md, "FIR: tensor cores").
  static constexpr int kMinRadius = 12;
  // 16x16 blocks of the vertical band at kMaxRadius (kept in the vertical pass's shared memory).
  static constexpr int kMaxColumnBands = (kMaxRadius + (kMaxRadius + 15) / 16 * 16 + 15) / 16 + 1;

  // Whether a plane and its taps can run here: plane_suits_tensor_cores (8-bit samples without
  // shift, 1, 2 or 4 channels, taps of radius up to kMaxRadius that are none negative and sum to
  // 1: the error bound of docs/algorithms.md rests on it), on a GPU with tensor cores (compute
  // capability 7.0 or later).
  static bool applies(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                      const std::vector<double>& taps_y, int compute_major);
  // Whether it is also the faster choice (a radius of at least kMinRadius).
  static bool faster(int radius_x, int radius_y) { return radius_x >= kMinRadius || radius_y >= kMinRadius; }

  // Builds the band matrices (uploaded once) and reserves the intermediate; refuses what
  // applies() refuses (compute_major: the current device's, which the caller has queried).
  // Call with the CUDA context current; not per frame.
  Status plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
              const std::vector<double>& taps_y, Border border, int compute_major);
  // One frame: src into dst (device planes, pitches in bytes, already checked by the caller),
  // each stored sample finished by `finish`. Enqueues on `stream`.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, const SampleFinish& finish,
             cudaStream_t stream) const;
  void release();
  bool planned() const { return planned_; }

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  int halo_ = 0;            // scalars staged beyond each side of a horizontal tile
  int row_bands_ = 0;       // 16x16 blocks of the horizontal band matrix
  int margin_rows_ = 0;     // rows of the intermediate above row 0 (and at least as many below)
  int column_bands_ = 0;    // 16x16 blocks of the vertical band matrix
  int mid_rows_ = 0;
  size_t mid_pitch_ = 0;    // halves
  size_t row_smem_ = 0;     // dynamic shared memory of the horizontal kernel
  DeviceBuffer bands_;      // half: the horizontal blocks, then the vertical ones
  DeviceBuffer mid_;        // half: mid_rows_ x mid_pitch_
  bool planned_ = false;
};

}  // namespace cudagaussian
