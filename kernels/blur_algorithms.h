// SPDX-License-Identifier: LGPL-2.1-or-later
// The algorithms FrameBlur runs, one row each: the name and description the element shows
// (gst/gaussian_enums.cpp makes its GEnum of them), the parameter checks, the planner, and what
// algorithm=auto may pick. A new algorithm is its kernel, its row here, its CPU reference in
// common/ and its tests.
#pragma once

#include <memory>
#include <vector>

#include "blur_settings.h"
#include "cuda_status.h"
#include "frame_filter.h"
#include "frame_planes.h"

namespace cudagaussian {

// algorithm=auto weighs each algorithm's cost against Deriche block-parallel's, from the
// crossovers measured from SD to 4K (bench_auto; docs/bench/kernel_choices.md, "algorithm=auto").
// The FIR's cost is its radius over these radii, where it stopped beating Deriche:
// the FIR on CUDA cores (16-bit and 3-channel planes),
constexpr int kAutoFirMaxRadius = 24;
// on tensor cores, planes of 4 channels (RGBA, BGRx, ...);
constexpr int kAutoTensorFirMaxRadius = 96;
// on tensor cores, planes of 1 or 2 channels (luma, GRAY8, interleaved chroma): the tensor-core
// FIR's whole range, TensorFir::kMaxRadius.
// The multirate Gaussian's cost against Deriche's (blur_algorithms.cpp, multirate_auto_cost):
// (base + short / shortest step^2) x (channels / 4)^channel_power
//   + long x longest step x sqrt(pixels of 1080p / plane pixels).
constexpr double kMultirateCostBase = 0.2;
constexpr double kMultirateCostShortStep = 1.8;
constexpr double kMultirateCostLongStep = 0.005;
constexpr double kMultirateCostPixels = 1920.0 * 1080.0;
constexpr double kMultirateCostChannelPower = 0.7;

struct BlurAlgorithm {
  Algorithm id;             // the element's enum value (stable)
  const char* nick;         // algorithm=<nick>
  const char* description;  // as gst-inspect-1.0 shows it
  // The recursive Gaussians: the filter they run.
  bool recursive;
  RecursiveFilter recursive_filter;
  // The line schedule where the settings leave it to auto (split Auto, negative kappa). Where
  // algorithm=auto picks a recursive algorithm, its split is this one too.
  LineSplit default_split;
  double default_kappa;
  // Checks settings resolved by FrameBlur::resolved, beyond the sigmas, truncate and the plane
  // count that every algorithm needs; without the GPU. Null for auto.
  Status (*check)(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);
  // Plans the frame's filter for checked, resolved settings, with the CUDA context current.
  // chosen_by_auto: algorithm=auto picked this row. Null for auto.
  Status (*plan)(const BlurSettings& settings, bool chosen_by_auto, const std::vector<PlaneSpec>& planes,
                 std::unique_ptr<FrameFilter>* filter);
  // What algorithm=auto weighs: the cost of these settings against Deriche block-parallel's
  // (1), or a negative value where this row cannot run them exactly. Auto takes the lowest cost
  // (the earlier row on a tie); null: never picked.
  double (*auto_cost)(const BlurSettings& settings, const std::vector<PlaneSpec>& planes);
};

// Every row, auto first, in the order of the element's enum.
const std::vector<BlurAlgorithm>& blur_algorithms();
// The row of an algorithm; null for a value that names none.
const BlurAlgorithm* find_blur_algorithm(Algorithm algorithm);

// The algorithm's nick ("unknown" for a value that names none).
const char* algorithm_name(Algorithm algorithm);
// The recursive filter an algorithm names (Young–van Vliet 2002 for the others).
RecursiveFilter recursive_filter_of(Algorithm algorithm);
bool is_recursive(Algorithm algorithm);

}  // namespace cudagaussian
