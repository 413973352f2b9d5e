// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of RegionFilter (apply and restore) against the CPU reference (reference_region.h).
// Skips (exit 77) without a CUDA device.
//
// Each case: a frame of random blocks plus noise (or a photograph) in padded pitches, the
// destination poisoned (apply) or holding another frame (restore). Verdict, per plane: every
// pixel that no region owns is bit-identical to what it was meant to keep (src for apply, the
// old dst for restore), row padding keeps its poison, and every owned pixel is within 1 sample
// of the reference (Blur; the kernels sum in float) or equal to it (Pixelate, Fill, restore).
// The largest difference of each effect is printed.

#include <algorithm>
#include <array>
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
#include "frame_run_gpu.h"
#include "photo.h"
#include "reference_region.h"
#include "region_filter.h"

using namespace cudagaussian;
using cgtest::plane_spec;
using cgtest::HostPlane;

namespace {

enum class Format { Gray8, Rgba8, Rgb8, U16C1, U16C4, P010, I420, Nv12 };

const char* format_name(Format f) {
  switch (f) {
    case Format::Gray8: return "GRAY8";
    case Format::Rgba8: return "RGBA8";
    case Format::Rgb8: return "RGB8";
    case Format::U16C1: return "u16 C1";
    case Format::U16C4: return "u16 C4";
    case Format::P010: return "P010-like";
    case Format::I420: return "I420-like";
    case Format::Nv12: return "NV12-like";
  }
  return "?";
}

std::vector<PlaneSpec> planes_of(Format f, int w, int h) {
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  switch (f) {
    case Format::Gray8: return {plane_spec(w, h, 1)};
    case Format::Rgba8: return {plane_spec(w, h, 4)};
    case Format::Rgb8: return {plane_spec(w, h, 3)};
    case Format::U16C1: return {plane_spec(w, h, 1, 2)};
    case Format::U16C4: return {plane_spec(w, h, 4, 2)};
    case Format::P010: return {plane_spec(w, h, 1, 2, 6), plane_spec(cw, ch, 2, 2, 6, 2)};
    case Format::I420: return {plane_spec(w, h, 1), plane_spec(cw, ch, 1, 1, 0, 2), plane_spec(cw, ch, 1, 1, 0, 2)};
    case Format::Nv12: return {plane_spec(w, h, 1), plane_spec(cw, ch, 2, 1, 0, 2)};
  }
  return {};
}

enum class Layout { None, One, Edges, Overlap, Random };

Region region(int x0, int y0, int x1, int y1, double sx, double sy, RegionShape shape = RegionShape::Rectangle,
              int feather = 0) {
  Region r;
  r.box = RegionBox{x0, y0, x1, y1, shape, feather};
  r.sigma_x = sx;
  r.sigma_y = sy;
  return r;
}

// Regions in a w x h luma frame.
std::vector<Region> regions_of(Layout l, int w, int h, int count, double sigma, bool scaled, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Region> out;
  auto strength = [&](double base) { return scaled ? base * (0.25 + (rng() % 100) / 40.0) : base; };
  switch (l) {
    case Layout::None:
      break;
    case Layout::One:
      out.push_back(region(w / 4, h / 4, std::max(w / 4 + 1, 3 * w / 4), std::max(h / 4 + 1, 3 * h / 4), sigma, sigma));
      break;
    case Layout::Edges:  // touching every edge and corner, and a strip along each edge
      out.push_back(region(0, 0, std::max(1, w / 3), std::max(1, h / 3), strength(sigma), strength(sigma)));
      out.push_back(region(w - std::max(1, w / 3), h - std::max(1, h / 4), w, h, strength(sigma), strength(sigma),
                           RegionShape::Ellipse, 3));
      out.push_back(region(0, h - 1, w, h, strength(sigma), strength(sigma)));
      out.push_back(region(w - 1, 0, w, h, strength(sigma), strength(sigma), RegionShape::Rectangle, 2));
      break;
    case Layout::Overlap: {  // crossing boxes of different strengths, equal weights meeting
      const int cx = w / 2, cy = h / 2, a = std::max(2, w / 5), b = std::max(2, h / 5);
      out.push_back(region(std::max(0, cx - 2 * a), std::max(0, cy - b), std::min(w, cx + a), std::min(h, cy + b),
                           strength(sigma), strength(sigma), RegionShape::Rectangle, 6));
      out.push_back(region(std::max(0, cx - a), std::max(0, cy - 2 * b), std::min(w, cx + 2 * a), std::min(h, cy + b / 2),
                           strength(sigma) * 2, strength(sigma), RegionShape::Ellipse, 9));
      out.push_back(region(std::max(0, cx - a), std::max(0, cy - b), std::min(w, cx + a), std::min(h, cy + b),
                           sigma, sigma));
      out.push_back(region(std::max(0, cx - a), std::max(0, cy - b), std::min(w, cx + a), std::min(h, cy + b),
                           sigma, sigma, RegionShape::Ellipse));  // same box, same strength: index decides
      break;
    }
    case Layout::Random:
      for (int i = 0; i < count; ++i) {
        const int bw = 1 + static_cast<int>(rng() % std::max(1, w / 6)), bh = 1 + static_cast<int>(rng() % std::max(1, h / 6));
        const int x0 = static_cast<int>(rng() % std::max(1, w - bw + 1)), y0 = static_cast<int>(rng() % std::max(1, h - bh + 1));
        out.push_back(region(x0, y0, std::min(w, x0 + bw), std::min(h, y0 + bh), strength(sigma), strength(sigma),
                             rng() % 2 ? RegionShape::Ellipse : RegionShape::Rectangle, static_cast<int>(rng() % 8)));
      }
      break;
  }
  return out;
}

struct Case {
  std::string name;
  Format format = Format::Rgba8;
  int width = 64, height = 48;
  int pad = 0;  // bytes after each row (odd for 8-bit planes)
  Layout layout = Layout::One;
  int count = 0;
  double sigma = 3.0;
  bool scaled = false;  // per-region sigma: base x a random factor
  RegionEffectSettings settings;
  bool restore = false;
  bool in_place = false;  // apply() with the source as destination
  const std::vector<uint8_t>* photo = nullptr;  // RGBA or GRAY pixels of width x height
  uint32_t seed = 1;
};

constexpr uint8_t kPoison = 0xA5;

struct Worst {
  double blur = 0, pixelate = 0, fill = 0, restore = 0;
};
Worst& worst() {
  static Worst w;
  return w;
}

std::string describe(const Case& c) {
  static const char* layouts[] = {"no regions", "one box", "edge boxes", "overlapping", "random"};
  static const char* effects[] = {"blur", "pixelate", "fill"};
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s%s: %s %dx%d pad %d, %s%s (%d), %s sigma %g%s%s", c.name.c_str(),
                c.in_place ? " (in place)" : "",
                format_name(c.format), c.width, c.height, c.pad, layouts[static_cast<int>(c.layout)],
                c.photo ? ", photo" : "", c.count, c.restore ? "restore" : effects[static_cast<int>(c.settings.effect)],
                c.sigma, c.scaled ? " scaled" : "",
                c.settings.effect == RegionEffect::Pixelate ? (" px " + std::to_string(c.settings.pixel_size)).c_str() : "");
  return buf;
}

