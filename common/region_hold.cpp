// SPDX-License-Identifier: LGPL-2.1-or-later
#include "region_hold.h"

#include <algorithm>

namespace cudagaussian {

double box_overlap(const MarkedBox& a, const MarkedBox& b) {
  if (a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0) return 0.0;
  const double ix = std::min<double>(a.x + a.w, b.x + b.w) - std::max<double>(a.x, b.x);
  const double iy = std::min<double>(a.y + a.h, b.y + b.h) - std::max<double>(a.y, b.y);
  if (ix <= 0 || iy <= 0) return 0.0;
  const double inter = ix * iy;
  return inter / (static_cast<double>(a.w) * a.h + static_cast<double>(b.w) * b.h - inter);
}

std::vector<MarkedBox> RegionHold::update(const std::vector<MarkedBox>& now, unsigned frames) {
  if (frames == 0) {
    tracks_.clear();
    return now;
  }
  std::vector<bool> continued(tracks_.size(), false);
  std::vector<Track> next;
  next.reserve(now.size() + tracks_.size());
  for (const MarkedBox& box : now) {
    // The held box this one continues: same id, or else the one it overlaps most.
    int best = -1;
    double best_overlap = 0.0;
    for (size_t t = 0; t < tracks_.size(); ++t) {
      if (continued[t]) continue;
      const MarkedBox& held = tracks_[t].box;
      if (box.id != 0 && held.id != 0) {
        if (box.id == held.id) {
          best = static_cast<int>(t);
          break;
        }
        continue;
      }
      const double o = box_overlap(box, held);
      if (o > best_overlap) best_overlap = o, best = static_cast<int>(t);
    }
    if (best >= 0) continued[best] = true;
    next.push_back({box, 0});
  }
  std::vector<MarkedBox> out = now;
  for (size_t t = 0; t < tracks_.size(); ++t) {
    if (continued[t] || tracks_[t].missed >= frames) continue;
    Track held = tracks_[t];
    ++held.missed;
    out.push_back(held.box);
    next.push_back(held);
  }
  tracks_ = std::move(next);
  return out;
}

}  // namespace cudagaussian
