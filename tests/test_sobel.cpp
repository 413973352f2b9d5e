// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the Sobel reference (common/reference_sobel.h) against values worked out by hand:
// constant images, step edges in both directions, ramps (interior and replicate border), an
// impulse (diagonals and the direction codes), the luma rule, rounding, clamping and wrapping.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"
#include "reference_sobel.h"

using namespace cudagaussian;

namespace {

// A GRAY8 image from a function of (x, y).
template <typename F>
std::vector<uint8_t> gray(int w, int h, F f) {
  std::vector<uint8_t> img(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(f(x, y));
  return img;
}

SobelImage view(const std::vector<uint8_t>& img, int w, int h, SobelLayout layout = {}) {
  SobelImage im;
  im.data = img.data();
  im.pitch = static_cast<size_t>(w) * layout.channels;
  im.width = w;
  im.height = h;
  im.layout = layout;
  return im;
}

SobelSettings magnitude(double scale = 1.0) { return {SobelOutput::Magnitude, scale}; }
SobelSettings direction() { return {SobelOutput::Direction, 1.0}; }

}  // namespace

CG_TEST(constant_image_has_no_gradient) {
  for (int v : {0, 1, 77, 255}) {
    const int w = 7, h = 5;
    const auto img = gray(w, h, [&](int, int) { return v; });
    std::vector<int> gx, gy;
    reference_sobel_gradients(view(img, w, h), &gx, &gy);
    for (size_t i = 0; i < gx.size(); ++i) {
      CHECK(gx[i] == 0);
      CHECK(gy[i] == 0);
    }
    for (int bytes : {1, 2}) {
      for (unsigned m : reference_sobel(view(img, w, h), magnitude(3.0), bytes)) CHECK(m == 0);
      // atan2(0, 0) = 0: the middle code.
      for (unsigned d : reference_sobel(view(img, w, h), direction(), bytes))
        CHECK(d == (bytes == 1 ? 128u : 32768u));
    }
  }
}

CG_TEST(vertical_step_edge) {
  // Dark left (0), bright right (100) from column 4: the two columns at the edge see
  // Gx = (1 + 2 + 1) × 100 = 400 (right - left), Gy = 0, on every row including the first and
  // last (replicate border).
  const int w = 9, h = 6;
  const auto img = gray(w, h, [](int x, int) { return x >= 4 ? 100 : 0; });
  std::vector<int> gx, gy;
  reference_sobel_gradients(view(img, w, h), &gx, &gy);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = static_cast<size_t>(y) * w + x;
      CHECK_MSG(gx[i] == (x == 3 || x == 4 ? 400 : 0), "x %d y %d gx %d", x, y, gx[i]);
      CHECK(gy[i] == 0);
    }
  const auto m8 = reference_sobel(view(img, w, h), magnitude(), 1);
  const auto m16 = reference_sobel(view(img, w, h), magnitude(), 2);
  const auto quarter = reference_sobel(view(img, w, h), magnitude(0.25), 1);
  const auto d8 = reference_sobel(view(img, w, h), direction(), 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = static_cast<size_t>(y) * w + x;
      const bool edge = x == 3 || x == 4;
      CHECK(m8[i] == (edge ? 255u : 0u));  // 400 clamps to 255
      CHECK(m16[i] == (edge ? 400u : 0u));
      CHECK(quarter[i] == (edge ? 100u : 0u));
      CHECK(d8[i] == 128u);  // pointing right (angle 0), and flat areas
    }
  // Bright left, dark right: the gradient points left, angle π, which wraps to 0.
  const auto flipped = gray(w, h, [](int x, int) { return x >= 4 ? 0 : 100; });
  const auto df = reference_sobel(view(flipped, w, h), direction(), 1);
  const auto df16 = reference_sobel(view(flipped, w, h), direction(), 2);
  CHECK(df[3] == 0u);
  CHECK(df16[4] == 0u);
}

