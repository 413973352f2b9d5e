// SPDX-License-Identifier: LGPL-2.1-or-later
#include "region_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "fir_taps.h"

namespace cudagaussian {

namespace {

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

// Tiles of launch 1 and launch 2 and the scratch floats of one task.
void size_task(const RegionTask& t, int channels, RegionEffect effect, RegionPass pass, int tiles[2],
               long long* scratch) {
  const int w = t.rect.x1 - t.rect.x0, h = t.rect.y1 - t.rect.y0;
  tiles[0] = 0;
  *scratch = 0;
  if (pass == RegionPass::Apply && effect == RegionEffect::Blur) {
    const long long slots = static_cast<long long>(ceil_div(w, kRegionPixelsPerSlot)) * channels;
    tiles[0] = ceil_div(slots * (t.row1 - t.row0), kRegionThreads);
    *scratch = static_cast<long long>(t.row1 - t.row0) * w * channels;
  } else if (pass == RegionPass::Apply && effect == RegionEffect::Pixelate) {
    const long long items = static_cast<long long>(t.blocks_x) * t.blocks_y * channels;
    tiles[0] = ceil_div(items, kRegionMeanItems);
    *scratch = items;
  }
  tiles[1] = ceil_div(static_cast<long long>(w) * channels * ceil_div(h, kRegionRowsPerThread), kRegionThreads);
}

// Neighbour lists: for each task, the regions of the other tasks whose rectangles meet its
// own (sweep along x over the rectangles sorted by their left edge).
void find_neighbours(RegionPlanePlan& plan) {
  const int n = static_cast<int>(plan.tasks.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return plan.tasks[a].rect.x0 < plan.tasks[b].rect.x0; });
  std::vector<std::vector<int>> lists(n);
  for (int i = 0; i < n; ++i) {
    const PlaneRect& a = plan.tasks[order[i]].rect;
    for (int j = i + 1; j < n && plan.tasks[order[j]].rect.x0 < a.x1; ++j) {
      const PlaneRect& b = plan.tasks[order[j]].rect;
      if (b.y0 < a.y1 && a.y0 < b.y1) {
        lists[order[i]].push_back(plan.tasks[order[j]].region);
        lists[order[j]].push_back(plan.tasks[order[i]].region);
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    std::sort(lists[i].begin(), lists[i].end());
    plan.tasks[i].neighbours = static_cast<int>(plan.neighbours.size());
    plan.tasks[i].neighbour_count = static_cast<int>(lists[i].size());
    plan.neighbours.insert(plan.neighbours.end(), lists[i].begin(), lists[i].end());
  }
}


std::string settings_error(const std::vector<RegionPlane>& planes, const RegionEffectSettings& settings) {
  switch (settings.effect) {
    case RegionEffect::Blur:
      if (!(settings.truncate >= kMinTruncate && settings.truncate <= kMaxTruncate))
        return "region blur: truncate outside [" + std::to_string(static_cast<int>(kMinTruncate)) + ", " +
               std::to_string(static_cast<int>(kMaxTruncate)) + "]";
      if (const std::string why = sharpen_error(settings.sharpen, settings.sharpen_threshold); !why.empty())
        return "region blur: " + why;
      return {};
    case RegionEffect::Pixelate:
      if (settings.pixel_size < 1 || settings.pixel_size > kMaxPixelSize)
        return "region pixelate: pixel size outside [1, " + std::to_string(kMaxPixelSize) + "]";
      return {};
    case RegionEffect::Fill:
      if (settings.fill.size() != planes.size()) return "region fill: one fill value set per plane needed";
      for (size_t p = 0; p < planes.size(); ++p)
        for (int c = 0; c < planes[p].geometry.channels; ++c)
          if (settings.fill[p][c] < 0 || settings.fill[p][c] > planes[p].geometry.max_value())
            return "region fill: value outside the sample range of plane " + std::to_string(p);
      return {};
  }
  return "region effect: unknown effect";
}

// Whether a sigma's FIR radius on a plane subsampled by s stays within kMaxRegionRadius (the
// radius is at least sigma / s, so larger ones are refused before rounding).
bool radius_fits(double sigma, int s, double truncate) {
  return sigma / s <= kMaxRegionRadius && fir_radius(sigma / s, truncate) <= kMaxRegionRadius;
}

// The checks of region_request_error; without settings (restore) the effect's are skipped.
std::string request_error(const std::vector<RegionPlane>& planes, const std::vector<Region>& regions,
                          const RegionEffectSettings* effect) {
  if (planes.empty()) return "region effect: no planes";
  for (const RegionPlane& p : planes) {
    if (!p.geometry.valid()) return "region effect: invalid plane geometry";
    if (static_cast<long long>(p.geometry.width) * p.geometry.channels * p.geometry.height > kMaxRegionPlaneScalars)
      return "region effect: plane too large (more than 2^31 samples)";
    if (p.subsample_x < 1 || p.subsample_y < 1) return "region effect: plane subsampling below 1";
  }
  if (effect) {
    const std::string why = settings_error(planes, *effect);
    if (!why.empty()) return why;
  }
  const bool blur = effect && effect->effect == RegionEffect::Blur;
  long long frame_w = 0, frame_h = 0;
  region_frame_extent(planes, &frame_w, &frame_h);
  for (size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    const RegionBox& b = r.box;
    const std::string which = "region " + std::to_string(i);
    if (b.x0 < 0 || b.y0 < 0 || b.x1 > frame_w || b.y1 > frame_h) return which + " lies outside the frame";
    if (b.x0 >= b.x1 || b.y0 >= b.y1) return which + " is empty";
    if (b.shape != RegionShape::Rectangle && b.shape != RegionShape::Ellipse) return which + ": unknown shape";
    if (b.feather < 0) return which + ": negative feather";
    if (!(r.sigma_x >= 0.0) || !(r.sigma_y >= 0.0) || !std::isfinite(r.sigma_x) || !std::isfinite(r.sigma_y))
      return which + ": sigma must be finite and >= 0";
    if (blur)
      for (const RegionPlane& p : planes)
        if (!radius_fits(r.sigma_x, p.subsample_x, effect->truncate) ||
            !radius_fits(r.sigma_y, p.subsample_y, effect->truncate))
          return which + ": sigma too large (FIR radius above " + std::to_string(kMaxRegionRadius) + ")";
  }
  return {};
}

}  // namespace

std::string region_request_error(const std::vector<RegionPlane>& planes, const std::vector<Region>& regions,
                                 const RegionEffectSettings& settings) {
  return request_error(planes, regions, &settings);
}

std::string region_restore_error(const std::vector<RegionPlane>& planes, const std::vector<Region>& regions) {
  return request_error(planes, regions, nullptr);
}

std::vector<RegionEntry> region_entries(const std::vector<Region>& regions) {
  std::vector<RegionEntry> e(regions.size());
  for (size_t i = 0; i < regions.size(); ++i) e[i] = {regions[i].box, regions[i].sigma_x + regions[i].sigma_y};
  return e;
}

RegionPlanePlan plan_region_plane(const RegionPlane& plane, const std::vector<Region>& regions,
                                  const RegionEffectSettings& settings, RegionPass pass,
                                  long long scratch_budget_floats) {
  const PlaneGeometry& g = plane.geometry;
  const bool blur = pass == RegionPass::Apply && settings.effect == RegionEffect::Blur;
  RegionPlanePlan plan;
  if (pass == RegionPass::Apply && settings.effect == RegionEffect::Pixelate) {
    plan.block_x = pixelate_block_side(settings.pixel_size, plane.subsample_x);
    plan.block_y = pixelate_block_side(settings.pixel_size, plane.subsample_y);
  }
  std::map<std::pair<double, int>, int> taps_at;  // (plane sigma, radius) -> offset
  auto taps_offset = [&](double sigma, int subsample) {
    const double s = sigma / subsample;
    const int radius = fir_radius(s, settings.truncate);
    const auto key = std::make_pair(radius > 0 ? s : 0.0, radius);
    const auto found = taps_at.find(key);
    if (found != taps_at.end()) return std::make_pair(found->second, radius);
    const int at = static_cast<int>(plan.taps.size());
    plan.taps.resize(at + region_padded_taps(radius), 0.0f);
    const std::vector<double> taps = gaussian_taps(s, radius);
    for (size_t k = 0; k < taps.size(); ++k) plan.taps[at + kRegionBlock - 1 + k] = static_cast<float>(taps[k]);
    taps_at.emplace(key, at);
    return std::make_pair(at, radius);
  };
  for (int r = 0; r < static_cast<int>(regions.size()); ++r) {
    RegionTask t{};
    t.region = r;
    t.rect = region_plane_rect(regions[r].box, plane.subsample_x, plane.subsample_y, g.width, g.height);
    if (t.rect.empty()) continue;
    if (blur) {
      const auto tx = taps_offset(regions[r].sigma_x, plane.subsample_x);
      const auto ty = taps_offset(regions[r].sigma_y, plane.subsample_y);
      t.taps_x = tx.first, t.radius_x = tx.second;
      t.taps_y = ty.first, t.radius_y = ty.second;
      t.row0 = std::max(0, t.rect.y0 - t.radius_y);
      t.row1 = std::min(g.height, t.rect.y1 + t.radius_y);
    }
    t.block_x0 = t.rect.x0 / plan.block_x;
    t.block_y0 = t.rect.y0 / plan.block_y;
    t.blocks_x = (t.rect.x1 - 1) / plan.block_x + 1 - t.block_x0;
    t.blocks_y = (t.rect.y1 - 1) / plan.block_y + 1 - t.block_y0;
    plan.tasks.push_back(t);
  }
  find_neighbours(plan);
  for (RegionTask& t : plan.tasks) {
    const RegionBox& box = regions[t.region].box;
    t.plain = t.neighbour_count == 0 && box.shape == RegionShape::Rectangle && box.feather <= 0;
  }
  std::stable_partition(plan.tasks.begin(), plan.tasks.end(), [](const RegionTask& t) { return t.plain != 0; });
  RegionBatch batch;
  for (int i = 0; i < static_cast<int>(plan.tasks.size()); ++i) {
    RegionTask& t = plan.tasks[i];
    int tiles[2];
    long long scratch;
    size_task(t, g.channels, settings.effect, pass, tiles, &scratch);
    if (batch.task_count > 0 && batch.scratch_floats + scratch > scratch_budget_floats) {
      plan.batches.push_back(batch);
      batch = RegionBatch{};
      batch.first_task = i;
    }
    t.first_tile[0] = batch.tiles[0];
    t.first_tile[1] = batch.tiles[1];
    t.scratch = batch.scratch_floats;
    batch.tiles[0] += tiles[0];
    batch.tiles[1] += tiles[1];
    if (t.plain) batch.plain_tiles += tiles[1];
    batch.scratch_floats += scratch;
    ++batch.task_count;
  }
  if (batch.task_count > 0) plan.batches.push_back(batch);
  return plan;
}

}  // namespace cudagaussian
