// SPDX-License-Identifier: LGPL-2.1-or-later
// Direct 2D convolution with a square odd-sized kernel: the baseline of GPU filtering papers
// such as Afif, Said and Atri (2018), (2R + 1)² multiply-adds per value. algorithm=direct uses
// the outer product of the Gaussian taps (the same result as the separable FIR up to float
// rounding); any non-separable kernel works too, e.g. the 5x5 integer kernel / 273 of Afif et
// al. (common/reference_box.h).
#pragma once

#include <vector>

#include "blur_params.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"

namespace cudagaussian {

class DirectConvolution : public PlaneBlur {
 public:
  // 33 x 33 taps: past that the separable and recursive algorithms are far faster anyway.
  static constexpr int kMaxRadius = 16;

  Status plan(const PlaneGeometry& geometry, const std::vector<double>& kernel, int size, Border border);
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;
  void release();

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  int radius_ = 0;
  DeviceBuffer taps_;
  bool planned_ = false;
};

}  // namespace cudagaussian
