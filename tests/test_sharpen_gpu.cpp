// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of FrameBlur's finishing step: the unsharp mask (sharpen, its threshold, clamping) and
// the parts of a frame left unfiltered, for every algorithm, against finish_values() over the
// algorithm's double reference. Outputs poisoned first (frame_run_gpu.h); sharpened samples
// within 1 LSB, unfiltered channels and planes bit-exact. Skips (exit 77) without a CUDA device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "box_widths.h"
#include "check.h"
#include "fir_bands.h"
#include "plane_specs.h"
#include "fir_taps.h"
#include "frame_run_gpu.h"
#include "reference_blur.h"
#include "reference_box.h"
#include "reference_multirate.h"
#include "reference_recursive.h"

using namespace cudagaussian;
using cgtest::plane_spec;
using cgtest::HostPlane;

namespace {

// The unrounded blur of one plane by the settings' algorithm (as FrameBlur plans it).
PlaneValues reference_blur_of(const BlurSettings& s, const PlaneSpec& p, const PlaneValues& in) {
  const PlaneGeometry& g = p.geometry;
  const double sx = plane_sigma(s.sigma_x, p.subsample_x), sy = plane_sigma(s.sigma_y, p.subsample_y);
  const std::vector<double> tx = gaussian_taps(sx, fir_radius(sx, s.truncate));
  const std::vector<double> ty = gaussian_taps(sy, fir_radius(sy, s.truncate));
  const Algorithm a = FrameBlur::resolve(s, {p});
  switch (a) {
    case Algorithm::Fir:
      return reference_fir(g, in, tx, ty, s.border);
    case Algorithm::Direct: {
      int size = 0;
      const std::vector<double> k = outer_product_kernel(tx, ty, &size);
      return reference_direct(g, in, k, size, s.border);
    }
    case Algorithm::Box:
      return reference_box(g, in, box_widths(sx, s.box_passes), box_widths(sy, s.box_passes), s.border);
    case Algorithm::Multirate:
      return reference_multirate(g, in, plan_multirate_axis(g.width, sx), plan_multirate_axis(g.height, sy), s.border);
    default:
      return reference_recursive(g, in, recursive_filter_of(a), sx, sy, StartUp::Exact);
  }
}

double rounded(double v, int max_value) { return std::clamp(std::floor(v + 0.5), 0.0, double(max_value)); }

// Whether a blur finishes in a pass of its own, sharpening its rounded output: box, and the
// recursive passes that do not run block-parallel (another split, a copy at sigma 0, or
// columns of one 32-row segment).
bool finishes_in_own_pass(const BlurSettings& s, const PlaneGeometry& g) {
  if (s.algorithm == Algorithm::Box) return true;
  if (!is_recursive(s.algorithm)) return false;
  const bool block_parallel = s.recursive.split == LineSplit::Auto || s.recursive.split == LineSplit::BlockParallel;
  return !block_parallel || s.sigma_y == 0.0 || g.height <= 32;
}

// The FIR on tensor cores rounds its taps and its intermediate to fp16: its blur lies within
// kTensorFirErrorBound of the exact one (docs/algorithms.md), so a sample that near the threshold
// may go either way, and sharpening by a carries a times that error.
bool may_run_on_tensor_cores(const BlurSettings& s, const PlaneGeometry& g) {
  return (s.algorithm == Algorithm::Fir || s.algorithm == Algorithm::Auto) && g.bytes_per_sample == 1;
}

// The largest difference allowed from the reference: 1 LSB, and amount / 2 more where the
// rounded blur is sharpened, or amount x the tensor cores' error where they may run.
double tolerance(const BlurSettings& s, const PlaneGeometry& g) {
  if (finishes_in_own_pass(s, g)) return 1.0 + s.sharpen / 2;
  return may_run_on_tensor_cores(s, g) ? 1.0 + kTensorFirErrorBound * s.sharpen : 1.0;
}

struct Outcome {
  bool ran = false;
  double worst = 0.0;     // largest |got - reference| over filtered samples
  long kept_changed = 0;  // kept samples that differ from the input (must be 0)
  long clamped_low = 0, clamped_high = 0, unchanged = 0;
};

// Runs FrameBlur with `s` on `in` and compares every plane with finish_values() over the
// algorithm's reference (or, with `base` set, over those planes: a blur the GPU already made).
Outcome run_and_compare(const BlurSettings& s, const std::vector<PlaneSpec>& specs, const std::vector<HostPlane>& in,
                        const std::vector<PlaneValues>* base = nullptr) {
  Outcome o;
  std::vector<std::vector<uint8_t>> out;
  std::string error;
  if (!cgtest::run_gpu(s, specs, in, out, error)) {
    std::printf("  run failed: %s\n", error.c_str());
    return o;
  }
  o.ran = true;
  const std::vector<SampleFinish> finishes = FrameBlur::plane_finishes(s, specs);
  for (size_t p = 0; p < specs.size(); ++p) {
    const PlaneGeometry& g = specs[p].geometry;
    const PlaneValues src = read_plane(g, in[p].bytes.data(), in[p].pitch);
    const PlaneValues blurred = base ? (*base)[p] : reference_blur_of(s, specs[p], src);
    const PlaneValues want = finish_values(g, src, blurred, finishes[p]);
    const PlaneValues got = read_plane(g, out[p].data(), in[p].pitch);
    const bool whole_plane_kept = finishes[p].keeps_all(g.channels);
    for (size_t i = 0; i < got.size(); ++i) {
      const int c = static_cast<int>(i % g.channels);
      if ((finishes[p].keep >> c) & 1u) {
        o.kept_changed += got[i] != src[i];
        continue;
      }
      double err = std::fabs(got[i] - rounded(want[i], g.max_value()));
      // Where |x - blur| is within float rounding of the threshold (or, for a blur sharpened
      // after rounding, within half a level of it), either side of it is right.
      const double detail = src[i] - blurred[i];
      const double window = finishes_in_own_pass(s, g) || s.algorithm == Algorithm::EdgeAware ? 0.51
                            : may_run_on_tensor_cores(s, g)                                 ? kTensorFirErrorBound
                                                                                             : 1e-2;
      if (finishes[p].amount != 0.0f && std::fabs(std::fabs(detail) - finishes[p].threshold) < window)
        err = std::min({err, std::fabs(got[i] - rounded(src[i], g.max_value())),
                        std::fabs(got[i] - rounded(src[i] + finishes[p].amount * detail, g.max_value()))});
      o.worst = std::max(o.worst, err);
      o.clamped_low += got[i] == 0 && want[i] < -0.5;
      o.clamped_high += got[i] == g.max_value() && want[i] > g.max_value() + 0.5;
      o.unchanged += got[i] == src[i];
    }
    // A plane left alone is copied byte for byte (stored low bits included).
    if (whole_plane_kept)
      for (int y = 0; y < g.height; ++y)
        o.kept_changed += !std::equal(out[p].begin() + y * in[p].pitch, out[p].begin() + y * in[p].pitch + g.row_bytes(),
                                      in[p].bytes.begin() + y * in[p].pitch);
  }
  return o;
}

const Algorithm kAlgorithms[] = {Algorithm::Fir,          Algorithm::Deriche, Algorithm::YoungVanVliet,
                                 Algorithm::YoungVanVliet1995, Algorithm::Box, Algorithm::Direct};


}  // namespace

