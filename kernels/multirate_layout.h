// SPDX-License-Identifier: LGPL-2.1-or-later
// How MultirateBlur lays a plane on its kernels (kernels/multirate_blur.cu), found on the host
// without the GPU: the column passes' variants and the row decimation's outputs per block.
#pragma once

#include <cstddef>

#include "cuda_status.h"
#include "multirate_axis.h"
#include "plane.h"

namespace cudagaussian {

// Coarse steps a thread of the column passes makes.
constexpr int kMultirateColumnSteps = 16;
// Positions a block of the row interpolation makes.
constexpr int kMultirateRowPositions = 256;
// Coarse pixels a block of the row decimation makes.
constexpr int kMultirateRowOutputs = 32;
// Shared memory a block of the row passes may stage (besides its own small arrays): within what
// GPUs from compute capability 8.0 on give a block that asks for it (MultirateBlur::plan checks).
constexpr size_t kMultirateRowSharedBytes = 96 * 1024;

// Each pass's taps a phase, padded to a kernel variant: 16, 24 or 32.
struct MultirateLayout {
  int decimate_column_taps = 0;
  int interpolate_column_taps = 0;
  int decimate_row_taps = 0;
  int interpolate_row_taps = 0;
  size_t decimate_row_bytes = 0;    // shared memory of a block of the row decimation
  size_t interpolate_row_bytes = 0;
};

// The layout of a plane of `channels` with these axes; an error where no variant fits.
Status multirate_layout(int channels, const MultirateAxis& x, const MultirateAxis& y, MultirateLayout* layout);

// The largest sigma planned (the element takes at most 250; the row decimation's shared memory
// ends sooner on planes of several channels).
constexpr double kMultirateMaxSigma = 10000.0;

// A plane's axes and layout for sigmas in [0, kMultirateMaxSigma], or why it cannot be blurred
// so: besides the layout, at most 65535 coarse rows and 2^31 samples in them.
Status plan_multirate_plane(const PlaneGeometry& g, double sigma_x, double sigma_y, MultirateAxis* x,
                            MultirateAxis* y, MultirateLayout* layout);

}  // namespace cudagaussian
