// SPDX-License-Identifier: LGPL-2.1-or-later
// Small helpers for CPU tests on double planes: geometry, random content, differences.
#pragma once

#include <cmath>
#include <random>

#include "reference_blur.h"

namespace cgtest {

inline cudagaussian::PlaneGeometry geometry(int w, int h, int channels, int bytes = 1, int shift = 0) {
  cudagaussian::PlaneGeometry g;
  g.width = w;
  g.height = h;
  g.channels = channels;
  g.bytes_per_sample = bytes;
  g.shift = shift;
  return g;
}

// Uniform 8-bit values.
inline cudagaussian::PlaneValues random_plane(const cudagaussian::PlaneGeometry& g, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, 255);
  cudagaussian::PlaneValues v(static_cast<size_t>(g.samples_per_row()) * g.height);
  for (double& x : v) x = dist(rng);
  return v;
}

template <typename A, typename B>
double max_diff(const A& a, const B& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::fmax(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

}  // namespace cgtest