CG_TEST(sharpen_matches_reference_every_algorithm) {
  // RGBA and gray at odd sizes, amount 0.8 and 2.5, with and without a threshold.
  const PlaneSpec shapes[] = {plane_spec(1, 1, 4), plane_spec(3, 2, 1), plane_spec(385, 289, 4), plane_spec(97, 61, 3)};
  uint32_t seed = 10;
  for (Algorithm a : kAlgorithms)
    for (const PlaneSpec& shape : shapes)
      for (double amount : {0.8, 2.5})
        for (double threshold : {0.0, 6.0}) {
          BlurSettings s;
          s.algorithm = a;
          s.sigma_x = s.sigma_y = a == Algorithm::Direct ? 1.5 : 3.0;
          s.sharpen = amount;
          s.sharpen_threshold = threshold;
          const std::vector<PlaneSpec> specs{shape};
          const std::vector<HostPlane> in{cgtest::make_plane(shape.geometry, 5, seed++)};
          const Outcome o = run_and_compare(s, specs, in);
          CHECK_MSG(o.ran && o.worst <= tolerance(s, shape.geometry), "%s %dx%dx%d sharpen %g threshold %g: max diff %g",
                    algorithm_name(a), shape.geometry.width, shape.geometry.height, shape.geometry.channels,
                    amount, threshold, o.worst);
        }
}

