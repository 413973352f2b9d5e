// SPDX-License-Identifier: LGPL-2.1-or-later
// What the recursive, edge-aware and integral-box blurs accept, checked on the host before
// anything is planned; shared by the CUDA build and the CPU stand-in (standin/).
#include "edge_aware.h"
#include "integral_box.h"
#include "recursive_filter.h"

namespace cudagaussian {

Status RecursiveBlur::validate(const RecursiveSettings& settings, double sigma_x, double sigma_y) {
  for (double sigma : {sigma_x, sigma_y}) {
    if (sigma == 0.0) continue;
    if (const char* why = recursive_sigma_error(settings.filter, sigma)) return Status::invalid(why);
  }
  if (const char* why = line_schedule_error(settings)) return Status::invalid(why);
  return Status::success();
}

Status EdgeAwareBlur::validate(const EdgeAwareSettings& s, const std::vector<PlaneSpec>& planes,
                               double sigma_x, double sigma_y) {
  if (planes.empty()) return Status::invalid("a frame needs at least one plane");
  for (double sigma : {sigma_x, sigma_y})
    if (!(sigma >= 0.0 && sigma <= kMaxSigma))
      return Status::invalid("algorithm=edge-aware needs sigma and sigma-y between 0 and 1000");
  if (!(s.sigma_r > 0.0)) return Status::invalid("sigma-r must be > 0");
  if (s.iterations < 1 || s.iterations > kMaxIterations)
    return Status::invalid("iterations must be between 1 and 10");
  if (s.split == LineSplit::Auto) return Status::invalid("partitions=auto must be resolved first (FrameBlur does)");
  if (const char* why = line_schedule_error(s)) return Status::invalid(why);
  for (const PlaneSpec& p : planes)
    if (!p.geometry.valid() || p.subsample_x < 1 || p.subsample_y < 1)
      return Status::invalid("invalid plane geometry");
  const PlaneGeometry& g0 = planes[0].geometry;
  if ((planes[0].edge_channels & ((1u << g0.channels) - 1u)) == 0)
    return Status::invalid("the guide plane has no channel that carries edges");
  return Status::success();
}

Status IntegralBoxBlur::validate(const PlaneGeometry& g, const std::vector<int>& wx, const std::vector<int>& wy) {
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  if (wx.empty() || wx.size() != wy.size()) return Status::invalid("box passes: one width per pass and direction");
  long double product = g.max_value();
  for (size_t p = 0; p < wx.size(); ++p) {
    if (wx[p] < 1 || wx[p] % 2 == 0 || wy[p] < 1 || wy[p] % 2 == 0) return Status::invalid("box widths must be odd");
    product *= static_cast<long double>(wx[p]) * wy[p];
  }
  if (!(product < 9.2233720368547758e18L))
    return Status::invalid("box-method=integral keeps exact 64-bit sums, which this sigma and box-passes "
                           "would overflow; use fewer passes, a smaller sigma or box-method=running-sum");
  return Status::success();
}

}  // namespace cudagaussian
