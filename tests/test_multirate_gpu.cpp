// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of algorithm=multirate (kernels/multirate_blur.cu) through FrameBlur: random planes in
// padded pitches, outputs poisoned first, against the exact Gaussian (where its double
// reference is affordable) and against the stage-by-stage double reference
// (common/reference_multirate.h); at most 1 LSB off either. A photograph: PSNR against the
// exact Gaussian. Skips (exit 77) without a CUDA device.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gst/gst.h>

#include "check.h"
#include "device_memory.h"
#include "frame_run_gpu.h"
#include "multirate_axis.h"
#include "multirate_blur.h"
#include "photo.h"
#include "plane_helpers.h"
#include "quality.h"
#include "reference_blur.h"
#include "reference_multirate.h"
#include "sample_finish.h"

using namespace cudagaussian;
using cgtest::geometry;
using cgtest::HostPlane;

namespace {

struct Outcome {
  bool ran = false;
  double to_exact = -1.0;      // max |out - round(exact Gaussian)|, -1 where not computed
  double to_reference = 0.0;   // max |out - round(reference_multirate)|
  double psnr = 0.0;           // against the exact Gaussian, where computed
  long kept_changed = 0;       // samples of a kept channel that differ from the input
};

double worst_rounded(const PlaneGeometry& g, const PlaneValues& got, const PlaneValues& ref) {
  double worst = 0.0;
  for (size_t i = 0; i < ref.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - std::clamp(std::floor(ref[i] + 0.5), 0.0, double(g.max_value()))));
  return worst;
}

// The worst sample of `got` against the stages' reference with `finish`, and how many samples of
// the kept channels differ from the input.
void compare_to_stages(const BlurSettings& s, const PlaneGeometry& g, const PlaneValues& x, const PlaneValues& got,
                       const SampleFinish& finish, Outcome* o) {
  const PlaneValues reference = finish_values(
      g, x,
      reference_multirate(g, x, plan_multirate_axis(g.width, s.sigma_x), plan_multirate_axis(g.height, s.sigma_y),
                          s.border),
      finish);
  o->to_reference = worst_rounded(g, got, reference);
  for (size_t i = 0; i < x.size(); ++i)
    if ((finish.keep >> (i % g.channels)) & 1u) o->kept_changed += got[i] != x[i];
}

// keep: the channels (bit c: channel c) made alpha and left out of s.parts, so copied from the
// input.
Outcome run_case(const BlurSettings& settings, const HostPlane& in, bool exact, unsigned keep = 0u) {
  Outcome o;
  std::vector<std::vector<uint8_t>> out;
  std::string error;
  const PlaneGeometry& g = in.g;
  PlaneSpec spec{g};
  BlurSettings s = settings;
  for (int c = 0; c < g.channels; ++c)
    if ((keep >> c) & 1u) spec.channel_parts[c] = kPartAlpha;
  if (keep != 0u) s.parts &= ~kPartAlpha;
  if (!cgtest::run_gpu(s, {spec}, {in}, out, error)) {
    std::printf("  failed: %s\n", error.c_str());
    return o;
  }
  o.ran = true;
  const PlaneValues x = read_plane(g, in.bytes.data(), in.pitch);
  const PlaneValues got = read_plane(g, out[0].data(), in.pitch);
  const SampleFinish finish = make_sample_finish(s.sharpen, s.sharpen_threshold, g.max_value(), kept_channels(spec, s.parts));
  compare_to_stages(s, g, x, got, finish, &o);
  if (exact) {
    const PlaneValues e = finish_values(g, x, exact_gaussian(g, x, s.sigma_x, s.sigma_y, s.border), finish);
    o.to_exact = worst_rounded(g, got, e);
    o.psnr = compare_planes(g, got, e).psnr;
  }
  return o;
}

BlurSettings multirate(double sigma_x, double sigma_y, Border border) {
  BlurSettings s;
  s.algorithm = Algorithm::Multirate;
  s.sigma_x = sigma_x;
  s.sigma_y = sigma_y;
  s.border = border;
  return s;
}

}  // namespace

