// SPDX-License-Identifier: LGPL-2.1-or-later
// The multirate Gaussian (common/multirate_axis.h, docs/algorithms.md "Multirate Gaussian"):
// the exact Gaussian at any sigma in three passes whose work per sample does not grow with
// sigma. The columns are decimated straight from the frame, the rows decimated and
// interpolated back on the few coarse rows, and the columns interpolated back into the frame
// (with the finishing step). Every border rule of common/border.h.
#pragma once

#include "blur_params.h"
#include "device_memory.h"
#include "multirate_axis.h"
#include "multirate_layout.h"
#include "plane.h"
#include "plane_blur.h"

namespace cudagaussian {

class MultirateBlur : public PlaneBlur {
 public:
  Status plan(const PlaneGeometry& geometry, double sigma_x, double sigma_y, Border border);
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;
  void release();

  const MultirateAxis& x_axis() const { return x_; }
  const MultirateAxis& y_axis() const { return y_; }
  // Whether the planned column decimation runs on tensor cores.
  bool tensor_core_columns() const { return band_columns_; }

 private:
  template <typename T>
  Status run_passes(const T* src, size_t src_pitch, T* dst, size_t dst_pitch, cudaStream_t stream) const;

  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  MultirateAxis x_, y_;
  MultirateLayout layout_;
  MultirateRowPlan row_plan_;
  // Float taps: the columns' decimation [phase][decimate_column_taps] and interpolation
  // [phase][interpolate_column_taps], the rows' decimation and interpolation [phase][row_taps],
  // one after another.
  DeviceBuffer taps_;
  size_t taps_at_[4] = {0, 0, 0, 0};
  // 8-bit planes on compute capability 8.0 and later decimate their columns on tensor cores:
  // the band's fragments, [tile][high, low part][lane][8 halves].
  bool band_columns_ = false;
  DeviceBuffer band_;
  // The coarse rows at every column, planar: [split][channel][coarse row][x] (floats).
  DeviceBuffer coarse_rows_;
  // Blocks of the row pass the GPU holds at once, its registers capped or not.
  int row_capped_blocks_ = 1, row_free_blocks_ = 1;
  bool planned_ = false;
};

}  // namespace cudagaussian
