// SPDX-License-Identifier: LGPL-2.1-or-later
// What a recursive Gaussian blur is asked for: the filter, its start-up at the line ends, and
// how its lines are spread over threads (LineSchedule).
#pragma once

#include "line_split.h"
#include "recursive_coeffs.h"

namespace cudagaussian {

struct RecursiveSettings : LineSchedule {
  RecursiveFilter filter = RecursiveFilter::YoungVanVliet2002;
  StartUp start = StartUp::Exact;
};
inline bool operator==(const RecursiveSettings& a, const RecursiveSettings& b) {
  return static_cast<const LineSchedule&>(a) == static_cast<const LineSchedule&>(b) && a.filter == b.filter &&
         a.start == b.start;
}
inline bool operator!=(const RecursiveSettings& a, const RecursiveSettings& b) { return !(a == b); }

}  // namespace cudagaussian
