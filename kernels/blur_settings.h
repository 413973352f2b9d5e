// SPDX-License-Identifier: LGPL-2.1-or-later
// What FrameBlur is asked for: the algorithm and every algorithm's parameters, one value each.
#pragma once

#include <tuple>

#include "blur_params.h"
#include "per_pixel_fir.h"
#include "recursive_settings.h"
#include "sample_finish.h"

namespace cudagaussian {

struct BlurSettings {
  Algorithm algorithm = Algorithm::Auto;
  double sigma_x = 2.0;
  double sigma_y = 2.0;
  double truncate = 4.0;  // FIR support in sigmas
  // algorithm=fir: taps from a table (the register-blocked SeparableFir) or generated in the
  // kernel by the incremental method (PerPixelFir). algorithm=auto always uses the table.
  TapSource coefficients = TapSource::Table;
  Border border = Border::Replicate;
  // Start-up and line split of the recursive algorithms and of edge-aware: split Auto and a
  // negative kappa resolve per algorithm (FrameBlur::resolved). The filter is the algorithm's.
  RecursiveSettings recursive{{LineSplit::Auto, 0, -1.0, LaunchForm::Auto, TwoWayForm::Auto},
                              RecursiveFilter::YoungVanVliet2002, StartUp::Exact};
  int box_passes = 3;           // algorithm=box
  BoxMethod box_method = BoxMethod::RunningSum;
  // algorithm=edge-aware (EdgeAwareSettings): filter, range sigma (8-bit units), iterations.
  EdgeFilter edge_filter = EdgeFilter::Gaussian;
  double sigma_r = 30.0;
  int iterations = 3;
  // Unsharp mask: out = x + sharpen (x - blur), where |x - blur| is at least sharpen_threshold
  // (in 8-bit levels whatever the depth); 0 = the blur itself.
  double sharpen = 0.0;
  double sharpen_threshold = 0.0;
  // The parts of the frame that are filtered (FramePart flags); the others are copied.
  unsigned parts = kAllParts;

  // Every member, in order, without naming them: a member added above and not bound here stops
  // the build (a structured binding takes exactly as many names as there are members).
  static auto members(const BlurSettings& s) {
    const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o] = s;
    return std::tie(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o);
  }
  bool operator==(const BlurSettings& o) const { return members(*this) == members(o); }
  bool operator!=(const BlurSettings& o) const { return !(*this == o); }
};

// Sigma of a plane along one axis: the frame's sigma over the plane's subsampling.
inline double plane_sigma(double sigma, int subsample) { return sigma / subsample; }

}  // namespace cudagaussian
