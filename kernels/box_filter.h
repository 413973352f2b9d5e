// SPDX-License-Identifier: LGPL-2.1-or-later
// Iterated box blur: n box passes along rows, then n along columns, with widths chosen so that
// the variance matches sigma² (common/box_widths.h). Every border rule of common/border.h.
// An axis of two or more passes whose lines fit a block runs in one kernel, each output a
// difference of prefix sums (box_tile.cu): cost independent of sigma. Otherwise a kernel per
// pass slides a running window sum along each line; a thread's first window is summed directly,
// or comes from prefix sums when it is wide (cheaper than the tile kernel for one pass).
#pragma once

#include <vector>

#include "blur_params.h"
#include "box_tile.h"
#include "device_memory.h"
#include "plane.h"
#include "plane_blur.h"

namespace cudagaussian {

class BoxBlur : public PlaneBlur {
 public:
  // Granularity of the prefix sums that start wide windows; a thread makes 1 or 2 x kSegment
  // outputs (box_filter.cu).
  static constexpr int kSegment = 64;

  // How a thread of the line kernels finds its first window's sum: Auto sums windows of up to
  // 255 samples directly and takes wider ones from prefix sums (the measured crossover:
  // bench_recursive).
  enum class WindowStart { Auto, Direct, Prefix };
  // Lines runs every pass with the running-sum line kernels, Tiles every axis whose tile fits
  // with the tile kernel (Auto: only axes of two or more passes, where it measured faster).
  enum class Kernels { Auto, Lines, Tiles };
  // How the passes are laid on kernels and threads, given to plan(). Auto and 0 leave each
  // choice to BoxBlur (the measured one); benchmarks and tests pin them.
  struct Schedule {
    Kernels kernels = Kernels::Auto;
    int column_strip = 0;  // columns per shared-memory tile (0 = the planned choice)
    WindowStart window_start = WindowStart::Auto;
    int run = 0;  // line kernels: outputs per thread, a multiple of kSegment (0 = the measured choice)
  };
  // Whether plan() found that the rows / the columns of this plane fit the tile kernel.
  bool rows_tiled() const { return tile_fits_[0]; }
  bool columns_tiled() const { return tile_fits_[1]; }

  // Widths are odd, one per pass, per direction.
  Status plan(const PlaneGeometry& geometry, const std::vector<int>& widths_x,
              const std::vector<int>& widths_y, Border border, const Schedule& schedule);
  Status plan(const PlaneGeometry& geometry, const std::vector<int>& widths_x,
              const std::vector<int>& widths_y, Border border) {
    return plan(geometry, widths_x, widths_y, border, Schedule());
  }
  Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
             cudaStream_t stream) const override;
  void release();

 private:
  PlaneGeometry geometry_;
  Border border_ = Border::Replicate;
  std::vector<int> radii_x_, radii_y_;
  // A launch: all passes of an axis in the tile kernel, or one pass in the line kernels.
  struct Stage {
    int axis;  // 0 rows, 1 columns
    bool tiled;
    BoxTilePasses passes;
  };
  std::vector<Stage> stages_;  // in order, found at plan()
  DeviceBuffer ping_, pong_;   // float planes between stages (as many as the stages need)
  DeviceBuffer prefix_;        // line kernels' wide windows: prefix sums at segment boundaries (double)
  BoxTileShape tiles_[2];      // rows, columns: the tile kernel's shapes (box_tile.h)
  bool tile_fits_[2] = {false, false};
  Schedule schedule_;
  bool chained_ = false;  // passes launched chained (chained_launch.cuh), found once at plan()
  bool planned_ = false;
};

using BoxSchedule = BoxBlur::Schedule;

}  // namespace cudagaussian
