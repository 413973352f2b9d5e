// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in RecursiveBlur: the double direct-form reference of common/reference_recursive in
// place of the CUDA line kernels, whatever the line split (the splits are ways of running the
// same recursion in parallel).
#include "cpu_plane.h"
#include "recursive_filter.h"
#include "reference_recursive.h"

namespace cudagaussian {

struct RecursiveBlur::Passes {
  double sigma_x = 0.0, sigma_y = 0.0;
};

RecursiveBlur::RecursiveBlur() = default;
RecursiveBlur::~RecursiveBlur() = default;

Status RecursiveBlur::plan(const PlaneGeometry& geometry, const RecursiveSettings& requested, double sigma_x,
                           double sigma_y) {
  release();
  if (!geometry.valid()) return Status::invalid("invalid plane geometry");
  CG_TRY(validate(requested, sigma_x, sigma_y));
  passes_ = std::make_unique<Passes>();
  passes_->sigma_x = sigma_x;
  passes_->sigma_y = sigma_y;
  geometry_ = geometry;
  settings_ = requested;
  planned_ = true;
  return Status::success();
}

Status RecursiveBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch, cudaStream_t) const {
  if (!planned_) return Status::invalid("RecursiveBlur::run before a successful plan()");
  return cpu_plane_run(geometry_, src, src_pitch, dst, dst_pitch, finish_, [&](const PlaneValues& in) {
    return reference_recursive(geometry_, in, settings_.filter, passes_->sigma_x, passes_->sigma_y,
                               settings_.start);
  });
}

void RecursiveBlur::release() {
  passes_.reset();
  mid_.release();
  across_.release();
  carries_.release();
  planned_ = false;
}

}  // namespace cudagaussian
