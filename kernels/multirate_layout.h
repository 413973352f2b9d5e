// SPDX-License-Identifier: LGPL-2.1-or-later
// How MultirateBlur lays a plane on its kernels (kernels/multirate_blur.cu), found on the host
// without the GPU: the column passes' variants, how the column decimation splits its phases
// over blocks, and the shared memory of the row pass.
#pragma once

#include <cstddef>

#include "cuda_status.h"
#include "fast_divisor.h"
#include "multirate_axis.h"
#include "plane.h"

namespace cudagaussian {

// Coarse steps a thread of the column decimation makes, and its block's sample columns.
constexpr int kMultirateColumnSteps = 16;
constexpr int kMultirateColumnThreads = 128;
// Blocks the column decimation aims at: where the columns and coarse rows give fewer (large
// sigma), its phases are split over several blocks, each adding into its own copy of the
// coarse rows.
constexpr int kMultirateColumnBlocks = 1024;
// Coarse steps a thread of the column interpolation makes (its window serves every phase it
// makes, so a short run costs few extra loads), and the most phases it makes.
constexpr int kMultirateInterpolateSteps = 8;
constexpr int kMultirateInterpolatePhases = 8;
// Blocks the column interpolation aims at: where its columns and steps give fewer (small planes
// at large sigma), a block makes fewer phases, so that more of the GPU's SMs take part.
constexpr int kMultirateInterpolateBlocks = 1024;
// The column decimation of 8-bit samples on tensor cores multiplies tiles of 16 frame rows by
// the taps' band, scaled by this power of two so that the smallest taps stay normal in fp16.
constexpr double kMultirateBandScale = 4096.0;
constexpr float kMultirateBandScaleInverse = 1.0f / 4096.0f;
// Where the column decimation is split into more copies than this (small planes at large
// vertical sigma), its tensor-core kernel is slower than the FP32 one (measured:
// docs/bench/kernel_choices.md, "Multirate Gaussian"), so the FP32 kernel runs.
constexpr int kMultirateBandMaxSplits = 8;
// Threads of a block of the row pass (one coarse row of one channel at a time), and the
// consecutive outputs each makes in both its stages.
constexpr int kMultirateRowThreads = 256;
constexpr int kMultirateRowRun = 8;
// Shared memory a block of the row pass may use: within what GPUs from compute capability 8.0
// on give a block that asks for it (MultirateBlur::plan checks).
constexpr size_t kMultirateRowSharedBytes = 96 * 1024;

struct MultirateLayout {
  // Each column pass's taps a phase, padded to a kernel variant: 16, 24 or 32.
  int decimate_column_taps = 0;
  int interpolate_column_taps = 0;
  // The column decimation's phases in `column_splits` groups of `split_phases` (the last may
  // have fewer), each group's sums a copy of the coarse rows that the row pass adds.
  int column_splits = 1;
  int split_phases = 1;
  // On tensor cores, each block's 16 coarse rows take `band_tiles` tiles of 16 frame rows (the
  // last row of blocks, with fewer coarse rows, fewer), shared out over the column_splits copies.
  int band_tiles = 0;
  // The column interpolation's phases in groups of `interpolate_phases`, one a block (grid.z).
  int interpolate_splits = 1;
  int interpolate_phases = 1;
  // The row pass: both stages' taps a phase (padded as above) and the parts of its shared
  // memory, in floats. The staged line holds each phase's positions, `row_span` of them a phase
  // and each phase one word further on than a multiple of row_span, in kMultirateRowRun slices
  // by their residue modulo kMultirateRowRun (so that threads at consecutive runs meet in no
  // bank; each slice 4 words past a multiple of 8, and the phases' extra word, so that threads
  // staging consecutive positions meet in few); later it holds the interpolated row. Then the
  // coarse pixels (with zeros past them), the decimation's partial sums and the interpolation's
  // taps (a phase every row_taps + 4 floats), each part starting on 16 bytes.
  int row_taps = 0;
  int row_extent = 0;  // positions of a row the decimation reads, from position(0) - radius
  int row_span = 0;
  int row_line_floats = 0;
  int row_coarse_floats = 0;
  int row_partial_floats = 0;
  size_t row_bytes = 0;
};

// What the row pass computes from a plan alone, found once on the host so that its blocks, which
// often take a single line, do not divide for it. Positions are those of a row of coarse samples
// (`width` of them); a line is one channel's coarse row, `channel_lines` a channel.
struct MultirateRowPlan {
  int width = 0, step = 1, coarse = 0, extent = 0;
  int first = 0;  // the first position the decimation reads: position(0) - radius
  // Staged positions first + e with e in [inner_begin, inner_end) lie inside the row and the
  // extent: no border rule, no zeros.
  int inner_begin = 0, inner_end = 0;
  // The staged line (MultirateLayout): `span` positions a phase, a phase every span + 1 floats,
  // in kMultirateRowRun slices of `slice`; `slots` = step span positions staged in all.
  int span = 0, phase_stride = 1, slice = 0, slots = 0;
  // A thread stages positions kMultirateRowThreads apart: next_n steps and next_v phases further.
  int next_n = 0, next_v = 0;
  // The decimation's jobs: `runs` runs of kMultirateRowRun coarse pixels in each of `groups`
  // groups of phases; the interpolation's: `position_runs` runs of each phase.
  int runs = 0, groups = 1, position_runs = 0;
  // Shared memory, in floats: the line, the coarse pixels, the partial sums, then the
  // interpolation's taps.
  int line_floats = 0, coarse_floats = 0, partial_floats = 0;
  int channel_lines = 0;
  int splits = 1;           // copies of the coarse rows to add while staging
  size_t split_stride = 0;  // floats from one copy to the next
  FastDivisor by_step, by_runs, by_channel_lines;
};

// The row plan of a plane with these axes and layout.
MultirateRowPlan multirate_row_plan(const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis& y,
                                    const MultirateLayout& layout);

// The layout of a plane with these axes; an error where no variant fits.
Status multirate_layout(const PlaneGeometry& g, const MultirateAxis& x, const MultirateAxis& y,
                        MultirateLayout* layout);

// The largest sigma planned (the element takes at most 250; the row pass's shared memory ends
// sooner on wide planes).
constexpr double kMultirateMaxSigma = 10000.0;

// A plane's axes and layout for sigmas in [0, kMultirateMaxSigma], or why it cannot be blurred
// so: besides the layout, at most 2^30 rows and samples in a row, 65535 blocks of
// kMultirateColumnSteps coarse rows and of kMultirateInterpolateSteps coarse steps, and fewer
// than 2^31 samples in the copies of the coarse rows.
Status plan_multirate_plane(const PlaneGeometry& g, double sigma_x, double sigma_y, MultirateAxis* x,
                            MultirateAxis* y, MultirateLayout* layout);

}  // namespace cudagaussian
