// SPDX-License-Identifier: LGPL-2.1-or-later
// How a frame's planes are described to the frame-level blurs (FrameBlur, EdgeAwareBlur): plain
// geometry plus subsampling, and device pointers with pitches.
#pragma once

#include <cstddef>

#include "plane.h"

namespace cudagaussian {

struct PlaneSpec {
  PlaneGeometry geometry;
  int subsample_x = 1;  // luma pixels per pixel of this plane, horizontally
  int subsample_y = 1;
  // Channels that carry edges when this plane guides algorithm=edge-aware (bit c: channel c):
  // the colour channels, not alpha or padding.
  unsigned edge_channels = ~0u;
};

struct DevicePlaneRef {
  const void* data = nullptr;
  size_t pitch = 0;
};
struct MutableDevicePlaneRef {
  void* data = nullptr;
  size_t pitch = 0;
};

}  // namespace cudagaussian
