// SPDX-License-Identifier: LGPL-2.1-or-later
// Exact double-precision CPU references: the ground truth of every accuracy test.
#pragma once

#include <cstddef>
#include <vector>

#include "blur_params.h"
#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

// A plane's samples in double, row-major, width * channels per row, in sample units
// (stored value >> shift).
using PlaneValues = std::vector<double>;

PlaneValues read_plane(const PlaneGeometry& g, const void* data, size_t pitch_bytes);

// Separable FIR in double: the horizontal pass, then the vertical pass, each with its own
// odd-length taps (centre at the middle) and the same border rule as the CUDA kernels.
PlaneValues reference_fir(const PlaneGeometry& g, const PlaneValues& in,
                          const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                          Border border);

// The exact sampled Gaussian, support ceil(8 sigma) + 1 each way (docs/algorithms.md, "Exact
// Gaussian").
PlaneValues exact_gaussian(const PlaneGeometry& g, const PlaneValues& in, double sigma_x,
                           double sigma_y, Border border);

// The finishing step over a plane (sample_finish.h): each blurred value replaced by
// finish_sample(finish, blurred, in, its channel).
PlaneValues finish_values(const PlaneGeometry& g, const PlaneValues& in, const PlaneValues& blurred,
                          const SampleFinish& finish);

// Round to nearest, clamp to the sample range and store (shifted back for P010-like layouts).
void store_plane(const PlaneGeometry& g, const PlaneValues& values, void* data,
                 size_t pitch_bytes);

}  // namespace cudagaussian
