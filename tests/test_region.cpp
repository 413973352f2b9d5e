// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of the region effects' common/ layer: the mask (region_mask.h) against its
// definition, the per-frame planning (region_plan.h) against brute force, the request checks,
// and the reference (reference_region.h) against the whole-frame FIR and a per-pixel owner
// search, bit for bit.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "fir_taps.h"
#include "plane_helpers.h"
#include "reference_blur.h"
#include "reference_region.h"
#include "region_plan.h"

using namespace cudagaussian;

namespace {

RegionBox box(int x0, int y0, int x1, int y1, RegionShape shape = RegionShape::Rectangle, int feather = 0) {
  return RegionBox{x0, y0, x1, y1, shape, feather};
}

// Random regions inside a w x h luma frame (some touching the edges, some overlapping).
std::vector<Region> random_regions(int w, int h, int count, std::mt19937& rng, double max_sigma) {
  std::vector<Region> out;
  std::uniform_real_distribution<double> sigma(0.0, max_sigma);
  for (int i = 0; i < count; ++i) {
    Region r;
    const int x0 = static_cast<int>(rng() % w), y0 = static_cast<int>(rng() % h);
    const int x1 = std::min(w, x0 + 1 + static_cast<int>(rng() % std::max(1, w / 2)));
    const int y1 = std::min(h, y0 + 1 + static_cast<int>(rng() % std::max(1, h / 2)));
    r.box = box(rng() % 4 == 0 ? 0 : x0, y0, rng() % 4 == 0 ? w : x1, y1,
                rng() % 2 ? RegionShape::Ellipse : RegionShape::Rectangle, static_cast<int>(rng() % 6));
    if (r.box.x0 >= r.box.x1) r.box.x0 = r.box.x1 - 1;
    r.sigma_x = i % 3 == 0 ? 0.0 : sigma(rng);
    r.sigma_y = i % 5 == 0 ? 0.0 : sigma(rng);
    if (i % 4 == 1 && !out.empty()) r.sigma_x = out.back().sigma_x, r.sigma_y = out.back().sigma_y;  // equal sigmas
    out.push_back(r);
  }
  return out;
}

RegionPlane plane(int w, int h, int channels, int sx = 1, int sy = 1, int bytes = 1, int shift = 0) {
  RegionPlane p;
  p.geometry = cgtest::geometry(w, h, channels);
  p.geometry.bytes_per_sample = bytes;
  p.geometry.shift = shift;
  p.subsample_x = sx;
  p.subsample_y = sy;
  return p;
}

PlaneValues random_values(const PlaneGeometry& g, unsigned seed) {
  std::mt19937 rng(seed);
  PlaneValues v(static_cast<size_t>(g.samples_per_row()) * g.height);
  for (double& x : v) x = rng() % (g.max_value() + 1);
  return v;
}

// ---- the mask ----------------------------------------------------------------------------------

CG_TEST(mask_rectangle_hard_edge_is_exactly_the_pixel_centres_inside) {
  // Luma: pixel x covered iff x0 <= x < x1; chroma (s = 2): iff its centre 2x + 1 lies in
  // (x0, x1), strictly.
  const RegionBox r = box(3, 2, 9, 7);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 12; ++x) {
      CHECK(region_weight(r, x, y, 1, 1) == ((x >= 3 && x < 9 && y >= 2 && y < 7) ? 1.0 : 0.0));
      const bool inside = 2 * x + 1 > 3 && 2 * x + 1 < 9 && 2 * y + 1 > 2 && 2 * y + 1 < 7;
      CHECK(region_weight(r, x, y, 2, 2) == (inside ? 1.0 : 0.0));
    }
}

CG_TEST(mask_feather_ramps_linearly_from_the_border) {
  // Feather 4 on a 20-wide box: the pixel at distance d + 1/2 from the left edge weighs
  // (2d + 1) / 8 until 1.
  const RegionBox r = box(0, 0, 20, 20, RegionShape::Rectangle, 4);
  for (int d = 0; d < 10; ++d) CHECK_NEAR(region_weight(r, d, 10, 1, 1), std::min(1.0, (2 * d + 1) / 8.0), 0);
  CHECK(region_weight(r, 10, 10, 1, 1) == 1.0);
  CHECK(region_weight(r, 20, 10, 1, 1) == 0.0);
}

