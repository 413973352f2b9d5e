// SPDX-License-Identifier: LGPL-2.1-or-later
// Double-precision CPU reference of the region effects (kernels/region_filter.h): the ground
// truth of the GPU tests and the stand-in's implementation.
//
// Per plane, every pixel that some region covers (weight > 0, region_mask.h) is owned by one
// region (region_precedes); outside every region the input stays as it is. apply() blends the
// input towards the owner's effect value by the owner's weight:
//   Blur      the truncated, normalised Gaussian FIR of the region's sigma over the plane's
//             subsampling, replicate border at the frame's edges: the whole-frame FIR
//             (reference_fir) at that pixel, rounded and clamped to a sample;
//   Pixelate  the rounded mean of the pixel's block on the plane's grid of blocks of
//             pixel_size / subsampling (at least 1) pixels, clipped to the plane;
//   Fill      settings.fill[plane][channel].
// restore() blends an effect (dst) back towards the input by the owner's weight times
// (1 - the largest weight of the `keep` regions).
#pragma once

#include <vector>

#include "reference_blur.h"
#include "region_params.h"

namespace cudagaussian {

// Who owns each pixel of one plane: the region's index (-1: none) and its weight there.
struct RegionOwners {
  std::vector<int> owner;      // width * height, row-major
  std::vector<double> weight;  // 0 where owner is -1
};
RegionOwners region_owners(const RegionPlane& plane, const std::vector<Region>& regions);

// The FIR taps of a region's sigma (luma pixels) on a plane subsampled by `subsample`:
// gaussian_taps(sigma / subsample, fir_radius(sigma / subsample, truncate)).
std::vector<double> region_taps(double sigma, int subsample, double truncate);

// Expected planes (sample units, whole numbers) of apply() and restore(). `src` and `dst` hold
// one PlaneValues per plane (read_plane).
std::vector<PlaneValues> reference_region_apply(const std::vector<RegionPlane>& planes,
                                                const std::vector<PlaneValues>& src,
                                                const std::vector<Region>& regions,
                                                const RegionEffectSettings& settings);
std::vector<PlaneValues> reference_region_restore(const std::vector<RegionPlane>& planes,
                                                  const std::vector<PlaneValues>& src,
                                                  const std::vector<PlaneValues>& dst,
                                                  const std::vector<Region>& regions,
                                                  const std::vector<Region>& keep = {});

}  // namespace cudagaussian
