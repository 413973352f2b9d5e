// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the line functions the edge-aware CUDA kernels run (common/edge_aware_lines.h):
// every (line, segment) is replayed here in float, in the order and memory layout
// kernels/edge_aware.cu uses (guide spacing with h transposed; per iteration: transpose, causal
// then anticausal over all segments down the columns, transpose back, the same for the
// columns), and compared with the sequential double reference (common/reference_edge_aware.h).
//   Algorithm A (one segment per line) equals the reference to float rounding;
//   Algorithm C with a warm-up longer than any line is bit-identical to A;
//   skipping warm-ups over constant pixels changes no bit;
//   Algorithm C against A on real photographs: MSE per kappa (Ferreira et al.: negligible at
//   kappa 2; target MSE <= 1 in 8-bit units), printed as a table;
//   the YUV rule's resampled spacings (identity without subsampling, flat where the guide is,
//   transformed distance kept along a line).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "plane_helpers.h"
#include "edge_aware_lines.h"
#include "photo.h"
#include "reference_edge_aware.h"

using namespace cudagaussian;
using cgtest::geometry;
using cgtest::max_diff;
using cgtest::random_plane;

namespace {

// Blocks of random flat colours plus noise: strong edges between calm regions.
PlaneValues blocky_plane(const PlaneGeometry& g, unsigned seed) {
  std::mt19937 rng(seed);
  PlaneValues v(static_cast<size_t>(g.samples_per_row()) * g.height);
  std::vector<int> colour(64 * g.channels);
  for (int& c : colour) c = static_cast<int>(rng() % 256);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      for (int c = 0; c < g.channels; ++c) {
        const int block = (y / 13 % 8) * 8 + x / 17 % 8;
        v[(static_cast<size_t>(y) * g.width + x) * g.channels + c] =
            std::clamp(colour[block * g.channels + c] + static_cast<int>(rng() % 9) - 4, 0, 255);
      }
  return v;
}

struct Split {
  int segments_x = 1, segments_y = 1;  // per row, per column
  double kappa = 2.0;
  bool block_parallel = false;  // segments joined exactly (segments_x/y pieces per line)
};

// The transpose of kernels/edge_aware.cu: height rows of width pixels -> width rows of height.
std::vector<float> transpose(const std::vector<float>& in, int width, int height, int channels) {
  std::vector<float> out(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        out[(static_cast<size_t>(x) * height + y) * channels + c] = in[(static_cast<size_t>(y) * width + x) * channels + c];
  return out;
}

// Replays kernels/edge_aware.cu on one plane that is its own guide (all channels carry edges):
// spacings h (stored transposed), v; per iteration the horizontal pass down the columns of the
// transposed plane, then the vertical pass down the columns of the plane.
std::vector<float> emulate(const PlaneGeometry& g, const PlaneValues& in, EdgeFilter filter, double sigma,
                           double sigma_r, int iterations, const Split& split) {
  const size_t n = in.size(), pitch = g.samples_per_row();
  std::vector<float> a(in.begin(), in.end()), b(n), mid(n);
  std::vector<float> ht(static_cast<size_t>(g.width) * g.height), v(ht.size());
  const float ratio = static_cast<float>(sigma / sigma_r);
  auto load = [&](int x, int y, int c) { return a[y * pitch + static_cast<size_t>(x) * g.channels + c]; };
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      ht[static_cast<size_t>(x) * g.height + y] = guide_spacing(filter, true, x, y, g.channels, ~0u, ratio, load);
      v[static_cast<size_t>(y) * g.width + x] = guide_spacing(filter, false, x, y, g.channels, ~0u, ratio, load);
    }
  for (int it = 1; it <= iterations; ++it) {
    const double sigma_h = iteration_sigma(sigma, it, iterations);
    DtGaussianTerm<float> terms[2];
    dt_gaussian_terms_rounded(sigma_h, terms);
    const float log_a = static_cast<float>(-std::sqrt(2.0) / sigma_h);
    const float extent = static_cast<float>(split.kappa * sigma_h);
    // Down the columns of a width x height plane, as the kernels' threads do: every (line,
    // segment) of one launch, with the index of its block-parallel record.
    auto each_segment = [&](int width, int height, int segments, const std::vector<float>& spacing, auto body) {
      for (int seg = 0; seg < segments; ++seg)
        for (int line = 0; line < width; ++line) {
          const EdgeLine<float> l = edge_line(false, line, width, height, g.channels,
                                              static_cast<size_t>(width) * g.channels, spacing.data());
          int s0, s1;
          edge_segment_bounds(l.length, segments, seg, s0, s1);
          if (s0 < s1) body(l, s0, s1, static_cast<size_t>(seg) * width + line);
        }
    };
    // Block-parallel: carries, scans and applies in launch order.
    auto block_parallel = [&](int width, int height, int segments, const std::vector<float>& spacing,
                              const float* src, float* dst) {
      const int record = edge_record_floats(filter, g.channels), mf = edge_map_floats(g.channels);
      const int term_count = filter == EdgeFilter::Gaussian ? 2 : 1;
      std::vector<float> carries(static_cast<size_t>(width) * segments * record, std::nanf(""));
      auto each = [&](auto stage) {
        each_segment(width, height, segments, spacing,
                     [&](const EdgeLine<float>& l, int s0, int s1, size_t item) { stage(l, s0, s1, &carries[item * record]); });
      };
      auto scan = [&](int map_begin, int map_count) {
        for (int line = 0; line < width; ++line)
          for (int m = map_begin; m < map_begin + map_count; ++m)
            edge_scan_map(&carries[static_cast<size_t>(line) * record + m * mf], static_cast<ptrdiff_t>(width) * record,
                          segments, m / term_count == 1, g.channels);
      };
      if (filter == EdgeFilter::Gaussian) {
        each([&](const EdgeLine<float>& l, int s0, int s1, float* r) { edge_gaussian_bp_carry(l, src, terms, s0, s1, r); });
        scan(0, 4);
        each([&](const EdgeLine<float>& l, int s0, int s1, float* r) { edge_gaussian_bp_apply(l, src, dst, terms, s0, s1, r); });
      } else {
        each([&](const EdgeLine<float>& l, int s0, int s1, float* r) { edge_rf_bp_causal_carry(l, src, log_a, s0, s1, r); });
        scan(0, 1);
        each([&](const EdgeLine<float>& l, int s0, int s1, float* r) { edge_rf_bp_causal_apply(l, src, mid.data(), log_a, s0, s1, r); });
        scan(1, 1);
        each([&](const EdgeLine<float>& l, int s0, int s1, float* r) { edge_rf_bp_anticausal_apply(l, mid.data(), dst, log_a, s0, s1, r); });
      }
    };
    auto pass = [&](int width, int height, int segments, const std::vector<float>& spacing, const float* src,
                    float* dst) {
      if (split.block_parallel) return block_parallel(width, height, segments, spacing, src, dst);
      // RF: all causal segments, then all anticausal ones; Gaussian: both halves per segment.
      if (filter == EdgeFilter::Gaussian)
        return each_segment(width, height, segments, spacing, [&](const EdgeLine<float>& l, int s0, int s1, size_t) {
          edge_gaussian_warm_both(l, src, dst, terms, s0, s1, extent);
        });
      for (int direction = 0; direction < 2; ++direction)
        each_segment(width, height, segments, spacing, [&](const EdgeLine<float>& l, int s0, int s1, size_t) {
          edge_rf_warm(l, direction, src, mid.data(), dst, log_a, s0, s1, extent);
        });
    };
    b = transpose(a, g.width, g.height, g.channels);
    pass(g.height, g.width, split.segments_x, ht, b.data(), a.data());
    b = transpose(a, g.height, g.width, g.channels);
    pass(g.width, g.height, split.segments_y, v, b.data(), a.data());
  }
  return a;
}

// MSE of two float planes after rounding both to 8 bits, as the GPU output would be.
double mse_8bit(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::clamp(std::floor(a[i] + 0.5f), 0.0f, 255.0f) - std::clamp(std::floor(b[i] + 0.5f), 0.0f, 255.0f);
    s += d * d;
  }
  return s / a.size();
}

