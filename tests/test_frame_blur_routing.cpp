// SPDX-License-Identifier: LGPL-2.1-or-later
// FrameBlur's choices that need no GPU: which algorithm `auto` runs (by the planes' FIR radii
// against the radius where each kind of core stops winning, and the border), how split Auto and
// kappa -1 resolve per algorithm, and the plane arguments every blur checks before a launch.
#include "check.h"
#include "frame_blur.h"
#include "blur_algorithms.h"
#include "plane_blur.h"
#include "tensor_fir.h"

#include <string>

namespace cg = cudagaussian;

namespace {

std::vector<cg::PlaneSpec> rgba_frame() {
  cg::PlaneSpec p;
  p.geometry.width = 1920, p.geometry.height = 1080, p.geometry.channels = 4, p.geometry.bytes_per_sample = 1;
  return {p};
}

// A 1080p plane of `channels` samples of `bytes` bytes, subsampled by `subsample` both ways.
cg::PlaneSpec plane(int channels, int bytes, int subsample = 1) {
  cg::PlaneSpec p;
  p.geometry.width = 1920 / subsample, p.geometry.height = 1080 / subsample;
  p.geometry.channels = channels, p.geometry.bytes_per_sample = bytes;
  p.subsample_x = p.subsample_y = subsample;
  return p;
}

// The radius at which auto leaves the FIR for Deriche on `planes`: the last radius (sigma =
// radius / 4 at truncate 4) that resolves to the FIR, Deriche from the next one on.
int auto_fir_limit(const std::vector<cg::PlaneSpec>& planes) {
  cg::BlurSettings s;
  int last_fir = 0;
  for (int r = 1; r <= 200; ++r) {
    s.sigma_x = s.sigma_y = r / 4.0;
    if (cg::FrameBlur::resolve(s, planes) == cg::Algorithm::Fir) {
      if (last_fir != r - 1) return -1;  // the FIR again after Deriche: not one switch
      last_fir = r;
    }
  }
  return last_fir;
}

}  // namespace

CG_TEST(auto_switches_to_deriche_where_each_kind_of_core_stops_winning) {
  CHECK(auto_fir_limit(rgba_frame()) == cg::kAutoTensorFirMaxRadius);                // tensor cores, 4 channels
  CHECK(auto_fir_limit({plane(1, 1)}) == cg::TensorFir::kMaxRadius);                 // GRAY8: tensor cores
  CHECK(auto_fir_limit({plane(1, 1), plane(2, 1, 2)}) == cg::TensorFir::kMaxRadius);  // NV12
  CHECK(auto_fir_limit({plane(4, 2)}) == cg::kAutoFirMaxRadius);                     // 16-bit: CUDA cores
  CHECK(auto_fir_limit({plane(3, 1)}) == cg::kAutoFirMaxRadius);                     // RGB: CUDA cores
  // The plane that reaches its limit first decides: 16-bit luma beside 8-bit chroma.
  CHECK(auto_fir_limit({plane(1, 2), plane(2, 1, 2)}) == cg::kAutoFirMaxRadius);
  // Chroma planes count with their own (smaller) sigma: here the luma plane decides.
  cg::BlurSettings t;
  t.sigma_x = t.sigma_y = 32.25;  // luma radius 129, beyond the tensor cores; chroma 65
  CHECK(cg::FrameBlur::resolve(t, {plane(1, 1), plane(2, 1, 2)}) == cg::Algorithm::Deriche);
  t.sigma_x = t.sigma_y = 32.0;
  CHECK(cg::FrameBlur::resolve(t, {plane(1, 1), plane(2, 1, 2)}) == cg::Algorithm::Fir);
  // Radii that differ between the directions: the larger counts.
  t.sigma_x = 1.0, t.sigma_y = 24.25;  // radius 97 vertically on RGBA
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Deriche);
  t.sigma_y = 24.0;
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Fir);
  t.sigma_x = t.sigma_y = 40.0;
  t.border = cg::Border::Mirror;  // the recursions are exact for replicate only
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Fir);
  t.border = cg::Border::Replicate;
  t.algorithm = cg::Algorithm::Box;  // an explicit choice is kept
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Box);
}

CG_TEST(split_and_kappa_resolve_per_algorithm) {
  cg::BlurSettings s;
  s.algorithm = cg::Algorithm::Deriche;
  cg::BlurSettings r = cg::FrameBlur::resolved(s, rgba_frame());
  CHECK(r.recursive.split == cg::LineSplit::BlockParallel && r.recursive.kappa == 4.0);
  s.algorithm = cg::Algorithm::EdgeAware;
  r = cg::FrameBlur::resolved(s, rgba_frame());
  CHECK(r.recursive.split == cg::LineSplit::KWay && r.recursive.kappa == 2.0);
  s.recursive.split = cg::LineSplit::OneWay;  // an explicit split and kappa are kept
  s.recursive.kappa = 0.5;
  r = cg::FrameBlur::resolved(s, rgba_frame());
  CHECK(r.recursive.split == cg::LineSplit::OneWay && r.recursive.kappa == 0.5);
}

CG_TEST(recursive_split_is_block_parallel_at_any_line_length) {
  cg::BlurSettings s;
  s.sigma_x = s.sigma_y = 30.0;  // auto: Deriche
  std::vector<cg::PlaneSpec> wide = rgba_frame();
  wide[0].geometry.width = 100000;  // its scan keeps no line in shared memory: no length limit
  cg::BlurSettings r = cg::FrameBlur::resolved(s, wide);
  CHECK(r.algorithm == cg::Algorithm::Deriche && r.recursive.split == cg::LineSplit::BlockParallel);
  s.algorithm = cg::Algorithm::YoungVanVliet;  // explicit algorithm, split auto
  r = cg::FrameBlur::resolved(s, wide);
  CHECK(r.recursive.split == cg::LineSplit::BlockParallel);
  s.recursive.split = cg::LineSplit::KWay;  // explicit: kept
  r = cg::FrameBlur::resolved(s, wide);
  CHECK(r.recursive.split == cg::LineSplit::KWay);
}

int main() { return cgtest::run_all(); }

// Plane arguments every PlaneBlur::run checks before it touches the GPU (plane_blur.h),
// among them the 32-bit sample offsets of the line kernels (line_access.cuh).
CG_TEST(run_arguments_are_checked_before_any_launch) {
  cg::PlaneGeometry g = rgba_frame()[0].geometry;
  alignas(8) static unsigned char plane[8];
  const size_t row = g.row_bytes();
  CHECK(cg::check_run_arguments(g, plane, row, plane, row).ok());
  CHECK(!cg::check_run_arguments(g, nullptr, row, plane, row).ok());
  CHECK(!cg::check_run_arguments(g, plane, row - 1, plane, row).ok());
  g.bytes_per_sample = 2;
  CHECK(!cg::check_run_arguments(g, plane, 2 * row + 1, plane, 2 * row).ok());
  g.bytes_per_sample = 1;
  // 2^31 samples or more: rejected with a message, never an overflowing offset.
  const size_t huge_pitch = (size_t{1} << 31) / g.height + 1;
  const cg::Status st = cg::check_run_arguments(g, plane, huge_pitch, plane, row);
  CHECK(!st.ok());
  CHECK(st.message.find("too large") != std::string::npos);
  CHECK(cg::check_run_arguments(g, plane, huge_pitch - 8, plane, row).ok());
}
