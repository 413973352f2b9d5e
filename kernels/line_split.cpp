// SPDX-License-Identifier: LGPL-2.1-or-later
#include "line_split.h"

#include <algorithm>

namespace cudagaussian {

const char* line_split_name(LineSplit split) {
  switch (split) {
    case LineSplit::OneWay: return "one-way";
    case LineSplit::TwoWay: return "two-way";
    case LineSplit::KWay: return "k-way";
    case LineSplit::BlockParallel: return "block-parallel";
    case LineSplit::Auto: return "auto";
  }
  return "unknown";
}

const char* line_schedule_error(const LineSchedule& s) {
  if (!(s.kappa >= 0.0 && s.kappa <= 100.0)) return "kappa must be between 0 and 100 sigmas";
  if (s.segments < 0) return "segments must be >= 0";
  return nullptr;
}

int warm_split_segments(LineSplit split, int segments, int lines, int length) {
  switch (split) {
    case LineSplit::TwoWay: return std::min(2, length);
    case LineSplit::KWay: {
      int k = segments > 0 ? segments : (kKWayTargetThreads + lines - 1) / lines;
      k = std::max(1, std::min(k, std::max(1, length / kKWayMinSegment)));
      return std::min(k, length);
    }
    default: return 1;
  }
}

}  // namespace cudagaussian
