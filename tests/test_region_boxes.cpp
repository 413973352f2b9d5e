// SPDX-License-Identifier: LGPL-2.1-or-later
// The host side of the region effects: padding, clipping, strength, limits, privacy-zone lists,
// holding regions over missed frames, and the mask (region_mask.h) shared with the kernels.
#include <cmath>

#include "check.h"
#include "region_hold.h"
#include "region_mask.h"
#include "region_boxes.h"

namespace cg = cudagaussian;

namespace {

cg::MarkedBox box(int64_t x, int64_t y, int64_t w, int64_t h, int64_t id = 0) {
  cg::MarkedBox b;
  b.x = x, b.y = y, b.w = w, b.h = h, b.id = id;
  return b;
}

}  // namespace

CG_TEST(padding_grows_each_side_and_the_frame_clips) {
  cg::RegionOptions o;
  o.padding = 3;
  o.padding_ratio = 0.5;
  o.sigma_x = 4, o.sigma_y = 6;
  cg::RegionPlanCounts counts;
  const auto r = cg::plan_regions({box(10, 20, 10, 4)}, o, 100, 100, &counts);
  CHECK(r.size() == 1);
  CHECK(r[0].box.x0 == 2 && r[0].box.x1 == 28);  // 10 - 3 - 5 .. 20 + 3 + 5
  CHECK(r[0].box.y0 == 15 && r[0].box.y1 == 29);  // 20 - 3 - 2 .. 24 + 3 + 2
  CHECK(!r[0].box.clipped);
  CHECK(r[0].sigma_x == 4 && r[0].sigma_y == 6);
  const auto edge = cg::plan_regions({box(-5, 90, 20, 20)}, o, 100, 100, &counts);
  CHECK(edge.size() == 1);
  CHECK(edge[0].box.x0 == 0 && edge[0].box.x1 == 28 && edge[0].box.y0 == 77 && edge[0].box.y1 == 100);
  CHECK(edge[0].box.clipped && edge[0].box.shape_x0 == -18 && edge[0].box.shape_y1 == 123);
}

CG_TEST(empty_outside_and_excess_boxes_are_left_out_and_counted) {
  cg::RegionOptions o;
  o.max_regions = 2;
  cg::RegionPlanCounts counts;
  const auto r = cg::plan_regions({box(0, 0, 0, 5), box(0, 0, 5, -1), box(200, 0, 5, 5),
                                   box(-4000000000LL, 0, 10, 10), box(1, 1, 2, 2), box(3, 3, 2, 2),
                                   box(5, 5, 2, 2), box(4294967295LL, 4294967295LL, 4294967295LL, 1)},
                                  o, 100, 100, &counts);
  CHECK(r.size() == 2);
  CHECK(counts.empty == 2 && counts.outside == 3 && counts.over_limit == 1);
}

CG_TEST(huge_boxes_keep_the_shape_box_within_range) {
  cg::RegionOptions o;
  o.shape = cg::RegionShape::Ellipse;
  const auto r = cg::plan_regions({box(-4000000000LL, -4000000000LL, 8000000000LL, 8000000000LL)}, o,
                                  64, 48, nullptr);
  CHECK(r.size() == 1);
  CHECK(r[0].box.x0 == 0 && r[0].box.x1 == 64 && r[0].box.clipped);
  CHECK(r[0].box.shape_x0 == -(1 << 24) && r[0].box.shape_x1 == (1 << 24));
  CHECK(cg::region_weight(r[0].box, 32, 24, 1, 1) == 1.0);
}

CG_TEST(strength_scales_sigma_with_the_padded_box) {
  cg::RegionOptions o;
  o.strength = 0.25;
  o.padding = 2;
  o.sigma_x = o.sigma_y = 9;
  const auto r = cg::plan_regions({box(10, 10, 36, 16), box(0, 0, 4000, 4000)}, o, 50, 50, nullptr);
  CHECK(r.size() == 2);
  CHECK(r[0].sigma_x == 5.0 && r[0].sigma_y == 5.0);  // 0.25 x (16 + 4)
  CHECK(r[1].sigma_x == 250.0);                        // capped at max_sigma
}

CG_TEST(privacy_zones_parse_and_reject_malformed_lists) {
  std::vector<cg::MarkedBox> z;
  std::string error;
  CHECK(cg::parse_privacy_zones("", &z, &error) && z.empty());
  CHECK(cg::parse_privacy_zones(" 10,20,30,40 ; -5, 0, 7,8", &z, &error) && z.size() == 2);
  CHECK(z[0].x == 10 && z[0].y == 20 && z[0].w == 30 && z[0].h == 40);
  CHECK(z[1].x == -5 && z[1].w == 7 && z[1].h == 8);
  CHECK(cg::parse_privacy_zones("1,2,3,4;", &z, &error) && z.size() == 1);
  for (const char* bad : {"1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,0,4", "1,2,3,-4", "1 2 3 4",
                          "1,2,3,4;;", "99999999999,1,1,1"}) {
    z.clear();
    error.clear();
    CHECK_MSG(!cg::parse_privacy_zones(bad, &z, &error) && !error.empty() && z.empty(), "%s", bad);
  }
}

