// SPDX-License-Identifier: LGPL-2.1-or-later
// How a line filter (the recursive Gaussians, edge-aware) spreads each line's sequential
// recursion over threads, and the knobs that tune it: one schedule for every line filter.
// Plain C++: planned on the host, tested without a GPU.
//   OneWay        a thread per line;
//   TwoWay        each line in two halves (exact, or the second half warmed up);
//   KWay          each line in `segments` pieces, each warmed up over kappa x sigma samples
//                 (approximate: error ~ e^{-1.7 kappa} of the signal range);
//   BlockParallel each line in kBlockSegment-sample segments whose exact starting states come
//                 from a scan over per-segment carries: exact, and many threads.
#pragma once

namespace cudagaussian {

// Auto: resolved per algorithm by FrameBlur::resolved (block-parallel for the recursive
// Gaussians, k-way for edge-aware).
enum class LineSplit : int { OneWay = 0, TwoWay = 1, KWay = 2, BlockParallel = 3, Auto = 4 };
const char* line_split_name(LineSplit split);

// Recursive Gaussians: each pass in one launch wherever a block holds a line's segments (One),
// or always in several (Several: three for block-parallel, two for two-way and k-way), or as
// the planner picks (Auto: block-parallel in one launch for passes too small to fill the GPU,
// two-way in one, k-way in two). The exact two-way is always one launch.
enum class LaunchForm : int { Auto, One, Several };

// Young–van Vliet's two-way with the exact start-up: its exact parallel form, warmed-up cascade
// halves, or whichever the planner picks for the warm-up (Auto: exact from warm-ups of a 25th of
// the line on). Deriche's two-way is always exact.
enum class TwoWayForm : int { Auto, Exact, Warm };

struct LineSchedule {
  LineSplit split = LineSplit::BlockParallel;
  int segments = 0;    // KWay: pieces per line (0 = auto); BlockParallel: ignored (kBlockSegment)
  double kappa = 4.0;  // KWay / warmed-up TwoWay warm-up, in sigmas
  LaunchForm launches = LaunchForm::Auto;
  TwoWayForm two_way_form = TwoWayForm::Auto;
};
inline bool operator==(const LineSchedule& a, const LineSchedule& b) {
  return a.split == b.split && a.segments == b.segments && a.kappa == b.kappa && a.launches == b.launches &&
         a.two_way_form == b.two_way_form;
}
inline bool operator!=(const LineSchedule& a, const LineSchedule& b) { return !(a == b); }

// Why a schedule is refused (kappa outside [0, 100], negative segments), or null.
const char* line_schedule_error(const LineSchedule& schedule);

// Samples per segment of BlockParallel: a 1080-sample line makes 34 segments.
constexpr int kBlockSegment = 32;
constexpr int block_parallel_segments(int length) { return (length + kBlockSegment - 1) / kBlockSegment; }

// Pieces per line of the warmed-up splits: OneWay 1, TwoWay 2, KWay `segments`, or with
// segments = 0 enough for about kKWayTargetThreads threads per pass; never pieces shorter than
// kKWayMinSegment samples (unless the line is shorter) or more pieces than samples. 1 for any
// other split.
constexpr int kKWayTargetThreads = 65536;
constexpr int kKWayMinSegment = 16;
int warm_split_segments(LineSplit split, int segments, int lines, int length);

}  // namespace cudagaussian
