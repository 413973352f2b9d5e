// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the box (running sums and the exact integral-image variant) and direct-2D blurs
// against their double references (same widths, taps and border). Outputs poisoned first; at
// most 1 LSB off. Skips (exit 77) without a CUDA device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "box_filter.h"
#include "integral_box.h"
#include "box_widths.h"
#include "check.h"
#include "device_memory.h"
#include "direct_conv.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "frame_run_gpu.h"
#include "plane_helpers.h"
#include "reference_blur.h"
#include "reference_box.h"

using namespace cudagaussian;

using cgtest::geometry;

namespace {

constexpr uint8_t kPoison = 0x5A;

// Runs `blur` on a random plane whose rows are `pad` bytes longer than the pixels (default: a
// pitch that is no multiple of 4); returns max |out - round(ref)|, or -1 on a CUDA failure.
double check_plane(const PlaneGeometry& g, const PlaneBlur& blur,
                   const std::function<PlaneValues(const PlaneValues&)>& reference, uint32_t seed,
                   size_t pad = 0) {
  const size_t pitch = g.row_bytes() + (pad ? pad : 2 * g.bytes_per_sample);
  const size_t bytes = pitch * g.height;
  std::vector<uint8_t> host(bytes);
  std::mt19937 rng(seed);
  for (uint8_t& b : host) b = static_cast<uint8_t>(rng());
  CudaStream stream;
  DeviceBuffer d_src, d_dst;
  if (!stream.create().ok() || !d_src.reserve(bytes).ok() || !d_dst.reserve(bytes).ok()) return -1;
  cudaMemcpyAsync(d_src.get(), host.data(), bytes, cudaMemcpyHostToDevice, stream.get());
  cudaMemsetAsync(d_dst.get(), kPoison, bytes, stream.get());
  if (!blur.run(d_src.get(), pitch, d_dst.get(), pitch, stream.get()).ok()) return -1;
  std::vector<uint8_t> out(bytes);
  cudaMemcpyAsync(out.data(), d_dst.get(), bytes, cudaMemcpyDeviceToHost, stream.get());
  if (!stream.synchronize().ok()) return -1;
  for (int y = 0; y < g.height; ++y)
    for (size_t b = g.row_bytes(); b < pitch; ++b)
      if (out[y * pitch + b] != kPoison) return 1e9;  // wrote past the row
  const PlaneValues ref = reference(read_plane(g, host.data(), pitch));
  const PlaneValues got = read_plane(g, out.data(), pitch);
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - std::clamp(std::floor(ref[i] + 0.5), 0.0, double(g.max_value()))));
  return worst;
}

}  // namespace

