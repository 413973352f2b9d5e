// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the recursive Gaussians (every filter, start-up and line split) against the CPU
// references of common/reference_recursive.h. Skips (exit 77) without a CUDA device.
//
// Reference: the double direct form up to sigma 30; above it the double section form, which is
// the accurate one there (reference_recursive.h). Tolerance: |out - round(ref)| <= 1 sample unit
// for the exact splits (one-way, block-parallel) and for two-way / k-way with a long warm-up
// (kappa 8); constant images come back unchanged. Outputs are poisoned first and every byte
// outside the plane must keep its poison.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "check.h"
#include "device_memory.h"
#include "recursive_filter.h"
#include "reference_recursive.h"

using namespace cudagaussian;

namespace {

constexpr uint8_t kPoison = 0xA5;

struct Case {
  PlaneGeometry g;
  RecursiveSettings s;
  double sigma_x = 2, sigma_y = 2;
  bool constant = false;
  int pad = 0;  // bytes after each row (a multiple of the sample size)
  uint32_t seed = 1;
};

Case make(int w, int h, int channels, int bytes, int shift, RecursiveFilter f, LineSplit split,
          double sx, double sy, int pad = 0) {
  Case c;
  c.g.width = w, c.g.height = h, c.g.channels = channels, c.g.bytes_per_sample = bytes;
  c.g.shift = shift;
  c.s.filter = f;
  c.s.split = split;
  c.s.kappa = 8.0;
  c.sigma_x = sx, c.sigma_y = sy;
  c.pad = pad;
  return c;
}

std::string describe(const Case& c) {
  char buf[220];
  std::snprintf(buf, sizeof buf, "%s %s%s%s %s u%d C%d%s %dx%d pad %d sigma %g/%g%s",
                recursive_filter_name(c.s.filter), line_split_name(c.s.split),
                c.s.launches == LaunchForm::One ? " (one launch)"
                : c.s.launches == LaunchForm::Several ? " (several launches)" : "",
                c.s.two_way_form == TwoWayForm::Exact ? " (exact form)"
                : c.s.two_way_form == TwoWayForm::Warm ? " (warmed-up form)" : "",
                start_up_name(c.s.start), c.g.bytes_per_sample * 8, c.g.channels,
                c.g.shift ? " shift" : "", c.g.width, c.g.height, c.pad, c.sigma_x, c.sigma_y,
                c.constant ? " constant" : "");
  return buf;
}

// Runs one case; returns the max |out - round(ref)| (or -1 with `error` set) and where it is.
double run_case(const Case& c, std::string& error, std::string& error_detail) {
  const PlaneGeometry& g = c.g;
  const size_t pitch = g.row_bytes() + c.pad;
  const size_t bytes = pitch * g.height;
  std::vector<uint8_t> host(bytes);
  std::mt19937 rng(c.seed);
  for (uint8_t& b : host) b = static_cast<uint8_t>(rng());
  const unsigned max_value = g.max_value();
  for (int y = 0; y < g.height; ++y)
    for (int i = 0; i < g.samples_per_row(); ++i) {
      const unsigned v = c.constant ? (i % g.channels + 1) * max_value / 5 : rng() % (max_value + 1);
      const unsigned stored = (v << g.shift) | (rng() & ((1u << g.shift) - 1));
      if (g.bytes_per_sample == 1) host[y * pitch + i] = static_cast<uint8_t>(stored);
      else {
        const uint16_t s16 = static_cast<uint16_t>(stored);
        std::memcpy(&host[y * pitch + 2 * i], &s16, 2);
      }
    }

  RecursiveBlur blur;
  Status st = blur.plan(g, c.s, c.sigma_x, c.sigma_y);
  if (!st.ok()) { error = "plan: " + st.message; return -1; }
  CudaStream stream;
  DeviceBuffer d_src, d_dst;
  if (!stream.create().ok() || !d_src.reserve(bytes).ok() || !d_dst.reserve(bytes).ok()) {
    error = "CUDA setup failed";
    return -1;
  }
  std::vector<uint8_t> out(bytes);
  // On the test's stream: it is non-blocking, so legacy-stream copies would not be ordered
  // with the kernels.
  if (cudaMemcpyAsync(d_src.get(), host.data(), bytes, cudaMemcpyHostToDevice, stream.get()) != cudaSuccess ||
      cudaMemsetAsync(d_dst.get(), kPoison, bytes, stream.get()) != cudaSuccess) {
    error = "copy failed";
    return -1;
  }
  st = blur.run(d_src.get(), pitch, d_dst.get(), pitch, stream.get());
  if (st.ok()) st = stream.synchronize();
  if (!st.ok()) { error = "run: " + st.message; return -1; }
  if (cudaMemcpyAsync(out.data(), d_dst.get(), bytes, cudaMemcpyDeviceToHost, stream.get()) != cudaSuccess ||
      cudaStreamSynchronize(stream.get()) != cudaSuccess) {
    error = "download failed";
    return -1;
  }
  for (int y = 0; y < g.height; ++y)
    for (size_t b = g.row_bytes(); b < pitch; ++b)
      if (out[y * pitch + b] != kPoison) { error = "padding was written"; return -1; }

  const PlaneValues in = read_plane(g, host.data(), pitch);
  const PlaneValues got = read_plane(g, out.data(), pitch);
  const bool sections = std::max(c.sigma_x, c.sigma_y) > 30.0;
  const PlaneValues ref = sections ? recursive_sections_plane(g, in, c.s.filter, c.sigma_x, c.sigma_y,
                                                              c.s.start, SectionPrecision::Double)
                                   : reference_recursive(g, in, c.s.filter, c.sigma_x, c.sigma_y,
                                                         c.s.start);
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double expected = c.constant ? in[i] : std::clamp(std::floor(ref[i] + 0.5), 0.0, double(max_value));
    const double d = std::fabs(got[i] - expected);
    if (d > worst) {
      worst = d;
      const int n = g.samples_per_row(), y = static_cast<int>(i / n), s = static_cast<int>(i % n);
      char where[120];
      std::snprintf(where, sizeof where, "(worst at x %d y %d ch %d: got %g, want %g)", s / g.channels, y,
                    s % g.channels, got[i], expected);
      error_detail = where;
    }
  }
  if (g.shift)
    for (int y = 0; y < g.height; ++y)
      for (int i = 0; i < g.samples_per_row(); ++i) {
        uint16_t s16;
        std::memcpy(&s16, &out[y * pitch + 2 * i], 2);
        if (s16 & ((1u << g.shift) - 1)) { error = "unused low bits set"; return -1; }
      }
  return worst;
}

