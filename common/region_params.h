// SPDX-License-Identifier: LGPL-2.1-or-later
// What a region effect is asked to do: the effect, the regions with their strengths, and the
// planes it runs on. Plain data shared by the CUDA layer (kernels/region_filter.h), its CPU
// reference (reference_region.h) and the per-frame planning (region_plan.h).
#pragma once

#include <array>
#include <vector>

#include "plane.h"
#include "region_mask.h"
#include "sample_finish.h"

namespace cudagaussian {

enum class RegionEffect { Blur, Pixelate, Fill };

// A region with its own strength.
struct Region {
  RegionBox box;        // luma pixels, clipped to the frame
  double sigma_x = 0;   // Blur: luma pixels (a plane subsampled by s uses sigma / s)
  double sigma_y = 0;
};

struct RegionEffectSettings {
  RegionEffect effect = RegionEffect::Blur;
  double truncate = 4.0;  // Blur: FIR support in sigmas
  int pixel_size = 16;    // Pixelate: block side in luma pixels, blocks on the frame's grid
  // Fill: the value of each channel of each plane, in sample units (stored value >> shift).
  std::vector<std::array<int, 4>> fill;
  // Blur: the unsharp mask of the region's blur (sample_finish.h); threshold in 8-bit levels.
  double sharpen = 0.0;
  double sharpen_threshold = 0.0;
  // Per plane, bit c: channel c keeps the input under every effect (a part not filtered).
  // Empty: every channel takes the effect.
  std::vector<unsigned> keep;
};

// The finishing step of plane `plane` (of largest sample max_value) under the effect.
inline SampleFinish region_finish(const RegionEffectSettings& s, size_t plane, int max_value) {
  const bool blur = s.effect == RegionEffect::Blur;
  return make_sample_finish(blur ? s.sharpen : 0.0, blur ? s.sharpen_threshold : 0.0, max_value,
                            plane < s.keep.size() ? s.keep[plane] : 0u);
}

// One plane as the region effects see it: its geometry and how many luma pixels one of its
// pixels spans (kernels/frame_planes.h's PlaneSpec without the GPU-only fields).
struct RegionPlane {
  PlaneGeometry geometry;
  int subsample_x = 1;
  int subsample_y = 1;
};

// The frame in luma pixels as the regions see it: every plane's pixels times its subsampling.
// Wider than the luma plane where a subsampled plane's last pixel reaches past it (an odd width
// in 4:2:0), so that a region reaching the frame's edge covers that last chroma pixel too.
template <typename Plane>
inline void region_frame_extent(const std::vector<Plane>& planes, long long* width, long long* height) {
  *width = *height = 0;
  for (const Plane& p : planes) {
    const long long w = static_cast<long long>(p.geometry.width) * p.subsample_x;
    const long long h = static_cast<long long>(p.geometry.height) * p.subsample_y;
    if (w > *width) *width = w;
    if (h > *height) *height = h;
  }
}

// Limits checked by validate_region_request (region_plan.h).
constexpr int kMaxRegionRadius = 4096;   // FIR radius of a region on any plane, plane pixels
constexpr int kMaxPixelSize = 1024;      // Pixelate block side, luma pixels

}  // namespace cudagaussian