CG_TEST(mask_ellipse_inside_test_is_exact_and_symmetric) {
  const RegionBox r = box(2, 5, 13, 16, RegionShape::Ellipse);  // circle of diameter 11 at (7.5, 10.5)
  int inside = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 16; ++x) {
      const double w = region_weight(r, x, y, 1, 1);
      const double dx = x + 0.5 - 7.5, dy = y + 0.5 - 10.5;
      const double d2 = dx * dx + dy * dy;
      if (std::fabs(d2 - 30.25) > 1e-9) CHECK(w == (d2 < 30.25 ? 1.0 : 0.0));
      CHECK(w == region_weight(r, 14 - x, y, 1, 1) || 14 - x < 0);  // mirror about x = 7
      inside += w > 0;
    }
  CHECK(inside > 80 && inside < 110);  // pi * 5.5^2 = 95
  // Feathered: the weight grows towards the centre.
  const RegionBox f = box(0, 0, 40, 40, RegionShape::Ellipse, 8);
  CHECK(region_weight(f, 20, 20, 1, 1) == 1.0);
  CHECK(region_weight(f, 1, 20, 1, 1) > 0.0 && region_weight(f, 1, 20, 1, 1) < region_weight(f, 4, 20, 1, 1));
}

CG_TEST(mask_blend_ends_are_exact_and_rounds_half_up) {
  CHECK(region_blend(17, 200, 0.0, 255) == 17);
  CHECK(region_blend(17, 200, 1.0, 255) == 200);
  CHECK(region_blend(10, 11, 0.5, 255) == 11);   // 10.5 rounds up
  CHECK(region_blend(11, 10, 0.5, 255) == 11);   // 10.5 again
  CHECK(region_blend(0, 255, 0.25, 255) == 64);  // 63.75
  CHECK(region_blend(1000, 0, 0.3, 1023) == 700);
}

CG_TEST(mask_plane_rect_matches_the_pixels_with_weight) {
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    const int sx = 1 + static_cast<int>(rng() % 2), sy = 1 + static_cast<int>(rng() % 2);
    const int fw = 1 + static_cast<int>(rng() % 24), fh = 1 + static_cast<int>(rng() % 24);
    const int w = (fw + sx - 1) / sx, h = (fh + sy - 1) / sy;
    const int x0 = static_cast<int>(rng() % fw), y0 = static_cast<int>(rng() % fh);
    const int x1 = x0 + 1 + static_cast<int>(rng() % (fw - x0)), y1 = y0 + 1 + static_cast<int>(rng() % (fh - y0));
    const RegionBox r = box(x0, y0, x1, y1, rng() % 2 ? RegionShape::Ellipse : RegionShape::Rectangle,
                            static_cast<int>(rng() % 3));
    const PlaneRect rect = region_plane_rect(r, sx, sy, w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool in_rect = x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1;
        const double wgt = region_weight(r, x, y, sx, sy);
        if (wgt > 0) CHECK(in_rect);
        if (r.shape == RegionShape::Rectangle) CHECK((wgt > 0) == in_rect);
      }
  }
}

CG_TEST(mask_owner_order_is_strict) {
  CHECK(region_precedes(0.5, 1, 3, 0.4, 9, 0));
  CHECK(!region_precedes(0.4, 9, 0, 0.5, 1, 3));
  CHECK(region_precedes(1, 5, 3, 1, 4, 0));
  CHECK(region_precedes(1, 5, 0, 1, 5, 3));
  CHECK(!region_precedes(1, 5, 3, 1, 5, 0));
  CHECK(pixelate_mean(5, 2) == 3 && pixelate_mean(4, 2) == 2 && pixelate_mean(7, 3) == 2 && pixelate_mean(8, 3) == 3);
  CHECK(pixelate_block_side(16, 2) == 8 && pixelate_block_side(1, 2) == 1);
}

// ---- planning -----------------------------------------------------------------------------------

