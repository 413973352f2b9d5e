// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in SeparableFir, PerPixelFir and DirectConvolution: the double references of
// common/reference_blur.h and reference_box.h in place of the CUDA kernels. Taps live in the
// classes' own device buffers; the rest of their members describe the plan as the kernels do.
#include <algorithm>

#include "cpu_plane.h"
#include "direct_conv.h"
#include "fir_taps.h"
#include "per_pixel_fir.h"
#include "reference_box.h"
#include "separable_fir.h"

namespace cudagaussian {

// ---- SeparableFir

Status SeparableFir::plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                          const std::vector<double>& taps_y, Border border, const Schedule&) {
  release();
  if (!geometry.valid()) return Status::invalid("invalid plane geometry");
  if (taps_x.size() % 2 == 0 || taps_y.size() % 2 == 0)
    return Status::invalid("FIR taps must have odd length");
  radius_x_ = static_cast<int>(taps_x.size() / 2);
  radius_y_ = static_cast<int>(taps_y.size() / 2);
  if (std::max(radius_x_, radius_y_) > kMaxRadius) return Status::invalid("FIR radius too large");
  std::vector<double> taps = taps_x;
  taps.insert(taps.end(), taps_y.begin(), taps_y.end());
  CG_TRY(store_doubles(taps_, taps));
  taps_y_offset_ = static_cast<int>(taps_x.size());
  geometry_ = geometry;
  border_ = border;
  planned_ = true;
  return Status::success();
}

Status SeparableFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                         cudaStream_t) const {
  if (!planned_) return Status::invalid("SeparableFir::run before a successful plan()");
  const std::vector<double> tx = load_doubles(taps_, 0, 2 * radius_x_ + 1);
  const std::vector<double> ty = load_doubles(taps_, taps_y_offset_, 2 * radius_y_ + 1);
  return cpu_plane_run(geometry_, src, src_pitch, dst, dst_pitch, finish_, [&](const PlaneValues& in) {
    return reference_fir(geometry_, in, tx, ty, border_);
  });
}

Status SeparableFir::run_batch(const PlanePair* frames, int count, cudaStream_t stream) const {
  return PlaneBlur::run_batch(frames, count, stream);
}

void SeparableFir::release() {
  taps_.release();
  intermediate_.release();
  planned_ = false;
}

// ---- PerPixelFir: the same Gaussian taps, from the table (the kernel's incremental taps
// agree with them far below the 8-bit step)

Status PerPixelFir::plan(const PlaneGeometry& geometry, double sigma_x, int radius_x, double sigma_y,
                         int radius_y, Border border, TapSource source) {
  release();
  if (!geometry.valid()) return Status::invalid("invalid plane geometry");
  if (radius_x < 0 || radius_y < 0) return Status::invalid("negative FIR radius");
  std::vector<double> taps = gaussian_taps(sigma_x, radius_x);
  const std::vector<double> ty = gaussian_taps(sigma_y, radius_y);
  taps.insert(taps.end(), ty.begin(), ty.end());
  CG_TRY(store_doubles(taps_, taps));
  geometry_ = geometry;
  border_ = border;
  source_ = source;
  radius_x_ = radius_x;
  radius_y_ = radius_y;
  planned_ = true;
  return Status::success();
}

Status PerPixelFir::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                        cudaStream_t) const {
  if (!planned_) return Status::invalid("PerPixelFir::run before a successful plan()");
  const std::vector<double> tx = load_doubles(taps_, 0, 2 * radius_x_ + 1);
  const std::vector<double> ty = load_doubles(taps_, 2 * radius_x_ + 1, 2 * radius_y_ + 1);
  return cpu_plane_run(geometry_, src, src_pitch, dst, dst_pitch, finish_, [&](const PlaneValues& in) {
    return reference_fir(geometry_, in, tx, ty, border_);
  });
}

void PerPixelFir::release() {
  taps_.release();
  intermediate_.release();
  planned_ = false;
}

// ---- DirectConvolution

Status DirectConvolution::plan(const PlaneGeometry& geometry, const std::vector<double>& kernel, int size,
                               Border border) {
  release();
  if (!geometry.valid()) return Status::invalid("invalid plane geometry");
  if (size < 1 || size % 2 == 0 || kernel.size() != static_cast<size_t>(size) * size)
    return Status::invalid("direct convolution needs a square kernel of odd size");
  if (size / 2 > kMaxRadius) return Status::invalid("direct convolution radius too large");
  CG_TRY(store_doubles(taps_, kernel));
  geometry_ = geometry;
  border_ = border;
  radius_ = size / 2;
  planned_ = true;
  return Status::success();
}

Status DirectConvolution::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                              cudaStream_t) const {
  if (!planned_) return Status::invalid("DirectConvolution::run before a successful plan()");
  const int size = 2 * radius_ + 1;
  const std::vector<double> kernel = load_doubles(taps_, 0, static_cast<size_t>(size) * size);
  return cpu_plane_run(geometry_, src, src_pitch, dst, dst_pitch, finish_, [&](const PlaneValues& in) {
    return reference_direct(geometry_, in, kernel, size, border_);
  });
}

void DirectConvolution::release() {
  taps_.release();
  planned_ = false;
}

}  // namespace cudagaussian
