// SPDX-License-Identifier: LGPL-2.1-or-later
// Sobel edge detection (docs/algorithms.md, "Sobel"): the parameters and the luma rule shared
// by the CPU reference (common/reference_sobel.h), the CUDA kernel (kernels/sobel.h) and the
// cudasobel element. Plain C++, no GStreamer, no CUDA runtime.
//
//   Gx = [[1,0,-1],[2,0,-2],[1,0,-1]] * Y    (convolution: Gx = right column - left column)
//   Gy = [[1,2,1],[0,0,0],[-1,-2,-1]] * Y    (convolution: Gy = row below - row above; y grows
//                                            downward, as in video)
// with the replicate border (pixels beyond an edge repeat the edge pixel). Y is the 8-bit input
// itself for one-channel images, else the integer BT.601 luma of sobel_luma(). Gx and Gy are
// integers in [-1020, 1020].
//
//   magnitude: out = round(min(sqrt(Gx² + Gy²) × scale, max)), max = 255 (8-bit) or 65535
//   direction: out = round((atan2(Gy, Gx) + π) × L / 2π) mod L, L = 256 (8-bit) or 65536, i.e.
//              [-π, π) onto 0..L-1: 0 = -π (gradient pointing left: darker to the right),
//              L/4 = -π/2 (pointing up), L/2 = 0 (pointing right, and flat areas where
//              Gx = Gy = 0), 3L/4 = +π/2 (pointing down); π wraps onto 0. `scale` is ignored.
// round() is to nearest, halves up (floor(v + 0.5)).
#pragma once

#ifndef CG_HOST_DEVICE
#ifdef __CUDACC__
#define CG_HOST_DEVICE __host__ __device__
#else
#define CG_HOST_DEVICE
#endif
#endif

namespace cudagaussian {

enum class SobelOutput : int { Magnitude = 0, Direction = 1 };

// Where the samples of one pixel are: `channels` interleaved bytes per pixel (1, 3 or 4); for 3
// and 4, the byte offsets of R, G and B inside the pixel (RGBA: 0,1,2; BGRx: 2,1,0).
struct SobelLayout {
  int channels = 1;
  int r = 0, g = 0, b = 0;

  bool valid() const {
    if (channels == 1) return r == 0 && g == 0 && b == 0;
    if (channels != 3 && channels != 4) return false;
    return r >= 0 && g >= 0 && b >= 0 && r < channels && g < channels && b < channels &&
           r != g && g != b && r != b;
  }
};

struct SobelSettings {
  SobelOutput output = SobelOutput::Magnitude;
  double scale = 1.0;  // magnitude only; >= 0
};

constexpr double kSobelMaxScale = 65535.0;

// Luma of an 8-bit R, G, B triple: BT.601 weights in 8-bit fixed point (77, 150, 29; they sum
// to 256), rounded to nearest: Y = (77 R + 150 G + 29 B + 128) >> 8, in 0..255 (gray stays gray).
CG_HOST_DEVICE inline int sobel_luma(int r, int g, int b) {
  return (77 * r + 150 * g + 29 * b + 128) >> 8;
}

const char* sobel_output_name(SobelOutput output);

}  // namespace cudagaussian
