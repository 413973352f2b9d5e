// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of algorithm=edge-aware (kernels/edge_aware.cu through FrameBlur) against the CPU
// reference (common/reference_edge_aware.h) with the frame rule of edge_aware.h: plane 0 guides
// every plane (its colour channels only), chroma planes use its spacing resampled to their grid.
// Skips (exit 77) without a CUDA device.
//
// Checked: Algorithm A (partitions one-way), block-parallel, and Algorithm C with a warm-up of
// 100 sigmas (two-way, k-way: its start error is then e^-170, below float rounding) within 1
// sample unit of round(reference), for both filters, RGBA
// (alpha not a guide), GRAY8, GRAY16, P010-style 16-bit with shift, I420, NV12 and Y42B layouts,
// sizes 1x1, 3x2, 385x289 and 1921x1081, padded strides, Algorithm C also on flat blocks
// (its warm-ups over identical pixels skipped); outputs poisoned first and padding
// bytes must keep their poison. On a photograph: Algorithm C at kappa 2 against A, MSE <= 1;
// block-parallel against A, at most 1 apart.
// Settings the kernels cannot honour are refused by plan() with a message.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "check.h"
#include "plane_specs.h"
#include "device_memory.h"
#include "frame_blur.h"
#include "frame_run_gpu.h"
#include "photo.h"
#include "reference_edge_aware.h"

using namespace cudagaussian;
using cgtest::HostPlane;
using cgtest::make_plane;
using cgtest::run_gpu;

namespace {

PlaneSpec spec(int w, int h, int channels, int bytes, int shift, int sx = 1, int sy = 1,
               unsigned edge_channels = ~0u) {
  PlaneSpec p = cgtest::plane_spec(w, h, channels, bytes, shift, sx, sy);
  p.edge_channels = edge_channels;
  return p;
}

// The layouts of the element's formats, for a w x h frame.
struct Layout {
  const char* name;
  std::vector<PlaneSpec> planes;
};
std::vector<Layout> layouts(int w, int h) {
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  return {
      {"RGBA", {spec(w, h, 4, 1, 0, 1, 1, 0x7)}},
      {"GRAY8", {spec(w, h, 1, 1, 0)}},
      {"GRAY16", {spec(w, h, 1, 2, 0)}},
      {"P010 luma+UV", {spec(w, h, 1, 2, 6), spec(cw, ch, 2, 2, 6, 2, 2)}},
      {"I420", {spec(w, h, 1, 1, 0), spec(cw, ch, 1, 1, 0, 2, 2), spec(cw, ch, 1, 1, 0, 2, 2)}},
      {"NV12", {spec(w, h, 1, 1, 0), spec(cw, ch, 2, 1, 0, 2, 2)}},
      {"Y42B", {spec(w, h, 1, 1, 0), spec(cw, h, 1, 1, 0, 2, 1), spec(cw, h, 1, 1, 0, 2, 1)}},
  };
}

// The reference of every plane under the frame rule.
std::vector<PlaneValues> reference_frame(const BlurSettings& s, const std::vector<PlaneSpec>& specs,
                                         const std::vector<HostPlane>& in) {
  const PlaneGeometry& g0 = specs[0].geometry;
  const double sigma_r = s.sigma_r * g0.max_value() / 255.0;
  const PlaneValues guide = read_plane(g0, in[0].bytes.data(), in[0].pitch);
  const EdgeSpacing luma = reference_edge_spacing(g0, guide, s.edge_filter, s.sigma_x / sigma_r,
                                                  s.sigma_y / sigma_r, specs[0].edge_channels);
  std::vector<PlaneValues> refs;
  for (size_t i = 0; i < specs.size(); ++i) {
    const PlaneSpec& p = specs[i];
    const EdgeSpacing spacing =
        i == 0 ? luma : resample_edge_spacing(luma, p.geometry.width, p.geometry.height, p.subsample_x, p.subsample_y);
    refs.push_back(reference_edge_aware(p.geometry, read_plane(p.geometry, in[i].bytes.data(), in[i].pitch), spacing,
                                        s.edge_filter, s.sigma_x / p.subsample_x, s.sigma_y / p.subsample_y,
                                        s.iterations));
  }
  return refs;
}

double worst_error(const std::vector<PlaneSpec>& specs, const std::vector<HostPlane>& in,
                   const std::vector<std::vector<uint8_t>>& out, const std::vector<PlaneValues>& refs) {
  double worst = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    const PlaneValues got = read_plane(specs[i].geometry, out[i].data(), in[i].pitch);
    for (size_t k = 0; k < got.size(); ++k) {
      const double ref = std::min<double>(std::max(std::floor(refs[i][k] + 0.5), 0.0), specs[i].geometry.max_value());
      worst = std::max(worst, std::fabs(got[k] - ref));
    }
  }
  return worst;
}

BlurSettings edge_settings(EdgeFilter f, LineSplit split, double sigma, double sigma_r, int iterations,
                           double kappa) {
  BlurSettings s;
  s.algorithm = Algorithm::EdgeAware;
  s.sigma_x = s.sigma_y = sigma;
  s.edge_filter = f;
  s.sigma_r = sigma_r;
  s.iterations = iterations;
  s.recursive.split = split;
  s.recursive.kappa = kappa;
  return s;
}

}  // namespace

