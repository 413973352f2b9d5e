// SPDX-License-Identifier: LGPL-2.1-or-later
// A plane's spec (geometry and subsampling) in one call, for the GPU tests that describe frames
// plane by plane.
#pragma once

#include "frame_planes.h"
#include "plane_helpers.h"

namespace cgtest {

inline cudagaussian::PlaneSpec plane_spec(int w, int h, int channels, int bytes = 1, int shift = 0,
                                          int subsample_x = 1, int subsample_y = -1) {
  cudagaussian::PlaneSpec s;
  s.geometry = geometry(w, h, channels, bytes, shift);
  s.subsample_x = subsample_x;
  s.subsample_y = subsample_y < 0 ? subsample_x : subsample_y;
  return s;
}

}  // namespace cgtest
