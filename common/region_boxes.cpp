// SPDX-License-Identifier: LGPL-2.1-or-later
#include "region_boxes.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace cudagaussian {

std::vector<Region> plan_regions(const std::vector<MarkedBox>& boxes, const RegionOptions& options,
                                 int frame_width, int frame_height, RegionPlanCounts* counts) {
  RegionPlanCounts local;
  RegionPlanCounts& c = counts ? *counts : local;
  c = RegionPlanCounts();
  std::vector<Region> regions;
  for (const MarkedBox& b : boxes) {
    if (b.w <= 0 || b.h <= 0) {
      ++c.empty;
      continue;
    }
    // Grown outwards to whole pixels, in double so that absurd values cannot overflow.
    const double grow_x = options.padding + options.padding_ratio * static_cast<double>(b.w);
    const double grow_y = options.padding + options.padding_ratio * static_cast<double>(b.h);
    const double x0 = std::floor(static_cast<double>(b.x) - grow_x);
    const double y0 = std::floor(static_cast<double>(b.y) - grow_y);
    const double x1 = std::ceil(static_cast<double>(b.x) + static_cast<double>(b.w) + grow_x);
    const double y1 = std::ceil(static_cast<double>(b.y) + static_cast<double>(b.h) + grow_y);
    const double cx0 = std::max(x0, 0.0), cy0 = std::max(y0, 0.0);
    const double cx1 = std::min(x1, static_cast<double>(frame_width));
    const double cy1 = std::min(y1, static_cast<double>(frame_height));
    if (!(cx0 < cx1 && cy0 < cy1)) {
      ++c.outside;
      continue;
    }
    if (regions.size() >= options.max_regions) {
      ++c.over_limit;
      continue;
    }
    Region r;
    r.box.x0 = static_cast<int>(cx0);
    r.box.y0 = static_cast<int>(cy0);
    r.box.x1 = static_cast<int>(cx1);
    r.box.y1 = static_cast<int>(cy1);
    r.box.shape = options.shape;
    r.box.feather = options.feather;
    if (options.strength > 0.0) {
      const double side = std::min(x1 - x0, y1 - y0);  // the padded box, before clipping
      r.sigma_x = r.sigma_y = std::min(options.strength * side, options.max_sigma);
    } else {
      r.sigma_x = options.sigma_x;
      r.sigma_y = options.sigma_y;
    }
    if (cx0 != x0 || cy0 != y0 || cx1 != x1 || cy1 != y1) {
      constexpr double kLimit = 1 << 24;  // region_mask.h's range for the shape's box
      r.box.clipped = true;
      r.box.shape_x0 = static_cast<int>(std::max(x0, -kLimit));
      r.box.shape_y0 = static_cast<int>(std::max(y0, -kLimit));
      r.box.shape_x1 = static_cast<int>(std::min(x1, kLimit));
      r.box.shape_y1 = static_cast<int>(std::min(y1, kLimit));
    }
    regions.push_back(r);
  }
  return regions;
}

namespace {

bool parse_int(const char*& p, int64_t* value) {
  while (*p == ' ' || *p == '\t') ++p;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(p, &end, 10);
  if (end == p || errno != 0 || v < -(int64_t{1} << 31) || v > (int64_t{1} << 31)) return false;
  *value = v;
  p = end;
  while (*p == ' ' || *p == '\t') ++p;
  return true;
}

}  // namespace

bool parse_privacy_zones(const std::string& text, std::vector<MarkedBox>* zones, std::string* error) {
  std::vector<MarkedBox> parsed;
  const char* p = text.c_str();
  while (*p == ' ' || *p == '\t') ++p;
  while (*p) {
    int64_t v[4];
    for (int i = 0; i < 4; ++i) {
      if (!parse_int(p, &v[i]) || (i < 3 && *p++ != ',')) {
        if (error) *error = "expected x,y,width,height at \"" + std::string(text, 0, 64) + "\"";
        return false;
      }
    }
    if (v[2] <= 0 || v[3] <= 0) {
      if (error) *error = "a zone has a width or height of zero or less";
      return false;
    }
    MarkedBox b;
    b.x = v[0], b.y = v[1], b.w = v[2], b.h = v[3];
    parsed.push_back(b);
    if (*p == ';') {
      ++p;
      while (*p == ' ' || *p == '\t') ++p;
    } else if (*p) {
      if (error) *error = "zones are separated by ';'";
      return false;
    }
  }
  *zones = parsed;
  return true;
}

}  // namespace cudagaussian
