// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in BoxBlur and IntegralBoxBlur: common/reference_box in place of the running-sum and
// summed-area kernels (both compute the same iterated boxes; the integral one exactly).
#include "box_filter.h"
#include "cpu_plane.h"
#include "integral_box.h"
#include "reference_box.h"

namespace cudagaussian {

namespace {

Status check_widths(const std::vector<int>& wx, const std::vector<int>& wy) {
  if (wx.empty() || wx.size() != wy.size()) return Status::invalid("box passes: one width per pass and direction");
  for (size_t p = 0; p < wx.size(); ++p)
    if (wx[p] < 1 || wx[p] % 2 == 0 || wy[p] < 1 || wy[p] % 2 == 0) return Status::invalid("box widths must be odd");
  return Status::success();
}

std::vector<int> radii(const std::vector<int>& widths) {
  std::vector<int> r;
  for (int w : widths) r.push_back(w / 2);
  return r;
}

std::vector<int> widths(const std::vector<int>& radii) {
  std::vector<int> w;
  for (int r : radii) w.push_back(2 * r + 1);
  return w;
}

// Both box blurs compute the same iterated boxes (the integral one exactly, as the reference).
Status run_boxes(const PlaneGeometry& geometry, const std::vector<int>& radii_x,
                 const std::vector<int>& radii_y, Border border, const void* src, size_t src_pitch,
                 void* dst, size_t dst_pitch, const SampleFinish& finish) {
  return cpu_plane_run(geometry, src, src_pitch, dst, dst_pitch, finish, [&](const PlaneValues& in) {
    return reference_box(geometry, in, widths(radii_x), widths(radii_y), border);
  });
}

}  // namespace

Status BoxBlur::plan(const PlaneGeometry& geometry, const std::vector<int>& widths_x,
                     const std::vector<int>& widths_y, Border border, const Schedule&) {
  release();
  if (!geometry.valid()) return Status::invalid("invalid plane geometry");
  CG_TRY(check_widths(widths_x, widths_y));
  geometry_ = geometry;
  border_ = border;
  radii_x_ = radii(widths_x);
  radii_y_ = radii(widths_y);
  planned_ = true;
  return Status::success();
}

Status BoxBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t) const {
  if (!planned_) return Status::invalid("BoxBlur::run before a successful plan()");
  return run_boxes(geometry_, radii_x_, radii_y_, border_, src, src_pitch, dst, dst_pitch, finish_);
}

void BoxBlur::release() {
  radii_x_.clear();
  radii_y_.clear();
  planned_ = false;
}

Status IntegralBoxBlur::plan(const PlaneGeometry& geometry, const std::vector<int>& widths_x,
                             const std::vector<int>& widths_y, Border border) {
  release();
  CG_TRY(validate(geometry, widths_x, widths_y));
  geometry_ = geometry;
  border_ = border;
  radii_x_ = radii(widths_x);
  radii_y_ = radii(widths_y);
  planned_ = true;
  return Status::success();
}

Status IntegralBoxBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t) const {
  if (!planned_) return Status::invalid("IntegralBoxBlur::run before a successful plan()");
  return run_boxes(geometry_, radii_x_, radii_y_, border_, src, src_pitch, dst, dst_pitch, finish_);
}

void IntegralBoxBlur::release() {
  radii_x_.clear();
  radii_y_.clear();
  planned_ = false;
}

}  // namespace cudagaussian