CG_TEST(plan_tasks_neighbours_taps_and_tiles) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 200; ++iter) {
    const int sx = 1 + iter % 2, sy = 1 + iter / 2 % 2, channels = 1 + iter % 4;
    const int fw = 8 + static_cast<int>(rng() % 120), fh = 8 + static_cast<int>(rng() % 90);
    const RegionPlane p = plane((fw + sx - 1) / sx, (fh + sy - 1) / sy, channels, sx, sy);
    const std::vector<Region> regions = random_regions(fw, fh, 1 + static_cast<int>(rng() % 30), rng, 6.0);
    RegionEffectSettings s;
    s.effect = iter % 3 == 0 ? RegionEffect::Pixelate : RegionEffect::Blur;
    s.pixel_size = 1 + static_cast<int>(rng() % 12);
    const RegionPass pass = iter % 7 == 0 ? RegionPass::Restore : RegionPass::Apply;
    const long long budget = iter % 2 ? 1ll << 40 : 500;
    const RegionPlanePlan plan = plan_region_plane(p, regions, s, pass, budget);
    const PlaneGeometry& g = p.geometry;
    // One task per region with pixels on the plane: the plain ones (hard-edged rectangles whose
    // rectangle meets no other's) first, each kind in region order.
    std::vector<int> with_pixels;
    for (int r = 0; r < static_cast<int>(regions.size()); ++r)
      if (!region_plane_rect(regions[r].box, sx, sy, g.width, g.height).empty()) with_pixels.push_back(r);
    auto plain = [&](int r) {
      const PlaneRect a = region_plane_rect(regions[r].box, sx, sy, g.width, g.height);
      for (int q : with_pixels) {
        const PlaneRect b = region_plane_rect(regions[q].box, sx, sy, g.width, g.height);
        if (q != r && b.x0 < a.x1 && a.x0 < b.x1 && b.y0 < a.y1 && a.y0 < b.y1) return false;
      }
      return regions[r].box.shape == RegionShape::Rectangle && regions[r].box.feather <= 0;
    };
    std::vector<int> expected;
    for (int r : with_pixels)
      if (plain(r)) expected.push_back(r);
    const size_t plain_count = expected.size();
    for (int r : with_pixels)
      if (!plain(r)) expected.push_back(r);
    CHECK(plan.tasks.size() == expected.size());
    for (size_t i = 0; i < plan.tasks.size() && i < expected.size(); ++i) {
      const RegionTask& t = plan.tasks[i];
      CHECK(t.region == expected[i]);
      CHECK(t.plain == (i < plain_count ? 1 : 0));
      const Region& reg = regions[t.region];
      if (pass == RegionPass::Apply && s.effect == RegionEffect::Blur) {
        const std::vector<double> tx = region_taps(reg.sigma_x, sx, s.truncate);
        const std::vector<double> ty = region_taps(reg.sigma_y, sy, s.truncate);
        CHECK(t.radius_x == static_cast<int>(tx.size() / 2) && t.radius_y == static_cast<int>(ty.size() / 2));
        // Padded: kRegionBlock - 1 zeros, the taps, zeros; sets start on whole groups.
        CHECK(t.taps_x % kRegionBlock == 0 && t.taps_y % kRegionBlock == 0);
        auto padded = [&](const std::vector<double>& taps, int k) {
          const int i = k - (kRegionBlock - 1);
          return i >= 0 && i < static_cast<int>(taps.size()) ? static_cast<float>(taps[i]) : 0.0f;
        };
        for (int k = 0; k < region_padded_taps(t.radius_x); ++k) CHECK(plan.taps[t.taps_x + k] == padded(tx, k));
        for (int k = 0; k < region_padded_taps(t.radius_y); ++k) CHECK(plan.taps[t.taps_y + k] == padded(ty, k));
        CHECK(t.row0 == std::max(0, t.rect.y0 - t.radius_y) && t.row1 == std::min(g.height, t.rect.y1 + t.radius_y));
      }
      if (pass == RegionPass::Apply && s.effect == RegionEffect::Pixelate) {
        CHECK(t.block_x0 * plan.block_x <= t.rect.x0 && (t.block_x0 + t.blocks_x) * plan.block_x >= t.rect.x1);
        CHECK((t.block_x0 + t.blocks_x - 1) * plan.block_x < t.rect.x1);
        CHECK(t.block_y0 * plan.block_y <= t.rect.y0 && (t.block_y0 + t.blocks_y) * plan.block_y >= t.rect.y1);
        CHECK((t.block_y0 + t.blocks_y - 1) * plan.block_y < t.rect.y1);
      }
      // Neighbours: exactly the other tasks whose rectangles meet this one's.
      std::set<int> want;
      for (const RegionTask& o : plan.tasks)
        if (o.region != t.region && o.rect.x0 < t.rect.x1 && t.rect.x0 < o.rect.x1 && o.rect.y0 < t.rect.y1 &&
            t.rect.y0 < o.rect.y1)
          want.insert(o.region);
      const std::set<int> got(plan.neighbours.begin() + t.neighbours,
                              plan.neighbours.begin() + t.neighbours + t.neighbour_count);
      CHECK(got == want && static_cast<int>(got.size()) == t.neighbour_count);
    }
    // Taps: one copy per distinct (sigma, radius).
    if (pass == RegionPass::Apply && s.effect == RegionEffect::Blur) {
      std::set<std::pair<double, int>> distinct;
      for (const RegionTask& t : plan.tasks) {
        distinct.insert({regions[t.region].sigma_x / sx, t.radius_x});
        distinct.insert({regions[t.region].sigma_y / sy, t.radius_y});
      }
      size_t floats = 0;
      std::set<int> offsets;
      for (const RegionTask& t : plan.tasks) offsets.insert(t.taps_x), offsets.insert(t.taps_y);
      for (int o : offsets) {
        const RegionTask* t = nullptr;
        for (const RegionTask& u : plan.tasks)
          if (u.taps_x == o || u.taps_y == o) t = &u;
        floats += region_padded_taps(t->taps_x == o ? t->radius_x : t->radius_y);
      }
      CHECK(floats == plan.taps.size());
      CHECK(offsets.size() <= distinct.size());
    }
    // Batches: consecutive, tile prefixes and scratch offsets as the tasks' sizes add up.
    int next_task = 0;
    for (const RegionBatch& b : plan.batches) {
      CHECK(b.first_task == next_task && b.task_count > 0);
      int tiles[2] = {0, 0}, plain_tiles = 0;
      long long scratch = 0;
      for (int i = b.first_task; i < b.first_task + b.task_count; ++i) {
        const RegionTask& t = plan.tasks[i];
        CHECK(t.first_tile[0] == tiles[0] && t.first_tile[1] == tiles[1] && t.scratch == scratch);
        const int w = t.rect.x1 - t.rect.x0, h = t.rect.y1 - t.rect.y0;
        const int pixel_tiles =
            (w * channels * ((h + kRegionRowsPerThread - 1) / kRegionRowsPerThread) + kRegionThreads - 1) / kRegionThreads;
        if (t.plain) {
          CHECK(plain_tiles == tiles[1]);  // the plain tasks' tiles come first
          plain_tiles += pixel_tiles;
        }
        tiles[1] += pixel_tiles;
        if (pass == RegionPass::Apply && s.effect == RegionEffect::Blur) {
          const int slots = (w + kRegionPixelsPerSlot - 1) / kRegionPixelsPerSlot * channels;
          tiles[0] += (slots * (t.row1 - t.row0) + kRegionThreads - 1) / kRegionThreads;
          scratch += static_cast<long long>(t.row1 - t.row0) * w * channels;
        } else if (pass == RegionPass::Apply && s.effect == RegionEffect::Pixelate) {
          const long long items = static_cast<long long>(t.blocks_x) * t.blocks_y * channels;
          tiles[0] += static_cast<int>((items + kRegionMeanItems - 1) / kRegionMeanItems);
          scratch += items;
        }
      }
      CHECK(b.tiles[0] == tiles[0] && b.tiles[1] == tiles[1] && b.scratch_floats == scratch);
      CHECK(b.plain_tiles == plain_tiles);
      CHECK(b.task_count == 1 || b.scratch_floats <= budget);
      next_task += b.task_count;
    }
    CHECK(next_task == static_cast<int>(plan.tasks.size()));
  }
}