#define CASE_CUDA(call)                                                             \
  do {                                                                              \
    const cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                        \
      CHECK_MSG(false, "%s: %s: %s", label.c_str(), #call, cudaGetErrorString(e_)); \
      return;                                                                       \
    }                                                                               \
  } while (0)
#define CASE_OK(expr)                                                               \
  do {                                                                              \
    const Status st_ = (expr);                                                      \
    if (!st_.ok()) {                                                                \
      CHECK_MSG(false, "%s: %s: %s", label.c_str(), #expr, st_.message.c_str());    \
      return;                                                                       \
    }                                                                               \
  } while (0)

RegionFilter& shared_filter() {
  static RegionFilter f;  // one filter for every case: tables and scratch grow and are reused
  return f;
}

void run_case(Case c, RegionFilter& filter = shared_filter(), cudaStream_t stream = nullptr) {
  const std::string label = describe(c);
  const std::vector<PlaneSpec> specs = planes_of(c.format, c.width, c.height);
  const std::vector<Region> regions =
      regions_of(c.layout, c.width, c.height, c.count, c.sigma, c.scaled, c.seed * 7919u);
  if (c.settings.effect == RegionEffect::Fill && c.settings.fill.empty()) {
    std::mt19937 rng(c.seed);
    for (const PlaneSpec& s : specs) {
      std::array<int, 4> f{};
      for (int& v : f) v = static_cast<int>(rng() % (s.geometry.max_value() + 1));
      c.settings.fill.push_back(f);
    }
  }
  CASE_OK(RegionFilter::validate(specs, regions, c.settings));
  const size_t n = specs.size();
  std::vector<HostPlane> src(n), old_dst(n);
  std::vector<DeviceBuffer> d_src(n), d_dst(n);
  std::vector<DevicePlaneRef> src_refs(n);
  std::vector<MutableDevicePlaneRef> dst_refs(n);
  for (size_t p = 0; p < n; ++p) {
    const PlaneGeometry& g = specs[p].geometry;
    const int pad = c.pad ? (g.bytes_per_sample == 1 ? c.pad : 2 * c.pad) : 0;
    src[p] = cgtest::make_plane(g, pad, c.seed * 31 + static_cast<uint32_t>(p), p == 0 ? c.photo : nullptr);
    old_dst[p] = cgtest::make_plane(g, pad + (g.bytes_per_sample == 1 ? 3 : 4), c.seed * 57 + static_cast<uint32_t>(p));
    if (!c.restore) std::fill(old_dst[p].bytes.begin(), old_dst[p].bytes.end(), kPoison);
    if (c.in_place) old_dst[p] = src[p];
    CASE_OK(d_src[p].reserve(src[p].bytes.size()));
    CASE_OK(d_dst[p].reserve(old_dst[p].bytes.size()));
    CASE_CUDA(cudaMemcpyAsync(d_src[p].get(), src[p].bytes.data(), src[p].bytes.size(), cudaMemcpyHostToDevice, stream));
    CASE_CUDA(cudaMemcpyAsync(d_dst[p].get(), old_dst[p].bytes.data(), old_dst[p].bytes.size(), cudaMemcpyHostToDevice, stream));
    src_refs[p] = {d_src[p].get(), src[p].pitch};
    dst_refs[p] = {c.in_place ? d_src[p].get() : d_dst[p].get(), old_dst[p].pitch};
  }
  if (c.restore)
    CASE_OK(filter.restore(specs, src_refs, dst_refs, regions, {}, stream));
  else
    CASE_OK(filter.apply(specs, src_refs, dst_refs, regions, c.settings, stream));
  std::vector<std::vector<uint8_t>> out(n);
  for (size_t p = 0; p < n; ++p) {
    out[p].resize(old_dst[p].bytes.size());
    CASE_CUDA(cudaMemcpyAsync(out[p].data(), dst_refs[p].data, out[p].size(), cudaMemcpyDeviceToHost, stream));
  }
  CASE_CUDA(cudaStreamSynchronize(stream));

  // The reference.
  std::vector<RegionPlane> layout(n);
  std::vector<PlaneValues> src_values(n), dst_values(n);
  for (size_t p = 0; p < n; ++p) {
    layout[p] = {specs[p].geometry, specs[p].subsample_x, specs[p].subsample_y};
    src_values[p] = read_plane(specs[p].geometry, src[p].bytes.data(), src[p].pitch);
    dst_values[p] = read_plane(specs[p].geometry, old_dst[p].bytes.data(), old_dst[p].pitch);
  }
  const std::vector<PlaneValues> want = c.restore ? reference_region_restore(layout, src_values, dst_values, regions)
                                                  : reference_region_apply(layout, src_values, regions, c.settings);
  const bool exact = c.restore || c.settings.effect != RegionEffect::Blur;
  double max_diff = 0;
  long bad_outside = 0, bad_inside = 0, bad_padding = 0;
  for (size_t p = 0; p < n; ++p) {
    const PlaneGeometry& g = specs[p].geometry;
    const RegionOwners owners = region_owners(layout[p], regions);
    const HostPlane& keep = c.restore ? old_dst[p] : src[p];
    const size_t px_bytes = static_cast<size_t>(g.channels) * g.bytes_per_sample;
    const PlaneValues got = read_plane(g, out[p].data(), old_dst[p].pitch);
    for (int y = 0; y < g.height; ++y) {
      const uint8_t* row = out[p].data() + y * old_dst[p].pitch;
      for (int x = 0; x < g.width; ++x) {
        const size_t i = static_cast<size_t>(y) * g.width + x;
        if (owners.owner[i] < 0) {
          bad_outside += std::memcmp(row + x * px_bytes, keep.bytes.data() + y * keep.pitch + x * px_bytes, px_bytes) != 0;
          continue;
        }
        for (int ch = 0; ch < g.channels; ++ch) {
          const size_t k = i * g.channels + ch;
          const double d = std::fabs(got[k] - want[p][k]);
          max_diff = std::max(max_diff, d);
          bad_inside += d > (exact ? 0.0 : 1.0);
        }
      }
      for (size_t b = g.row_bytes(); b < old_dst[p].pitch; ++b)
        bad_padding += row[b] != old_dst[p].bytes[y * old_dst[p].pitch + b];
    }
  }
  CHECK_MSG(bad_outside == 0, "%s: %ld pixels outside every region changed", label.c_str(), bad_outside);
  CHECK_MSG(bad_inside == 0, "%s: %ld samples off the reference (max %g)", label.c_str(), bad_inside, max_diff);
  CHECK_MSG(bad_padding == 0, "%s: %ld padding bytes written", label.c_str(), bad_padding);
  double& w = c.restore ? worst().restore
              : c.settings.effect == RegionEffect::Blur ? worst().blur
              : c.settings.effect == RegionEffect::Pixelate ? worst().pixelate : worst().fill;
  w = std::max(w, max_diff);
}

RegionEffectSettings effect(RegionEffect e, int pixel_size = 16) {
  RegionEffectSettings s;
  s.effect = e;
  s.pixel_size = pixel_size;
  return s;
}

Case make(const std::string& name, Format f, int w, int h, Layout l, RegionEffectSettings s, double sigma = 3.0,
          int count = 0, int pad = 0) {
  Case c;
  c.name = name;
  c.format = f;
  c.width = w;
  c.height = h;
  c.layout = l;
  c.settings = s;
  c.sigma = sigma;
  c.count = count;
  c.pad = pad;
  c.seed = static_cast<uint32_t>(std::hash<std::string>()(name) ^ (w * 131 + h));
  return c;
}

const Format kFormats[] = {Format::Gray8, Format::Rgba8, Format::Rgb8, Format::U16C1,
                           Format::U16C4, Format::P010, Format::I420, Format::Nv12};

CG_TEST(every_format_and_effect_on_odd_sizes) {
  for (Format f : kFormats)
    for (int e = 0; e < 3; ++e)
      for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{385, 289}}) {
        const RegionEffectSettings s = effect(static_cast<RegionEffect>(e), e == 1 ? 7 : 16);
        run_case(make("one", f, w, h, Layout::One, s, 2.5, 0, 3));
        run_case(make("edges", f, w, h, Layout::Edges, s, 4.0, 0, 0));
        run_case(make("overlap", f, w, h, Layout::Overlap, s, 3.0, 0, 5));
      }
}

