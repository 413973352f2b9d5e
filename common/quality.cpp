// SPDX-License-Identifier: LGPL-2.1-or-later
#include "quality.h"

#include <cmath>
#include <limits>

namespace cudagaussian {

ErrorStats compare_planes(const PlaneGeometry& g, const PlaneValues& out, const PlaneValues& ref) {
  ErrorStats s;
  if (out.empty() || out.size() != ref.size()) {
    s.mse = s.max_abs = std::numeric_limits<double>::infinity();
    return s;
  }
  double sum = 0.0;
  for (size_t i = 0; i < out.size(); ++i) {
    const double d = out[i] - ref[i];
    sum += d * d;
    s.max_abs = std::fmax(s.max_abs, std::fabs(d));
  }
  s.mse = sum / out.size();
  const double peak = g.max_value();
  s.psnr = s.mse > 0 ? 10.0 * std::log10(peak * peak / s.mse)
                     : std::numeric_limits<double>::infinity();
  return s;
}

}  // namespace cudagaussian
