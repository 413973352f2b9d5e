// Separable FIR Gaussian on one plane: a horizontal pass (samples -> float intermediate) then a
// vertical pass (float -> rounded samples). Any size, pitch, radius up to kMaxRadius, and the
// replicate / mirror / reflect borders of common/border.h.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "device_memory.h"
#include "plane.h"

namespace cudagaussian {

class SeparableFir {
 public:
  // The horizontal pass keeps a row segment plus 2R halo samples in shared memory.
  static constexpr int kMaxRadius = 1536;

  // Validates, uploads the taps (as float) and allocates the intermediate. Taps are odd-length
  // and centred; a single tap {1} in a direction leaves that direction unfiltered.
  // Call with the CUDA context current; not per frame.
  Status plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
              const std::vector<double>& taps_y, Border border);

  // Filters src into dst (device pointers, pitches in bytes; must not overlap). Enqueues on
  // `stream` and returns without synchronising.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const;

  void release();
  const PlaneGeometry& geometry() const { return geometry_; }

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  int radius_x_ = 0;
  int radius_y_ = 0;
  DeviceBuffer taps_;          // taps_x then taps_y, float
  DeviceBuffer intermediate_;  // width * channels floats per row
  bool planned_ = false;
};

}  // namespace cudagaussian