CG_TEST(restore_in_every_format) {
  for (Format f : kFormats)
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{385, 289}})
      for (Layout l : {Layout::One, Layout::Edges, Layout::Overlap, Layout::Random}) {
        Case c = make("restore", f, w, h, l, effect(RegionEffect::Blur), 3.0, 20, 1);
        c.restore = true;
        run_case(c);
      }
}

CG_TEST(full_hd_plus_one_many_regions_and_scaled_strength) {
  for (Format f : {Format::Rgba8, Format::Nv12, Format::P010}) {
    Case c = make("100 random", f, 1921, 1081, Layout::Random, effect(RegionEffect::Blur), 5.0, 100, 7);
    c.scaled = true;
    run_case(c);
    run_case(make("edges", f, 1921, 1081, Layout::Edges, effect(RegionEffect::Blur), 6.0, 0, 0));
    run_case(make("100 pixelate", f, 1921, 1081, Layout::Random, effect(RegionEffect::Pixelate, 16), 0, 100, 2));
    run_case(make("100 fill", f, 1921, 1081, Layout::Random, effect(RegionEffect::Fill), 0, 100, 0));
  }
}

CG_TEST(large_sigma_up_to_200_luma_pixels) {
  for (double sigma : {40.0, 200.0}) {
    run_case(make("large sigma", Format::Rgba8, 385, 289, Layout::One, effect(RegionEffect::Blur), sigma, 0, 1));
    run_case(make("large sigma", Format::I420, 385, 289, Layout::Overlap, effect(RegionEffect::Blur), sigma, 0, 1));
  }
  run_case(make("large sigma", Format::Nv12, 1921, 1081, Layout::Overlap, effect(RegionEffect::Blur), 40.0, 0, 1));
  Case c = make("sigma 200 truncate 8", Format::Gray8, 385, 289, Layout::Edges, effect(RegionEffect::Blur), 200.0, 0, 1);
  c.settings.truncate = 8.0;
  run_case(c);
}

