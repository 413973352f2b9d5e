// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU unit tests of common/: taps, border rules, the double reference, plane I/O and metrics.
// These pin down the ground truth that the GPU tests compare against, so they check it against
// independent definitions (brute force, hand-computed values), not against itself.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "border.h"
#include "check.h"
#include "fast_divisor.h"
#include "fir_taps.h"
#include "incremental_taps.h"
#include "plane.h"
#include "quality.h"
#include "reference_blur.h"

using namespace cudagaussian;

namespace {

const Border kBorders[] = {Border::Replicate, Border::Mirror, Border::Reflect};

PlaneGeometry geometry(int w, int h, int c, int bytes = 1, int shift = 0) {
  PlaneGeometry g;
  g.width = w;
  g.height = h;
  g.channels = c;
  g.bytes_per_sample = bytes;
  g.shift = shift;
  return g;
}

// Brute-force border rule: walk from sample 0 one step at a time, bouncing off the image ends.
// Mirror bounces without repeating the edge sample (dcb|abcd|cba); reflect repeats it
// (cba|abcd|dcb); replicate sticks at the edge. Independent of the modulo arithmetic in border.h.
int brute_border(int i, int n, Border border) {
  int idx = 0;
  const int step = i >= 0 ? 1 : -1;
  int dir = step;
  for (int p = 0; p != i; p += step) {
    int next = idx + dir;
    if (next < 0 || next >= n) {
      if (border == Border::Replicate) {
        next = idx;
      } else if (border == Border::Reflect) {
        dir = -dir;
        next = idx;  // the edge sample is seen a second time
      } else {
        dir = -dir;
        next = idx + dir;
        if (next < 0 || next >= n) next = idx;  // n == 1: nowhere to go
      }
    }
    idx = next;
  }
  return idx;
}

double tap_sum(const std::vector<double>& t) {
  double s = 0.0;
  for (double v : t) s += v;
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Taps

CG_TEST(taps_sum_to_one) {
  for (double sigma : {0.1, 0.3, 0.5, 1.0, 2.5, 7.3, 30.0, 100.0, 250.0}) {
    for (double truncate : {1.0, 3.0, 4.0, 8.0}) {
      const int r = fir_radius(sigma, truncate);
      const auto t = gaussian_taps(sigma, r);
      CHECK(t.size() == size_t(2 * r + 1));
      CHECK_NEAR(tap_sum(t), 1.0, 1e-12);
    }
    CHECK_NEAR(tap_sum(gaussian_taps(sigma, exact_radius(sigma))), 1.0, 1e-12);
  }
}

CG_TEST(taps_symmetric_and_decreasing) {
  for (double sigma : {0.2, 1.0, 3.7, 40.0}) {
    const int r = exact_radius(sigma);
    const auto t = gaussian_taps(sigma, r);
    for (int k = 1; k <= r; ++k) {
      CHECK(t[r + k] == t[r - k]);  // computed from k*k: bit-identical
      CHECK(t[r + k] <= t[r + k - 1]);
      CHECK(t[r + k] >= 0.0);
    }
  }
}

CG_TEST(taps_values_are_sampled_gaussian) {
  const double sigma = 1.7;
  const int r = 7;
  const auto t = gaussian_taps(sigma, r);
  // Ratios do not depend on the normalisation: g[k]/g[0] = exp(-k^2 / 2 sigma^2).
  for (int k = 0; k <= r; ++k)
    CHECK_NEAR(t[r + k] / t[r], std::exp(-k * k / (2 * sigma * sigma)), 1e-15);
}

// The sampled Gaussian's variance equals sigma^2 up to aliasing terms ~ exp(-2 pi^2 sigma^2)
// (Poisson summation): relative error 2.1e-7 at sigma 1, < 1e-13 from sigma 1.5. Tolerance: 1e-6
// relative for sigma >= 1 with the exact (8 sigma + 1) support, where truncation is negligible.
CG_TEST(taps_variance_is_sigma_squared) {
  for (double sigma : {1.0, 1.5, 2.0, 5.0, 10.0, 30.0, 100.0}) {
    const int r = exact_radius(sigma);
    const auto t = gaussian_taps(sigma, r);
    double mean = 0.0, var = 0.0;
    for (int k = -r; k <= r; ++k) mean += k * t[k + r];
    for (int k = -r; k <= r; ++k) var += double(k) * k * t[k + r];
    CHECK_NEAR(mean, 0.0, 1e-12 * sigma);
    CHECK_NEAR(var / (sigma * sigma), 1.0, 1e-6);
  }
}

CG_TEST(taps_identity_at_sigma_zero) {
  CHECK(gaussian_taps(0.0, 0) == std::vector<double>{1.0});
  CHECK(gaussian_taps(0.0, 5) == std::vector<double>{1.0});
  CHECK(gaussian_taps(2.0, 0) == std::vector<double>{1.0});
  CHECK(fir_radius(0.0, 4.0) == 0);
  CHECK(exact_radius(0.0) == 0);
}

CG_TEST(fir_radius_values) {
  CHECK(fir_radius(1.0, 4.0) == 4);
  CHECK(fir_radius(2.5, 4.0) == 10);  // not 11
  CHECK(fir_radius(2.0, 3.0) == 6);
  CHECK(fir_radius(1.5, 3.0) == 5);   // 4.5 rounds up
  CHECK(fir_radius(0.1, 4.0) == 1);
  CHECK(fir_radius(0.3, 3.0) == 1);   // 0.9
  CHECK(fir_radius(0.7, 3.0) == 3);   // 2.1
  CHECK(fir_radius(33.2, 7.5) == 249);  // the product is 249.00000000000003 in double
  CHECK(fir_radius(16.4, 7.5) == 123);  // the product is 122.99999999999999
  CHECK(fir_radius(100.0, 4.0) == 400);
  CHECK(fir_radius(250.0, 8.0) == 2000);
  CHECK(fir_radius(10.0, 1.0) == 10);
  CHECK(exact_radius(1.0) == 9);
  CHECK(exact_radius(0.5) == 5);
  CHECK(exact_radius(2.5) == 21);
}

CG_TEST(to_float_matches) {
  const auto t = gaussian_taps(3.0, 12);
  const auto f = to_float(t);
  CHECK(f.size() == t.size());
  for (size_t i = 0; i < t.size(); ++i) CHECK(f[i] == static_cast<float>(t[i]));
}

// ---------------------------------------------------------------------------------------------
// Border rules

// The multiply-and-shift division against the integer one: every small divisor with the
// numerators a kernel meets and the extremes of the range, and divisors up to 2^31 - 1.
CG_TEST(fast_divisor_matches_division) {
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  std::vector<int> divisors;
  for (int d = 1; d <= 1100; ++d) divisors.push_back(d);
  for (int k = 11; k < 31; ++k) divisors.insert(divisors.end(), {(1 << k) - 1, 1 << k, (1 << k) + 1});
  divisors.push_back(std::numeric_limits<int>::max());
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + static_cast<int>(next() % 0x7fffffffu));
  for (int d : divisors) {
    const FastDivisor f(d);
    CHECK(f.divisor == d);
    std::vector<int> numerators;
    for (int n = 0; n < 4096; ++n) numerators.push_back(n);
    for (int q = 1; q < 64; ++q)
      for (int e : {-1, 0, 1})
        if (static_cast<int64_t>(q) * d + e >= 0 && static_cast<int64_t>(q) * d + e <= std::numeric_limits<int>::max())
          numerators.push_back(static_cast<int>(static_cast<int64_t>(q) * d + e));
    for (int64_t n = std::numeric_limits<int>::max() - 4096; n <= std::numeric_limits<int>::max(); ++n)
      numerators.push_back(static_cast<int>(n));
    for (int i = 0; i < 2000; ++i) numerators.push_back(static_cast<int>(next() & 0x7fffffffu));
    for (int n : numerators) {
      if (f.divide(n) != n / d) {
        std::fprintf(stderr, "%d / %d: %d\n", n, d, f.divide(n));
        CHECK(f.divide(n) == n / d);
        return;
      }
    }
  }
}

CG_TEST(border_index_hand_values) {
  // n = 4: abcd
  const int mirror_left[] = {1, 2, 3, 2, 1, 0};   // i = -1 .. -6: dcb|abcd -> b c d c b a
  const int reflect_left[] = {0, 1, 2, 3, 3, 2};  // cba|abcd -> a b c d d c
  for (int j = 0; j < 6; ++j) {
    CHECK(border_index(-1 - j, 4, Border::Mirror) == mirror_left[j]);
    CHECK(border_index(-1 - j, 4, Border::Reflect) == reflect_left[j]);
    CHECK(border_index(-1 - j, 4, Border::Replicate) == 0);
    CHECK(border_index(4 + j, 4, Border::Mirror) == 3 - mirror_left[j]);
    CHECK(border_index(4 + j, 4, Border::Reflect) == 3 - reflect_left[j]);
    CHECK(border_index(4 + j, 4, Border::Replicate) == 3);
  }
  // n = 2: ab
  CHECK(border_index(-1, 2, Border::Mirror) == 1);
  CHECK(border_index(-2, 2, Border::Mirror) == 0);
  CHECK(border_index(2, 2, Border::Mirror) == 0);
  CHECK(border_index(3, 2, Border::Mirror) == 1);
  CHECK(border_index(-1, 2, Border::Reflect) == 0);
  CHECK(border_index(-2, 2, Border::Reflect) == 1);
  CHECK(border_index(-3, 2, Border::Reflect) == 1);
  CHECK(border_index(2, 2, Border::Reflect) == 1);
  CHECK(border_index(3, 2, Border::Reflect) == 0);
  // n = 1: every rule gives the one sample
  for (Border b : kBorders)
    for (int i : {-1000, -2, -1, 0, 1, 2, 1000}) CHECK(border_index(i, 1, b) == 0);
}

CG_TEST(border_index_matches_brute_force) {
  for (Border b : kBorders) {
    for (int n : {1, 2, 3, 4, 5, 8, 17}) {
      int bad = 0;
      for (int i = -4 * n - 7; i <= 5 * n + 7; ++i)
        if (border_index(i, n, b) != brute_border(i, n, b)) ++bad;
      for (int i : {-1000, -999, -998, 997, 998, 999, 1000, -12345, 12345}) {
        const int got = border_index(i, n, b);
        if (got != brute_border(i, n, b) || got < 0 || got >= n) ++bad;
      }
      CHECK_MSG(bad == 0, "border %s n=%d: %d mismatches", border_name(b), n, bad);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The reference filter

CG_TEST(constant_image_unchanged_u8) {
  const auto g = geometry(17, 13, 4);
  const PlaneValues in(size_t(g.samples_per_row()) * g.height, 200.0);
  for (Border b : kBorders) {
    for (double sigma : {0.5, 3.0, 20.0}) {  // 20: the support is far wider than the image
      const auto out = exact_gaussian(g, in, sigma, sigma * 0.5, b);
      double worst = 0.0;
      for (double v : out) worst = std::fmax(worst, std::fabs(v - 200.0));
      CHECK_NEAR(worst, 0.0, 1e-10);
      std::vector<uint8_t> buf(g.row_bytes() * g.height, 0);
      store_plane(g, out, buf.data(), g.row_bytes());
      bool all = true;
      for (uint8_t v : buf) all = all && v == 200;
      CHECK_MSG(all, "border %s sigma %g", border_name(b), sigma);
    }
  }
}

CG_TEST(constant_image_unchanged_u16_and_p010) {
  struct Case { int shift; double value; };
  for (Case c : {Case{0, 51234.0}, Case{0, 65535.0}, Case{6, 1000.0}, Case{6, 1023.0}}) {
    const auto g = geometry(9, 11, 2, 2, c.shift);
    const PlaneValues in(size_t(g.samples_per_row()) * g.height, c.value);
    for (Border b : kBorders) {
      const auto out = exact_gaussian(g, in, 4.0, 4.0, b);
      std::vector<uint16_t> buf(size_t(g.samples_per_row()) * g.height, 0);
      store_plane(g, out, buf.data(), g.row_bytes());
      const uint16_t want = static_cast<uint16_t>(unsigned(c.value) << c.shift);
      bool all = true;
      for (uint16_t v : buf) all = all && v == want;
      CHECK_MSG(all, "shift %d value %g border %s", c.shift, c.value, border_name(b));
    }
  }
}

CG_TEST(sigma_zero_is_identity) {
  const auto g = geometry(5, 4, 3);
  PlaneValues in(size_t(g.samples_per_row()) * g.height);
  for (size_t i = 0; i < in.size(); ++i) in[i] = double((i * 37) % 256);
  for (Border b : kBorders) CHECK(exact_gaussian(g, in, 0.0, 0.0, b) == in);
}

// Far from the borders the response to a unit impulse is the outer product of the taps.
CG_TEST(impulse_gives_sampled_gaussian) {
  struct Case { double sx, sy; };
  for (Case c : {Case{2.0, 2.0}, Case{1.0, 3.0}, Case{0.6, 0.6}}) {
    const auto g = geometry(64, 70, 3);
    const int cx = 30, cy = 33, ch = 1;
    PlaneValues in(size_t(g.samples_per_row()) * g.height, 0.0);
    in[size_t(cy) * g.samples_per_row() + cx * 3 + ch] = 1.0;
    const int rx = exact_radius(c.sx), ry = exact_radius(c.sy);
    CHECK(cx - rx >= 0 && cx + rx < g.width && cy - ry >= 0 && cy + ry < g.height);
    const auto tx = gaussian_taps(c.sx, rx), ty = gaussian_taps(c.sy, ry);
    for (Border b : kBorders) {
      const auto out = exact_gaussian(g, in, c.sx, c.sy, b);
      double worst = 0.0, other = 0.0;
      for (int y = 0; y < g.height; ++y) {
        for (int x = 0; x < g.width; ++x) {
          const int dx = x - cx, dy = y - cy;
          const double want =
              (std::abs(dx) <= rx && std::abs(dy) <= ry) ? tx[dx + rx] * ty[dy + ry] : 0.0;
          const size_t at = size_t(y) * g.samples_per_row() + x * 3;
          worst = std::fmax(worst, std::fabs(out[at + ch] - want));
          other = std::fmax(other, std::fabs(out[at]) + std::fabs(out[at + 2]));
        }
      }
      CHECK_NEAR(worst, 0.0, 1e-15);
      CHECK(other == 0.0);  // channels are never mixed
    }
  }
}

// A 1D signal 0 10 20 40 with taps {.1 .2 .4 .2 .1}: every output below is worked out by hand
// from the border rule's extension of the signal.
CG_TEST(border_rules_hand_computed) {
  const std::vector<double> taps = {0.1, 0.2, 0.4, 0.2, 0.1};
  const std::vector<double> one = {1.0};
  struct Case { Border border; double want[4]; };
  const Case cases[] = {
      // replicate: 0 0 | 0 10 20 40 | 40 40
      {Border::Replicate, {4.0, 12.0, 22.0, 33.0}},
      // mirror: 20 10 | 0 10 20 40 | 20 10
      {Border::Mirror, {8.0, 13.0, 20.0, 26.0}},
      // reflect: 10 0 | 0 10 20 40 | 40 20
      {Border::Reflect, {5.0, 12.0, 22.0, 31.0}},
  };
  for (const Case& c : cases) {
    // Horizontal: a row of two channels, the second the reversed signal.
    const auto gh = geometry(4, 1, 2);
    const PlaneValues row = {0, 40, 10, 20, 20, 10, 40, 0};
    const auto h = reference_fir(gh, row, taps, one, c.border);
    // Vertical: a column, through the same taps on the other axis.
    const auto gv = geometry(1, 4, 1);
    const auto v = reference_fir(gv, {0, 10, 20, 40}, one, taps, c.border);
    for (int i = 0; i < 4; ++i) {
      CHECK_NEAR(h[2 * i], c.want[i], 1e-12);
      CHECK_NEAR(h[2 * i + 1], c.want[3 - i], 1e-12);
      CHECK_NEAR(v[i], c.want[i], 1e-12);
    }
    // A height-1 image: the vertical pass sees the row on every side, so it is the identity.
    const auto hv = reference_fir(gh, row, taps, taps, c.border);
    for (size_t i = 0; i < hv.size(); ++i) CHECK_NEAR(hv[i], h[i], 1e-12);
  }
  // A radius wider than the image: width 2 (0 10), mirror extension ... 0 10 | 0 10 | 0 10 ...
  const auto g2 = geometry(2, 1, 1);
  const auto m = reference_fir(g2, {0, 10}, taps, one, Border::Mirror);
  CHECK_NEAR(m[0], 0.1 * 0 + 0.2 * 10 + 0.4 * 0 + 0.2 * 10 + 0.1 * 0, 1e-12);
  CHECK_NEAR(m[1], 0.1 * 10 + 0.2 * 0 + 0.4 * 10 + 0.2 * 0 + 0.1 * 10, 1e-12);
  // reflect: ... 10 0 | 0 10 | 10 0 ...
  const auto r = reference_fir(g2, {0, 10}, taps, one, Border::Reflect);
  CHECK_NEAR(r[0], 0.1 * 10 + 0.2 * 0 + 0.4 * 0 + 0.2 * 10 + 0.1 * 10, 1e-12);
  CHECK_NEAR(r[1], 0.1 * 0 + 0.2 * 0 + 0.4 * 10 + 0.2 * 10 + 0.1 * 0, 1e-12);
}

CG_TEST(exact_gaussian_is_fir_with_exact_taps) {
  const auto g = geometry(23, 19, 1);
  PlaneValues in(size_t(g.samples_per_row()) * g.height);
  for (size_t i = 0; i < in.size(); ++i) in[i] = double((i * 7919) % 251);
  const double sx = 1.3, sy = 2.2;
  const auto a = exact_gaussian(g, in, sx, sy, Border::Mirror);
  const auto b = reference_fir(g, in, gaussian_taps(sx, exact_radius(sx)),
                               gaussian_taps(sy, exact_radius(sy)), Border::Mirror);
  CHECK(a == b);
  // Non-negative taps summing to 1: the output never leaves the input range.
  for (double v : a) CHECK(v >= -1e-9 && v <= 250.0 + 1e-9);
}

// ---------------------------------------------------------------------------------------------
// Plane I/O

CG_TEST(store_plane_rounds_and_clamps_u8) {
  const PlaneValues v = {-5, -0.4, 0.49, 0.5, 1.5, 2.5, 127.4999, 254.4, 254.5, 255, 300, 1e9};
  const uint8_t want[] = {0, 0, 0, 1, 2, 3, 127, 254, 255, 255, 255, 255};  // halves round up
  const auto g = geometry(int(v.size()), 1, 1);
  std::vector<uint8_t> buf(v.size());
  store_plane(g, v, buf.data(), buf.size());
  for (size_t i = 0; i < v.size(); ++i) CHECK_MSG(buf[i] == want[i], "value %g -> %d", v[i], buf[i]);
}

CG_TEST(store_plane_rounds_and_clamps_u16) {
  const PlaneValues v = {-1, 0.5, 1000.49, 1000.5, 65534.5, 65535.4, 65535.5, 70000};
  const uint16_t want[] = {0, 1, 1000, 1001, 65535, 65535, 65535, 65535};
  const auto g = geometry(int(v.size()), 1, 1, 2, 0);
  std::vector<uint16_t> buf(v.size());
  store_plane(g, v, buf.data(), g.row_bytes());
  for (size_t i = 0; i < v.size(); ++i) CHECK_MSG(buf[i] == want[i], "value %g -> %d", v[i], buf[i]);
}

CG_TEST(store_plane_p010_shift6) {
  const PlaneValues v = {-1, 0.4, 0.5, 512.49, 512.5, 1022.5, 1023, 1023.4, 2000, 65535};
  const unsigned want[] = {0, 0, 1, 512, 513, 1023, 1023, 1023, 1023, 1023};
  const auto g = geometry(int(v.size()), 1, 1, 2, 6);
  CHECK(g.max_value() == 1023);
  std::vector<uint16_t> buf(v.size(), 0xffff);
  store_plane(g, v, buf.data(), g.row_bytes());
  for (size_t i = 0; i < v.size(); ++i) {
    CHECK_MSG((buf[i] & 0x3f) == 0, "stored 0x%04x has low bits set", buf[i]);
    CHECK_MSG(buf[i] == want[i] << 6, "value %g -> 0x%04x", v[i], buf[i]);
  }
  // Round trip through read_plane.
  const auto back = read_plane(g, buf.data(), g.row_bytes());
  for (size_t i = 0; i < v.size(); ++i) CHECK(back[i] == want[i]);
}

CG_TEST(store_plane_leaves_row_padding) {
  const auto g = geometry(3, 2, 2);  // 6 bytes a row
  const size_t pitch = 9;
  std::vector<uint8_t> buf(pitch * g.height, 0xab);
  store_plane(g, PlaneValues(12, 7.0), buf.data(), pitch);
  for (int y = 0; y < g.height; ++y)
    for (size_t i = 0; i < pitch; ++i) CHECK(buf[y * pitch + i] == (i < 6 ? 7 : 0xab));
}

CG_TEST(read_plane_padded_pitch) {
  // 8-bit, 3 pixels x 2 channels, pitch 9: the last 3 bytes of each row are padding.
  const auto g = geometry(3, 2, 2);
  const size_t pitch = 9;
  std::vector<uint8_t> buf(pitch * g.height, 0xee);
  for (int y = 0; y < 2; ++y)
    for (int i = 0; i < 6; ++i) buf[y * pitch + i] = uint8_t(10 * y + i);
  const auto v = read_plane(g, buf.data(), pitch);
  CHECK(v.size() == 12);
  for (int y = 0; y < 2; ++y)
    for (int i = 0; i < 6; ++i) CHECK(v[y * 6 + i] == 10 * y + i);

  // 16-bit little endian, 2 samples a row, pitch 7 (odd: unaligned rows).
  const auto g16 = geometry(2, 3, 1, 2, 0);
  const size_t pitch16 = 7;
  std::vector<uint8_t> b16(pitch16 * g16.height, 0xee);
  for (int y = 0; y < 3; ++y) {
    for (int i = 0; i < 2; ++i) {
      const unsigned s = 1000u * y + 300u * i + 258u;
      b16[y * pitch16 + 2 * i] = uint8_t(s & 0xff);
      b16[y * pitch16 + 2 * i + 1] = uint8_t(s >> 8);
    }
  }
  const auto v16 = read_plane(g16, b16.data(), pitch16);
  for (int y = 0; y < 3; ++y)
    for (int i = 0; i < 2; ++i) CHECK(v16[y * 2 + i] == 1000 * y + 300 * i + 258);

  // P010: the low 6 bits are discarded.
  const auto g10 = geometry(3, 1, 1, 2, 6);
  const uint16_t p010[] = {0xffc0, 0x0041, 0x803f};
  const auto v10 = read_plane(g10, p010, sizeof p010);
  CHECK(v10[0] == 1023);
  CHECK(v10[1] == 1);
  CHECK(v10[2] == 512);
}

CG_TEST(plane_geometry) {
  auto g = geometry(1921, 1081, 4);
  CHECK(g.valid());
  CHECK(g.samples_per_row() == 7684);
  CHECK(g.row_bytes() == 7684);
  CHECK(g.max_value() == 255);
  g = geometry(960, 540, 2, 2, 6);  // P010 UV plane
  CHECK(g.valid());
  CHECK(g.row_bytes() == 3840);
  CHECK(g.max_value() == 1023);
  CHECK(geometry(4, 4, 1, 2, 0).max_value() == 65535);
  CHECK(!geometry(0, 4, 1).valid());
  CHECK(!geometry(4, 0, 1).valid());
  CHECK(!geometry(4, 4, 5).valid());
  CHECK(!geometry(4, 4, 1, 3).valid());
  CHECK(!geometry(4, 4, 1, 1, 2).valid());  // a shift needs 16-bit samples
}

// ---------------------------------------------------------------------------------------------
// Metrics

CG_TEST(compare_planes_metrics) {
  const auto g = geometry(2, 2, 1);
  const auto s = compare_planes(g, {1, 2, 3, 4}, {1, 2, 3, 6});
  CHECK_NEAR(s.mse, 1.0, 1e-15);
  CHECK_NEAR(s.max_abs, 2.0, 1e-15);
  CHECK_NEAR(s.psnr, 10.0 * std::log10(255.0 * 255.0), 1e-12);  // 48.13 dB

  const auto half = compare_planes(geometry(1, 1, 1), {0}, {0.5});
  CHECK_NEAR(half.mse, 0.25, 1e-15);
  CHECK_NEAR(half.max_abs, 0.5, 1e-15);
  CHECK_NEAR(half.psnr, 10.0 * std::log10(255.0 * 255.0 / 0.25), 1e-12);

  // The peak is the plane's own: 1023 for P010, 65535 for 16-bit.
  const auto p = compare_planes(geometry(1, 1, 1, 2, 6), {10}, {11});
  CHECK_NEAR(p.psnr, 10.0 * std::log10(1023.0 * 1023.0), 1e-12);
  const auto w = compare_planes(geometry(1, 1, 1, 2, 0), {10}, {11});
  CHECK_NEAR(w.psnr, 10.0 * std::log10(65535.0 * 65535.0), 1e-12);

  const auto same = compare_planes(g, {1, 2, 3, 4}, {1, 2, 3, 4});
  CHECK(same.mse == 0.0 && same.max_abs == 0.0);
  CHECK(std::isinf(same.psnr) && same.psnr > 0);

  // Mismatched or empty inputs never look like a match.
  const auto bad = compare_planes(g, {1, 2, 3}, {1, 2, 3, 4});
  CHECK(std::isinf(bad.mse) && std::isinf(bad.max_abs));
  CHECK(!(bad.psnr > 40.0));
  const auto empty = compare_planes(g, {}, {});
  CHECK(std::isinf(empty.mse));
}

// Rounding alone against the exact result costs MSE ~1/12 (a uniform error in [-0.5, 0.5]),
// i.e. 10 log10(255² × 12) ~ 58.9 dB: the ceiling any 8-bit output can reach. Checks the metric
// and store_plane together.
CG_TEST(rounding_ceiling_psnr) {
  const auto g = geometry(256, 64, 1);
  PlaneValues ref(size_t(g.width) * g.height);
  uint32_t state = 12345;
  for (double& v : ref) {
    state = state * 1664525u + 1013904223u;
    v = 1.0 + 253.0 * (state >> 8) / double(1 << 24);
  }
  std::vector<uint8_t> buf(ref.size());
  store_plane(g, ref, buf.data(), g.row_bytes());
  const auto s = compare_planes(g, read_plane(g, buf.data(), g.row_bytes()), ref);
  CHECK(s.max_abs <= 0.5 + 1e-12);
  CHECK_NEAR(s.mse, 1.0 / 12.0, 0.005);
  CHECK_NEAR(s.psnr, 58.9, 0.3);
}

CG_TEST(incremental_taps_match_the_table) {
  // Turkowski's recurrence in float against gaussian_taps() in double, to the largest radius:
  // Σ|Δt| bounds the output error (0.13 LSB of a 16-bit plane at 2e-6).
  for (double truncate : {4.0, 8.0})
    for (double sigma : {0.3, 0.5, 1.0, 2.0, 5.0, 30.0, 100.0, 192.0, 250.0, 384.0}) {
      const int radius = fir_radius(sigma, truncate);
      if (radius > 1536) continue;
      const std::vector<double> t = gaussian_taps(sigma, radius);
      const IncrementalGaussian g = make_incremental_gaussian(sigma, radius);
      float tap = g.centre, ratio = g.ratio_minus_one;
      double error = std::fabs(tap - t[radius]);
      for (int i = 1; i <= radius; ++i) {
        incremental_advance(tap, ratio, g.step_minus_one);
        error += 2.0 * std::fabs(tap - t[radius + i]);
      }
      CHECK_MSG(error <= 2e-6, "sigma %g truncate %g: sum |dt| = %g", sigma, truncate, error);
    }
  // Identity without a blur.
  CHECK(make_incremental_gaussian(0.0, 5).centre == 1.0f);
}

CG_TEST_MAIN()
