// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the separable FIR's plans: plans that do not interfere, several frames per launch,
// arguments refused before any launch, and FrameBlur's FIR limit and algorithm=auto
// (fir_gpu_cases.h: how each case runs). Skips (exit 77) without a CUDA device.
#include "fir_gpu_cases.h"

using namespace cudagaussian;
using namespace fir_gpu;

CG_TEST(plans_do_not_interfere) {
  // A small-radius plan made after a large one must not lower the large one's shared-memory
  // allowance, and two instances must be able to run back to back on different streams.
  std::vector<Case> cases = {
      make(50, 40, 4, 1, 0, SeparableFir::kMaxRadius / 4.0, 3, Border::Replicate, Input::Random, 13, 0),
      make(385, 289, 4, 1, 0, 1, 1, Border::Mirror, Input::Random, 0, 13),
  };
  SeparableFir big, small;
  CHECK(big.plan(cases[0].g, cases[0].taps_x(), cases[0].taps_y(), cases[0].border).ok());
  CHECK(small.plan(cases[1].g, cases[1].taps_x(), cases[1].taps_y(), cases[1].border).ok());
  run_gpu(cases[0], &big);
  run_gpu(cases[1], &small);
  for (Case& c : cases) verify(c);
  for (const Case& c : cases) CHECK_MSG(c.error.empty(), "%s: %s", describe(c).c_str(), c.error.c_str());
}

CG_TEST(batched_frames) {
  // Several frames per call, as the element's batches run: fused launches of up to
  // kMaxBatchFrames frames (11 frames: two launches), frames whose pitch differs from the first
  // one's (launched apart), destinations of different alignments in one launch, and the
  // two-pass schedule (radius > 16), one frame after another. Each frame has its own content.
  struct Batch {
    Case base;
    int frames;
    bool mixed_pitches;
  };
  const Batch batches[] = {
      {make(385, 289, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13), 11, false},
      {make(720, 576, 4, 1, 0, 2, 2), 4, false},
      {make(721, 577, 1, 1, 0, 3, 1, Border::Mirror, Input::Random, 1, 3), 5, true},
      {make(1, 1, 4, 1, 0, 2, 2), 3, false},
      {make(3, 2, 2, 2, 0, 1, 1, Border::Reflect, Input::Random, 2, 2), 8, true},
      {make(257, 99, 1, 2, 6, 3, 3, Border::Replicate, Input::Random, 4, 2), 3, false},
      {make(385, 289, 3, 1, 0, 10, 10, Border::Replicate, Input::Random, 13, 1), 3, true},
      {make(1921, 1081, 4, 1, 0, 1, 1, Border::Replicate, Input::Random, 0, 7), 2, false},
  };
  uint32_t seed = 5000;
  for (const Batch& b : batches) {
    std::vector<Case> cases;
    for (int f = 0; f < b.frames; ++f) {
      Case c = b.base;
      c.seed = seed += 7919;
      if (b.mixed_pitches && f % 2) c.dst_pad += 4;
      if (c.g.bytes_per_sample == 1) c.dst_offset = f % 4;  // 4-, 1- and 2-byte aligned rows
      cases.push_back(c);
    }
    SeparableFir fir;
    const Case& c0 = cases[0];
    CHECK(fir.plan(c0.g, c0.taps_x(), c0.taps_y(), c0.border).ok());
    run_gpu_batch(cases, fir);
    for (Case& c : cases) verify(c);
    for (size_t f = 0; f < cases.size(); ++f) {
      const Case& c = cases[f];
      std::printf("  %s frame %zu of %d: %s, dst offset %d, max diff %g\n",
                  c.error.empty() ? "ok  " : "FAIL", f, b.frames, describe(c).c_str(),
                  c.dst_offset, c.max_diff);
      CHECK_MSG(c.error.empty(), "batch frame %zu, %s: %s", f, describe(c).c_str(), c.error.c_str());
    }
    std::fflush(stdout);
  }
}

