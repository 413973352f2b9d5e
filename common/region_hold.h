// SPDX-License-Identifier: LGPL-2.1-or-later
// Keeps a region for a few frames after its detector stops reporting it: detectors miss frames,
// and one missed frame would show a face. A box of this frame continues a held one with the same
// id (when the detector tracks objects: id != 0), else the held box it overlaps most.
#pragma once

#include <vector>

#include "region_boxes.h"

namespace cudagaussian {

class RegionHold {
 public:
  // The boxes of the next frame: @now, plus every box not seen for at most @frames frames (at its
  // last position). frames = 0 returns @now and forgets everything.
  std::vector<MarkedBox> update(const std::vector<MarkedBox>& now, unsigned frames);
  void reset() { tracks_.clear(); }
  size_t held() const { return tracks_.size(); }

 private:
  struct Track {
    MarkedBox box;
    unsigned missed = 0;
  };
  std::vector<Track> tracks_;
};

// Intersection over union of two boxes (0 when either is empty).
double box_overlap(const MarkedBox& a, const MarkedBox& b);

}  // namespace cudagaussian