const EdgeFilter kFilters[] = {EdgeFilter::Gaussian, EdgeFilter::Rf};

}  // namespace

CG_TEST(segments_cover_each_line_once) {
  for (int n : {1, 2, 3, 17, 100, 1081})
    for (int segments : {1, 2, 3, 7, 64, 2000}) {
      std::vector<int> seen(n, 0);
      for (int seg = 0; seg < segments; ++seg) {
        int s0, s1;
        edge_segment_bounds(n, segments, seg, s0, s1);
        for (int k = s0; k < s1; ++k) ++seen[k];
      }
      CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    }
}

CG_TEST(warm_up_bounds_meet_their_extent) {
  std::vector<float> spacing(50);
  std::mt19937 rng(3);
  for (float& s : spacing) s = 1.0f + static_cast<float>(rng() % 40);
  const EdgeLine<float> l{0, 1, spacing.data(), 1, 50, 1};
  for (int s0 : {0, 1, 10, 49})
    for (float extent : {0.0f, 1.0f, 30.0f, 1e9f}) {
      const int w = edge_warmup_begin(l, s0, extent);
      float sum = 0;
      for (int j = w + 1; j <= s0; ++j) sum += spacing[j];
      CHECK(w <= s0 && (w == 0 || sum >= extent));
      // The shortest such warm-up: one sample less would not reach the extent.
      if (w < s0) CHECK(sum - spacing[w + 1] < extent);
      const int e = edge_warmup_end(l, s0, extent);
      float sum_e = 0;
      for (int j = s0 + 1; j <= e; ++j) sum_e += spacing[j];
      CHECK(e >= s0 && (e == 49 || sum_e >= extent));
      if (e > s0) CHECK(sum_e - spacing[e] < extent);
    }
}