CG_TEST(sharpen_recursive_splits) {
  // Block-parallel finishes in its apply kernel; the other splits in a pass of their own.
  const PlaneSpec shape = plane_spec(385, 289, 4);
  const std::vector<HostPlane> in{cgtest::make_plane(shape.geometry, 4, 60)};
  for (Algorithm a : {Algorithm::Deriche, Algorithm::YoungVanVliet})
    for (LineSplit split : {LineSplit::BlockParallel, LineSplit::OneWay, LineSplit::TwoWay})
      for (double sigma : {0.0, 4.0}) {
        BlurSettings s;
        s.algorithm = a;
        s.recursive.split = split;
        s.sigma_x = 4.0;
        s.sigma_y = sigma;  // 0: the vertical pass is a copy
        s.sharpen = 1.5;
        s.parts = kPartColor;
        PlaneSpec p = shape;
        p.channel_parts[3] = kPartAlpha;
        const Outcome o = run_and_compare(s, {p}, in);
        CHECK_MSG(o.ran && o.worst <= tolerance(s, p.geometry) && o.kept_changed == 0,
                  "%s split %d sigma_y %g: max diff %g, %ld kept samples changed", algorithm_name(a),
                  static_cast<int>(split), sigma, o.worst, o.kept_changed);
      }
}

CG_TEST(recursive_apply_stages_its_inputs_in_every_layout) {
  // The three-launch block-parallel apply copies the input samples it finishes with into shared
  // memory: in 16-byte pieces (rows 16-byte aligned, a warp on 32 consecutive lines), 4-byte
  // pieces, or lane by lane (rows not 4-byte aligned, or a warp whose lanes straddle two
  // segments). Each layout, 8- and 16-bit, sharpened and with a channel kept.
  struct Layout {
    const char* name;
    PlaneSpec plane;
    int pad;  // bytes after each row
  };
  auto rgba = [](int w, int h) {
    PlaneSpec p = plane_spec(w, h, 4);
    p.channel_parts[3] = kPartAlpha;
    return p;
  };
  const Layout layouts[] = {
      {"16-byte pieces", rgba(256, 77), 0},
      {"4-byte pieces", rgba(256, 77), 4},
      {"lane by lane, odd pitch", rgba(256, 77), 3},
      {"warps across segments", rgba(97, 70), 0},
      {"16-bit, 16-byte pieces", plane_spec(128, 77, 2, 2), 0},
      {"16-bit, 4-byte pieces", plane_spec(128, 77, 2, 2), 4},
      {"16-bit, lane by lane", plane_spec(128, 77, 2, 2), 2},
  };
  uint32_t seed = 90;
  for (const Layout& layout : layouts) {
    const std::vector<HostPlane> in{cgtest::make_plane(layout.plane.geometry, layout.pad, seed++)};
    for (Algorithm a : {Algorithm::Deriche, Algorithm::YoungVanVliet})
      for (unsigned parts : {static_cast<unsigned>(kAllParts), static_cast<unsigned>(kPartColor)})
        for (double amount : {0.0, 1.5}) {
          if (amount == 0.0 && parts == kAllParts) continue;  // nothing to finish
          BlurSettings s;
          s.algorithm = a;
          s.recursive.split = LineSplit::BlockParallel;
          s.recursive.launches = LaunchForm::Several;
          s.sigma_x = s.sigma_y = 3.0;
          s.sharpen = amount;
          s.sharpen_threshold = 2.0;
          s.parts = parts;
          const Outcome o = run_and_compare(s, {layout.plane}, in);
          CHECK_MSG(o.ran && o.worst <= 1.0 && o.kept_changed == 0,
                    "%s, %s, parts 0x%x, sharpen %g: max diff %g, %ld kept samples changed", layout.name,
                    algorithm_name(a), parts, amount, o.worst, o.kept_changed);
        }
  }
}

