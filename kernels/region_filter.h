// SPDX-License-Identifier: LGPL-2.1-or-later
// Effects applied to regions of a frame (privacy blur): every region of a frame in a couple of
// launches, at a cost that follows the regions' area, not the frame's.
//
//   apply():   dst = src outside every region; inside, src blended towards the effect by the
//              region's weight (region_mask.h). Where regions overlap, the pixel takes the
//              region with the largest weight there (then the largest sigma, then the first).
//   restore(): inside the regions, dst (which holds an effect over the whole frame) blended
//              back towards src by the largest weight w_r, times (1 - w_k), w_k the largest
//              weight of the `keep` regions (privacy zones stay under the effect); dst outside
//              every region is not touched.
//
// The blur is the truncated, normalised Gaussian FIR (fir_taps.h) with the frame's replicate
// border, computed from the real neighbourhood of each region: inside a region it equals the
// whole-frame FIR at those pixels. The effect value is rounded to a sample before blending.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "frame_planes.h"
#include "region_mask.h"
#include "region_params.h"

namespace cudagaussian {

// RegionEffect, Region and RegionEffectSettings: region_params.h (common/, shared with the CPU
// reference).

class RegionFilter {
 public:
  RegionFilter();
  ~RegionFilter();
  RegionFilter(const RegionFilter&) = delete;
  RegionFilter& operator=(const RegionFilter&) = delete;

  // Checks planes, regions (inside the frame of plane 0 x its subsampling) and settings
  // without touching the GPU.
  static Status validate(const std::vector<PlaneSpec>& planes, const std::vector<Region>& regions,
                         const RegionEffectSettings& settings);

  // With the CUDA context current. src and dst are either the same planes (in place: only the
  // regions' pixels are written, and the frame is not copied) or do not overlap. Region tables
  // and taps are copied to the device on `stream`; scratch grows as needed and is kept.
  Status apply(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
               const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
               const RegionEffectSettings& settings, cudaStream_t stream);
  Status restore(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                 const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                 const std::vector<Region>& keep, cudaStream_t stream);

  void release();

  // Benchmarks and tests only: the scratch one batch of launches may use, in floats (default
  // 64 Mi, 256 MB). Regions whose scratch exceeds it together run in several batches, one after
  // another. Takes effect at the next call.
  void force_scratch_budget(long long floats);

 private:
  struct Scratch;
  Scratch* scratch_;
};

}  // namespace cudagaussian
