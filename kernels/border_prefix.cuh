// SPDX-License-Identifier: LGPL-2.1-or-later
// Prefix sums of a border-extended line, for box filters that take a window's sum as the
// difference of two of them (box_filter.cu's wide windows, box_tile.cu).
#pragma once

#include "border.h"

namespace cudagaussian {

// S(j): the sum of the border-extended line over [0, j) (minus the sum over [j, 0) for j < 0).
// inside(k) is the line's own prefix sum for 0 <= k <= n, first() and last() its end samples
// (called only where the border needs them).
template <class Inside, class First, class Last>
__device__ inline double border_extended_prefix(Inside inside, First first, Last last, int n, int j,
                                                Border border) {
  if (j >= 0 && j <= n) return inside(j);
  const double total = inside(n);
  if (border == Border::Replicate || n == 1) return j < 0 ? j * double(first()) : total + (j - n) * double(last());
  // Mirror (x[-1] = x[1], period 2n - 2) and reflect (x[-1] = x[0], period 2n): whole periods,
  // then the forward part and the part of the period that runs backwards.
  const bool mirror = border == Border::Mirror;
  const int period = mirror ? 2 * (n - 1) : 2 * n;
  const double tail = mirror ? total - last() - first() : total;  // the backward part's sum
  int q = j / period, p = j - q * period;
  if (p < 0) p += period, --q;
  const double periods = q * (total + tail);
  if (p <= n) return periods + inside(p);
  // p - n samples of the backward run x[n - 2], x[n - 3], .. (mirror) or x[n - 1], .. (reflect).
  const int back_end = mirror ? 2 * n - 1 - p : 2 * n - p;  // the run covers [back_end, n - 1 or n)
  const double p_top = mirror ? total - last() : total;
  return periods + total + p_top - inside(back_end);
}

}  // namespace cudagaussian