CG_TEST(horizontal_step_edge) {
  // Bright below row 2: Gy = +400 on rows 1 and 2, pointing down: code 192 (3/4 of 256).
  const int w = 5, h = 6;
  const auto img = gray(w, h, [](int, int y) { return y >= 3 ? 60 : 0; });
  const auto m16 = reference_sobel(view(img, w, h), magnitude(), 2);
  const auto d8 = reference_sobel(view(img, w, h), direction(), 1);
  const auto d16 = reference_sobel(view(img, w, h), direction(), 2);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = static_cast<size_t>(y) * w + x;
      const bool edge = y == 2 || y == 3;
      CHECK(m16[i] == (edge ? 240u : 0u));
      CHECK(d8[i] == (edge ? 192u : 128u));
      CHECK(d16[i] == (edge ? 49152u : 32768u));
    }
  // Bright above: pointing up, code 64.
  const auto up = gray(w, h, [](int, int y) { return y >= 3 ? 0 : 60; });
  CHECK(reference_sobel(view(up, w, h), direction(), 1)[2 * w + 1] == 64u);
}

CG_TEST(ramps_inside_and_at_the_border) {
  // I = 10 x: inside, Gx = 4 × (I(x+1) - I(x-1)) = 80; at the left and right columns the border
  // repeats the edge pixel, so Gx = 4 × 10 = 40. Gy = 0 everywhere.
  const int w = 6, h = 4;
  const auto ramp = gray(w, h, [](int x, int) { return 10 * x; });
  std::vector<int> gx, gy;
  reference_sobel_gradients(view(ramp, w, h), &gx, &gy);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = static_cast<size_t>(y) * w + x;
      CHECK_MSG(gx[i] == (x == 0 || x == w - 1 ? 40 : 80), "x %d y %d gx %d", x, y, gx[i]);
      CHECK(gy[i] == 0);
    }
  // Diagonal ramp I = 3 (x + y): inside Gx = Gy = 24, magnitude 24 √2 = 33.94 -> 34, angle π/4
  // -> code 160; the top-left corner sees half of both (12, 12) -> 16.97 -> 17.
  const auto diag = gray(w, h, [](int x, int y) { return 3 * (x + y); });
  reference_sobel_gradients(view(diag, w, h), &gx, &gy);
  CHECK(gx[1 * w + 2] == 24 && gy[1 * w + 2] == 24);
  CHECK(gx[0] == 12 && gy[0] == 12);
  const auto m = reference_sobel(view(diag, w, h), magnitude(), 1);
  const auto d = reference_sobel(view(diag, w, h), direction(), 1);
  CHECK(m[1 * w + 2] == 34u);
  CHECK(m[0] == 17u);
  CHECK(d[1 * w + 2] == 160u);
  CHECK(d[0] == 160u);
  // Top row, inside: Gx = 4 × 6 = 24 as inside; Gy = 4 × (row 1 - row 0, repeated above) = 12.
  CHECK(gx[2] == 24 && gy[2] == 12);
}