CG_TEST(zero_one_hundred_and_1024_regions) {
  for (int e = 0; e < 3; ++e) {
    const RegionEffectSettings s = effect(static_cast<RegionEffect>(e), 5);
    run_case(make("none", Format::Rgba8, 385, 289, Layout::None, s, 3.0, 0, 1));
    run_case(make("none", Format::I420, 1921, 1081, Layout::None, s, 3.0, 0, 0));
    run_case(make("100", Format::Rgb8, 385, 289, Layout::Random, s, 2.0, 100, 1));
    Case c = make("1024", Format::Rgba8, 385, 289, Layout::Random, s, 1.5, 1024, 0);
    c.scaled = true;
    run_case(c);
    run_case(make("1024", Format::Nv12, 385, 289, Layout::Random, s, 1.5, 1024, 3));
  }
  Case r = make("1024 restore", Format::Rgba8, 385, 289, Layout::Random, effect(RegionEffect::Blur), 1.0, 1024, 0);
  r.restore = true;
  run_case(r);
}

CG_TEST(pixelate_block_sizes_and_sigma_zero) {
  for (int px : {1, 2, 3, 16, 64, 1024})
    for (Format f : {Format::Gray8, Format::I420, Format::Nv12, Format::U16C4})
      run_case(make("pixelate", f, 385, 289, Layout::Overlap, effect(RegionEffect::Pixelate, px), 0, 0, 1));
  run_case(make("sigma 0", Format::Rgba8, 385, 289, Layout::Overlap, effect(RegionEffect::Blur), 0.0, 0, 1));
}

