// SPDX-License-Identifier: LGPL-2.1-or-later
// Accuracy of a filtered plane against a double reference (docs/algorithms.md, "Exact Gaussian").
#pragma once

#include "reference_blur.h"

namespace cudagaussian {

struct ErrorStats {
  double mse = 0.0;
  double psnr = 0.0;     // 10 log10(peak^2 / mse), peak = the plane's max sample value; inf if exact
  double max_abs = 0.0;  // largest |out - ref| in sample units
};

// `out` holds filtered samples (e.g. from read_plane of the GPU result), `ref` the double result.
ErrorStats compare_planes(const PlaneGeometry& g, const PlaneValues& out, const PlaneValues& ref);

}  // namespace cudagaussian
