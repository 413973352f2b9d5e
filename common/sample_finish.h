// SPDX-License-Identifier: LGPL-2.1-or-later
// What a blur's last pass does with each blurred value before it rounds and stores it: the
// unsharp mask (sharpen) and the channels a plane keeps from its input (the parts of the frame
// that are not filtered). The kernels (float) and the CPU references (double) run the same
// function, so both finish a sample alike.
#pragma once

#include <cmath>
#include <string>

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

// The parts of a frame a blur may filter (the element's `planes` flags).
enum FramePart : unsigned {
  kPartLuma = 1u << 0,    // Y, and gray formats
  kPartChroma = 1u << 1,  // U and V
  kPartColor = 1u << 2,   // R, G and B (and the padding byte of RGBx formats)
  kPartAlpha = 1u << 3,
  kAllParts = kPartLuma | kPartChroma | kPartColor | kPartAlpha,
};

struct SampleFinish {
  float amount = 0.0f;     // unsharp mask: out = x + amount (x - blur); 0: out = blur
  float threshold = 0.0f;  // where |x - blur| is below it (sample units), out = x
  unsigned keep = 0u;      // bit c: channel c is copied from the input, not filtered

  CG_HOST_DEVICE bool active() const { return amount != 0.0f || keep != 0u; }
  // Every channel of a plane of `channels` kept: the plane is a copy of its input.
  CG_HOST_DEVICE bool keeps_all(int channels) const {
    const unsigned all = (1u << channels) - 1u;
    return (keep & all) == all;
  }
};

// The unsharp mask of a filtered sample (f.amount != 0): x + amount (x - blurred), or x where
// |x - blurred| is below the threshold. A select, not a branch, for kernels that finish many
// samples in a row.
template <typename T>
CG_HOST_DEVICE inline T sharpened_sample(const SampleFinish& f, T blurred, T x) {
  const T detail = x - blurred;
  return fabs(detail) < static_cast<T>(f.threshold) ? x : x + static_cast<T>(f.amount) * detail;
}

// The value to round and store for a sample of channel `channel` whose input is `x` and whose
// blur is `blurred` (both in sample units, unrounded). Rounding and clamping to the format's
// range follow, as for a plain blur.
template <typename T>
CG_HOST_DEVICE inline T finish_sample(const SampleFinish& f, T blurred, T x, int channel) {
  if ((f.keep >> channel) & 1u) return x;
  if (f.amount == 0.0f) return blurred;
  return sharpened_sample(f, blurred, x);
}

// The sample a finished value is stored as: rounded to nearest (halves up) and clamped to the
// format's range [0, max_value]; every kernel that stores samples rounds this way.
CG_HOST_DEVICE inline float rounded_sample(float v, float max_value) {
  return fminf(fmaxf(floorf(v + 0.5f), 0.0f), max_value);
}

// A threshold in 8-bit levels as sample units of a format whose largest value is max_value
// (x 4 for 10-bit samples, x 257 / 256 ~ 256 for 16-bit).
inline double threshold_in_samples(double levels_8bit, int max_value) {
  return levels_8bit * (max_value + 1.0) / 256.0;
}

// The largest unsharp-mask amount, and the largest threshold (8-bit levels).
constexpr double kMaxSharpen = 10.0;
constexpr double kMaxSharpenThreshold = 255.0;

// Why an unsharp mask's amount or threshold (8-bit levels) is refused; empty when valid.
inline std::string sharpen_error(double amount, double threshold_levels) {
  if (!(amount >= 0.0 && amount <= kMaxSharpen))
    return "sharpen must be between 0 and " + std::to_string(static_cast<int>(kMaxSharpen));
  if (!(threshold_levels >= 0.0 && threshold_levels <= kMaxSharpenThreshold))
    return "sharpen-threshold must be between 0 and " + std::to_string(static_cast<int>(kMaxSharpenThreshold)) +
           " (8-bit levels)";
  return {};
}

// The finishing step of a plane whose largest sample is max_value: the unsharp mask (threshold
// in 8-bit levels) and the channels it keeps.
inline SampleFinish make_sample_finish(double amount, double threshold_levels, int max_value, unsigned keep) {
  SampleFinish f;
  f.amount = static_cast<float>(amount);
  f.threshold = static_cast<float>(threshold_in_samples(threshold_levels, max_value));
  f.keep = keep;
  return f;
}

}  // namespace cudagaussian
