// SPDX-License-Identifier: LGPL-2.1-or-later
// Which rectangles of a frame get the region effect: the boxes a detector marked (and the fixed
// privacy zones), grown by the padding, clipped to the frame, each with its blur strength; and
// the privacy-zone list as users write it. Plain C++, no GStreamer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "region_params.h"

namespace cudagaussian {

// A box as a detector or the user gave it, in pixels; it may lie partly or wholly outside the
// frame, or be empty. id 0 means the detector does not track objects.
struct MarkedBox {
  int64_t x = 0, y = 0, w = 0, h = 0;
  int64_t id = 0;
};

struct RegionOptions {
  int padding = 0;             // pixels added on each side
  double padding_ratio = 0.0;  // plus this fraction of the box's width (sides) or height
  RegionShape shape = RegionShape::Rectangle;
  int feather = 0;             // soft edge, pixels inside the border
  double strength = 0.0;       // > 0: sigma = strength x the padded box's smaller side
  double sigma_x = 0.0, sigma_y = 0.0;  // otherwise
  double max_sigma = 250.0;
  size_t max_regions = 1024;   // beyond, boxes are left out (counted)
};

// What was left out, for the log.
struct RegionPlanCounts {
  size_t empty = 0;          // zero or negative size
  size_t outside = 0;        // nothing left inside the frame after padding
  size_t over_limit = 0;     // beyond max_regions
};

std::vector<Region> plan_regions(const std::vector<MarkedBox>& boxes, const RegionOptions& options,
                                 int frame_width, int frame_height, RegionPlanCounts* counts);

// "x,y,w,h;x,y,w,h" (spaces allowed, empty = none). false with a message on a malformed list.
bool parse_privacy_zones(const std::string& text, std::vector<MarkedBox>* zones, std::string* error);

}  // namespace cudagaussian