// ---- request checks -------------------------------------------------------------------------------

CG_TEST(request_checks_refuse_bad_regions_and_settings) {
  const std::vector<RegionPlane> planes = {plane(20, 10, 1), plane(10, 5, 2, 2, 2)};
  RegionEffectSettings s;
  Region ok;
  ok.box = box(0, 0, 20, 10);
  ok.sigma_x = ok.sigma_y = 3;
  CHECK(region_request_error(planes, {ok}, s).empty());
  CHECK(region_request_error(planes, {}, s).empty());
  // Planes of 2^31 samples or more are refused (the kernels number a task's threads in 32 bits).
  CHECK(!region_request_error({plane(32768, 16384, 4)}, {ok}, s).empty());
  CHECK(!region_restore_error({plane(65536, 32768, 1)}, {ok}).empty());
  CHECK(region_request_error({plane(32768, 16384, 3)}, {ok}, s).empty());
  auto with = [&](RegionBox b) {
    Region r = ok;
    r.box = b;
    return region_request_error(planes, {ok, r}, s);
  };
  CHECK(!with(box(-1, 0, 5, 5)).empty());
  CHECK(!with(box(0, 0, 21, 5)).empty());
  CHECK(!with(box(0, 0, 5, 11)).empty());
  CHECK(!with(box(5, 0, 5, 5)).empty());
  CHECK(!with(box(0, 6, 5, 5)).empty());
  CHECK(!with(box(0, 0, 5, 5, RegionShape::Rectangle, -1)).empty());
  CHECK(!with(box(0, 0, 5, 5, static_cast<RegionShape>(7))).empty());
  for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e300}) {
    Region r = ok;
    r.sigma_y = bad;
    CHECK(!region_request_error(planes, {r}, s).empty());
    CHECK(!region_restore_error(planes, {r}).empty() || bad == 1e300);
  }
  RegionEffectSettings t = s;
  t.truncate = 0.5;
  CHECK(!region_request_error(planes, {ok}, t).empty());
  t.truncate = std::nan("");
  CHECK(!region_request_error(planes, {ok}, t).empty());
  RegionEffectSettings px;
  px.effect = RegionEffect::Pixelate;
  px.pixel_size = 0;
  CHECK(!region_request_error(planes, {ok}, px).empty());
  px.pixel_size = 1;
  CHECK(region_request_error(planes, {ok}, px).empty());
  RegionEffectSettings fill;
  fill.effect = RegionEffect::Fill;
  CHECK(!region_request_error(planes, {ok}, fill).empty());
  fill.fill = {{0, 0, 0, 0}, {128, 128, 0, 0}};
  CHECK(region_request_error(planes, {ok}, fill).empty());
  fill.fill[1][1] = 256;
  CHECK(!region_request_error(planes, {ok}, fill).empty());
  fill.fill = {{0, 0, 0, 0}};
  CHECK(!region_request_error(planes, {ok}, fill).empty());
  CHECK(!region_request_error({}, {ok}, s).empty());
  CHECK(!region_request_error({plane(0, 5, 1)}, {}, s).empty());
}

