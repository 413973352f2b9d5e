// SPDX-License-Identifier: LGPL-2.1-or-later
// Separable FIR Gaussian on one plane, accumulated in float and rounded to nearest. 8-bit planes
// of 1, 2 or 4 channels run on tensor cores (tensor_fir.h) between its smallest and largest
// radius. Otherwise small
// radii run as one fused kernel (vertical pass into shared memory, horizontal pass out of it);
// larger ones as a vertical pass into a float intermediate and a horizontal pass out of it. Any
// size, pitch, radius up to kMaxRadius, and the replicate / mirror / reflect borders of
// common/border.h.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"
#include "tensor_fir.h"

namespace cudagaussian {

class SeparableFir : public PlaneBlur {
 public:
  // The horizontal pass keeps a row segment plus 2R halo pixels in shared memory.
  static constexpr int kMaxRadius = 1536;
  // The largest radius of the fused CUDA-core kernel: beyond it the halo re-reads outgrow the
  // saving of the intermediate (and the tile, 32 rows of (64 + 2R) pixels, its shared memory).
  static constexpr int kMaxFusedRadius = 16;

  // How the kernels are laid out, given to plan(); 0 leaves each choice to SeparableFir (the
  // measured one). Benchmarks and tests pin them.
  struct Schedule {
    int tile_rows = 0;  // fused tiles of 32, 16 or 8 rows (0 = the measured choice, 8)
    // Tensor cores where TensorFir applies and is faster (Measured), wherever it applies (Tensor),
    // or never (Cuda).
    enum class Cores { Measured, Tensor, Cuda } cores = Cores::Measured;
    // On tensor cores: one kernel or two passes (TensorFir::Layout).
    TensorFir::Layout tensor_layout = TensorFir::Layout::Measured;
  };

  // Validates, uploads the taps (as float) and allocates the intermediate. Taps are odd-length
  // and centred; a single tap {1} in a direction leaves that direction unfiltered.
  // Call with the CUDA context current; not per frame.
  Status plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
              const std::vector<double>& taps_y, Border border, const Schedule& schedule);
  Status plan(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
              const std::vector<double>& taps_y, Border border) {
    return plan(geometry, taps_x, taps_y, border, Schedule());
  }

  // Filters src into dst (device pointers, pitches in bytes; must not overlap). Enqueues on
  // `stream` and returns without synchronising.
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;
  // Fused: frames with equal pitches share one launch (grid z), kMaxBatchFrames at a time.
  Status run_batch(const PlanePair* frames, int count, cudaStream_t stream) const override;

  void release();
  const PlaneGeometry& geometry() const { return geometry_; }
  // Whether the plan runs the tensor cores' one kernel (tests check the layout they pinned).
  bool runs_tensor_one_kernel() const { return tensor_.planned() && tensor_.one_kernel(); }
  bool runs_tensor_rolling() const { return tensor_.planned() && tensor_.rolling(); }

 private:
  Status plan_kernels(const PlaneGeometry& geometry, const std::vector<double>& taps_x,
                      const std::vector<double>& taps_y, Border border, const Schedule& schedule);
  Status check_frame(const PlanePair& frame) const;

  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  int radius_x_ = 0;
  int radius_y_ = 0;
  bool fused_ = false;         // one kernel, no intermediate
  int fixed_radius_ = 0;       // fused with the radius as a kernel constant (1 to 4, both ways), else 0
  size_t smem_bytes_ = 0;      // dynamic shared memory of the horizontal (or fused) kernel
  int rows_per_block_ = 0;     // rows per block: the fused tile's, or staged by the two-pass row kernel
  int taps_y_offset_ = 0;      // floats from the start of taps_ to the vertical taps
  DeviceBuffer taps_;          // zero-padded taps_x, then zero-padded taps_y, float
  DeviceBuffer intermediate_;  // two-pass only: width * channels floats per row
  TensorFir tensor_;           // planned where it applies: then the only kernels run
  bool planned_ = false;
};

using FirSchedule = SeparableFir::Schedule;

}  // namespace cudagaussian