CG_TEST(box_matches_reference) {
  uint32_t seed = 1;
  struct Case { PlaneGeometry g; double sigma; int passes; Border border; bool integral_overflows = false; };
  const Case cases[] = {
      {geometry(1, 1, 4), 3, 3, Border::Replicate},     {geometry(3, 2, 1), 2, 2, Border::Mirror},
      {geometry(385, 289, 4), 2, 3, Border::Replicate}, {geometry(385, 289, 3), 10, 1, Border::Reflect},
      {geometry(385, 289, 1), 30, 6, Border::Mirror, true},  {geometry(385, 289, 1), 29, 5, Border::Mirror},   {geometry(1921, 1081, 4), 5, 3, Border::Replicate},
      {geometry(200, 150, 2, 2), 8, 4, Border::Replicate}, {geometry(200, 150, 2, 2, 6), 8, 5, Border::Reflect},
      {geometry(64, 48, 1), 100, 3, Border::Replicate},
  };
  // Running sums in shared-memory tiles (the default where they fit), in line kernels (forced),
  // and the integral image.
  const char* method_names[] = {"tiled running-sum", "line running-sum", "integral"};
  for (const Case& c : cases)
    for (int method = 0; method < 3; ++method) {
      const bool integral = method == 2;
      const std::vector<int> w = box_widths(c.sigma, c.passes);
      BoxBlur running;
      IntegralBoxBlur exact;
      BoxBlur::Schedule schedule;
      schedule.kernels = method == 1 ? BoxBlur::Kernels::Lines : BoxBlur::Kernels::Tiles;
      const PlaneBlur& box = integral ? static_cast<const PlaneBlur&>(exact) : running;
      const Status st = integral ? exact.plan(c.g, w, w, c.border) : running.plan(c.g, w, w, c.border, schedule);
      if (integral && c.integral_overflows) {
        // Sums that would overflow 64 bits: refused with a message, never wrapped.
        CHECK(!st.ok() && st.message.find("overflow") != std::string::npos);
        std::printf("  integral box %dx%d sigma %g passes %d: refused (%s)\n", c.g.width, c.g.height, c.sigma,
                    c.passes, st.message.c_str());
        continue;
      }
      CHECK(st.ok());
      if (method == 0) CHECK(running.rows_tiled() && running.columns_tiled());  // every case fits an H100
      const double worst = check_plane(c.g, box, [&](const PlaneValues& in) {
        return reference_box(c.g, in, w, w, c.border);
      }, seed++);
      std::printf("  %s box %dx%d C%d u%d sigma %g passes %d %s: max diff %g\n", method_names[method],
                  c.g.width, c.g.height, c.g.channels, 8 * c.g.bytes_per_sample, c.sigma, c.passes,
                  border_name(c.border), worst);
      CHECK(worst >= 0 && worst <= 1.0);
    }
}

CG_TEST(box_tile_shapes) {
  // Shared-memory tiles: every strip width (partial strips at the right), lines of more than 32
  // 32 threads (several rounds of the scan of their totals), long rows split into groups of
  // channels, rows too long for a block (line kernels for the rows, tiles for the columns), more
  // passes than a tile takes, one axis only, none.
  uint32_t seed = 200;
  for (int strip : {1, 2, 4, 8, 16}) {
    const PlaneGeometry g = geometry(385, 289, 3);
    const std::vector<int> w = box_widths(7, 3);
    BoxBlur box;
    BoxBlur::Schedule schedule;
    schedule.kernels = BoxBlur::Kernels::Tiles;
    schedule.column_strip = strip;
    CHECK(box.plan(g, w, w, Border::Mirror, schedule).ok());
    CHECK(box.columns_tiled());
    const double worst = check_plane(g, box, [&](const PlaneValues& in) {
      return reference_box(g, in, w, w, Border::Mirror);
    }, seed++);
    std::printf("  tiled box 385x289 C3, strips of %d columns: max diff %g\n", strip, worst);
    CHECK(worst >= 0 && worst <= 1.0);
  }
  struct Case {
    const char* what;
    PlaneGeometry g;
    std::vector<int> wx, wy;
    Border border;
    bool rows_tiled;
  };
  const Case cases[] = {
      {"2100-sample rows", geometry(2100, 5, 2), box_widths(40, 2), box_widths(1, 1), Border::Reflect, true},
      {"2100-sample columns", geometry(3, 2100, 1, 2), box_widths(1, 1), box_widths(300, 1), Border::Mirror, true},
      {"RGBA rows in groups of 2 channels", geometry(3201, 3, 4), box_widths(20, 3), box_widths(1, 1), Border::Mirror,
       true},
      {"RGB rows a channel per block", geometry(4201, 3, 3), box_widths(20, 2), box_widths(1, 1), Border::Reflect, true},
      {"rows over a block's threads", geometry(30001, 3, 1), box_widths(5, 3), box_widths(1, 2), Border::Replicate,
       false},
      {"7 passes along rows", geometry(385, 289, 4), {3, 5, 7, 9, 11, 13, 15}, box_widths(4, 2), Border::Reflect, true},
      {"rows only", geometry(385, 289, 4), box_widths(6, 3), {}, Border::Mirror, true},
      {"columns only", geometry(385, 289, 4), {}, box_widths(6, 4), Border::Replicate, true},
      {"no passes", geometry(385, 289, 4), {}, {}, Border::Replicate, true},
      {"1x1 sigma 50", geometry(1, 1, 4), box_widths(50, 6), box_widths(50, 6), Border::Mirror, true},
  };
  for (const Case& c : cases) {
    BoxBlur box;
    BoxBlur::Schedule schedule;
    schedule.kernels = BoxBlur::Kernels::Tiles;
    CHECK(box.plan(c.g, c.wx, c.wy, c.border, schedule).ok());
    CHECK(box.rows_tiled() == c.rows_tiled);
    const double worst = check_plane(c.g, box, [&](const PlaneValues& in) {
      return reference_box(c.g, in, c.wx, c.wy, c.border);
    }, seed++);
    std::printf("  tiled box, %s (%dx%d C%d u%d, %s): max diff %g\n", c.what, c.g.width, c.g.height, c.g.channels,
                8 * c.g.bytes_per_sample, border_name(c.border), worst);
    CHECK(worst >= 0 && worst <= 1.0);
  }
}