void run_cases(std::vector<Case> cases) {
  uint32_t seed = 77;
  for (Case& c : cases) {
    c.seed = seed += 7919;
    std::string error, detail;
    const double worst = run_case(c, error, detail);
    const double tol = c.constant ? 0.0 : 1.0;
    const bool ok = error.empty() && worst <= tol;
    std::printf("  %s %s, max diff %g %s %s\n", ok ? "ok  " : "FAIL", describe(c).c_str(), worst,
                error.c_str(), ok ? "" : detail.c_str());
    CHECK_MSG(ok, "%s: %s (max diff %g)", describe(c).c_str(), error.c_str(), worst);
    std::fflush(stdout);
  }
}

constexpr RecursiveFilter kFilters[] = {RecursiveFilter::YoungVanVliet2002,
                                        RecursiveFilter::YoungVanVliet1995, RecursiveFilter::Deriche};
constexpr LineSplit kSplits[] = {LineSplit::OneWay, LineSplit::TwoWay, LineSplit::KWay,
                                 LineSplit::BlockParallel};

}  // namespace

CG_TEST(every_filter_and_split) {
  std::vector<Case> cases;
  for (RecursiveFilter f : kFilters)
    for (LineSplit s : kSplits)
      for (double sigma : {1.0, 5.0, 30.0}) cases.push_back(make(385, 289, 4, 1, 0, f, s, sigma, sigma, 12));
  run_cases(cases);
}

CG_TEST(sizes) {
  std::vector<Case> cases;
  for (LineSplit s : {LineSplit::OneWay, LineSplit::BlockParallel, LineSplit::KWay}) {
    cases.push_back(make(1, 1, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, s, 2, 2));
    cases.push_back(make(2, 3, 1, 1, 0, RecursiveFilter::Deriche, s, 2, 2, 3));
    cases.push_back(make(3, 2, 3, 1, 0, RecursiveFilter::YoungVanVliet2002, s, 1, 1));
    cases.push_back(make(33, 65, 2, 1, 0, RecursiveFilter::Deriche, s, 3, 3, 1));
    cases.push_back(make(1921, 1081, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, s, 10, 10, 4));
    cases.push_back(make(1920, 1080, 1, 1, 0, RecursiveFilter::Deriche, s, 5, 5));
  }
  run_cases(cases);
}