CG_TEST(sharpen_on_tensor_cores) {
  // The FIR on tensor cores (8-bit, 1, 2 or 4 channels, radius 12 and more) finishes its samples
  // in its vertical pass: amounts up to the largest, thresholds and a kept channel, at sizes that
  // end mid-tile, with rows whose inputs it copies 16 bytes at a time (aligned, pad 0) or byte by
  // byte (an odd pitch, the right edge).
  PlaneSpec rgba = plane_spec(385, 289, 4);
  rgba.channel_parts[3] = kPartAlpha;
  PlaneSpec aligned = plane_spec(256, 70, 4);
  aligned.channel_parts[3] = kPartAlpha;
  const struct {
    PlaneSpec shape;
    int pad;  // bytes after each row
  } layouts[] = {{rgba, 5}, {aligned, 0}, {plane_spec(97, 61, 1), 5}, {plane_spec(130, 47, 2), 5}, {plane_spec(1, 1, 4), 5}};
  uint32_t seed = 300;
  for (const auto& layout : layouts)
    for (double amount : {0.8, 2.5, kMaxSharpen})
      for (double threshold : {0.0, 6.0}) {
        BlurSettings s;
        s.algorithm = Algorithm::Fir;
        s.sigma_x = 5.0;
        s.sigma_y = 4.0;
        s.sharpen = amount;
        s.sharpen_threshold = threshold;
        s.parts = kPartColor | kPartLuma | kPartChroma;
        const PlaneSpec& shape = layout.shape;
        const std::vector<HostPlane> in{cgtest::make_plane(shape.geometry, layout.pad, seed++)};
        const Outcome o = run_and_compare(s, {shape}, in);
        CHECK_MSG(o.ran && o.worst <= tolerance(s, shape.geometry) && o.kept_changed == 0,
                  "%dx%dx%d sharpen %g threshold %g: max diff %g, %ld kept samples changed", shape.geometry.width,
                  shape.geometry.height, shape.geometry.channels, amount, threshold, o.worst, o.kept_changed);
      }
}

CG_TEST(sharpen_full_hd_fir_and_deriche) {
  // The kernels algorithm=auto picks at 1921x1081 RGBA (the fused FIR, the FIR on tensor cores,
  // Deriche block-parallel).
  const PlaneSpec shape = plane_spec(1921, 1081, 4);
  const std::vector<HostPlane> in{cgtest::make_plane(shape.geometry, 12, 77)};
  for (double sigma : {1.5, 6.0, 20.0}) {
    for (Algorithm a : {Algorithm::Auto, Algorithm::Fir}) {
      BlurSettings s;
      s.algorithm = a;
      s.sigma_x = s.sigma_y = sigma;
      s.sharpen = 0.8;
      const Outcome o = run_and_compare(s, {shape}, in);
      std::printf("  1921x1081 RGBA sigma %g %s: max diff %g\n", sigma, algorithm_name(a), o.worst);
      CHECK(o.ran && o.worst <= 1.0);
    }
  }
}

CG_TEST(sharpen_16_bit_and_10_bit) {
  // P010-like (10 bits in the high bits of 16, random low bits) and full 16-bit samples; the
  // threshold is in 8-bit levels whatever the depth.
  uint32_t seed = 30;
  for (int shift : {6, 0})
    for (Algorithm a : {Algorithm::Fir, Algorithm::Deriche, Algorithm::Box})
      for (double threshold : {0.0, 3.0}) {
        const PlaneSpec shape = plane_spec(211, 97, 2, 2, shift);
        BlurSettings s;
        s.algorithm = a;
        s.sigma_x = s.sigma_y = 2.5;
        s.sharpen = 1.2;
        s.sharpen_threshold = threshold;
        const Outcome o = run_and_compare(s, {shape}, {cgtest::make_plane(shape.geometry, 6, seed++)});
        CHECK_MSG(o.ran && o.worst <= tolerance(s, shape.geometry), "%s shift %d threshold %g: max diff %g", algorithm_name(a), shift,
                  threshold, o.worst);
      }
}

CG_TEST(sharpen_clamps_at_zero_and_max) {
  // Hard edges sharpened strongly overshoot both ends of the range.
  const PlaneSpec shape = plane_spec(64, 48, 1);
  HostPlane in = cgtest::make_plane(shape.geometry, 0, 1);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) in.bytes[y * in.pitch + x] = ((x / 6 + y / 6) % 2) ? 250 : 5;
  for (Algorithm a : {Algorithm::Fir, Algorithm::Deriche}) {
    BlurSettings s;
    s.algorithm = a;
    s.sigma_x = s.sigma_y = 2.0;
    s.sharpen = 4.0;
    const Outcome o = run_and_compare(s, {shape}, {in});
    std::printf("  %s: %ld clamped at 0, %ld at 255, max diff %g\n", algorithm_name(a), o.clamped_low,
                o.clamped_high, o.worst);
    CHECK(o.ran && o.worst <= 1.0);
    CHECK(o.clamped_low > 100 && o.clamped_high > 100);
  }
}

