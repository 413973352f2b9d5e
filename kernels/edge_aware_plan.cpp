// SPDX-License-Identifier: LGPL-2.1-or-later
#include "edge_aware_plan.h"

#include <algorithm>
#include <cmath>

#include "edge_aware_lines.h"

namespace cudagaussian {
namespace edge_aware {

PassParams make_pass(const EdgeAwareSettings& s, double sigma_h, int lines, int length) {
  PassParams p{};
  p.identity = !(sigma_h > 0.0);
  if (p.identity) return p;
  p.log_a = static_cast<float>(-std::sqrt(2.0) / sigma_h);
  dt_gaussian_terms_rounded(sigma_h, p.terms);  // in double, then rounded once
  p.extent = static_cast<float>(s.kappa * sigma_h);
  p.block_parallel = s.split == LineSplit::BlockParallel;
  p.segments = p.block_parallel ? block_parallel_segments(length)
                                 : warm_split_segments(s.split, s.segments, lines, length);
  return p;
}

PlanePlan plan_plane(const EdgeAwareSettings& s, const PlaneSpec& spec, double sigma_x, double sigma_y) {
  PlanePlan pp;
  pp.g = spec.geometry;
  pp.subsample_x = spec.subsample_x;
  pp.subsample_y = spec.subsample_y;
  const double sx = sigma_x < kMinSigma ? 0.0 : sigma_x / spec.subsample_x;
  const double sy = sigma_y < kMinSigma ? 0.0 : sigma_y / spec.subsample_y;
  for (int it = 1; it <= s.iterations; ++it) {
    pp.x.push_back(make_pass(s, iteration_sigma(sx, it, s.iterations), pp.g.height, pp.g.width));
    pp.y.push_back(make_pass(s, iteration_sigma(sy, it, s.iterations), pp.g.width, pp.g.height));
  }
  return pp;
}

EdgeAwareBuffers edge_aware_buffers(const EdgeAwareSettings& s, const std::vector<PlanePlan>& planes) {
  EdgeAwareBuffers b;
  for (size_t i = 0; i < planes.size(); ++i) {
    const PlanePlan& pp = planes[i];
    const size_t pixels = static_cast<size_t>(pp.g.width) * pp.g.height;
    b.work = std::max(b.work, pixels * pp.g.channels);
    for (const std::vector<PassParams>* passes : {&pp.x, &pp.y})
      for (const PassParams& pass : *passes)
        if (pass.block_parallel)
          b.carries = std::max(b.carries, static_cast<size_t>(passes == &pp.x ? pp.g.height : pp.g.width) *
                                              pass.segments * edge_record_floats(s.filter, pp.g.channels));
    if (i > 0) b.other = std::max(b.other, pixels);
  }
  return b;
}

}  // namespace edge_aware
}  // namespace cudagaussian
