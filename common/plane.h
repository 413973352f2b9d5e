// SPDX-License-Identifier: LGPL-2.1-or-later
// What the filters need to know about one image plane: no GStreamer, no CUDA.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudagaussian {

struct PlaneGeometry {
  int width = 0;             // pixels
  int height = 0;            // rows
  int channels = 1;          // interleaved samples per pixel: 1 (GRAY, Y), 2 (NV12 UV), 3, 4
  int bytes_per_sample = 1;  // 1 (8-bit) or 2 (16-bit little endian)
  int shift = 0;             // sample = stored >> shift (6 for P010: 10 bits in the high bits)

  int samples_per_row() const { return width * channels; }
  size_t row_bytes() const { return static_cast<size_t>(samples_per_row()) * bytes_per_sample; }
  int max_value() const {
    return bytes_per_sample == 1 ? 255 : (0xffff >> shift);
  }
  bool valid() const {
    return width > 0 && height > 0 && channels >= 1 && channels <= 4 &&
           (bytes_per_sample == 1 || bytes_per_sample == 2) && shift >= 0 && shift < 16 &&
           (bytes_per_sample == 2 || shift == 0);
  }
};

}  // namespace cudagaussian