CG_TEST(several_batches_and_another_stream) {
  // A scratch budget far below one region's rows: every region runs in a batch of its own.
  RegionFilter small;
  small.force_scratch_budget(1000);
  run_case(make("batches", Format::Rgba8, 385, 289, Layout::Random, effect(RegionEffect::Blur), 3.0, 40, 1), small);
  run_case(make("batches", Format::Nv12, 385, 289, Layout::Random, effect(RegionEffect::Pixelate, 4), 0, 40, 1), small);
  // The same filter on two streams in turn: the second call's tables wait for the first's work.
  CudaStream a, b;
  CHECK(a.create().ok() && b.create().ok());
  RegionFilter f;
  for (int i = 0; i < 4; ++i) {
    run_case(make("stream a", Format::Rgba8, 385, 289, Layout::Random, effect(RegionEffect::Blur), 4.0, 200, 1), f, a.get());
    run_case(make("stream b", Format::Rgba8, 385, 289, Layout::One, effect(RegionEffect::Blur), 2.0, 0, 1), f, b.get());
  }
}

// apply() with the source as destination: the regions are written, nothing else (padding
// included), and every region still reads the input around it, even where a neighbouring region
// is written in the same call, and across batches.
CG_TEST(in_place_every_format_effect_and_layout) {
  for (Format f : kFormats)
    for (int e = 0; e < 3; ++e)
      for (auto [w, h] : {std::pair{1, 1}, std::pair{385, 289}})
        for (Layout l : {Layout::One, Layout::Edges, Layout::Overlap, Layout::Random}) {
          Case c = make("in place", f, w, h, l, effect(static_cast<RegionEffect>(e), 5), 4.0, 30, 3);
          c.scaled = l == Layout::Random;
          c.in_place = true;
          run_case(c);
        }
  for (Format f : {Format::Rgba8, Format::Nv12, Format::P010}) {
    Case c = make("in place 100 random", f, 1921, 1081, Layout::Random, effect(RegionEffect::Blur), 5.0, 100, 0);
    c.scaled = true;
    c.in_place = true;
    run_case(c);
  }
  RegionFilter small;
  small.force_scratch_budget(1000);
  for (int e = 0; e < 3; ++e) {
    Case c = make("in place, batches", Format::Rgba8, 385, 289, Layout::Random, effect(static_cast<RegionEffect>(e), 4),
                  3.0, 40, 1);
    c.in_place = true;
    run_case(c, small);
  }
}