CG_TEST(random_planes_every_border_and_size) {
  // Pitches padded by 3 samples (rows the column decimation stages sample by sample), and by
  // whatever makes them a multiple of 16 bytes (rows it copies in 16-byte pieces, but for the
  // last piece of a row that ends inside one).
  struct Case { PlaneGeometry g; double sx, sy; Border border; bool exact; bool aligned = false; };
  const Case cases[] = {
      {geometry(1, 1, 4), 30, 30, Border::Replicate, true},
      {geometry(3, 2, 1), 5, 5, Border::Mirror, true},
      {geometry(3, 2, 1), 100, 100, Border::Reflect, true},
      {geometry(385, 289, 4), 1, 1, Border::Replicate, true},
      {geometry(385, 289, 4), 2.5, 2.5, Border::Mirror, true},
      {geometry(385, 289, 4), 10, 10, Border::Replicate, true},
      {geometry(385, 289, 3), 30, 30, Border::Reflect, true},
      {geometry(385, 289, 1), 100, 100, Border::Mirror, true},
      {geometry(385, 289, 2), 250, 250, Border::Replicate, true},
      {geometry(385, 289, 4), 24, 0, Border::Mirror, true},
      {geometry(385, 289, 4), 0, 7, Border::Reflect, true},
      {geometry(385, 289, 1), 40, 3, Border::Replicate, true},
      {geometry(200, 150, 2, 2), 8, 12, Border::Reflect, true},
      {geometry(200, 150, 1, 2, 6), 20, 20, Border::Mirror, true},
      {geometry(1921, 1081, 4), 30, 30, Border::Replicate, false},
      {geometry(1921, 1081, 4), 6, 6, Border::Mirror, false},
      {geometry(1921, 1081, 1), 100, 100, Border::Reflect, false},
      {geometry(3, 2, 1), 5, 5, Border::Replicate, true, true},
      {geometry(385, 289, 4), 10, 10, Border::Mirror, true, true},
      {geometry(385, 289, 3), 60, 25, Border::Replicate, true, true},
      {geometry(200, 150, 2, 2), 8, 30, Border::Reflect, true, true},
      {geometry(1921, 1081, 4), 30, 30, Border::Reflect, false, true},
      {geometry(1921, 1081, 4), 100, 100, Border::Replicate, false, true},
      {geometry(386, 290, 2), 12, 12, Border::Replicate, true},
      {geometry(1921, 1081, 3), 16, 16, Border::Mirror, false, true},
  };
  // 8-bit planes decimate their columns on tensor cores where the GPU has them, unless the
  // decimation is split into many copies: both kernels must be among the cases.
  int tensor_cases = 0, fp32_cases = 0, device = 0, major = 0;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  uint32_t seed = 1;
  for (const Case& c : cases) {
    MultirateBlur plan;
    CHECK(plan.plan(c.g, c.sx, c.sy, c.border).ok());
    (plan.tensor_core_columns() ? tensor_cases : fp32_cases)++;
    const int pad = c.aligned ? static_cast<int>(15 - (c.g.row_bytes() + 15) % 16) : 3 * c.g.bytes_per_sample;
    const HostPlane in = cgtest::make_plane(c.g, pad, seed++);
    const Outcome o = run_case(multirate(c.sx, c.sy, c.border), in, c.exact);
    std::printf("  %dx%d C%d u%d>>%d pitch %zu sigma %g,%g %s: max diff %g to the stages' reference, %g to the exact Gaussian\n",
                c.g.width, c.g.height, c.g.channels, 8 * c.g.bytes_per_sample, c.g.shift, in.pitch, c.sx, c.sy,
                border_name(c.border), o.to_reference, o.to_exact);
    CHECK(o.ran);
    CHECK(o.to_reference <= 1.0);
    CHECK(o.to_exact <= 1.0);
  }
  std::printf("  column decimation: %d cases on tensor cores, %d in FP32\n", tensor_cases, fp32_cases);
  CHECK(fp32_cases > 0);
  CHECK(major < 8 || tensor_cases > 0);
}

// The unsharp mask is applied by the last pass, with the input sample at the same place.
CG_TEST(sharpen_in_the_last_pass) {
  for (double sigma : {3.0, 20.0}) {
    BlurSettings s = multirate(sigma, sigma, Border::Mirror);
    s.sharpen = 1.5;
    s.sharpen_threshold = 2.0;
    const HostPlane in = cgtest::make_plane(geometry(385, 289, 4), 4, 77);
    const Outcome o = run_case(s, in, true);
    std::printf("  sharpen 1.5 sigma %g: max diff %g (stages), %g (exact)\n", sigma, o.to_reference, o.to_exact);
    CHECK(o.ran);
    CHECK(o.to_reference <= 1.0);
    CHECK(o.to_exact <= 1.0);
  }
}