namespace {

// Flat blocks of 97 x 89 pixels, no noise: lines whose warm-ups run over identical pixels, which
// Algorithm C skips (edge_skip_constant_warmup).
std::vector<uint8_t> flat_blocks(const PlaneGeometry& g) {
  std::vector<uint8_t> v(static_cast<size_t>(g.samples_per_row()) * g.height);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      for (int c = 0; c < g.channels; ++c)
        v[static_cast<size_t>(y) * g.samples_per_row() + static_cast<size_t>(x) * g.channels + c] =
            static_cast<uint8_t>(40 + 50 * ((x / 97 + 2 * (y / 89) + c) % 4));
  return v;
}

}  // namespace

CG_TEST(exact_splits_match_the_reference_on_every_layout) {
  struct Size { int w, h, pad; };
  const Size sizes[] = {{1, 1, 0}, {3, 2, 6}, {385, 289, 10}};
  const LineSplit splits[] = {LineSplit::OneWay, LineSplit::TwoWay, LineSplit::KWay, LineSplit::BlockParallel};
  int cases = 0;
  for (const Size& sz : sizes)
    for (const Layout& layout : layouts(sz.w, sz.h))
      for (EdgeFilter f : {EdgeFilter::Gaussian, EdgeFilter::Rf})
        for (LineSplit split : splits)
          for (bool flat : {false, true}) {
            if (flat && split != LineSplit::KWay && split != LineSplit::TwoWay) continue;
            const BlurSettings s = edge_settings(f, split, split == LineSplit::OneWay ? 3.0 : 8.0,
                                                 split == LineSplit::KWay ? 1e4 : 25.0,
                                                 split == LineSplit::TwoWay ? 1 : 3, 100.0);
            std::vector<HostPlane> in;
            for (size_t i = 0; i < layout.planes.size(); ++i) {
              const PlaneGeometry& g = layout.planes[i].geometry;
              const std::vector<uint8_t> blocks = flat_blocks(g);
              in.push_back(make_plane(g, sz.pad * g.bytes_per_sample, static_cast<uint32_t>(17 + i + cases),
                                      flat ? &blocks : nullptr));
            }
            std::vector<std::vector<uint8_t>> out;
            std::string error;
            ++cases;
            if (!run_gpu(s, layout.planes, in, out, error)) {
              std::printf("  %s %dx%d %s %s%s: %s\n", layout.name, sz.w, sz.h, edge_filter_name(f),
                          line_split_name(split), flat ? " (flat blocks)" : "", error.c_str());
              CHECK(false);
              continue;
            }
            const double worst = worst_error(layout.planes, in, out, reference_frame(s, layout.planes, in));
            if (worst > 1.0)
              std::printf("  %s %dx%d %s %s%s: max |gpu - round(ref)| = %g\n", layout.name, sz.w, sz.h,
                          edge_filter_name(f), line_split_name(split), flat ? " (flat blocks)" : "", worst);
            CHECK(worst <= 1.0);
          }
  std::printf("  %d cases\n", cases);
}

CG_TEST(full_hd_plus_one_rgba_matches_the_reference) {
  for (EdgeFilter f : {EdgeFilter::Gaussian, EdgeFilter::Rf})
    for (LineSplit split : {LineSplit::OneWay, LineSplit::BlockParallel}) {
      const std::vector<PlaneSpec> specs = {spec(1921, 1081, 4, 1, 0, 1, 1, 0x7)};
      const BlurSettings s = edge_settings(f, split, 10.0, 30.0, 2, 2.0);
      std::vector<HostPlane> in = {make_plane(specs[0].geometry, 64, 99)};
      std::vector<std::vector<uint8_t>> out;
      std::string error;
      if (!run_gpu(s, specs, in, out, error)) {
        std::printf("  %s %s: %s\n", edge_filter_name(f), line_split_name(split), error.c_str());
        CHECK(false);
        continue;
      }
      const double worst = worst_error(specs, in, out, reference_frame(s, specs, in));
      std::printf("  1921x1081 RGBA %s %s: max |gpu - round(ref)| = %g\n", edge_filter_name(f),
                  line_split_name(split), worst);
      CHECK(worst <= 1.0);
    }
}