CG_TEST(sharpen_threshold_leaves_small_differences) {
  // A flat field with small noise: with a threshold above the noise, nearly every sample stays
  // as it is; without it, noise is amplified.
  const PlaneSpec shape = plane_spec(128, 96, 3);
  HostPlane in = cgtest::make_plane(shape.geometry, 4, 2);
  std::mt19937 rng(3);
  for (int y = 0; y < 96; ++y)
    for (int x = 0; x < 128 * 3; ++x) in.bytes[y * in.pitch + x] = static_cast<uint8_t>(120 + rng() % 5);
  long unchanged[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    BlurSettings s;
    s.sigma_x = s.sigma_y = 1.5;
    s.sharpen = 1.0;
    s.sharpen_threshold = k ? 8.0 : 0.0;
    const Outcome o = run_and_compare(s, {shape}, {in});
    CHECK(o.ran && o.worst <= 1.0);
    unchanged[k] = o.unchanged;
  }
  const long samples = 128L * 96 * 3;
  std::printf("  unchanged samples: %ld without a threshold, %ld with 8 levels (of %ld)\n", unchanged[0],
              unchanged[1], samples);
  CHECK(unchanged[1] == samples);
  CHECK(unchanged[0] < samples / 2);
}

CG_TEST(planes_leave_unfiltered_parts_bit_exact) {
  // Every format family with the parts it has, each algorithm family: the parts not chosen are
  // the input's bytes, the others blurred (and sharpened) as the reference.
  struct Family {
    const char* name;
    std::vector<PlaneSpec> planes;
  };
  auto parts = [](PlaneSpec p, std::vector<unsigned> per_channel) {
    for (size_t c = 0; c < per_channel.size(); ++c) p.channel_parts[c] = per_channel[c];
    return p;
  };
  const Family families[] = {
      {"RGBA", {parts(plane_spec(385, 289, 4), {kPartColor, kPartColor, kPartColor, kPartAlpha})}},
      {"ARGB", {parts(plane_spec(97, 61, 4), {kPartAlpha, kPartColor, kPartColor, kPartColor})}},
      {"RGB", {parts(plane_spec(97, 61, 3), {kPartColor, kPartColor, kPartColor})}},
      {"GRAY8", {parts(plane_spec(97, 61, 1), {kPartLuma})}},
      {"I420",
       {parts(plane_spec(97, 61, 1), {kPartLuma}), parts(plane_spec(49, 31, 1, 1, 0, 2), {kPartChroma}),
        parts(plane_spec(49, 31, 1, 1, 0, 2), {kPartChroma})}},
      {"NV12", {parts(plane_spec(385, 289, 1), {kPartLuma}), parts(plane_spec(193, 145, 2, 1, 0, 2), {kPartChroma, kPartChroma})}},
      {"P010",
       {parts(plane_spec(97, 61, 1, 2, 6), {kPartLuma}), parts(plane_spec(49, 31, 2, 2, 6, 2), {kPartChroma, kPartChroma})}},
  };
  const unsigned choices[] = {kPartLuma | kPartChroma | kPartColor, kPartLuma, kPartChroma, kPartColor | kPartAlpha,
                              kPartAlpha};
  uint32_t seed = 50;
  for (const Family& f : families) {
    std::vector<HostPlane> in;
    for (const PlaneSpec& p : f.planes) in.push_back(cgtest::make_plane(p.geometry, 8, seed++));
    for (unsigned chosen : choices)
      for (Algorithm a : {Algorithm::Fir, Algorithm::Deriche, Algorithm::Box})
        for (double amount : {0.0, 0.8}) {
          BlurSettings s;
          s.algorithm = a;
          s.sigma_x = s.sigma_y = 2.0;
          s.sharpen = amount;
          s.parts = chosen;
          const Outcome o = run_and_compare(s, f.planes, in);
          CHECK_MSG(o.ran && o.worst <= tolerance(s, f.planes.back().geometry) && o.kept_changed == 0,
                    "%s parts 0x%x %s sharpen %g: max diff %g, %ld kept samples or rows changed", f.name, chosen,
                    algorithm_name(a), amount, o.worst, o.kept_changed);
        }
  }
}

