// SPDX-License-Identifier: LGPL-2.1-or-later
// FrameBlur's choices that need no GPU: which algorithm `auto` runs (by the largest FIR radius
// over the planes, and the border) and how split Auto and kappa -1 resolve per algorithm; and
// the plane arguments every blur checks before a launch.
#include "check.h"
#include "frame_blur.h"
#include "plane_blur.h"

#include <string>

namespace cg = cudagaussian;

namespace {

std::vector<cg::PlaneSpec> rgba_frame() {
  cg::PlaneSpec p;
  p.geometry.width = 1920, p.geometry.height = 1080, p.geometry.channels = 4, p.geometry.bytes_per_sample = 1;
  return {p};
}

}  // namespace

CG_TEST(auto_is_the_fir_up_to_radius_32_then_deriche) {
  cg::BlurSettings s;
  s.sigma_x = s.sigma_y = 8.0;  // radius 32 at truncate 4
  CHECK(cg::FrameBlur::resolve(s, rgba_frame()) == cg::Algorithm::Fir);
  s.sigma_y = 8.25;  // radius 33 vertically
  CHECK(cg::FrameBlur::resolve(s, rgba_frame()) == cg::Algorithm::Deriche);
  s.border = cg::Border::Mirror;  // the recursions are exact for replicate only
  CHECK(cg::FrameBlur::resolve(s, rgba_frame()) == cg::Algorithm::Fir);
  // Chroma planes count with their own (smaller) sigma; the luma plane decides here.
  cg::BlurSettings t;
  t.sigma_x = t.sigma_y = 8.25;
  std::vector<cg::PlaneSpec> planes = rgba_frame();
  planes[0].geometry.channels = 1;
  cg::PlaneSpec chroma = planes[0];
  chroma.subsample_x = chroma.subsample_y = 2;
  planes.push_back(chroma);
  CHECK(cg::FrameBlur::resolve(t, planes) == cg::Algorithm::Deriche);
  t.algorithm = cg::Algorithm::Box;  // an explicit choice is kept
  CHECK(cg::FrameBlur::resolve(t, planes) == cg::Algorithm::Box);
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
  s.sigma_x = s.sigma_y = 20.0;  // auto: Deriche
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
