// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_blur.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "border.h"
#include "fir_taps.h"

namespace cudagaussian {

PlaneValues read_plane(const PlaneGeometry& g, const void* data, size_t pitch_bytes) {
  const int n = g.samples_per_row();
  PlaneValues out(static_cast<size_t>(n) * g.height);
  for (int y = 0; y < g.height; ++y) {
    const auto* row = static_cast<const uint8_t*>(data) + y * pitch_bytes;
    for (int i = 0; i < n; ++i) {
      double v;
      if (g.bytes_per_sample == 1) {
        v = row[i];
      } else {
        uint16_t s;
        std::memcpy(&s, row + 2 * i, 2);  // little endian host, like the GPU
        v = s >> g.shift;
      }
      out[static_cast<size_t>(y) * n + i] = v;
    }
  }
  return out;
}

PlaneValues reference_fir(const PlaneGeometry& g, const PlaneValues& in,
                          const std::vector<double>& taps_x, const std::vector<double>& taps_y,
                          Border border) {
  const int w = g.width, h = g.height, c = g.channels, n = g.samples_per_row();
  const int rx = static_cast<int>(taps_x.size() / 2), ry = static_cast<int>(taps_y.size() / 2);
  PlaneValues tmp(in.size()), out(in.size());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int ch = 0; ch < c; ++ch) {
        double acc = 0.0;
        for (int k = -rx; k <= rx; ++k)
          acc += taps_x[k + rx] * in[static_cast<size_t>(y) * n + border_index(x + k, w, border) * c + ch];
        tmp[static_cast<size_t>(y) * n + x * c + ch] = acc;
      }
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int i = 0; i < n; ++i) {
      double acc = 0.0;
      for (int k = -ry; k <= ry; ++k)
        acc += taps_y[k + ry] * tmp[static_cast<size_t>(border_index(y + k, h, border)) * n + i];
      out[static_cast<size_t>(y) * n + i] = acc;
    }
  }
  return out;
}

PlaneValues exact_gaussian(const PlaneGeometry& g, const PlaneValues& in, double sigma_x,
                           double sigma_y, Border border) {
  return reference_fir(g, in, gaussian_taps(sigma_x, exact_radius(sigma_x)),
                       gaussian_taps(sigma_y, exact_radius(sigma_y)), border);
}

void store_plane(const PlaneGeometry& g, const PlaneValues& values, void* data,
                 size_t pitch_bytes) {
  const int n = g.samples_per_row();
  const double max_value = g.max_value();
  for (int y = 0; y < g.height; ++y) {
    auto* row = static_cast<uint8_t*>(data) + y * pitch_bytes;
    for (int i = 0; i < n; ++i) {
      const double v = std::clamp(std::floor(values[static_cast<size_t>(y) * n + i] + 0.5), 0.0, max_value);
      if (g.bytes_per_sample == 1) {
        row[i] = static_cast<uint8_t>(v);
      } else {
        const uint16_t s = static_cast<uint16_t>(static_cast<unsigned>(v) << g.shift);
        std::memcpy(row + 2 * i, &s, 2);
      }
    }
  }
}

PlaneValues finish_values(const PlaneGeometry& g, const PlaneValues& in, const PlaneValues& blurred,
                          const SampleFinish& finish) {
  if (!finish.active()) return blurred;
  PlaneValues out(blurred.size());
  for (size_t i = 0; i < blurred.size(); ++i)
    out[i] = finish_sample(finish, blurred[i], in[i], static_cast<int>(i % g.channels));
  return out;
}

}  // namespace cudagaussian