// A kept channel (alpha, the element's default) and the unsharp mask read the input in the last
// pass, which stages its rows first: every layout of those rows (phases split across blocks at
// large sigmas, pitches copied in 16-byte pieces or sample by sample, 8 and 16 bits).
CG_TEST(kept_channel_and_sharpen_at_every_step) {
  struct Case { PlaneGeometry g; bool aligned; };
  const Case cases[] = {
      {geometry(385, 289, 4), false},
      {geometry(1921, 1081, 4), true},
      {geometry(200, 150, 2, 2), true},
      {geometry(201, 150, 2, 2), false},
      {geometry(387, 290, 3), false},
  };
  uint32_t seed = 40;
  for (const Case& c : cases)
    for (double sigma : {10.0, 30.0, 100.0})
      for (double amount : {0.0, 1.2}) {
        BlurSettings s = multirate(sigma, sigma, Border::Mirror);
        s.sharpen = amount;
        const int pad = c.aligned ? static_cast<int>(15 - (c.g.row_bytes() + 15) % 16) : 3 * c.g.bytes_per_sample;
        const HostPlane in = cgtest::make_plane(c.g, pad, seed++);
        const Outcome o = run_case(s, in, false, 1u << (c.g.channels - 1));
        std::printf("  %dx%d C%d u%d pitch %zu sigma %g sharpen %g, last channel kept: max diff %g, %ld kept samples "
                    "changed\n", c.g.width, c.g.height, c.g.channels, 8 * c.g.bytes_per_sample, in.pitch, sigma, amount,
                    o.to_reference, o.kept_changed);
        CHECK(o.ran);
        CHECK(o.to_reference <= 1.0);
        CHECK(o.kept_changed == 0);
      }
}

// Any channels kept (a plane with every channel kept is copied before it gets here), out of
// place and in place: the last pass gives threads to the filtered samples only, where a block's
// columns hold whole pixels, and stores the kept ones as it staged them from the input; in
// place, a block stores only rows it staged before.
CG_TEST(any_kept_channels_out_of_and_in_place) {
  struct Case { PlaneGeometry g; unsigned keep; };
  const Case cases[] = {
      {geometry(385, 289, 4), 0b0101u}, {geometry(385, 289, 4), 0b0111u}, {geometry(1921, 1081, 4), 0b0001u},
      {geometry(201, 150, 2, 2), 0b01u}, {geometry(387, 290, 3), 0b010u}, {geometry(385, 289, 4), 0b1111u},
  };
  uint32_t seed = 90;
  for (const Case& c : cases)
    for (double sigma : {10.0, 100.0}) {
      const HostPlane in = cgtest::make_plane(c.g, 3 * c.g.bytes_per_sample, seed++);
      const PlaneGeometry& g = c.g;
      const BlurSettings s = multirate(sigma, sigma, Border::Replicate);
      const bool whole = c.keep == (1u << g.channels) - 1u;  // FrameBlur copies such a plane itself
      if (!whole) {
        const Outcome o = run_case(s, in, false, c.keep);
        std::printf("  %dx%d C%d u%d sigma %g, kept channels 0x%x, out of place: max diff %g, %ld kept samples "
                    "changed\n", g.width, g.height, g.channels, 8 * g.bytes_per_sample, sigma, c.keep, o.to_reference,
                    o.kept_changed);
        CHECK(o.ran);
        CHECK(o.to_reference <= 1.0);
        CHECK(o.kept_changed == 0);
      }
      // In place, through MultirateBlur itself.
      MultirateBlur blur;
      CHECK(blur.plan(g, sigma, sigma, s.border).ok());
      SampleFinish finish;
      finish.keep = c.keep;
      blur.set_finish(finish);
      DeviceBuffer frame;
      CudaStream stream;
      std::vector<uint8_t> out(in.bytes.size());
      const bool ran = frame.reserve(in.bytes.size()).ok() && stream.create().ok() &&
                       cudaMemcpy(frame.get(), in.bytes.data(), in.bytes.size(), cudaMemcpyHostToDevice) == cudaSuccess &&
                       blur.run(frame.get(), in.pitch, frame.get(), in.pitch, stream.get()).ok() &&
                       stream.synchronize().ok() &&
                       cudaMemcpy(out.data(), frame.get(), out.size(), cudaMemcpyDeviceToHost) == cudaSuccess;
      CHECK(ran);
      if (!ran) continue;
      Outcome o;
      const PlaneValues x = read_plane(g, in.bytes.data(), in.pitch);
      compare_to_stages(s, g, x, read_plane(g, out.data(), in.pitch), finish, &o);
      std::printf("  %dx%d C%d u%d sigma %g, kept channels 0x%x, in place: max diff %g, %ld kept samples changed\n",
                  g.width, g.height, g.channels, 8 * g.bytes_per_sample, sigma, c.keep, o.to_reference, o.kept_changed);
      CHECK(o.to_reference <= 1.0);
      CHECK(o.kept_changed == 0);
    }
}