CG_TEST(box_default_kernels) {
  // Without forcing: tiles for an axis of two or more passes, line kernels for a single pass.
  uint32_t seed = 300;
  const PlaneGeometry g = geometry(385, 289, 4);
  const std::vector<int> wx = box_widths(9, 3), wy = box_widths(9, 1);
  BoxBlur box;
  CHECK(box.plan(g, wx, wy, Border::Reflect).ok());
  const double worst = check_plane(g, box, [&](const PlaneValues& in) {
    return reference_box(g, in, wx, wy, Border::Reflect);
  }, seed);
  std::printf("  default box 385x289 C4, 3 passes along rows, 1 along columns: max diff %g\n", worst);
  CHECK(worst >= 0 && worst <= 1.0);
}

CG_TEST(box_wide_windows) {
  // Windows over 255 samples start from prefix sums; here both starts run at every width: every
  // border, windows wider than the line (several mirror / reflect periods), lines of 1 to 3
  // samples, 16-bit, odd sizes.
  uint32_t seed = 50;
  struct Case { PlaneGeometry g; double sigma; int passes; Border border; };
  const Case cases[] = {
      {geometry(385, 289, 4), 30, 1, Border::Replicate}, {geometry(385, 289, 3), 30, 1, Border::Mirror},
      {geometry(385, 289, 1), 60, 2, Border::Reflect},   {geometry(97, 61, 2), 80, 1, Border::Mirror},
      {geometry(97, 61, 1), 80, 1, Border::Reflect},     {geometry(97, 61, 4), 80, 1, Border::Replicate},
      {geometry(2, 3, 1), 30, 1, Border::Mirror},        {geometry(1, 5, 1), 30, 1, Border::Reflect},
      {geometry(3, 1, 2), 30, 2, Border::Replicate},     {geometry(200, 150, 2, 2), 40, 1, Border::Replicate},
      {geometry(200, 150, 1, 2, 6), 40, 3, Border::Mirror}, {geometry(1921, 1081, 4), 25, 1, Border::Mirror},
      {geometry(1921, 1081, 1), 100, 1, Border::Replicate}, {geometry(385, 289, 4), 2, 3, Border::Reflect},
      {geometry(130, 70, 3), 6, 2, Border::Mirror},
  };
  // Both ways of starting a window at every width in the line kernels, whatever auto would pick;
  // and the shared-memory tiles.
  const char* start_names[] = {"line kernels, auto", "line kernels, direct", "line kernels, prefix", "tiled"};
  for (const Case& c : cases)
    for (int start = 0; start < 4; ++start) {
      const std::vector<int> w = box_widths(c.sigma, c.passes);
      BoxBlur box;
      BoxBlur::Schedule schedule;
      schedule.kernels = start < 3 ? BoxBlur::Kernels::Lines : BoxBlur::Kernels::Tiles;
      if (start < 3) schedule.window_start = static_cast<BoxBlur::WindowStart>(start);
      schedule.run = start == 1 ? 128 : 0;  // and a run length the width would not pick
      CHECK(box.plan(c.g, w, w, c.border, schedule).ok());
      const double worst = check_plane(c.g, box, [&](const PlaneValues& in) {
        return reference_box(c.g, in, w, w, c.border);
      }, seed++);
      std::printf("  running-sum box (%s) %dx%d C%d u%d sigma %g passes %d (width %d) %s: max diff %g\n",
                  start_names[start], c.g.width, c.g.height, c.g.channels, 8 * c.g.bytes_per_sample, c.sigma,
                  c.passes, w[0], border_name(c.border), worst);
      CHECK(worst >= 0 && worst <= 1.0);
    }
}