CG_TEST(algorithm_a_in_float_matches_the_double_reference) {
  struct Case { int w, h, c; double sigma, sigma_r; int iterations; bool blocky; };
  const Case cases[] = {{1, 1, 1, 2, 20, 3, false},  {3, 2, 4, 1, 10, 2, false},
                        {61, 47, 3, 5, 30, 3, true}, {64, 40, 4, 20, 50, 2, true},
                        {97, 31, 1, 40, 1e6, 1, false}, {40, 33, 2, 200, 20, 3, true}};
  for (const Case& c : cases)
    for (EdgeFilter f : kFilters) {
      const PlaneGeometry g = geometry(c.w, c.h, c.c);
      const PlaneValues in = c.blocky ? blocky_plane(g, 7) : random_plane(g, 7);
      const PlaneValues ref = f == EdgeFilter::Rf
                                  ? reference_domain_transform_rf(g, in, c.sigma, c.sigma_r, c.iterations)
                                  : reference_domain_transform_gaussian(g, in, c.sigma, c.sigma_r, c.iterations);
      const double d = max_diff(emulate(g, in, f, c.sigma, c.sigma_r, c.iterations, Split{}), ref);
      std::printf("  %s %dx%d C%d sigma %g sigma_r %g N %d: max |float A - double ref| = %.2e\n",
                  edge_filter_name(f), c.w, c.h, c.c, c.sigma, c.sigma_r, c.iterations, d);
      CHECK(d <= 0.02);
    }
}

CG_TEST(algorithm_a_and_block_parallel_hold_on_16_bit_planes_at_large_sigma) {
  // 16-bit values (0..65535) at the element's largest sigma and beyond: float stays within half
  // a sample of the double reference.
  for (double sigma : {250.0, 1000.0})
    for (int iterations : {1, 3})
      for (EdgeFilter f : kFilters) {
        const PlaneGeometry g = geometry(300, 40, 2);
        PlaneValues in = blocky_plane(g, 21);
        for (double& v : in) v *= 257.0;
        const double sigma_r = 30.0 * 257.0;
        const PlaneValues ref = f == EdgeFilter::Rf ? reference_domain_transform_rf(g, in, sigma, sigma_r, iterations)
                                                    : reference_domain_transform_gaussian(g, in, sigma, sigma_r, iterations);
        const double da = max_diff(emulate(g, in, f, sigma, sigma_r, iterations, Split{}), ref);
        const double db = max_diff(emulate(g, in, f, sigma, sigma_r, iterations, Split{10, 2, 0.0, true}), ref);
        std::printf("  16-bit %s sigma %g N %d: max |A - ref| = %.3g, |block-parallel - ref| = %.3g\n",
                    edge_filter_name(f), sigma, iterations, da, db);
        CHECK(da <= 0.5);
        CHECK(db <= 0.5);
      }
}

CG_TEST(algorithm_c_with_warm_up_beyond_the_line_is_algorithm_a) {
  const PlaneGeometry g = geometry(90, 70, 3);
  const PlaneValues in = blocky_plane(g, 11);
  for (EdgeFilter f : kFilters) {
    const std::vector<float> a = emulate(g, in, f, 6.0, 25.0, 2, Split{});
    const std::vector<float> c = emulate(g, in, f, 6.0, 25.0, 2, Split{5, 4, 1e6});
    CHECK(a == c);
  }
}