CG_TEST(hold_keeps_missed_boxes_for_n_frames) {
  cg::RegionHold hold;
  CHECK(hold.update({box(10, 10, 20, 20)}, 2).size() == 1);
  CHECK(hold.update({}, 2).size() == 1);   // missed once: held
  CHECK(hold.update({}, 2).size() == 1);   // twice: held
  CHECK(hold.update({}, 2).empty());       // three times: gone
  // A moved box continues the held one (overlap): no duplicate, and the hold restarts.
  hold.update({box(10, 10, 20, 20)}, 1);
  auto out = hold.update({box(14, 12, 20, 20)}, 1);
  CHECK(out.size() == 1 && out[0].x == 14);
  out = hold.update({}, 1);
  CHECK(out.size() == 1 && out[0].x == 14);
  CHECK(hold.update({}, 1).empty());
  // hold 0 forgets.
  hold.update({box(0, 0, 5, 5)}, 3);
  CHECK(hold.update({}, 0).empty() && hold.held() == 0);
}

CG_TEST(hold_matches_tracked_ids_before_overlap) {
  cg::RegionHold hold;
  hold.update({box(0, 0, 10, 10, 7), box(50, 50, 10, 10, 8)}, 3);
  // Object 7 jumps far away, object 8 is missed and object 9 appears on top of 8's position.
  auto out = hold.update({box(80, 0, 10, 10, 7), box(50, 50, 10, 10, 9)}, 3);
  CHECK(out.size() == 3);  // 7 (new place), 9, and 8 held at its last place
  bool held8 = false;
  for (const auto& b : out) held8 = held8 || (b.id == 8 && b.x == 50);
  CHECK(held8);
}

CG_TEST(mask_is_exact_at_the_border_and_ramps_inside) {
  cg::RegionBox r{10, 10, 20, 14, cg::RegionShape::Rectangle, 0};
  CHECK(cg::region_weight(r, 9, 12, 1, 1) == 0.0 && cg::region_weight(r, 10, 12, 1, 1) == 1.0);
  CHECK(cg::region_weight(r, 19, 13, 1, 1) == 1.0 && cg::region_weight(r, 20, 13, 1, 1) == 0.0);
  // Chroma subsampled by 2: pixel 5 has its centre at luma 11, inside; pixel 4 at 9, outside.
  CHECK(cg::region_weight(r, 5, 6, 2, 2) == 1.0 && cg::region_weight(r, 4, 6, 2, 2) == 0.0);
  r.feather = 2;  // depths 0.5, 1.5, 2.5 from the left edge: weights 1/4, 3/4, 1
  CHECK(cg::region_weight(r, 10, 12, 1, 1) == 0.25 && cg::region_weight(r, 11, 12, 1, 1) == 0.75);
  cg::RegionBox e{0, 0, 9, 9, cg::RegionShape::Ellipse, 0};
  CHECK(cg::region_weight(e, 4, 4, 1, 1) == 1.0);                                         // centre
  CHECK(cg::region_weight(e, 0, 0, 1, 1) == 0.0 && cg::region_weight(e, 8, 8, 1, 1) == 0.0);  // corners
  CHECK(cg::region_weight(e, 0, 4, 1, 1) == 1.0 && cg::region_weight(e, 4, 0, 1, 1) == 1.0);  // edge middles
  e.feather = 3;
  const double w = cg::region_weight(e, 4, 4, 1, 1);
  CHECK(std::fabs(w - 1.0) < 1e-12);
  CHECK(cg::region_weight(e, 0, 4, 1, 1) > 0.0 && cg::region_weight(e, 0, 4, 1, 1) < 0.5);
}

CG_TEST(blend_gives_the_ends_exactly_and_rounds_between) {
  CHECK(cg::region_blend(7, 200, 0.0, 255) == 7 && cg::region_blend(7, 200, 1.0, 255) == 200);
  CHECK(cg::region_blend(0, 3, 0.5, 255) == 2);     // 1.5 rounds up
  CHECK(cg::region_blend(100, 0, 0.25, 255) == 75);
  CHECK(cg::region_blend(65535, 0, 1e-9, 65535) == 65535);
}

int main() { return cgtest::run_all(); }