CG_TEST(box_one_pass_aligned_rgba) {
  // One pass per axis on 8-bit samples: window sums in a 16-bit plane between the passes, and
  // on 4-channel rows with 4-byte aligned rows, first windows read as 32-bit words by the four
  // channels' threads together. Aligned and unaligned pitches, every border, windows wider than
  // the line, at the edges of the direct windows (width 255), and forced run lengths.
  uint32_t seed = 300;
  struct Case { PlaneGeometry g; double sigma; Border border; };
  const Case cases[] = {
      {geometry(1, 1, 4), 2, Border::Replicate},     {geometry(3, 2, 4), 10, Border::Mirror},
      {geometry(385, 289, 4), 1, Border::Reflect},   {geometry(385, 289, 4), 30, Border::Replicate},
      {geometry(385, 289, 4), 73.5, Border::Mirror},  {geometry(1921, 1081, 4), 10, Border::Reflect},
      {geometry(1921, 1081, 4), 30, Border::Replicate}, {geometry(640, 3, 4), 50, Border::Replicate},
      {geometry(385, 289, 1), 30, Border::Mirror},   {geometry(385, 289, 2), 30, Border::Reflect},
  };
  for (const Case& c : cases)
    for (size_t pad : {size_t{8}, size_t{2}})
      for (int run : {0, 64, 256}) {
        const std::vector<int> w = box_widths(c.sigma, 1);
        BoxBlur box;
        BoxBlur::Schedule schedule;
        schedule.run = run;
        CHECK(box.plan(c.g, w, w, c.border, schedule).ok());
        const double worst = check_plane(c.g, box, [&](const PlaneValues& in) {
          return reference_box(c.g, in, w, w, c.border);
        }, seed++, pad);
        std::printf("  one-pass box %dx%d C%d sigma %g (width %d) %s, pitch +%zu, run %d: max diff %g\n",
                    c.g.width, c.g.height, c.g.channels, c.sigma, w[0], border_name(c.border), pad, run, worst);
        CHECK(worst >= 0 && worst <= 1.0);
      }
}