CG_TEST(skipping_constant_warm_ups_changes_nothing) {
  // A line of flat stretches, a noisy one and steps: every segment of the Gaussian filtered with
  // and without edge_skip_constant_warmup gives the same bits, and some warm-ups are skipped.
  constexpr int kLength = 300;
  for (int channels : {1, 4}) {
    std::vector<float> in(static_cast<size_t>(kLength) * channels);
    std::mt19937 rng(9);
    for (int k = 0; k < kLength; ++k)
      for (int c = 0; c < channels; ++c) {
        const float level = k < 100 ? 40.0f + c : k < 130 ? static_cast<float>(rng() % 256) : k < 260 ? 200.0f : 90.0f;
        in[static_cast<size_t>(k) * channels + c] = level;
      }
    std::vector<float> spacing(kLength, 1.0f);
    for (int k = 1; k < kLength; ++k)
      spacing[k] = gaussian_spacing(&in[(k - 1) * channels], &in[k * channels], channels, 0.5f);
    const EdgeLine<float> l{0, channels, spacing.data(), 1, kLength, channels};
    for (double sigma_h : {3.0, 40.0}) {
      DtGaussianTerm<float> terms[2];
      dt_gaussian_terms_rounded(sigma_h, terms);
      const float extent = static_cast<float>(2.0 * sigma_h);
      int skipped = 0;
      for (int segments : {1, 3, 7, 20, 300}) {
        std::vector<float> mid[2], out[2];
        for (int skip = 0; skip < 2; ++skip) {
          mid[skip].assign(in.size(), std::nanf("")), out[skip].assign(in.size(), std::nanf(""));
          for (int seg = 0; seg < segments; ++seg) {
            int s0, s1;
            edge_segment_bounds(kLength, segments, seg, s0, s1);
            edge_gaussian_walk(l, 0, in.data(), mid[skip].data(), edge_store_into(out[skip].data(), channels), terms, s0,
                               s1, extent, skip == 1);
            edge_gaussian_walk(l, 1, in.data(), mid[skip].data(), edge_store_into(out[skip].data(), channels), terms, s0,
                               s1, extent, skip == 1);
            if (skip == 1)
              for (int direction : {0, 1}) {
                const int start = edge_warm_start(l, direction, s0, s1, extent);
                skipped += edge_skip_constant_warmup(l, in.data(), direction, start, s0, s1) != start;
              }
          }
        }
        CHECK(std::memcmp(out[0].data(), out[1].data(), in.size() * sizeof(float)) == 0);
      }
      CHECK(skipped > 0);
    }
  }
}

CG_TEST(block_parallel_equals_algorithm_a) {
  struct Case { int w, h, c, segments_x, segments_y; double sigma, sigma_r; int iterations; };
  const Case cases[] = {{1, 1, 1, 1, 1, 3, 20, 2},   {5, 3, 4, 5, 3, 2, 10, 2},     {90, 70, 3, 3, 7, 6, 25, 2},
                        {64, 48, 4, 2, 2, 20, 40, 3}, {61, 47, 2, 61, 47, 40, 15, 1}, {33, 29, 1, 4, 4, 200, 20, 3}};
  for (const Case& c : cases)
    for (EdgeFilter f : kFilters) {
      const PlaneGeometry g = geometry(c.w, c.h, c.c);
      const PlaneValues in = blocky_plane(g, 13);
      const std::vector<float> a = emulate(g, in, f, c.sigma, c.sigma_r, c.iterations, Split{});
      Split bp{c.segments_x, c.segments_y, 0.0, true};
      const std::vector<float> b = emulate(g, in, f, c.sigma, c.sigma_r, c.iterations, bp);
      double d = 0;
      for (size_t i = 0; i < a.size(); ++i) d = std::fmax(d, std::fabs(double(a[i]) - b[i]));
      std::printf("  %s %dx%d C%d, %dx%d segments, sigma %g: max |block-parallel - A| = %.2e\n", edge_filter_name(f),
                  c.w, c.h, c.c, c.segments_x, c.segments_y, c.sigma, d);
      CHECK(d <= 2e-3);
      const PlaneValues ref = f == EdgeFilter::Rf
                                  ? reference_domain_transform_rf(g, in, c.sigma, c.sigma_r, c.iterations)
                                  : reference_domain_transform_gaussian(g, in, c.sigma, c.sigma_r, c.iterations);
      CHECK(max_diff(b, ref) <= 0.02);
    }
}

