// SPDX-License-Identifier: LGPL-2.1-or-later
// The exact Gaussian at large sigma computed on a coarser grid (docs/algorithms.md, "Multirate
// Gaussian"). Along one axis, a Gaussian of sigma / sqrt(2) is evaluated at every step-th
// position only (decimation), and a second Gaussian of sigma / sqrt(2), centred on those coarse
// samples, brings the result back to every position (interpolation). Both stages together are
// the Gaussian of sigma up to aliasing terms below 2 exp(-pi^2 (sigma / step)^2 / 2) of each
// weight (Poisson summation), which step <= sigma / 2 keeps below 1e-8; their taps reach
// kMultirateTruncate sigmas. The work per sample is about the same at every sigma.
//
// The plan of one axis is shared by the CPU reference (reference_multirate.h) and the kernels
// (kernels/multirate_blur.cu), which read the same taps.
#pragma once

#include <vector>

namespace cudagaussian {

// Support of both stages' taps, in their own sigmas (the tail beyond holds 6e-7 of the weight).
constexpr double kMultirateTruncate = 5.0;
// step = floor(sigma / kMultirateSigmasPerStep): at least this many sigmas per coarse step.
constexpr double kMultirateSigmasPerStep = 2.0;
// Below this sigma an axis is left as it is (the Gaussian's taps would underflow).
constexpr double kMultirateMinSigma = 1e-6;
// Below this sigma an axis is one plain FIR (no split, step 1): splitting it would alias.
constexpr double kMultirateMinSplitSigma = 2.0;

struct MultirateAxis {
  int length = 0;  // samples along the axis
  int step = 1;    // coarse samples lie every `step` positions
  int lead = 0;    // coarse samples before position 0: coarse k sits at position step * (k - lead)
  int coarse = 0;  // coarse samples, covering what the interpolation of positions 0..length-1 reads

  // Decimation: coarse[k] = sum_j decimate[j] x[step (k - lead) - decimate_radius + j], x
  // extended beyond the axis by the border rule.
  int decimate_radius = 0;
  std::vector<double> decimate;  // 2 decimate_radius + 1 taps, summing to 1

  // Interpolation: out[m] = sum_t interpolate[phase * interpolate_taps + t] coarse[m / step + t],
  // phase = m % step (the first coarse sample a position reads is m / step: lead makes it so).
  // Each phase's taps sum to 1.
  int interpolate_taps = 0;
  std::vector<double> interpolate;  // step * interpolate_taps taps

  // The decimation's taps by phase, as the kernels walk them: tap a of phase v is
  // decimate[a step + v] (0 past the end), for a < decimate_phase_taps().
  int decimate_phase_taps() const { return (static_cast<int>(decimate.size()) + step - 1) / step; }
  double decimate_phase_tap(int v, int a) const {
    const int j = a * step + v;
    return j < static_cast<int>(decimate.size()) ? decimate[j] : 0.0;
  }
  // The fine position of coarse sample k.
  int position(int k) const { return step * (k - lead); }
};

// The plan of an axis of `length` samples blurred with `sigma` (>= 0).
MultirateAxis plan_multirate_axis(int length, double sigma);

}  // namespace cudagaussian
