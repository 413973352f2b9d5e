// SPDX-License-Identifier: LGPL-2.1-or-later
// The per-frame tables of the region kernels (kernels/region_filter.cu), built on the host in
// plain C++: which pixels each region touches on a plane, which other regions may compete for
// them, the FIR taps (one copy per distinct sigma), scratch offsets and the launches' tiles.
//
// A task is one region on one plane (regions that cover no pixel centre of the plane have
// none). Each launch runs the tiles of a batch of tasks: block b of a launch works on the task
// whose [first_tile, next task's first_tile) holds b. Batches keep the scratch of their tasks
// under a budget; a frame normally is one batch. Plain tasks (a rectangle with a hard edge that
// meets no other region) come first, so that launch 2 can run their tiles with a kernel that
// computes no weights.
#pragma once

#include <string>
#include <vector>

#include "region_params.h"

namespace cudagaussian {

// Work shapes, shared by the plan and the kernels. Both FIR passes give a thread kRegionBlock
// consecutive outputs along the pass (register blocking: each input and each tap is loaded
// once per kRegionBlock multiply-adds). A task's threads are numbered over its whole work, row
// by row, and cut into tiles of kRegionThreads, so that only its last tile has idle threads.
constexpr int kRegionBlock = 8;
constexpr int kRegionThreads = 128;
// Pixel pass (every effect, and restore): a thread owns kRegionRowsPerThread rows of one scalar
// column (pixel x channel).
constexpr int kRegionRowsPerThread = kRegionBlock;
// Horizontal FIR pass (Blur): a thread owns kRegionPixelsPerSlot consecutive pixels of one
// channel of one row (a slot).
constexpr int kRegionPixelsPerSlot = kRegionBlock;
// The most scalars of one plane (width x channels x height) the region effects take, so that
// thread numbers within a task stay below 2^31.
constexpr long long kMaxRegionPlaneScalars = (1ll << 31) - 1;
// Pixelate means: a thread owns one channel of one block; kRegionMeanItems per tile.
constexpr int kRegionMeanItems = 128;

// Taps as the FIR passes read them ("padded taps"): kRegionBlock - 1 zeros, the 2R + 1 taps,
// zeros up to region_padded_taps(R) floats. A pass reads region_fir_inputs(R) inputs per
// thread in groups of kRegionBlock; the group at input j0 meets the padded taps j0 ..
// j0 + 2 kRegionBlock - 2, aligned to kRegionBlock floats, so the multiply-adds need no tests.
constexpr int region_fir_inputs(int radius) {
  return (2 * radius + kRegionBlock + kRegionBlock - 1) / kRegionBlock * kRegionBlock;
}
constexpr int region_padded_taps(int radius) { return region_fir_inputs(radius) + kRegionBlock; }

// A region as the kernels see it (same layout on host and device).
struct RegionEntry {
  RegionBox box;
  double strength;  // sigma_x + sigma_y: the owner rule's tie-break
};

struct RegionTask {
  int region;                 // index into the region table
  PlaneRect rect;             // plane pixels whose centre is inside the box
  int row0, row1;             // Blur: rows of the horizontal pass, [y0 - Ry, y1 + Ry) on the plane
  int radius_x, radius_y;     // Blur: FIR radii on this plane
  int taps_x, taps_y;         // Blur: offsets of the padded taps (floats) in the taps table
  int block_x0, block_y0;     // Pixelate: the first block the rectangle touches
  int blocks_x, blocks_y;     // Pixelate: blocks the rectangle touches
  int neighbours;             // offset into the neighbour table: regions whose rectangles on
  int neighbour_count;        //   this plane meet this one's (the only possible owners besides it)
  int plain;                  // 1: a hard-edged rectangle that meets no other region, so it
                              //   owns its whole rectangle at weight 1 (region_task_plain)
  int first_tile[2];          // first tile of launch 1 and launch 2 within the batch
  long long scratch;          // first float of the task's scratch within the batch
};

struct RegionBatch {
  int first_task = 0, task_count = 0;
  int tiles[2] = {0, 0};         // blocks of launch 1 (FIR rows or block means) and launch 2
  int plain_tiles = 0;           // the first blocks of launch 2, those of the plain tasks
  long long scratch_floats = 0;  // scratch the batch needs
};

struct RegionPlanePlan {
  std::vector<RegionTask> tasks;
  std::vector<int> neighbours;   // region indices
  std::vector<float> taps;       // padded taps, one set per distinct (sigma, radius)
  std::vector<RegionBatch> batches;
  int block_x = 1, block_y = 1;  // Pixelate: block sides in plane pixels
};

// What the kernels do with a plan: the effect (launch 1 for Blur and Pixelate, then launch 2)
// or restore (launch 2 only).
enum class RegionPass { Apply, Restore };

// Why the request cannot run (empty when it can): planes (valid geometry, subsampling >= 1),
// regions (non-empty, inside the frame = plane 0's size x its subsampling, known shape, feather
// >= 0, finite sigmas >= 0 whose FIR radius on every plane is at most kMaxRegionRadius) and
// settings (truncate in [kMinTruncate, kMaxTruncate], pixel_size in [1, kMaxPixelSize], one fill
// entry per plane with values in each plane's sample range).
std::string region_request_error(const std::vector<RegionPlane>& planes, const std::vector<Region>& regions,
                                 const RegionEffectSettings& settings);

// The same for restore(): planes and regions only (no effect, so no sigma limit).
std::string region_restore_error(const std::vector<RegionPlane>& planes, const std::vector<Region>& regions);

std::vector<RegionEntry> region_entries(const std::vector<Region>& regions);

// The tables of one plane. Tasks are cut into batches whose scratch stays within
// `scratch_budget_floats` (a single larger task gets a batch of its own).
RegionPlanePlan plan_region_plane(const RegionPlane& plane, const std::vector<Region>& regions,
                                  const RegionEffectSettings& settings, RegionPass pass,
                                  long long scratch_budget_floats);

}  // namespace cudagaussian
