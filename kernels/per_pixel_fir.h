// SPDX-License-Identifier: LGPL-2.1-or-later
// Separable FIR Gaussian in the usual GPU formulation: one thread per output value, looping over
// the taps from the centre outwards in symmetric pairs, with the taps read from a table or
// generated in the kernel by Turkowski's incremental method (common/incremental_taps.h). It
// exists to measure that choice (algorithm=fir coefficients=incremental, and bench_fir); the
// register-blocked SeparableFir is the table-driven default. Horizontal pass into a float
// intermediate, then the vertical pass; any size, pitch, radius up to SeparableFir::kMaxRadius
// and any border.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "device_memory.h"
#include "incremental_taps.h"
#include "plane.h"
#include "plane_blur.h"

namespace cudagaussian {

enum class TapSource : int { Table = 0, Incremental = 1 };

class PerPixelFir : public PlaneBlur {
 public:
  // The sampled Gaussian of gaussian_taps(sigma, radius) along each axis (radius 0: no pass
  // along it). Call with the CUDA context current; not per frame.
  Status plan(const PlaneGeometry& geometry, double sigma_x, int radius_x, double sigma_y, int radius_y,
              Border border, TapSource source);

  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;

  void release();

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  TapSource source_ = TapSource::Table;
  int radius_x_ = 0, radius_y_ = 0;
  IncrementalGaussian incremental_x_{}, incremental_y_{};
  DeviceBuffer taps_;          // one-sided taps t[0..R] along x, then along y (table source)
  DeviceBuffer intermediate_;  // float, width * channels per row
  bool planned_ = false;
};

}  // namespace cudagaussian
