// SPDX-License-Identifier: LGPL-2.1-or-later
// FrameBlur's choices that need no GPU: which algorithm `auto` runs (the planes' FIR radii
// against the radius where each kind of core stops winning, the multirate Gaussian's modelled
// cost, and the border), how split Auto and
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

// The algorithms auto runs on `planes` as the radius grows (sigma = radius / 4 at truncate 4),
// each with the first radius it takes over at: "fir@1 multirate@35 deriche@576".
std::string auto_sequence(const std::vector<cg::PlaneSpec>& planes, cg::Border border = cg::Border::Replicate) {
  cg::BlurSettings s;
  s.border = border;
  std::string sequence;
  cg::Algorithm last = cg::Algorithm::Auto;
  for (int r = 1; r <= 1000; ++r) {
    s.sigma_x = s.sigma_y = r / 4.0;
    const cg::Algorithm a = cg::FrameBlur::resolve(s, planes);
    if (a != last) sequence += (sequence.empty() ? "" : " ") + std::string(cg::algorithm_name(a)) + "@" + std::to_string(r);
    last = a;
  }
  return sequence;
}

}  // namespace

// The FIR while its radius over the radius where it stopped beating Deriche (kAutoFirMaxRadius
// and the others) costs less than the multirate Gaussian's modelled cost, then the multirate
// Gaussian; on a Full HD plane it keeps every sigma the element takes (to 250), on smaller ones
// Deriche takes over where the multirate Gaussian's long steps cost more.
CG_TEST(auto_takes_the_fir_then_the_multirate_gaussian_then_deriche) {
  CHECK_MSG(auto_sequence(rgba_frame()) == "fir@1 multirate@32", "%s", auto_sequence(rgba_frame()).c_str());
  CHECK(auto_sequence({plane(1, 1)}) == "fir@1 multirate@24");                  // GRAY8: tensor cores
  CHECK(auto_sequence({plane(1, 1), plane(2, 1, 2)}) == "fir@1 multirate@48");  // NV12
  CHECK(auto_sequence({plane(4, 2)}) == "fir@1 multirate@16");                  // 16-bit: CUDA cores
  CHECK(auto_sequence({plane(3, 1)}) == "fir@1 multirate@16");                  // RGB: CUDA cores
  // Without the recursions (exact for replicate only) the multirate Gaussian keeps every sigma.
  CHECK(auto_sequence(rgba_frame(), cg::Border::Mirror) == "fir@1 multirate@32");
  // The FIR's cost is the largest of the planes' radii, each over its plane's limit, and
  // directions that differ count with the larger radius: below its limit it stays.
  cg::BlurSettings t;
  t.sigma_x = 1.0, t.sigma_y = 14.0;
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Fir);
  t.sigma_x = t.sigma_y = 30.0;
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Multirate);
  // A small frame fills the GPU with fewer of the multirate passes' threads: Deriche from
  // sigma 144 at SD.
  std::vector<cg::PlaneSpec> sd = rgba_frame();
  sd[0].geometry.width = 720, sd[0].geometry.height = 576;
  CHECK(auto_sequence(sd) == "fir@1 multirate@35 deriche@576");
  t.sigma_x = t.sigma_y = 150.0;
  CHECK(cg::FrameBlur::resolve(t, sd) == cg::Algorithm::Deriche);
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Multirate);
  t.algorithm = cg::Algorithm::Box;  // an explicit choice is kept
  CHECK(cg::FrameBlur::resolve(t, rgba_frame()) == cg::Algorithm::Box);
}

// Every sigma the element takes (0 to 250) plans for algorithm=multirate on any plane.
CG_TEST(multirate_takes_every_sigma) {
  cg::BlurSettings s;
  s.algorithm = cg::Algorithm::Multirate;
  for (int channels = 1; channels <= 4; ++channels)
    for (double sigma = 0.0; sigma <= 250.0; sigma += 0.25) {
      s.sigma_x = sigma, s.sigma_y = 250.0 - sigma;
      const cg::Status st = cg::FrameBlur::validate(s, {plane(channels, 1)});
      CHECK_MSG(st.ok(), "C%d sigma %g: %s", channels, sigma, st.message.c_str());
    }
  // Refused before any launch, and never picked by auto: more blocks of coarse rows than a grid
  // takes (65535 of 16), a sigma beyond kMultirateMaxSigma.
  std::vector<cg::PlaneSpec> tall = {plane(1, 1)};
  tall[0].geometry.width = 4, tall[0].geometry.height = 1100000;
  s.sigma_x = s.sigma_y = 3.0;
  CHECK(!cg::FrameBlur::validate(s, tall).ok());
  cg::BlurSettings automatic = s;
  automatic.algorithm = cg::Algorithm::Auto;
  CHECK(cg::FrameBlur::resolve(automatic, tall) != cg::Algorithm::Multirate);
  s.sigma_x = s.sigma_y = 30.0;  // step 15: few coarse rows
  CHECK(cg::FrameBlur::validate(s, tall).ok());
  // Fewer coarse rows than that, but more blocks of the column interpolation's 8 steps.
  tall[0].geometry.height = 600000;
  s.sigma_x = s.sigma_y = 3.0;
  CHECK(!cg::FrameBlur::validate(s, tall).ok());
  s.sigma_x = s.sigma_y = 30.0;
  CHECK(cg::FrameBlur::validate(s, tall).ok());
  // Rows or row samples past 2^30 (the passes' positions in int).
  std::vector<cg::PlaneSpec> wide = {plane(4, 1)};
  wide[0].geometry.width = 1 << 29, wide[0].geometry.height = 1;
  CHECK(!cg::FrameBlur::validate(s, wide).ok());
  automatic.sigma_x = automatic.sigma_y = 20000.0;
  CHECK(cg::FrameBlur::resolve(automatic, {plane(4, 1)}) != cg::Algorithm::Multirate);
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
  s.sigma_x = s.sigma_y = 200.0;  // auto: Deriche
  std::vector<cg::PlaneSpec> wide = rgba_frame();
  wide[0].geometry.width = 100000;  // its scan keeps no line in shared memory: no length limit
  wide[0].geometry.height = 16;     // few pixels: the multirate passes would cost more
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