CG_TEST(photograph_with_ten_boxes_and_feathered_ellipses) {
  for (const char* file : {"fruits.jpg", "baboon.jpg"}) {
    int w = 0, h = 0;
    std::vector<uint8_t> pixels;
    const bool loaded = load_test_photo(file, "RGBA", 4, &w, &h, &pixels);
    CHECK_MSG(loaded, "cannot decode %s", file);
    if (!loaded) continue;
    const std::vector<uint8_t> tiled = tile_photo(pixels, w, h, 4, 1921, 1081);
    Case c = make(std::string("photo ") + file, Format::Rgba8, 1921, 1081, Layout::Random, effect(RegionEffect::Blur), 5.0, 10, 4);
    c.photo = &tiled;
    run_case(c);
    c.scaled = true;
    c.sigma = 12.0;
    run_case(c);
    c.settings = effect(RegionEffect::Pixelate, 24);
    run_case(c);
  }
}

CG_TEST(validate_refuses_bad_requests) {
  const std::vector<PlaneSpec> planes = planes_of(Format::Nv12, 64, 48);
  const Region ok = region(0, 0, 64, 48, 2, 2);
  RegionEffectSettings s;
  CHECK(RegionFilter::validate(planes, {ok}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(-1, 0, 5, 5, 1, 1)}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(0, 0, 65, 5, 1, 1)}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(0, 40, 5, 49, 1, 1)}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(5, 5, 5, 9, 1, 1)}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(0, 0, 5, 5, -1, 1)}, s).ok());
  CHECK(!RegionFilter::validate(planes, {region(0, 0, 5, 5, 1, std::nan(""))}, s).ok());
  RegionEffectSettings px = effect(RegionEffect::Pixelate, 0);
  CHECK(!RegionFilter::validate(planes, {ok}, px).ok());
  RegionEffectSettings fill = effect(RegionEffect::Fill);
  fill.fill = {{16, 0, 0, 0}};
  CHECK(!RegionFilter::validate(planes, {ok}, fill).ok());
  fill.fill.push_back({128, 128, 0, 0});
  CHECK(RegionFilter::validate(planes, {ok}, fill).ok());
  // apply() refuses them too, and a missing plane, before touching the GPU.
  RegionFilter f;
  std::vector<DevicePlaneRef> src(2);
  std::vector<MutableDevicePlaneRef> dst(2);
  CHECK(!f.apply(planes, src, dst, {ok}, px, nullptr).ok());
  CHECK(!f.apply(planes, src, dst, {ok}, s, nullptr).ok());  // null planes
  CHECK(!f.restore(planes, src, std::vector<MutableDevicePlaneRef>(1), {ok}, {}, nullptr).ok());
}

}  // namespace

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  const int rc = cgtest::run_all();
  std::printf("max |GPU - reference| in samples: blur %g, pixelate %g, fill %g, restore %g\n", worst().blur,
              worst().pixelate, worst().fill, worst().restore);
  return rc;
}
