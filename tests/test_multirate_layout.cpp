// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU tests of how MultirateBlur lays a plane on its kernels (kernels/multirate_layout.h): the row
// pass's shared memory holds everything its threads read and write, each part on 16 bytes, its
// plan (MultirateRowPlan) agrees with the axes it was made from, and the column passes' groups of
// phases cover every phase. No GPU needed.
#include <cstdio>

#include "check.h"
#include "multirate_layout.h"

using namespace cudagaussian;

namespace {

PlaneGeometry geometry(int width, int height, int channels, int bytes = 1) {
  PlaneGeometry g;
  g.width = width;
  g.height = height;
  g.channels = channels;
  g.bytes_per_sample = bytes;
  return g;
}

// Every plane and sigma below that plans, with what the row pass reads checked against what its
// layout gives it; returns how many planned.
template <class Check>
int for_each_plan(const Check& check) {
  int planned = 0;
  for (int width : {1, 2, 3, 17, 385, 720, 1920, 1921, 3840, 4096})
    for (int channels : {1, 2, 3, 4})
      for (double sigma : {0.0, 1.0, 2.0, 3.9, 5.0, 8.5, 10.0, 17.3, 30.0, 64.0, 100.0, 250.0}) {
        const PlaneGeometry g = geometry(width, 289, channels);
        MultirateAxis x, y;
        MultirateLayout layout;
        if (!plan_multirate_plane(g, sigma, sigma, &x, &y, &layout).ok()) continue;
        ++planned;
        check(g, x, y, layout, multirate_row_plan(g, x, y, layout));
      }
  return planned;
}

}  // namespace

CG_TEST(row_pass_shared_memory_holds_what_it_reads) {
  int failures = 0;
  const int planned = for_each_plan([&](const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis&,
                                        const MultirateLayout& l, const MultirateRowPlan& p) {
    const int run = kMultirateRowRun, taps = l.row_taps;
    bool ok = true;
    // Each part starts on 16 bytes (the kernel reads the coarse pixels, the partial sums and the
    // taps as float4).
    ok &= l.row_line_floats % 4 == 0 && l.row_coarse_floats % 4 == 0 && l.row_partial_floats % 4 == 0;
    ok &= l.row_bytes == sizeof(float) * (static_cast<size_t>(l.row_line_floats) + l.row_coarse_floats +
                                          l.row_partial_floats + static_cast<size_t>(x.step) * (taps + 4));
    ok &= l.row_bytes <= kMultirateRowSharedBytes;
    // The line holds every phase's staged positions, and later the interpolated row.
    ok &= l.row_line_floats >= x.step * (l.row_span + 1) && l.row_line_floats >= g.width;
    ok &= p.slots >= l.row_extent;
    // The decimation's windows: slot runs * run + taps - 2 at most, inside a phase's span.
    ok &= p.span % run == 0 && p.runs * run + taps - 1 <= p.span;
    ok &= p.runs * p.groups * run <= l.row_partial_floats;
    // The interpolation's windows, 16-byte pieces: run + taps coarse pixels from the last run's.
    ok &= (p.position_runs - 1) * run + run + taps <= l.row_coarse_floats;
    ok &= (p.position_runs - 1) * run * x.step <= g.width - 1 && p.position_runs * run * x.step > g.width - 1;
    if (!ok) {
      ++failures;
      std::fprintf(stderr, "  %dx%d C%d step %d taps %d: the layout does not hold the row pass\n", g.width, g.height,
                   g.channels, x.step, taps);
    }
  });
  std::printf("  %d plans checked\n", planned);
  CHECK(planned > 100);
  CHECK(failures == 0);
}

CG_TEST(row_plan_matches_its_axes) {
  int failures = 0;
  for_each_plan([&](const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis& y, const MultirateLayout& l,
                    const MultirateRowPlan& p) {
    bool ok = p.width == g.width && p.step == x.step && p.coarse == x.coarse && p.extent == l.row_extent;
    ok &= p.first == x.position(0) - x.decimate_radius;
    ok &= p.next_n * x.step + p.next_v == kMultirateRowThreads && p.next_v >= 0 && p.next_v < x.step;
    ok &= p.channel_lines == y.coarse && p.splits == l.column_splits;
    ok &= p.split_stride == static_cast<size_t>(y.coarse) * g.samples_per_row();
    ok &= p.by_step.divisor == x.step && p.by_runs.divisor == p.runs && p.by_channel_lines.divisor == y.coarse;
    // Staged positions first + e: inside the row and the extent exactly for e in the inner range.
    for (int e = 0; e < p.slots && ok; ++e) {
      const int position = p.first + e;
      const bool inside = position >= 0 && position < g.width && e < p.extent;
      ok &= inside == (e >= p.inner_begin && e < p.inner_end);
    }
    if (!ok) {
      ++failures;
      std::fprintf(stderr, "  %dx%d C%d step %d: the row plan disagrees with its axes\n", g.width, g.height,
                   g.channels, x.step);
    }
  });
  CHECK(failures == 0);
}

CG_TEST(column_passes_split_their_phases) {
  int failures = 0;
  for_each_plan([&](const PlaneGeometry& g, const MultirateAxis&, const MultirateAxis& y, const MultirateLayout& l,
                    const MultirateRowPlan&) {
    // Each pass's groups of phases cover every phase, none empty; the interpolation's fit its
    // block (kMultirateInterpolatePhases at most).
    bool ok = l.column_splits >= 1 && l.split_phases * l.column_splits >= y.step &&
              l.split_phases * (l.column_splits - 1) < y.step;
    ok &= l.interpolate_phases >= 1 && l.interpolate_phases <= kMultirateInterpolatePhases;
    ok &= l.interpolate_phases * l.interpolate_splits >= y.step &&
          l.interpolate_phases * (l.interpolate_splits - 1) < y.step;
    if (!ok) {
      ++failures;
      std::fprintf(stderr, "  %dx%d C%d step %d: the column passes' phase groups are wrong\n", g.width, g.height,
                   g.channels, y.step);
    }
  });
  CHECK(failures == 0);
  // A small plane at a large sigma (SD RGBA8, sigma 100: step 50, 46 blocks of columns and
  // steps) spreads its interpolation over more blocks than 8 phases a block would give; a large
  // one (1080p RGBA8: 180 blocks, 1260 with 8 phases) keeps 8.
  MultirateAxis x, y;
  MultirateLayout sd, full_hd;
  CHECK(plan_multirate_plane(geometry(720, 576, 4), 100.0, 100.0, &x, &y, &sd).ok());
  std::printf("  SD sigma 100: %d copies of %d phases (decimation), %d groups of %d phases (interpolation)\n",
              sd.column_splits, sd.split_phases, sd.interpolate_splits, sd.interpolate_phases);
  CHECK(sd.interpolate_phases < kMultirateInterpolatePhases);
  CHECK(46 * sd.interpolate_splits >= kMultirateInterpolateBlocks / 2);
  CHECK(plan_multirate_plane(geometry(1920, 1080, 4), 100.0, 100.0, &x, &y, &full_hd).ok());
  CHECK(full_hd.interpolate_phases == kMultirateInterpolatePhases);
}

CG_TEST_MAIN()
