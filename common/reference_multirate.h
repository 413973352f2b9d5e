// SPDX-License-Identifier: LGPL-2.1-or-later
// The multirate Gaussian (multirate_axis.h) in double, stage by stage as the kernels run it:
// decimate the columns, decimate the rows, interpolate the rows, interpolate the columns.
#pragma once

#include "blur_params.h"
#include "multirate_axis.h"
#include "reference_blur.h"

namespace cudagaussian {

PlaneValues reference_multirate(const PlaneGeometry& g, const PlaneValues& in, const MultirateAxis& x,
                                const MultirateAxis& y, Border border);

}  // namespace cudagaussian