// ---- the reference against brute force ------------------------------------------------------------

// apply() from its definition: the whole-frame FIR per region sigma, the owner by a search over
// every region at every pixel, the pixelate means by summing each pixel's block.
std::vector<PlaneValues> brute_apply(const std::vector<RegionPlane>& planes, const std::vector<PlaneValues>& src,
                                     const std::vector<Region>& regions, const RegionEffectSettings& s) {
  std::vector<PlaneValues> out = src;
  for (size_t p = 0; p < planes.size(); ++p) {
    const PlaneGeometry& g = planes[p].geometry;
    const int sx = planes[p].subsample_x, sy = planes[p].subsample_y, c = g.channels, n = g.samples_per_row();
    std::vector<PlaneValues> blurred(regions.size());
    if (s.effect == RegionEffect::Blur)
      for (size_t r = 0; r < regions.size(); ++r)
        blurred[r] = reference_fir(g, src[p], region_taps(regions[r].sigma_x, sx, s.truncate),
                                   region_taps(regions[r].sigma_y, sy, s.truncate), Border::Replicate);
    const int bx = pixelate_block_side(s.pixel_size, sx), by = pixelate_block_side(s.pixel_size, sy);
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) {
        int owner = -1;
        double best = 0;
        for (int r = 0; r < static_cast<int>(regions.size()); ++r) {
          const double w = region_weight(regions[r].box, x, y, sx, sy);
          if (w > 0 && (owner < 0 || region_precedes(w, regions[r].sigma_x + regions[r].sigma_y, r, best,
                                                     regions[owner].sigma_x + regions[owner].sigma_y, owner)))
            owner = r, best = w;
        }
        if (owner < 0) continue;
        for (int ch = 0; ch < c; ++ch) {
          const size_t k = static_cast<size_t>(y) * n + x * c + ch;
          int e = 0;
          if (s.effect == RegionEffect::Blur) {
            e = static_cast<int>(std::clamp(std::floor(blurred[owner][k] + 0.5), 0.0, double(g.max_value())));
          } else if (s.effect == RegionEffect::Pixelate) {
            uint64_t sum = 0, count = 0;
            for (int yy = y / by * by; yy < std::min(g.height, (y / by + 1) * by); ++yy)
              for (int xx = x / bx * bx; xx < std::min(g.width, (x / bx + 1) * bx); ++xx, ++count)
                sum += static_cast<uint64_t>(src[p][static_cast<size_t>(yy) * n + xx * c + ch]);
            e = static_cast<int>(std::floor(double(sum) / double(count) + 0.5));
          } else {
            e = s.fill[p][ch];
          }
          out[p][k] = region_blend(static_cast<int>(src[p][k]), e, best, g.max_value());
        }
      }
  }
  return out;
}

