// SPDX-License-Identifier: LGPL-2.1-or-later
// How a frame's planes are described to the frame-level blurs (FrameBlur, EdgeAwareBlur): plain
// geometry plus subsampling, and device pointers with pitches.
#pragma once

#include <cstddef>
#include <vector>

#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

struct PlaneSpec {
  PlaneGeometry geometry;
  int subsample_x = 1;  // luma pixels per pixel of this plane, horizontally
  int subsample_y = 1;
  // Channels that carry edges when this plane guides algorithm=edge-aware (bit c: channel c):
  // the colour channels, not alpha or padding.
  unsigned edge_channels = ~0u;
  // The part of the frame (FramePart) each channel holds, for BlurSettings::parts: channels of
  // a part that is not filtered are copied from the input.
  unsigned channel_parts[4] = {kPartColor, kPartColor, kPartColor, kPartColor};
};

// The channels of `plane` that `parts` leaves unfiltered (bit c: channel c).
inline unsigned kept_channels(const PlaneSpec& plane, unsigned parts) {
  unsigned keep = 0;
  for (int c = 0; c < plane.geometry.channels && c < 4; ++c)
    if (!(plane.channel_parts[c] & parts)) keep |= 1u << c;
  return keep;
}

// The parts (FramePart) a frame of these planes has.
inline unsigned frame_parts(const std::vector<PlaneSpec>& planes) {
  unsigned parts = 0;
  for (const PlaneSpec& p : planes)
    for (int c = 0; c < p.geometry.channels && c < 4; ++c) parts |= p.channel_parts[c];
  return parts;
}

struct DevicePlaneRef {
  const void* data = nullptr;
  size_t pitch = 0;
};
struct MutableDevicePlaneRef {
  void* data = nullptr;
  size_t pitch = 0;
};

}  // namespace cudagaussian
