// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in MultirateBlur: common/reference_multirate (the same stages in double) in place of
// the three kernels.
#include "cpu_plane.h"
#include "multirate_blur.h"
#include "reference_multirate.h"

namespace cudagaussian {

Status MultirateBlur::plan(const PlaneGeometry& g, double sigma_x, double sigma_y, Border border) {
  release();
  CG_TRY(plan_multirate_plane(g, sigma_x, sigma_y, &x_, &y_, &layout_));
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

Status MultirateBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t) const {
  if (!planned_) return Status::invalid("MultirateBlur::run before a successful plan()");
  return cpu_plane_run(geometry_, src, src_pitch, dst, dst_pitch, finish_, [&](const PlaneValues& in) {
    return reference_multirate(geometry_, in, x_, y_, border_);
  });
}

void MultirateBlur::release() { planned_ = false; }

}  // namespace cudagaussian