// Two planes of different sizes in one frame (NV12 at sigma 30: chroma at 15): each plane's
// plan keeps the shared memory its row pass needs, whichever was planned last.
CG_TEST(planes_of_different_sizes) {
  PlaneSpec luma{geometry(720, 576, 1)}, chroma{geometry(360, 288, 2)};
  chroma.subsample_x = chroma.subsample_y = 2;
  const std::vector<HostPlane> in = {cgtest::make_plane(luma.geometry, 5, 31), cgtest::make_plane(chroma.geometry, 7, 32)};
  const BlurSettings s = multirate(30, 30, Border::Replicate);
  std::vector<std::vector<uint8_t>> out;
  std::string error;
  const bool ran = cgtest::run_gpu(s, {luma, chroma}, in, out, error);
  CHECK_MSG(ran, "%s", error.c_str());
  if (!ran) return;
  for (int i = 0; i < 2; ++i) {
    const PlaneGeometry& g = in[i].g;
    const double sigma = 30.0 / (i == 0 ? 1 : 2);
    const PlaneValues x = read_plane(g, in[i].bytes.data(), in[i].pitch);
    const PlaneValues ref = exact_gaussian(g, x, sigma, sigma, Border::Replicate);
    const double worst = worst_rounded(g, read_plane(g, out[i].data(), in[i].pitch), ref);
    std::printf("  NV12 720x576 sigma 30, plane %d: max diff %g to the exact Gaussian\n", i, worst);
    CHECK(worst <= 1.0);
  }
}

// A flat frame stays flat (every tap set sums to 1), whatever the sigma and border.
CG_TEST(flat_frame_stays_flat) {
  const PlaneGeometry g = geometry(640, 360, 4);
  std::vector<uint8_t> pixels(static_cast<size_t>(g.samples_per_row()) * g.height, 200);
  const HostPlane in = cgtest::make_plane(g, 0, 5, &pixels);
  for (double sigma : {4.0, 60.0, 250.0}) {
    const Outcome o = run_case(multirate(sigma, sigma, Border::Reflect), in, false);
    std::printf("  flat 200, sigma %g: max diff %g\n", sigma, o.to_reference);
    CHECK(o.ran);
    CHECK(o.to_reference == 0.0);
  }
}

CG_TEST(photograph_against_the_exact_gaussian) {
  int w = 0, h = 0;
  std::vector<uint8_t> pixels;
  CHECK(load_test_photo("fruits.jpg", "RGBA", 4, &w, &h, &pixels));
  if (pixels.empty()) return;
  const PlaneGeometry g = geometry(1280, 720, 4);
  const std::vector<uint8_t> tiled = tile_photo(pixels, w, h, 4, g.width, g.height);
  const HostPlane in = cgtest::make_plane(g, 0, 1, &tiled);
  for (double sigma : {8.0, 20.0}) {
    const Outcome o = run_case(multirate(sigma, sigma, Border::Replicate), in, true);
    std::printf("  fruits 1280x720 RGBA sigma %g: PSNR %.1f dB, max diff %g (exact), %g (stages)\n", sigma, o.psnr,
                o.to_exact, o.to_reference);
    CHECK(o.ran);
    CHECK(o.psnr >= 55.0);
    CHECK(o.to_exact <= 1.0);
  }
}

int main(int argc, char** argv) {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all(argc, argv);
}