CG_TEST(algorithm_c_error_against_a_falls_with_kappa_on_photographs) {
  gst_init(nullptr, nullptr);
  const char* dir = std::getenv("CG_TEST_DATA");
  const std::string data = dir ? dir : "tests/data";
  std::printf("  MSE (8-bit) of Algorithm C against A, RGBA photographs tiled to 320x240, sigma 10,\n"
              "  sigma_r 30, 2 iterations, 8 segments per line:\n");
  std::printf("  | photo | filter | kappa 0 | 0.5 | 1 | 2 | 3 |\n  |---|---|---|---|---|---|---|\n");
  int photos = 0;
  for (const char* name : {"fruits.jpg", "baboon.jpg", "building.jpg"}) {
    int w = 0, h = 0;
    std::vector<uint8_t> pixels;
    if (!load_photo(data + "/" + name, "RGBA", 4, &w, &h, &pixels)) continue;
    ++photos;
    const PlaneGeometry g = geometry(320, 240, 4);
    const std::vector<uint8_t> tiled = tile_photo(pixels, w, h, 4, g.width, g.height);
    const PlaneValues in(tiled.begin(), tiled.end());
    for (EdgeFilter f : kFilters) {
      const std::vector<float> a = emulate(g, in, f, 10.0, 30.0, 2, Split{});
      std::printf("  | %s | %s |", name, edge_filter_name(f));
      double previous = 1e30;
      for (double kappa : {0.0, 0.5, 1.0, 2.0, 3.0}) {
        const double mse = mse_8bit(emulate(g, in, f, 10.0, 30.0, 2, Split{8, 8, kappa}), a);
        std::printf(" %.3g |", mse);
        CHECK(mse <= previous * 1.05 + 1e-3);  // a longer warm-up never hurts (beyond noise)
        previous = mse;
        if (f == EdgeFilter::Gaussian && kappa == 2.0) CHECK(mse <= 1.0);  // per Ferreira et al.
      }
      std::printf("\n");
    }
  }
  CHECK(photos == 3);
}

CG_TEST(resampled_spacing_keeps_the_guide) {
  const PlaneGeometry gg = geometry(37, 23, 1);
  const PlaneValues guide = blocky_plane(gg, 5);
  const EdgeSpacing luma = reference_edge_spacing(gg, guide, EdgeFilter::Gaussian, 0.4, 0.3);
  // Without subsampling: the guide's own spacing.
  const EdgeSpacing same = resample_edge_spacing(luma, 37, 23, 1, 1);
  CHECK(same.h == luma.h && same.v == luma.v);
  // A flat guide: spacing 1 everywhere at any subsampling.
  const EdgeSpacing flat = reference_edge_spacing(gg, PlaneValues(guide.size(), 9.0), EdgeFilter::Rf, 3, 3);
  const EdgeSpacing flat2 = resample_edge_spacing(flat, 19, 12, 2, 2);
  CHECK(std::all_of(flat2.h.begin(), flat2.h.end(), [](double d) { return d == 1.0; }));
  CHECK(std::all_of(flat2.v.begin(), flat2.v.end(), [](double d) { return d == 1.0; }));
  // A guide that changes along x only: a chroma row covers the same transformed length as the
  // luma row (half the samples, each twice as far apart in plane pixels over 2).
  const PlaneGeometry g1 = geometry(36, 4, 1);
  PlaneValues ramp(static_cast<size_t>(36) * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 36; ++x) ramp[y * 36 + x] = (x * 37) % 256;
  const EdgeSpacing l1 = reference_edge_spacing(g1, ramp, EdgeFilter::Rf, 0.5, 0.5);
  const EdgeSpacing c1 = resample_edge_spacing(l1, 18, 2, 2, 2);
  double luma_length = 0, chroma_length = 0;
  for (int x = 1; x < 35; ++x) luma_length += l1.h[x];  // from luma 0 to luma 34 = chroma 17
  for (int x = 1; x < 18; ++x) chroma_length += c1.h[x];
  CHECK(std::fabs(chroma_length * 2 - luma_length) < 1e-9);
}

CG_TEST_MAIN()