struct Layout {
  const char* name;
  std::vector<RegionPlane> planes;
};

std::vector<Layout> layouts() {
  return {
      {"GRAY8 1x1", {plane(1, 1, 1)}},
      {"GRAY8 3x2", {plane(3, 2, 1)}},
      {"RGBA 37x23", {plane(37, 23, 4)}},
      {"RGB 31x19", {plane(31, 19, 3)}},
      {"u16 C2 shift 6 29x21", {plane(29, 21, 2, 1, 1, 2, 6)}},
      {"u16 C4 25x17", {plane(25, 17, 4, 1, 1, 2, 0)}},
      {"I420 33x25", {plane(33, 25, 1), plane(17, 13, 1, 2, 2), plane(17, 13, 1, 2, 2)}},
      {"NV12 30x20", {plane(30, 20, 1), plane(15, 10, 2, 2, 2)}},
  };
}

CG_TEST(reference_equals_whole_frame_fir_and_owner_search) {
  std::mt19937 rng(3);
  double worst = 0;
  for (const Layout& l : layouts()) {
    const int fw = l.planes[0].geometry.width, fh = l.planes[0].geometry.height;
    for (int effect = 0; effect < 3; ++effect)
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<PlaneValues> src;
        for (size_t p = 0; p < l.planes.size(); ++p) src.push_back(random_values(l.planes[p].geometry, rng()));
        const std::vector<Region> regions = random_regions(fw, fh, 1 + trial * 4, rng, trial == 3 ? 25.0 : 5.0);
        RegionEffectSettings s;
        s.effect = static_cast<RegionEffect>(effect);
        s.truncate = trial % 2 ? 4.0 : 2.5;
        s.pixel_size = 1 + static_cast<int>(rng() % 9);
        for (const RegionPlane& p : l.planes) {
          std::array<int, 4> f{};
          for (int c = 0; c < 4; ++c) f[c] = static_cast<int>(rng() % (p.geometry.max_value() + 1));
          s.fill.push_back(f);
        }
        const std::vector<PlaneValues> got = reference_region_apply(l.planes, src, regions, s);
        const std::vector<PlaneValues> want = brute_apply(l.planes, src, regions, s);
        for (size_t p = 0; p < got.size(); ++p) {
          const double d = cgtest::max_diff(got[p], want[p]);
          worst = std::max(worst, d);
          CHECK_MSG(d == 0, "%s effect %d trial %d plane %zu: max diff %g", l.name, effect, trial, p, d);
        }
        // Restore of that output: the input back where the weight is 1, everything else kept
        // where no region covers the pixel.
        const std::vector<PlaneValues> back = reference_region_restore(l.planes, src, got, regions);
        for (size_t p = 0; p < l.planes.size(); ++p) {
          const RegionOwners o = region_owners(l.planes[p], regions);
          const PlaneGeometry& g = l.planes[p].geometry;
          for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x)
              for (int c = 0; c < g.channels; ++c) {
                const size_t i = static_cast<size_t>(y) * g.width + x, k = i * g.channels + c;
                if (o.owner[i] < 0 || o.weight[i] == 1.0) CHECK(back[p][k] == src[p][k]);
                else CHECK(back[p][k] == region_blend(int(got[p][k]), int(src[p][k]), o.weight[i], g.max_value()));
              }
        }
      }
  }
  std::printf("  reference vs brute force: max diff %g\n", worst);
}

CG_TEST(reference_without_regions_is_the_input) {
  const std::vector<RegionPlane> planes = {plane(9, 7, 3)};
  const std::vector<PlaneValues> src = {random_values(planes[0].geometry, 5)};
  RegionEffectSettings s;
  CHECK(reference_region_apply(planes, src, {}, s)[0] == src[0]);
  CHECK(reference_region_restore(planes, src, src, {})[0] == src[0]);
}

}  // namespace

CG_TEST_MAIN()
