// SPDX-License-Identifier: LGPL-2.1-or-later
// Where a region covers a pixel, and how strongly: the mask of the region effects, shared by the
// CUDA kernels and the CPU reference (same integer tests, same double arithmetic).
//
// Coordinates are doubled luma pixels, so that the centre of pixel x of a plane subsampled by s
// is the integer (2x + 1) s and a region [x0, x1) spans [2 x0, 2 x1): every inside/outside
// decision is exact integer arithmetic, and a pixel outside every region is left bit-identical.
#pragma once

#include <cmath>
#include <cstdint>

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

__extension__ typedef __int128 RegionInt128;  // GCC and nvcc, host and device

enum class RegionShape : int { Rectangle = 0, Ellipse = 1 };

// One region in luma pixels.
struct RegionBox {
  int x0, y0, x1, y1;  // the pixels it may cover, clipped to the frame: x0 < x1, y0 < y1
  RegionShape shape;
  int feather;         // soft edge inside the border, luma pixels; 0 = hard edge
  // Where the frame clips the region, the shape's whole box (within +-2^24): the ellipse and
  // the feather are drawn in it, so that a face at the frame's edge stays fully covered.
  bool clipped = false;
  int shape_x0 = 0, shape_y0 = 0, shape_x1 = 0, shape_y1 = 0;
};

// The region's weight at plane pixel (x, y) of a plane subsampled by (sx, sy): 0 outside, 1 well
// inside, a linear ramp over the last `feather` pixels inside the border.
CG_HOST_DEVICE inline double region_weight(const RegionBox& r, int x, int y, int sx, int sy) {
  const int64_t cx = (2 * static_cast<int64_t>(x) + 1) * sx;  // doubled luma coordinates
  const int64_t cy = (2 * static_cast<int64_t>(y) + 1) * sy;
  if (cx <= 2 * static_cast<int64_t>(r.x0) || cx >= 2 * static_cast<int64_t>(r.x1) ||
      cy <= 2 * static_cast<int64_t>(r.y0) || cy >= 2 * static_cast<int64_t>(r.y1))
    return 0.0;
  const int64_t ax = 2 * static_cast<int64_t>(r.clipped ? r.shape_x0 : r.x0);
  const int64_t bx = 2 * static_cast<int64_t>(r.clipped ? r.shape_x1 : r.x1);
  const int64_t ay = 2 * static_cast<int64_t>(r.clipped ? r.shape_y0 : r.y0);
  const int64_t by = 2 * static_cast<int64_t>(r.clipped ? r.shape_y1 : r.y1);
  double depth;  // distance from the border, doubled luma pixels
  if (r.shape == RegionShape::Rectangle) {
    int64_t d = cx - ax;
    if (bx - cx < d) d = bx - cx;
    if (cy - ay < d) d = cy - ay;
    if (by - cy < d) d = by - cy;
    if (d <= 0) return 0.0;
    depth = static_cast<double>(d);
  } else {
    // Inside the inscribed ellipse: dx^2 b^2 + dy^2 a^2 < a^2 b^2, exactly (128-bit).
    const RegionInt128 a = bx - ax, b = by - ay;  // doubled diameters
    const RegionInt128 dx = 2 * cx - (ax + bx), dy = 2 * cy - (ay + by);  // offsets from the centre, x4
    const RegionInt128 lhs = dx * dx * b * b + dy * dy * a * a, rhs = a * a * b * b;
    if (lhs >= rhs) return 0.0;
    if (r.feather <= 0) return 1.0;
    const double q = static_cast<double>(lhs) / static_cast<double>(rhs);
    const double m = static_cast<double>(a < b ? a : b) * 0.5;  // smaller semi-axis, doubled
    depth = (1.0 - sqrt(q)) * m;
  }
  if (r.feather <= 0) return 1.0;
  const double w = depth / (2.0 * r.feather);
  return w < 1.0 ? w : 1.0;
}

// out = round(a + w (b - a)), clamped to [0, max]: the blend of the effect into the frame
// (a = input, b = effect) or of the input back into an effect (a = effect, b = input). w = 0
// gives a exactly and w = 1 gives b exactly.
CG_HOST_DEVICE inline int region_blend(int a, int b, double w, int max_value) {
  if (w <= 0.0) return a;
  if (w >= 1.0) return b;
  // fma on both sides: the CPU reference rounds exactly as the GPU does.
  const double v = floor(fma(w, static_cast<double>(b - a), static_cast<double>(a)) + 0.5);
  return v < 0.0 ? 0 : (v > max_value ? max_value : static_cast<int>(v));
}

// The largest weight of `count` regions at a plane pixel: what restore() keeps under the effect.
CG_HOST_DEVICE inline double region_max_weight(const RegionBox* boxes, int count, int x, int y, int sx, int sy) {
  double best = 0.0;
  for (int i = 0; i < count; ++i) {
    const double w = region_weight(boxes[i], x, y, sx, sy);
    if (w > best) best = w;
  }
  return best;
}

// The owner rule where regions overlap: region a (weight wa, strength sa = sigma_x + sigma_y,
// index ia) takes the pixel from region b when its weight is larger, then its strength, then
// when it comes first. A strict order: exactly one region owns a pixel that any region covers.
CG_HOST_DEVICE inline bool region_precedes(double wa, double sa, int ia, double wb, double sb, int ib) {
  if (wa != wb) return wa > wb;
  if (sa != sb) return sa > sb;
  return ia < ib;
}

// The pixels of a plane (subsampled by sx, sy; width x height) whose centres lie inside the
// region's box: the only ones region_weight() can give a weight above 0. Half-open, empty when
// x0 >= x1 or y0 >= y1 (a box narrower than a chroma pixel may cover no chroma centre).
struct PlaneRect {
  int x0, y0, x1, y1;
  CG_HOST_DEVICE bool empty() const { return x0 >= x1 || y0 >= y1; }
};

// First plane pixel whose centre (2x + 1) s is above 2 b, and first whose centre is at or above
// 2 e: [begin, end) of the pixels strictly inside [b, e) along one axis.
CG_HOST_DEVICE inline int region_first_inside(int b, int s) {
  const int64_t n = 2 * static_cast<int64_t>(b) - s;  // x > n / 2s
  return static_cast<int>(n < 0 ? 0 : n / (2 * s) + 1);
}
CG_HOST_DEVICE inline int region_first_past(int e, int s) {
  const int64_t n = 2 * static_cast<int64_t>(e) - s;  // x >= n / 2s
  return static_cast<int>(n <= 0 ? 0 : (n + 2 * s - 1) / (2 * s));
}

CG_HOST_DEVICE inline PlaneRect region_plane_rect(const RegionBox& r, int sx, int sy, int width, int height) {
  PlaneRect p;
  p.x0 = region_first_inside(r.x0, sx);
  p.x1 = region_first_past(r.x1, sx);
  p.y0 = region_first_inside(r.y0, sy);
  p.y1 = region_first_past(r.y1, sy);
  if (p.x1 > width) p.x1 = width;
  if (p.y1 > height) p.y1 = height;
  return p;
}

// Pixelate: the side of a block in plane pixels for blocks of `pixel_size` luma pixels on a
// plane subsampled by s (at least 1), and a block's value, the rounded mean of its n samples
// (round half up, in integers).
CG_HOST_DEVICE inline int pixelate_block_side(int pixel_size, int s) {
  const int b = pixel_size / s;
  return b < 1 ? 1 : b;
}
CG_HOST_DEVICE inline int pixelate_mean(uint64_t sum, uint64_t n) {
  return static_cast<int>((2 * sum + n) / (2 * n));
}

}  // namespace cudagaussian
