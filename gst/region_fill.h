/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* roi-fill-color (ARGB) as the sample values of each channel of each plane of a format: YUV
 * through the caps' colour matrix and range, at the format's depth. */
#pragma once

#include <array>
#include <vector>

#include <gst/video/video.h>

/* One entry per plane of @info; channels no component maps to (the x of RGBx) get the alpha. */
std::vector < std::array < int, 4 >> gst_cuda_gaussian_fill_values (const GstVideoInfo * info,
    guint32 argb);
