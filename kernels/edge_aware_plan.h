// SPDX-License-Identifier: LGPL-2.1-or-later
// Host planning of the edge-aware blur (plain C++, no CUDA): its settings, each pass's kernel
// arguments (how a line is cut into segments, the recursion's coefficients), each plane's
// passes, and the scratch they need. The kernels are in edge_aware.cu.
#pragma once

#include <cstddef>
#include <vector>

#include "blur_params.h"
#include "domain_transform.h"
#include "frame_planes.h"
#include "line_split.h"
#include "plane.h"

namespace cudagaussian {

// The schedule's split, segments and kappa apply (kappa: the TwoWay / KWay warm-up, in sigmas of
// transformed distance; segments: KWay pieces per line, 0 = enough to fill the GPU); its launch
// forms are the recursive Gaussians' alone.
struct EdgeAwareSettings : LineSchedule {
  EdgeFilter filter = EdgeFilter::Gaussian;
  // Range sigma in 8-bit sample units (0..255), whatever the depth: planes of more bits scale it
  // by their maximum / 255, so a value means the same contrast in every format.
  double sigma_r = 30.0;
  int iterations = 3;
};

namespace edge_aware {

// One direction of one iteration.
struct PassParams {
  float log_a;                     // RF: ln a = -sqrt(2) / sigma_H
  DtGaussianTerm<float> terms[2];  // Gaussian
  float extent;                    // Algorithm C warm-up: kappa x sigma_H of transformed distance
  int segments;                    // per line (1: Algorithm A)
  bool block_parallel;             // segments joined exactly through their linear maps
  bool identity;                   // sigma 0 along this axis: no pass
};

// A pass over `lines` lines of `length` pixels with the transformed-domain sigma sigma_h:
// OneWay is Algorithm A (one segment); TwoWay, KWay: Algorithm C, with the recursive Gaussians'
// pieces (warm_split_segments: just enough threads to fill the GPU, so that the warm-ups, which
// flat regions make as long as kappa x sigma_h, are as few as that allows); BlockParallel:
// segments of at most kBlockSegment (never an empty one).
PassParams make_pass(const EdgeAwareSettings& s, double sigma_h, int lines, int length);

struct PlanePlan {
  PlaneGeometry g;
  int subsample_x = 1, subsample_y = 1;
  std::vector<PassParams> x, y;  // per iteration
};

// Below this sigma an axis gets no passes (such a blur changes no sample; its coefficients
// would overflow float).
constexpr double kMinSigma = 0.001;

// Plane `spec`'s passes for the frame's sigmas (in luma pixels).
PlanePlan plan_plane(const EdgeAwareSettings& s, const PlaneSpec& spec, double sigma_x, double sigma_y);

// Scratch of a frame's planes, in floats: the work planes (the largest plane's samples), the
// other planes' spacings (the largest such plane's pixels), the block-parallel records.
struct EdgeAwareBuffers {
  size_t work = 0, other = 0, carries = 0;
};
EdgeAwareBuffers edge_aware_buffers(const EdgeAwareSettings& s, const std::vector<PlanePlan>& planes);

}  // namespace edge_aware
}  // namespace cudagaussian