CG_TEST(impulse_diagonals_and_direction_codes) {
  // A single 100 at (2, 2) of a 5 × 5 image. Around it (Gx = right - left, Gy = below - above):
  //   (1,1): impulse below-right  -> Gx  100, Gy  100: magnitude 141.4, angle  π/4  -> 160
  //   (3,3): impulse above-left   -> Gx -100, Gy -100:                angle -3π/4 -> 32
  //   (3,1): impulse below-left   -> Gx -100, Gy  100:                angle  3π/4 -> 224
  //   (1,3): impulse above-right  -> Gx  100, Gy -100:                angle -π/4  -> 96
  //   (2,1): impulse straight below -> Gx 0, Gy 200: angle π/2 -> 192
  //   (1,2): impulse to the right   -> Gx 200, Gy 0: angle 0 -> 128
  const int w = 5, h = 5;
  const auto img = gray(w, h, [](int x, int y) { return x == 2 && y == 2 ? 100 : 0; });
  const auto m = reference_sobel(view(img, w, h), magnitude(), 1);
  const auto d = reference_sobel(view(img, w, h), direction(), 1);
  auto at = [&](const std::vector<unsigned>& v, int x, int y) { return v[static_cast<size_t>(y) * w + x]; };
  CHECK(at(m, 1, 1) == 141u && at(m, 3, 3) == 141u && at(m, 3, 1) == 141u && at(m, 1, 3) == 141u);
  CHECK(at(m, 2, 1) == 200u && at(m, 1, 2) == 200u);
  CHECK(at(m, 2, 2) == 0u);  // the impulse itself: symmetric neighbourhood
  CHECK(at(m, 0, 0) == 0u);
  CHECK(at(d, 1, 1) == 160u);
  CHECK(at(d, 3, 3) == 32u);
  CHECK(at(d, 3, 1) == 224u);
  CHECK(at(d, 1, 3) == 96u);
  CHECK(at(d, 2, 1) == 192u);
  CHECK(at(d, 2, 3) == 64u);
  CHECK(at(d, 1, 2) == 128u);
  CHECK(at(d, 3, 2) == 0u);  // impulse to the left: angle π wraps to 0
}

CG_TEST(rounding_is_half_up_and_clamped) {
  // An impulse of 1: its neighbour to the left sees Gx = 2. Scale 0.25 -> 0.5 -> 1,
  // 0.75 -> 1.5 -> 2, 0.2 -> 0.4 -> 0.
  const int w = 3, h = 3;
  const auto img = gray(w, h, [](int x, int y) { return x == 2 && y == 1 ? 1 : 0; });
  CHECK(reference_sobel(view(img, w, h), magnitude(0.25), 1)[1 * w + 1] == 1u);
  CHECK(reference_sobel(view(img, w, h), magnitude(0.75), 1)[1 * w + 1] == 2u);
  CHECK(reference_sobel(view(img, w, h), magnitude(0.2), 1)[1 * w + 1] == 0u);
  // Clamping: 2 × 200 = 400 -> 255 (8-bit); 2 × 65535 -> 65535 (16-bit).
  CHECK(reference_sobel(view(img, w, h), magnitude(200), 1)[1 * w + 1] == 255u);
  CHECK(reference_sobel(view(img, w, h), magnitude(200), 2)[1 * w + 1] == 400u);
  CHECK(reference_sobel(view(img, w, h), magnitude(65535), 2)[1 * w + 1] == 65535u);
  CHECK(sobel_store_value(254.5, SobelOutput::Magnitude, 1) == 255u);
  CHECK(sobel_store_value(254.49, SobelOutput::Magnitude, 1) == 254u);
  CHECK(sobel_store_value(1e9, SobelOutput::Magnitude, 2) == 65535u);
  // Direction codes wrap: 255.5 and 256 are -π.
  CHECK(sobel_store_value(255.5, SobelOutput::Direction, 1) == 0u);
  CHECK(sobel_store_value(256.0, SobelOutput::Direction, 1) == 0u);
  CHECK(sobel_store_value(255.49, SobelOutput::Direction, 1) == 255u);
  CHECK(sobel_store_value(0.0, SobelOutput::Direction, 2) == 0u);
}

CG_TEST(tiny_images) {
  // 1 × 1: every neighbour is the pixel itself.
  const auto one = gray(1, 1, [](int, int) { return 200; });
  CHECK(reference_sobel(view(one, 1, 1), magnitude(), 1)[0] == 0u);
  CHECK(reference_sobel(view(one, 1, 1), direction(), 1)[0] == 128u);
  // 2 × 1: left 0, right 50: both pixels see Gx = 4 × 50 = 200.
  const auto two = gray(2, 1, [](int x, int) { return 50 * x; });
  const auto m = reference_sobel(view(two, 2, 1), magnitude(), 2);
  CHECK(m[0] == 200u && m[1] == 200u);
  // 1 × 3 column 0, 10, 20: Gy = 4 × 10 = 40 at the ends, 4 × 20 = 80 in the middle.
  const auto col = gray(1, 3, [](int, int y) { return 10 * y; });
  const auto mc = reference_sobel(view(col, 1, 3), magnitude(), 1);
  CHECK(mc[0] == 40u && mc[1] == 80u && mc[2] == 40u);
}