CG_TEST(sigmas_and_stability) {
  std::vector<Case> cases;
  for (double sigma : {0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 90.0, 200.0})
    for (RecursiveFilter f : kFilters)
      cases.push_back(make(640, 360, 1, 1, 0, f, LineSplit::BlockParallel, sigma, sigma, 2));
  cases.push_back(make(300, 200, 3, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 7, 0));
  cases.push_back(make(300, 200, 3, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::OneWay, 0, 4));
  run_cases(cases);
}

// Block-parallel passes in one launch (blocks of several lines, partial last blocks, more lines
// than warps, RGBA rows) and in three (where a line has more segments than a block takes: 4500
// RGBA pixels, 50,000-sample lines), each forced at every size; staged rows (1, 2, 4 channels)
// and direct ones (3); Young–van Vliet's vertical carries from the horizontal apply (1, 2, 4
// channels, partial tiles at the right and bottom) and from their own kernel (one axis only,
// Deriche, a last segment of one row).
CG_TEST(block_parallel_one_and_three_launches) {
  std::vector<Case> cases;
  for (LaunchForm launches : {LaunchForm::One, LaunchForm::Several}) {
    std::vector<Case> group = {
        make(3, 2, 3, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 1, 1),
        make(33, 65, 2, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 3, 3, 1),
        make(385, 289, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 5, 5, 12),
        make(720, 576, 4, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 2, 2),
        make(1921, 1081, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 10, 10, 4),
        make(1921, 1081, 1, 2, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 30, 30, 2),
        make(4500, 9, 4, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 3, 3),
        make(300, 1300, 2, 1, 0, RecursiveFilter::YoungVanVliet1995, LineSplit::BlockParallel, 200, 200),
        // Lines longer than the 49,152 samples the former shared-memory scan allowed.
        make(50000, 2, 1, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 100, 1),
        make(3, 50001, 1, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 1, 150),
        make(1000, 77, 1, 2, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 4, 6, 6),
        make(261, 130, 2, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 12, 2, 2),
        make(500, 40, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 3, 0),
        make(70, 500, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, LineSplit::BlockParallel, 0, 3),
        make(200, 97, 2, 1, 0, RecursiveFilter::Deriche, LineSplit::BlockParallel, 3, 5, 2),
        make(300, 64, 4, 2, 4, RecursiveFilter::Deriche, LineSplit::BlockParallel, 20, 1),
    };
    for (Case& c : group) {
      c.s.launches = launches;
      cases.push_back(c);
    }
  }
  run_cases(cases);
}

// Two-way (Young–van Vliet's warmed-up halves, forced) and k-way with both halves in one launch
// (blocks of whole lines: partial last blocks, RGBA rows, columns) and in two, each forced: the
// results must agree with the exact reference (kappa 8) either way. K-way with more pieces than
// a block holds falls back to two launches.
CG_TEST(warm_splits_one_and_two_launches) {
  std::vector<Case> cases;
  for (LaunchForm launches : {LaunchForm::One, LaunchForm::Several})
    for (LineSplit split : {LineSplit::TwoWay, LineSplit::KWay}) {
      std::vector<Case> group = {
          make(1, 1, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, split, 2, 2),
          make(3, 2, 3, 1, 0, RecursiveFilter::Deriche, split, 1, 1),
          make(33, 65, 2, 1, 0, RecursiveFilter::YoungVanVliet1995, split, 3, 3, 1),
          make(385, 289, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, split, 5, 5, 12),
          make(720, 576, 4, 1, 0, RecursiveFilter::Deriche, split, 2, 2),
          make(1921, 1081, 4, 1, 0, RecursiveFilter::YoungVanVliet2002, split, 10, 10, 4),
          make(1000, 77, 1, 2, 0, RecursiveFilter::Deriche, split, 4, 6, 6),
          make(300, 64, 4, 2, 4, RecursiveFilter::YoungVanVliet2002, split, 20, 1),
          make(500, 40, 4, 1, 0, RecursiveFilter::Deriche, split, 3, 0),
      };
      if (split == LineSplit::KWay) {
        Case many = make(4000, 3, 1, 1, 0, RecursiveFilter::YoungVanVliet2002, split, 2, 1);
        many.s.segments = 200;  // 200 pieces a row: more than a block's threads
        group.push_back(many);
      }
      for (Case& c : group) {
        c.s.launches = launches;
        c.s.two_way_form = TwoWayForm::Warm;
        cases.push_back(c);
      }
    }
  run_cases(cases);
}

