// SPDX-License-Identifier: LGPL-2.1-or-later
#include "box_widths.h"

#include <cmath>

namespace cudagaussian {

std::vector<int> box_widths(double sigma, int passes) {
  if (passes < 1) passes = 1;
  std::vector<int> widths(passes, 1);
  if (!(sigma > 0.0)) return widths;
  const double n = passes;
  const double ideal = std::sqrt(12.0 * sigma * sigma / n + 1.0);
  int wl = static_cast<int>(std::floor(ideal));
  if (wl % 2 == 0) --wl;
  if (wl < 1) wl = 1;
  const int wu = wl + 2;
  const double m_ideal =
      (12.0 * sigma * sigma - n * wl * wl - 4.0 * n * wl - 3.0 * n) / (-4.0 * wl - 4.0);
  int m = static_cast<int>(std::lround(m_ideal));
  if (m < 0) m = 0;
  if (m > passes) m = passes;
  for (int i = 0; i < passes; ++i) widths[i] = i < m ? wl : wu;
  return widths;
}

double box_variance(const std::vector<int>& widths) {
  double v = 0.0;
  for (int w : widths) v += (double(w) * w - 1.0) / 12.0;
  return v;
}

}  // namespace cudagaussian
