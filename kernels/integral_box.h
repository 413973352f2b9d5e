// SPDX-License-Identifier: LGPL-2.1-or-later
// algorithm=box box-method=integral: the iterated box blur of BoxBlur computed exactly in integers
// through summed-area tables (common/summed_area.h): per pass, a SAT over the plane extended by
// the box radii (one thread per row, then one per column) and a box sum per output from four
// entries, so the cost does not depend on the box size; the last pass divides by the product
// of the box areas and rounds. The result equals the double reference rounded (ties aside).
#pragma once

#include <cstdint>
#include <vector>

#include "blur_params.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"

namespace cudagaussian {

class IntegralBoxBlur : public PlaneBlur {
 public:
  // Checks that the sums fit: max sample x Π (width_x · width_y) < 2^63.
  static Status validate(const PlaneGeometry& geometry, const std::vector<int>& widths_x,
                         const std::vector<int>& widths_y);

  // Odd widths, one per pass, the same number per direction.
  Status plan(const PlaneGeometry& geometry, const std::vector<int>& widths_x, const std::vector<int>& widths_y,
              Border border);
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;
  void release();

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  std::vector<int> radii_x_, radii_y_;
  uint64_t denominator_ = 1;
  DeviceBuffer sums_;  // uint64 box sums between passes, one plane
  DeviceBuffer sat_;   // uint64 SAT of the largest extended plane
  bool planned_ = false;
};

}  // namespace cudagaussian