CG_TEST(direct_matches_reference) {
  uint32_t seed = 100;
  const struct { PlaneGeometry g; double sigma; Border border; } cases[] = {
      {geometry(1, 1, 4), 1, Border::Replicate},     {geometry(2, 3, 3), 2, Border::Mirror},
      {geometry(385, 289, 4), 2, Border::Reflect},   {geometry(1921, 1081, 1), 4, Border::Replicate},
      {geometry(100, 80, 2, 2), 1.5, Border::Replicate},
  };
  for (const auto& c : cases) {
    const std::vector<double> t = gaussian_taps(c.sigma, fir_radius(c.sigma, 4.0));
    const int size = static_cast<int>(t.size());
    std::vector<double> k(static_cast<size_t>(size) * size);
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < size; ++i) k[j * size + i] = t[j] * t[i];
    DirectConvolution direct;
    CHECK(direct.plan(c.g, k, size, c.border).ok());
    const double worst = check_plane(c.g, direct, [&](const PlaneValues& in) {
      return reference_direct(c.g, in, k, size, c.border);
    }, seed++);
    std::printf("  direct %dx%d C%d sigma %g %s: max diff %g\n", c.g.width, c.g.height, c.g.channels,
                c.sigma, border_name(c.border), worst);
    CHECK(worst >= 0 && worst <= 1.0);
  }
  // The fixed 5x5 / 273 kernel of Afif, Said and Atri (2018).
  const PlaneGeometry g = geometry(512, 512, 1);
  DirectConvolution afif;
  CHECK(afif.plan(g, afif_5x5_kernel(), 5, Border::Replicate).ok());
  const double worst = check_plane(g, afif, [&](const PlaneValues& in) {
    return reference_direct(g, in, afif_5x5_kernel(), 5, Border::Replicate);
  }, 7);
  std::printf("  afif 5x5/273 512x512: max diff %g\n", worst);
  CHECK(worst >= 0 && worst <= 1.0);
  // Radius above the cap: refused with a message.
  DirectConvolution big;
  CHECK(!big.plan(g, std::vector<double>(35 * 35, 1.0 / (35 * 35)), 35, Border::Replicate).ok());
}

CG_TEST(frame_blur_routes_integral_box_and_incremental_fir) {
  // Through FrameBlur, as the element uses them: box-method=integral and coefficients=incremental
  // on an I420 layout (chroma sigma halved), every plane against its reference.
  const int w = 97, h = 61, cw = 49, ch = 31;
  std::vector<PlaneSpec> specs(3);
  const int dims[3][4] = {{w, h, 1, 1}, {cw, ch, 2, 2}, {cw, ch, 2, 2}};
  for (int i = 0; i < 3; ++i) {
    specs[i].geometry = geometry(dims[i][0], dims[i][1], 1);
    specs[i].subsample_x = dims[i][2];
    specs[i].subsample_y = dims[i][3];
  }
  std::vector<cgtest::HostPlane> in;
  for (int i = 0; i < 3; ++i) in.push_back(cgtest::make_plane(specs[i].geometry, 3, 40 + i));
  for (bool box : {true, false}) {
    BlurSettings s;
    s.sigma_x = s.sigma_y = 6.0;
    s.border = Border::Mirror;
    if (box) {
      s.algorithm = Algorithm::Box;
      s.box_method = BoxMethod::Integral;
    } else {
      s.algorithm = Algorithm::Fir;
      s.coefficients = TapSource::Incremental;
    }
    std::vector<std::vector<uint8_t>> out;
    std::string error;
    if (!cgtest::run_gpu(s, specs, in, out, error)) {
      std::printf("  %s: %s\n", box ? "integral box" : "incremental fir", error.c_str());
      CHECK(false);
      continue;
    }
    double worst = 0;
    for (int i = 0; i < 3; ++i) {
      const PlaneGeometry& g = specs[i].geometry;
      const double sigma = 6.0 / specs[i].subsample_x;
      const PlaneValues src = read_plane(g, in[i].bytes.data(), in[i].pitch);
      const PlaneValues ref =
          box ? reference_box(g, src, box_widths(sigma, 3), box_widths(sigma, 3), Border::Mirror)
              : reference_fir(g, src, gaussian_taps(sigma, fir_radius(sigma, 4.0)),
                              gaussian_taps(sigma, fir_radius(sigma, 4.0)), Border::Mirror);
      const PlaneValues got = read_plane(g, out[i].data(), in[i].pitch);
      for (size_t k = 0; k < ref.size(); ++k)
        worst = std::max(worst, std::fabs(got[k] - std::clamp(std::floor(ref[k] + 0.5), 0.0, 255.0)));
    }
    std::printf("  FrameBlur %s, I420 97x61: max diff %g\n", box ? "box integral" : "fir incremental", worst);
    CHECK(worst <= (box ? 0.0 : 1.0));
  }
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
