// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_sobel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cudagaussian {

const char* sobel_output_name(SobelOutput output) {
  return output == SobelOutput::Magnitude ? "magnitude" : "direction";
}

std::vector<int> sobel_luma_plane(const SobelImage& in) {
  const int w = in.width, h = in.height, c = in.layout.channels;
  std::vector<int> luma(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    const auto* row = static_cast<const uint8_t*>(in.data) + y * in.pitch;
    int* dst = luma.data() + static_cast<size_t>(y) * w;
    if (c == 1) {
      for (int x = 0; x < w; ++x) dst[x] = row[x];
    } else {
      for (int x = 0; x < w; ++x) {
        const uint8_t* p = row + static_cast<size_t>(x) * c;
        dst[x] = sobel_luma(p[in.layout.r], p[in.layout.g], p[in.layout.b]);
      }
    }
  }
  return luma;
}

void reference_sobel_gradients(const SobelImage& in, std::vector<int>* gx, std::vector<int>* gy) {
  const int w = in.width, h = in.height;
  const std::vector<int> luma = sobel_luma_plane(in);
  gx->assign(luma.size(), 0);
  gy->assign(luma.size(), 0);
  for (int y = 0; y < h; ++y) {
    // Replicate border: rows and columns beyond the image repeat the edge.
    const int* above = luma.data() + static_cast<size_t>(std::max(y - 1, 0)) * w;
    const int* here = luma.data() + static_cast<size_t>(y) * w;
    const int* below = luma.data() + static_cast<size_t>(std::min(y + 1, h - 1)) * w;
    for (int x = 0; x < w; ++x) {
      const int l = std::max(x - 1, 0), r = std::min(x + 1, w - 1);
      const size_t i = static_cast<size_t>(y) * w + x;
      (*gx)[i] = (above[r] + 2 * here[r] + below[r]) - (above[l] + 2 * here[l] + below[l]);
      (*gy)[i] = (below[l] + 2 * below[x] + below[r]) - (above[l] + 2 * above[x] + above[r]);
    }
  }
}

std::vector<double> reference_sobel_values(const SobelImage& in, const SobelSettings& s,
                                           int out_bytes) {
  std::vector<int> gx, gy;
  reference_sobel_gradients(in, &gx, &gy);
  std::vector<double> out(gx.size());
  const double levels = out_bytes == 1 ? 256.0 : 65536.0;
  const double pi = 3.14159265358979323846;
  for (size_t i = 0; i < out.size(); ++i) {
    const double x = gx[i], y = gy[i];
    if (s.output == SobelOutput::Magnitude)
      out[i] = std::sqrt(x * x + y * y) * s.scale;
    else
      out[i] = (std::atan2(y, x) + pi) * (levels / (2.0 * pi));
  }
  return out;
}

unsigned sobel_store_value(double value, SobelOutput output, int out_bytes) {
  const double levels = out_bytes == 1 ? 256.0 : 65536.0;
  if (output == SobelOutput::Magnitude) {
    const double v = std::floor(std::min(std::max(value, 0.0), levels - 1.0) + 0.5);
    return static_cast<unsigned>(v);
  }
  double code = std::floor(value + 0.5);
  if (code >= levels) code -= levels;  // +π is -π
  if (code < 0) code += levels;
  return static_cast<unsigned>(code);
}

void reference_sobel(const SobelImage& in, const SobelSettings& s, int out_bytes, void* out,
                     size_t out_pitch) {
  const std::vector<double> values = reference_sobel_values(in, s, out_bytes);
  for (int y = 0; y < in.height; ++y) {
    auto* row = static_cast<uint8_t*>(out) + y * out_pitch;
    for (int x = 0; x < in.width; ++x) {
      const unsigned v =
          sobel_store_value(values[static_cast<size_t>(y) * in.width + x], s.output, out_bytes);
      if (out_bytes == 1) {
        row[x] = static_cast<uint8_t>(v);
      } else {
        const uint16_t v16 = static_cast<uint16_t>(v);
        std::memcpy(row + 2 * x, &v16, 2);  // little-endian host
      }
    }
  }
}

std::vector<unsigned> reference_sobel(const SobelImage& in, const SobelSettings& s,
                                      int out_bytes) {
  const std::vector<double> values = reference_sobel_values(in, s, out_bytes);
  std::vector<unsigned> out(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = sobel_store_value(values[i], s.output, out_bytes);
  return out;
}

}  // namespace cudagaussian