CG_TEST(refuses_invalid_arguments) {
  PlaneGeometry g;
  g.width = 64;
  g.height = 32;
  g.channels = 4;
  const std::vector<double> t = gaussian_taps(2.0, 8);
  SeparableFir fir;

  PlaneGeometry bad = g;
  bad.width = 0;
  CHECK(!fir.plan(bad, t, t, Border::Replicate).ok());
  bad = g;
  bad.channels = 5;
  CHECK(!fir.plan(bad, t, t, Border::Replicate).ok());
  CHECK(!fir.plan(g, {}, t, Border::Replicate).ok());
  CHECK(!fir.plan(g, t, {0.5, 0.5}, Border::Replicate).ok());
  const std::vector<double> too_long(2 * SeparableFir::kMaxRadius + 3, 1.0 / (2 * SeparableFir::kMaxRadius + 3));
  const Status st = fir.plan(g, too_long, t, Border::Replicate);
  CHECK(!st.ok() && st.cuda == cudaSuccess);
  std::printf("  radius %d refused: %s\n", SeparableFir::kMaxRadius + 1, st.message.c_str());

  DeviceBuffer a, b;
  CHECK(a.reserve(g.row_bytes() * g.height).ok() && b.reserve(g.row_bytes() * g.height).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());  // not planned
  SeparableFir::Schedule twelve_rows;
  twelve_rows.tile_rows = 12;
  CHECK(!fir.plan(g, t, t, Border::Replicate, twelve_rows).ok());
  CHECK(fir.plan(g, t, t, Border::Replicate).ok());
  CHECK(!fir.run(nullptr, g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), nullptr, g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes() - 1, b.get(), g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes() - 4, nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), a.get(), g.row_bytes(), nullptr).ok());  // in place
  CHECK(fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  PlaneGeometry g16 = g;
  g16.bytes_per_sample = 2;
  CHECK(fir.plan(g16, t, t, Border::Replicate).ok());
  CHECK(!fir.run(static_cast<uint8_t*>(a.get()) + 1, g16.row_bytes(), b.get(), g16.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g16.row_bytes() + 1, b.get(), g16.row_bytes() + 1, nullptr).ok());

  // FrameBlur refuses an FIR radius above the limit before touching the GPU.
  BlurSettings s;
  s.algorithm = Algorithm::Fir;
  s.sigma_x = s.sigma_y = 400.0;  // R = 1600
  PlaneSpec p;
  p.geometry = g;
  FrameBlur blur;
  const Status fb = blur.plan(s, {p});
  CHECK(!fb.ok() && !blur.planned());
  std::printf("  FrameBlur sigma 400: %s\n", fb.message.c_str());
  s.sigma_x = s.sigma_y = SeparableFir::kMaxRadius / 4.0;
  CHECK(blur.plan(s, {p}).ok());

  // algorithm=auto on this 64x32 RGBA8 plane: the FIR (tensor cores) up to radius 96, then
  // Deriche (the multirate Gaussian costs more on so few pixels); with a non-replicate border
  // the multirate Gaussian, and past its largest sigma the FIR, which refuses radius 80000.
  s.algorithm = Algorithm::Auto;
  s.sigma_x = s.sigma_y = 24.0;  // R = 96
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Fir);
  CHECK(blur.plan(s, {p}).ok() && blur.chosen() == Algorithm::Fir);
  s.sigma_x = 24.25;
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Deriche);
  s.sigma_x = s.sigma_y = 400.0;
  CHECK(blur.plan(s, {p}).ok() && blur.chosen() == Algorithm::Deriche);
  s.border = Border::Mirror;
  s.sigma_x = s.sigma_y = 100.0;
  CHECK(blur.plan(s, {p}).ok() && blur.chosen() == Algorithm::Multirate);
  s.sigma_x = s.sigma_y = 400.0;
  CHECK(blur.plan(s, {p}).ok() && blur.chosen() == Algorithm::Multirate);
  s.sigma_x = s.sigma_y = 20000.0;
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Fir);
  CHECK(!blur.plan(s, {p}).ok());  // FIR radius 80000: refused, with the advice to use replicate
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
