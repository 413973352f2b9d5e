// SPDX-License-Identifier: LGPL-2.1-or-later
// Widths of n box passes whose combined variance approximates sigma² (Wells 1986; Kovesi 2010,
// DICTA): the first m passes have width wl, the others wl + 2, all odd.
#pragma once

#include <vector>

namespace cudagaussian {

constexpr int kMinBoxPasses = 1;
constexpr int kMaxBoxPasses = 6;

// Odd widths, one per pass; sigma 0 gives widths of 1 (identity). Small sigmas round to width 1
// too: a box cannot be narrower than a pixel (below sigma ~0.6 with 3 passes).
std::vector<int> box_widths(double sigma, int passes);

// The variance the widths actually give: sum of (w² - 1) / 12.
double box_variance(const std::vector<int>& widths);

}  // namespace cudagaussian