CG_TEST(one_axis_and_16_bit_large_sigma_match_the_reference) {
  struct Case { const char* what; PlaneSpec spec; double sigma_x, sigma_y; int iterations; };
  const Case cases[] = {{"RGBA sigma-y 0", spec(97, 61, 4, 1, 0, 1, 1, 0x7), 6.0, 0.0, 3},
                        {"GRAY8 sigma 0 across", spec(61, 97, 1, 1, 0), 0.0, 9.0, 2},
                        {"GRAY8 sigma 1e-4 across", spec(61, 97, 1, 1, 0), 1e-4, 9.0, 2},
                        {"GRAY16 sigma 250", spec(400, 300, 1, 2, 0), 250.0, 250.0, 3},
                        {"P010 luma sigma 250", spec(333, 200, 1, 2, 6), 250.0, 120.0, 1}};
  for (const Case& c : cases)
    for (EdgeFilter f : {EdgeFilter::Gaussian, EdgeFilter::Rf})
      for (LineSplit split : {LineSplit::OneWay, LineSplit::BlockParallel}) {
        BlurSettings s = edge_settings(f, split, c.sigma_x, 30.0, c.iterations, 2.0);
        s.sigma_y = c.sigma_y;
        const std::vector<PlaneSpec> specs = {c.spec};
        const std::vector<HostPlane> in = {make_plane(c.spec.geometry, 8, 31)};
        std::vector<std::vector<uint8_t>> out;
        std::string error;
        if (!run_gpu(s, specs, in, out, error)) {
          std::printf("  %s %s %s: %s\n", c.what, edge_filter_name(f), line_split_name(split), error.c_str());
          CHECK(false);
          continue;
        }
        const double worst = worst_error(specs, in, out, reference_frame(s, specs, in));
        if (worst > 1.0)
          std::printf("  %s %s %s: max |gpu - round(ref)| = %g\n", c.what, edge_filter_name(f),
                      line_split_name(split), worst);
        CHECK(worst <= 1.0);
      }
}

CG_TEST(algorithm_c_at_kappa_2_and_block_parallel_are_close_to_a_on_a_photograph) {
  int w = 0, h = 0;
  std::vector<uint8_t> pixels;
  CHECK(load_test_photo("fruits.jpg", "RGBA", 4, &w, &h, &pixels));
  if (pixels.empty()) return;
  const std::vector<PlaneSpec> specs = {spec(1920, 1080, 4, 1, 0, 1, 1, 0x7)};
  const std::vector<uint8_t> tiled = tile_photo(pixels, w, h, 4, 1920, 1080);
  const std::vector<HostPlane> in = {make_plane(specs[0].geometry, 0, 1, &tiled)};
  for (EdgeFilter f : {EdgeFilter::Gaussian, EdgeFilter::Rf}) {
    std::vector<std::vector<uint8_t>> a, c;
    std::string error;
    std::vector<std::vector<uint8_t>> bp;
    const bool ok = run_gpu(edge_settings(f, LineSplit::OneWay, 10.0, 30.0, 2, 2.0), specs, in, a, error) &&
                    run_gpu(edge_settings(f, LineSplit::KWay, 10.0, 30.0, 2, 2.0), specs, in, c, error) &&
                    run_gpu(edge_settings(f, LineSplit::BlockParallel, 10.0, 30.0, 2, 2.0), specs, in, bp, error);
    if (!ok) {
      std::printf("  %s: %s\n", edge_filter_name(f), error.c_str());
      CHECK(false);
      continue;
    }
    double mse = 0;
    for (size_t i = 0; i < a[0].size(); ++i) mse += (double(a[0][i]) - c[0][i]) * (double(a[0][i]) - c[0][i]);
    mse /= a[0].size();
    std::printf("  fruits 1920x1080 RGBA %s: MSE(C k-way kappa 2, A) = %.4g\n", edge_filter_name(f), mse);
    CHECK(mse <= 1.0);
    int bp_worst = 0;
    for (size_t i = 0; i < a[0].size(); ++i) bp_worst = std::max(bp_worst, std::abs(int(a[0][i]) - int(bp[0][i])));
    std::printf("  fruits 1920x1080 RGBA %s: max |block-parallel - A| = %d\n", edge_filter_name(f), bp_worst);
    CHECK(bp_worst <= 1);
  }
}

CG_TEST(unsupported_settings_are_refused_with_a_message) {
  const std::vector<PlaneSpec> specs = {spec(64, 48, 4, 1, 0, 1, 1, 0x7)};
  auto refused = [&](BlurSettings s, const char* word) {
    FrameBlur blur;
    const Status st = blur.plan(s, specs);
    const bool ok = !st.ok() && st.message.find(word) != std::string::npos;
    if (!ok) std::printf("  expected a refusal mentioning '%s', got '%s'\n", word, st.message.c_str());
    return ok;
  };
  BlurSettings s = edge_settings(EdgeFilter::Gaussian, LineSplit::OneWay, 3, 20, 3, 2);
  s.border = Border::Mirror;
  CHECK(refused(s, "replicate"));
  s = edge_settings(EdgeFilter::Rf, LineSplit::OneWay, 3, 20, 0, 2);
  CHECK(refused(s, "iterations"));
  s = edge_settings(EdgeFilter::Rf, LineSplit::OneWay, 3000, 20, 3, 2);
  CHECK(refused(s, "1000"));
  s = edge_settings(EdgeFilter::Rf, LineSplit::OneWay, 3, 0, 3, 2);
  CHECK(refused(s, "sigma-r"));
  // partitions=auto is Algorithm C (k-way) and kappa -1 is 2 for edge-aware.
  s = edge_settings(EdgeFilter::Rf, LineSplit::Auto, 3, 20, 3, -1);
  const BlurSettings r = FrameBlur::resolved(s, specs);
  CHECK(r.recursive.split == LineSplit::KWay && r.recursive.kappa == 2.0);
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
