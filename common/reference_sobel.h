// SPDX-License-Identifier: LGPL-2.1-or-later
// The exact CPU reference of the Sobel filter (common/sobel_params.h gives the rules): integer
// luma and gradients, sqrt / atan2 / scale in double, round half up, clamp (magnitude) or wrap
// (direction). Single-threaded; the ground truth of the kernel and element tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sobel_params.h"

namespace cudagaussian {

// An 8-bit interleaved image in host memory.
struct SobelImage {
  const void* data = nullptr;
  size_t pitch = 0;  // bytes from one row to the next
  int width = 0;
  int height = 0;
  SobelLayout layout;
};

// The luma plane, row-major (width × height values in 0..255).
std::vector<int> sobel_luma_plane(const SobelImage& in);

// Gx and Gy of every pixel, row-major.
void reference_sobel_gradients(const SobelImage& in, std::vector<int>* gx, std::vector<int>* gy);

// The result before rounding: sqrt(Gx² + Gy²) × scale (unclamped), or the direction code
// (atan2(Gy, Gx) + π) × L / 2π in [0, L]. `out_bytes` is 1 (8-bit) or 2 (16-bit) output.
std::vector<double> reference_sobel_values(const SobelImage& in, const SobelSettings& s,
                                           int out_bytes);

// One value as stored: rounded half up, then clamped to 0..max (magnitude) or wrapped to
// 0..L-1 (direction).
unsigned sobel_store_value(double value, SobelOutput output, int out_bytes);

// The stored output: width × height samples of `out_bytes` (1, or 2 little-endian), rows
// `out_pitch` bytes apart.
void reference_sobel(const SobelImage& in, const SobelSettings& s, int out_bytes, void* out,
                     size_t out_pitch);

// The same, as a row-major vector.
std::vector<unsigned> reference_sobel(const SobelImage& in, const SobelSettings& s,
                                      int out_bytes);

}  // namespace cudagaussian