CG_TEST(luma_rule) {
  // Gray stays gray, for every level.
  for (int v = 0; v < 256; ++v) CHECK_MSG(sobel_luma(v, v, v) == v, "v %d", v);
  // (77 R + 150 G + 29 B + 128) >> 8.
  CHECK(sobel_luma(255, 0, 0) == 77);   // 19763 >> 8
  CHECK(sobel_luma(0, 255, 0) == 149);  // 38378 >> 8 (149.9 rounds down: integer weights)
  CHECK(sobel_luma(0, 0, 255) == 29);   // 7523 >> 8
  CHECK(sobel_luma(10, 20, 30) == 18);  // (770 + 3000 + 870 + 128) >> 8 = 4768 >> 8
  CHECK(sobel_luma(1, 0, 1) == 0);      // (77 + 29 + 128) >> 8 = 234 >> 8
  CHECK(sobel_luma(2, 0, 0) == 1);      // (154 + 128) >> 8

  // Every RGB layout gives the same luma, hence the same output, as GRAY8 of that luma.
  const int w = 6, h = 5;
  std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>((i * 73 + 11) % 256);
  std::vector<uint8_t> luma(static_cast<size_t>(w) * h);
  for (size_t p = 0; p < luma.size(); ++p)
    luma[p] = static_cast<uint8_t>(sobel_luma(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]));
  const auto want = reference_sobel(view(luma, w, h), magnitude(), 2);
  const SobelLayout layouts[] = {
      {3, 0, 1, 2}, {3, 2, 1, 0}, {4, 0, 1, 2}, {4, 2, 1, 0}, {4, 1, 2, 3}, {4, 3, 2, 1}};
  for (const SobelLayout& l : layouts) {
    std::vector<uint8_t> img(static_cast<size_t>(w) * h * l.channels, 0xEE);
    for (size_t p = 0; p < luma.size(); ++p) {
      img[p * l.channels + l.r] = rgb[3 * p];
      img[p * l.channels + l.g] = rgb[3 * p + 1];
      img[p * l.channels + l.b] = rgb[3 * p + 2];
    }
    const auto got = reference_sobel(view(img, w, h, l), magnitude(), 2);
    CHECK_MSG(got == want, "layout C%d R%d G%d B%d", l.channels, l.r, l.g, l.b);
  }
}

CG_TEST(stored_output_honours_pitch) {
  const int w = 4, h = 3;
  const auto img = gray(w, h, [](int x, int) { return x >= 2 ? 30 : 0; });
  const size_t pitch = 2 * w + 6;
  std::vector<uint8_t> out(pitch * h, 0xAB);
  reference_sobel(view(img, w, h), magnitude(), 2, out.data(), pitch);
  const auto want = reference_sobel(view(img, w, h), magnitude(), 2);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint16_t v;
      std::memcpy(&v, out.data() + y * pitch + 2 * x, 2);
      CHECK(v == want[static_cast<size_t>(y) * w + x]);
    }
    for (size_t b = 2 * w; b < pitch; ++b) CHECK(out[y * pitch + b] == 0xAB);
  }
  CHECK(want[1] == 120u && want[2] == 120u && want[0] == 0u);
}

CG_TEST(layout_validation) {
  CHECK(SobelLayout().valid());
  CHECK((SobelLayout{4, 0, 1, 2}.valid()));
  CHECK((SobelLayout{3, 2, 1, 0}.valid()));
  CHECK(!(SobelLayout{2, 0, 1, 0}.valid()));
  CHECK(!(SobelLayout{3, 0, 0, 1}.valid()));
  CHECK(!(SobelLayout{4, 0, 1, 4}.valid()));
  CHECK(!(SobelLayout{1, 0, 1, 2}.valid()));
}

CG_TEST_MAIN()