CG_TEST(formats_sixteen_bit) {
  std::vector<Case> cases;
  for (LineSplit s : {LineSplit::OneWay, LineSplit::BlockParallel}) {
    cases.push_back(make(385, 289, 1, 2, 0, RecursiveFilter::YoungVanVliet2002, s, 3, 3, 4));
    cases.push_back(make(193, 145, 2, 2, 6, RecursiveFilter::Deriche, s, 3, 3, 2));
    cases.push_back(make(193, 145, 2, 2, 0, RecursiveFilter::YoungVanVliet1995, s, 20, 20));
  }
  run_cases(cases);
}

// Two-way is exact for Deriche and for Young–van Vliet with the exact start-up (the halves swap
// directions, two_way_exact_kernel; Young–van Vliet in its parallel form): with no warm-up at all
// (kappa 0) it must still agree with the exact reference. Odd lengths (the halves differ by
// one), halves of whole batches (lines of 64 and 576: no partial batch) and of every other
// length (the halves start up to 31 steps before their line's edge), lines of 1 and 2 samples
// (run whole), 16-bit with a shift, padded rows, one axis only, partial last blocks (a block
// holds 16 lines), 18,000 columns, sigma 0.5 to 200.
CG_TEST(exact_two_way) {
  std::vector<Case> cases;
  for (RecursiveFilter f : kFilters) {
    cases.push_back(make(1, 1, 4, 1, 0, f, LineSplit::TwoWay, 2, 2));
    cases.push_back(make(2, 3, 1, 1, 0, f, LineSplit::TwoWay, 2, 2, 3));
    cases.push_back(make(3, 2, 3, 1, 0, f, LineSplit::TwoWay, 1, 1));
    cases.push_back(make(33, 65, 2, 1, 0, f, LineSplit::TwoWay, 3, 3, 1));
    cases.push_back(make(385, 289, 4, 1, 0, f, LineSplit::TwoWay, 5, 5, 12));
    cases.push_back(make(720, 576, 4, 1, 0, f, LineSplit::TwoWay, 2, 2));
    cases.push_back(make(1921, 1081, 4, 1, 0, f, LineSplit::TwoWay, 10, 10, 4));
    cases.push_back(make(4500, 20, 4, 1, 0, f, LineSplit::TwoWay, 1, 1));
    cases.push_back(make(300, 64, 4, 2, 4, f, LineSplit::TwoWay, 20, 1));
    cases.push_back(make(500, 40, 3, 1, 0, f, LineSplit::TwoWay, 3, 0));
    cases.push_back(make(70, 501, 1, 2, 0, f, LineSplit::TwoWay, 0, 3));
    for (double sigma : {0.5, 30.0, 90.0, 200.0})
      cases.push_back(make(640, 360, 1, 1, 0, f, LineSplit::TwoWay, sigma, sigma, 2));
  }
  for (Case& c : cases) {
    c.s.kappa = 0.0;
    c.s.two_way_form = TwoWayForm::Exact;
  }
  run_cases(cases);
}

CG_TEST(simple_start_up) {
  std::vector<Case> cases;
  for (LineSplit s : kSplits) {
    Case c = make(385, 289, 4, 1, 0, RecursiveFilter::YoungVanVliet1995, s, 5, 5);
    c.s.start = StartUp::Simple;
    cases.push_back(c);
  }
  run_cases(cases);
}

CG_TEST(constant_images_unchanged) {
  std::vector<Case> cases;
  for (RecursiveFilter f : kFilters)
    for (LineSplit s : kSplits) {
      Case c = make(200, 150, 3, 1, 0, f, s, 8, 8);
      c.constant = true;
      cases.push_back(c);
    }
  run_cases(cases);
}

CG_TEST(refuses_invalid_settings) {
  RecursiveSettings s;
  s.filter = RecursiveFilter::YoungVanVliet1995;
  CHECK(!RecursiveBlur::validate(s, 0.3, 2).ok());  // 1995 needs sigma >= 0.5
  s.filter = RecursiveFilter::Deriche;
  CHECK(RecursiveBlur::validate(s, 0.3, 2).ok());
  s.kappa = -1;
  CHECK(!RecursiveBlur::validate(s, 2, 2).ok());
  RecursiveBlur blur;
  CHECK(!blur.run(nullptr, 4, nullptr, 4, nullptr).ok());
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
