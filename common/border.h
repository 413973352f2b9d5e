// SPDX-License-Identifier: LGPL-2.1-or-later
// Border rules as one index mapping, shared by the CPU references and the CUDA kernels.
#pragma once

#include "blur_params.h"

#ifdef __CUDACC__
#define CG_HOST_DEVICE __host__ __device__
#else
#define CG_HOST_DEVICE
#endif

namespace cudagaussian {

// Maps any integer position i to a sample index in [0, n). Works for any distance from the
// image (a radius may exceed the size), so mirror and reflect fold periodically.
CG_HOST_DEVICE inline int border_index(int i, int n, Border border) {
  if (i >= 0 && i < n) return i;
  if (border == Border::Replicate || n == 1) return i < 0 ? 0 : n - 1;
  if (border == Border::Mirror) {
    const int period = 2 * (n - 1);
    int m = i % period;
    if (m < 0) m += period;
    return m < n ? m : period - m;
  }
  const int period = 2 * n;  // Reflect
  int m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - 1 - m;
}

}  // namespace cudagaussian
