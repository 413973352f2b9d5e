// SPDX-License-Identifier: LGPL-2.1-or-later
// Double-precision references of the box and direct-2D blurs, with the border rules of border.h.
#pragma once

#include <vector>

#include "blur_params.h"
#include "reference_blur.h"

namespace cudagaussian {

// Box passes of the given odd widths along rows (all of them), then along columns.
PlaneValues reference_box(const PlaneGeometry& g, const PlaneValues& in, const std::vector<int>& widths_x,
                          const std::vector<int>& widths_y, Border border);

// Direct 2D convolution with a square, odd-sized kernel (row-major, centre in the middle).
PlaneValues reference_direct(const PlaneGeometry& g, const PlaneValues& in,
                             const std::vector<double>& kernel, int size, Border border);

// The 5x5 integer kernel / 273 of Afif, Said and Atri (2018), their fixed case, row-major.
std::vector<double> afif_5x5_kernel();

}  // namespace cudagaussian