CG_TEST(keeping_a_channel_leaves_the_others_as_the_plain_blur) {
  // Alpha kept (the element's default): the colour channels are bit for bit those of the blur
  // of every channel, alpha is the input's, for every algorithm and box method.
  PlaneSpec rgba = plane_spec(97, 61, 4);
  for (int c = 0; c < 3; ++c) rgba.channel_parts[c] = kPartColor;
  rgba.channel_parts[3] = kPartAlpha;
  const std::vector<PlaneSpec> specs{rgba};
  const std::vector<HostPlane> in{cgtest::make_plane(rgba.geometry, 5, 77)};
  struct Variant {
    Algorithm algorithm;
    BoxMethod box_method;
    int box_passes;
  };
  std::vector<Variant> variants;
  for (Algorithm a : kAlgorithms) variants.push_back({a, BoxMethod::RunningSum, 3});
  variants.push_back({Algorithm::Box, BoxMethod::Integral, 3});  // exact integer averages
  variants.push_back({Algorithm::EdgeAware, BoxMethod::RunningSum, 3});
  for (const Variant& v : variants) {
    BlurSettings s;
    s.algorithm = v.algorithm;
    s.box_method = v.box_method;
    s.box_passes = v.box_passes;
    s.sigma_x = s.sigma_y = v.algorithm == Algorithm::Direct ? 1.5 : 3.0;
    std::vector<std::vector<uint8_t>> every, kept;
    std::string error;
    s.parts = kPartColor | kPartAlpha;
    const bool ran_every = cgtest::run_gpu(s, specs, in, every, error);
    CHECK_MSG(ran_every, "%s: %s", algorithm_name(v.algorithm), error.c_str());
    s.parts = kPartColor;
    const bool ran_kept = cgtest::run_gpu(s, specs, in, kept, error);
    CHECK_MSG(ran_kept, "%s: %s", algorithm_name(v.algorithm), error.c_str());
    if (!ran_every || !ran_kept) continue;
    long colour_differs = 0, alpha_differs = 0;
    for (int y = 0; y < rgba.geometry.height; ++y)
      for (int i = 0; i < rgba.geometry.samples_per_row(); ++i) {
        const size_t k = static_cast<size_t>(y) * in[0].pitch + i;
        if (i % 4 == 3)
          alpha_differs += kept[0][k] != in[0].bytes[k];
        else
          colour_differs += kept[0][k] != every[0][k];
      }
    CHECK_MSG(colour_differs == 0 && alpha_differs == 0, "%s%s: %ld colour samples differ from the plain blur, %ld alpha "
              "samples from the input", algorithm_name(v.algorithm),
              v.box_method == BoxMethod::Integral ? " (integral)" : "", colour_differs, alpha_differs);
  }
}

CG_TEST(edge_aware_finishing_pass) {
  // Edge-aware finishes in a pass of its own over its rounded output: sharpened against
  // finish_values() over the plain edge-aware result of the same run, and alpha kept.
  PlaneSpec p = plane_spec(385, 289, 4);
  p.channel_parts[3] = kPartAlpha;
  p.edge_channels = 0x7;
  const std::vector<HostPlane> in{cgtest::make_plane(p.geometry, 5, 90)};
  BlurSettings s;
  s.algorithm = Algorithm::EdgeAware;
  s.sigma_x = s.sigma_y = 5.0;
  s.iterations = 2;
  std::vector<std::vector<uint8_t>> plain;
  std::string error;
  s.parts = kAllParts;
  const bool ran = cgtest::run_gpu(s, {p}, in, plain, error);
  CHECK_MSG(ran, "%s", error.c_str());
  if (!ran) return;
  const std::vector<PlaneValues> base{read_plane(p.geometry, plain[0].data(), in[0].pitch)};
  s.parts = kPartColor;
  s.sharpen = 1.5;
  s.sharpen_threshold = 2.0;
  const Outcome o = run_and_compare(s, {p}, in, &base);
  std::printf("  edge-aware sharpened: max diff %g, alpha changed %ld\n", o.worst, o.kept_changed);
  CHECK(o.ran && o.worst <= 1.0 && o.kept_changed == 0);
}

int main(int argc, char** argv) {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all(argc, argv);
}
