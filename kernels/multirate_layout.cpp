// SPDX-License-Identifier: LGPL-2.1-or-later
#include "multirate_layout.h"

#include <algorithm>
#include <string>

namespace cudagaussian {

namespace {

// The column decimation launches a block row per kMultirateColumnSteps coarse rows, the column
// interpolation one per kMultirateInterpolateSteps coarse steps: grid.y.
constexpr int kMaxGridRows = 65535;
// Rows, and samples of a row, past which the passes' int positions (a row plus a few sigmas
// beyond each end) could overflow.
constexpr double kMaxLine = 1 << 30;

int padded_taps(int taps) {
  for (int v : {16, 24, 32})
    if (taps <= v) return v;
  return 0;
}

int divide_up(int a, int b) { return (a + b - 1) / b; }
int round_up(int a, int b) { return divide_up(a, b) * b; }

// `step` phases in groups of at most `most_phases`, as near to `wanted` groups as that allows
// (at least one phase a group, none empty): the phases a group and the groups.
void group_phases(int step, int wanted, int most_phases, int* phases, int* groups) {
  const int g = std::clamp(wanted, divide_up(step, most_phases), step);
  *phases = divide_up(step, g);
  *groups = divide_up(step, *phases);
}

}  // namespace

Status multirate_layout(const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis& y,
                        MultirateLayout* layout) {
  MultirateLayout l;
  l.decimate_column_taps = padded_taps(y.decimate_phase_taps());
  l.interpolate_column_taps = padded_taps(y.interpolate_taps);
  l.row_taps = padded_taps(std::max(x.decimate_phase_taps(), x.interpolate_taps));
  if (!l.decimate_column_taps || !l.interpolate_column_taps || !l.row_taps)
    return Status::invalid("multirate: a sigma needs more than 32 taps a phase");

  // Both column passes split a step's phases over blocks (grid.z) where their columns and rows
  // give the GPU fewer blocks than they aim at.
  const int column_blocks = divide_up(g.samples_per_row(), kMultirateColumnThreads);
  const int decimate_blocks = column_blocks * divide_up(y.coarse, kMultirateColumnSteps);
  group_phases(y.step, kMultirateColumnBlocks / std::max(decimate_blocks, 1), y.step, &l.split_phases,
               &l.column_splits);
  l.band_tiles = divide_up(y.step * (kMultirateColumnSteps - 1) + static_cast<int>(y.decimate.size()), 16);
  const int interpolate_blocks = column_blocks * divide_up(divide_up(g.height, y.step), kMultirateInterpolateSteps);
  group_phases(y.step, divide_up(kMultirateInterpolateBlocks, std::max(interpolate_blocks, 1)),
               kMultirateInterpolatePhases, &l.interpolate_phases, &l.interpolate_splits);

  // The row pass: the decimation reads positions position(0) - radius .. position(coarse - 1) +
  // radius, each phase's windows up to runs * kMultirateRowRun + taps - 1 positions (zeros past
  // the extent); the interpolation's last thread reads up to kMultirateRowRun coarse pixels and
  // padded taps past the last coarse pixel it needs.
  const int runs = divide_up(x.coarse, kMultirateRowRun);
  l.row_extent = x.step * (x.coarse - 1) + static_cast<int>(x.decimate.size());
  const int slice = divide_up(runs * kMultirateRowRun + l.row_taps - 1, kMultirateRowRun);
  l.row_span = kMultirateRowRun * (8 * divide_up(slice - 4, 8) + 4);
  l.row_line_floats = round_up(std::max(x.step * (l.row_span + 1), g.width), 4);
  l.row_coarse_floats = round_up(x.coarse + kMultirateRowRun + l.row_taps, 4);
  l.row_partial_floats = std::max(kMultirateRowThreads, runs) * kMultirateRowRun;
  const size_t floats = static_cast<size_t>(l.row_line_floats) + l.row_coarse_floats + l.row_partial_floats +
                        static_cast<size_t>(x.step) * (l.row_taps + 4);
  l.row_bytes = floats * sizeof(float);
  if (l.row_bytes > kMultirateRowSharedBytes)
    return Status::invalid("multirate: the plane is too wide for this horizontal sigma (a row and what its "
                           "borders add do not fit in shared memory)");
  *layout = l;
  return Status::success();
}

MultirateRowPlan multirate_row_plan(const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis& y,
                                    const MultirateLayout& layout) {
  MultirateRowPlan p;
  p.width = g.width;
  p.step = x.step;
  p.coarse = x.coarse;
  p.extent = layout.row_extent;
  p.first = -x.step * x.lead - x.decimate_radius;
  p.inner_begin = std::max(0, -p.first);
  p.inner_end = std::min(p.extent, g.width - p.first);
  p.span = layout.row_span;
  p.phase_stride = layout.row_span + 1;
  p.slice = layout.row_span / kMultirateRowRun;
  p.slots = x.step * layout.row_span;
  p.next_n = kMultirateRowThreads / x.step;
  p.next_v = kMultirateRowThreads - p.next_n * x.step;
  p.runs = divide_up(x.coarse, kMultirateRowRun);
  p.groups = std::max(1, std::min(kMultirateRowThreads / p.runs, x.step));
  p.position_runs = (g.width - 1) / x.step / kMultirateRowRun + 1;
  p.line_floats = layout.row_line_floats;
  p.coarse_floats = layout.row_coarse_floats;
  p.partial_floats = layout.row_partial_floats;
  p.channel_lines = y.coarse;
  p.splits = layout.column_splits;
  p.split_stride = static_cast<size_t>(y.coarse) * g.samples_per_row();
  p.by_step = FastDivisor(x.step);
  p.by_runs = FastDivisor(p.runs);
  p.by_channel_lines = FastDivisor(y.coarse);
  return p;
}

Status plan_multirate_plane(const PlaneGeometry& g, double sigma_x, double sigma_y, MultirateAxis* x,
                            MultirateAxis* y, MultirateLayout* layout) {
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  if (!(sigma_x >= 0.0 && sigma_x <= kMultirateMaxSigma) || !(sigma_y >= 0.0 && sigma_y <= kMultirateMaxSigma))
    return Status::invalid("multirate: sigma must be between 0 and " + std::to_string(static_cast<int>(kMultirateMaxSigma)));
  if (static_cast<double>(g.width) * g.channels > kMaxLine || g.height > kMaxLine)
    return Status::invalid("multirate: the plane is too large (2^30 rows or samples in a row at most)");
  *x = plan_multirate_axis(g.width, sigma_x);
  *y = plan_multirate_axis(g.height, sigma_y);
  CG_TRY(multirate_layout(g, *x, *y, layout));
  const int steps = (g.height + y->step - 1) / y->step;
  if ((y->coarse + kMultirateColumnSteps - 1) / kMultirateColumnSteps > kMaxGridRows ||
      (steps + kMultirateInterpolateSteps - 1) / kMultirateInterpolateSteps > kMaxGridRows)
    return Status::invalid("multirate: the plane has too many rows (" + std::to_string(g.height) + ") for sigma_y " +
                           std::to_string(sigma_y));
  if (static_cast<double>(layout->column_splits) * y->coarse * g.samples_per_row() >= 2147483647.0)
    return Status::invalid("multirate: the plane is too large (2^31 samples or more in its coarse rows)");
  return Status::success();
}

}  // namespace cudagaussian
