// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_region.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fir_taps.h"

namespace cudagaussian {

namespace {

double strength(const Region& r) { return r.sigma_x + r.sigma_y; }

int round_to_sample(double v, int max_value) {
  return static_cast<int>(std::clamp(std::floor(v + 0.5), 0.0, static_cast<double>(max_value)));
}

// The blur of one region over its plane rectangle, rounded to samples (rect.width x channels
// per row). The horizontal pass runs over the rows the vertical pass reaches; both passes sum in
// the order reference_fir does, so the values equal the whole-frame FIR's bit for bit.
std::vector<int> region_blur(const RegionPlane& plane, const PlaneValues& in, const Region& region,
                             const PlaneRect& rect, double truncate, const SampleFinish& finish) {
  const PlaneGeometry& g = plane.geometry;
  const int w = g.width, h = g.height, c = g.channels, n = g.samples_per_row();
  const std::vector<double> tx = region_taps(region.sigma_x, plane.subsample_x, truncate);
  const std::vector<double> ty = region_taps(region.sigma_y, plane.subsample_y, truncate);
  const int rx = static_cast<int>(tx.size() / 2), ry = static_cast<int>(ty.size() / 2);
  const int row0 = std::max(0, rect.y0 - ry), row1 = std::min(h, rect.y1 + ry);
  const int cols = (rect.x1 - rect.x0) * c;
  std::vector<double> tmp(static_cast<size_t>(row1 - row0) * cols);
  for (int y = row0; y < row1; ++y)
    for (int x = rect.x0; x < rect.x1; ++x)
      for (int ch = 0; ch < c; ++ch) {
        double acc = 0.0;
        for (int k = -rx; k <= rx; ++k)
          acc += tx[k + rx] * in[static_cast<size_t>(y) * n + std::clamp(x + k, 0, w - 1) * c + ch];
        tmp[static_cast<size_t>(y - row0) * cols + (x - rect.x0) * c + ch] = acc;
      }
  std::vector<int> out(static_cast<size_t>(rect.y1 - rect.y0) * cols);
  for (int y = rect.y0; y < rect.y1; ++y)
    for (int i = 0; i < cols; ++i) {
      double acc = 0.0;
      for (int k = -ry; k <= ry; ++k)
        acc += ty[k + ry] * tmp[static_cast<size_t>(std::clamp(y + k, 0, h - 1) - row0) * cols + i];
      const double x = in[static_cast<size_t>(y) * n + rect.x0 * c + i];
      out[static_cast<size_t>(y - rect.y0) * cols + i] = round_to_sample(finish_sample(finish, acc, x, i % c), g.max_value());
    }
  return out;
}

// Rounded means of every block of the plane's pixelate grid, per channel.
std::vector<int> block_means(const PlaneGeometry& g, const PlaneValues& in, int bx, int by) {
  const int nbx = (g.width + bx - 1) / bx, nby = (g.height + by - 1) / by, c = g.channels;
  std::vector<uint64_t> sums(static_cast<size_t>(nbx) * nby * c, 0);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      for (int ch = 0; ch < c; ++ch)
        sums[(static_cast<size_t>(y / by) * nbx + x / bx) * c + ch] +=
            static_cast<uint64_t>(in[static_cast<size_t>(y) * g.samples_per_row() + x * c + ch]);
  std::vector<int> means(sums.size());
  for (int j = 0; j < nby; ++j)
    for (int i = 0; i < nbx; ++i) {
      const uint64_t count = static_cast<uint64_t>(std::min(bx, g.width - i * bx)) *
                             static_cast<uint64_t>(std::min(by, g.height - j * by));
      for (int ch = 0; ch < c; ++ch) {
        const size_t k = (static_cast<size_t>(j) * nbx + i) * c + ch;
        means[k] = pixelate_mean(sums[k], count);
      }
    }
  return means;
}

}  // namespace

std::vector<double> region_taps(double sigma, int subsample, double truncate) {
  const double s = sigma / subsample;
  return gaussian_taps(s, fir_radius(s, truncate));
}

RegionOwners region_owners(const RegionPlane& plane, const std::vector<Region>& regions) {
  const PlaneGeometry& g = plane.geometry;
  RegionOwners o;
  o.owner.assign(static_cast<size_t>(g.width) * g.height, -1);
  o.weight.assign(o.owner.size(), 0.0);
  for (int r = 0; r < static_cast<int>(regions.size()); ++r) {
    const PlaneRect rect = region_plane_rect(regions[r].box, plane.subsample_x, plane.subsample_y,
                                             g.width, g.height);
    for (int y = rect.y0; y < rect.y1; ++y)
      for (int x = rect.x0; x < rect.x1; ++x) {
        const double w = region_weight(regions[r].box, x, y, plane.subsample_x, plane.subsample_y);
        if (w <= 0.0) continue;
        const size_t i = static_cast<size_t>(y) * g.width + x;
        const int q = o.owner[i];
        if (q < 0 || region_precedes(w, strength(regions[r]), r, o.weight[i], strength(regions[q]), q)) {
          o.owner[i] = r;
          o.weight[i] = w;
        }
      }
  }
  return o;
}

std::vector<PlaneValues> reference_region_apply(const std::vector<RegionPlane>& planes,
                                                const std::vector<PlaneValues>& src,
                                                const std::vector<Region>& regions,
                                                const RegionEffectSettings& settings) {
  std::vector<PlaneValues> out = src;
  for (size_t p = 0; p < planes.size(); ++p) {
    const RegionPlane& plane = planes[p];
    const PlaneGeometry& g = plane.geometry;
    const int c = g.channels, n = g.samples_per_row(), max_value = g.max_value();
    const RegionOwners owners = region_owners(plane, regions);
    SampleFinish finish = region_finish(settings, p, max_value);
    const unsigned keep = finish.keep;
    finish.keep = 0;  // kept channels are skipped below, under every effect
    // Effect values: per region for the blur (over its rectangle), per block for pixelate.
    std::vector<std::vector<int>> blurs(regions.size());
    std::vector<PlaneRect> rects(regions.size());
    std::vector<int> means;
    int bx = 1, by = 1;
    if (settings.effect == RegionEffect::Blur) {
      for (size_t r = 0; r < regions.size(); ++r) {
        rects[r] = region_plane_rect(regions[r].box, plane.subsample_x, plane.subsample_y, g.width, g.height);
        if (!rects[r].empty()) blurs[r] = region_blur(plane, src[p], regions[r], rects[r], settings.truncate, finish);
      }
    } else if (settings.effect == RegionEffect::Pixelate) {
      bx = pixelate_block_side(settings.pixel_size, plane.subsample_x);
      by = pixelate_block_side(settings.pixel_size, plane.subsample_y);
      means = block_means(g, src[p], bx, by);
    }
    const int nbx = (g.width + bx - 1) / bx;
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) {
        const size_t i = static_cast<size_t>(y) * g.width + x;
        const int r = owners.owner[i];
        if (r < 0) continue;
        for (int ch = 0; ch < c; ++ch) {
          if ((keep >> ch) & 1u) continue;
          int effect = 0;
          switch (settings.effect) {
            case RegionEffect::Blur: {
              const PlaneRect& rc = rects[r];
              effect = blurs[r][static_cast<size_t>(y - rc.y0) * (rc.x1 - rc.x0) * c + (x - rc.x0) * c + ch];
              break;
            }
            case RegionEffect::Pixelate:
              effect = means[(static_cast<size_t>(y / by) * nbx + x / bx) * c + ch];
              break;
            case RegionEffect::Fill:
              effect = settings.fill[p][ch];
              break;
          }
          double& v = out[p][static_cast<size_t>(y) * n + x * c + ch];
          v = region_blend(static_cast<int>(v), effect, owners.weight[i], max_value);
        }
      }
  }
  return out;
}

std::vector<PlaneValues> reference_region_restore(const std::vector<RegionPlane>& planes,
                                                  const std::vector<PlaneValues>& src,
                                                  const std::vector<PlaneValues>& dst,
                                                  const std::vector<Region>& regions,
                                                  const std::vector<Region>& keep) {
  std::vector<PlaneValues> out = dst;
  std::vector<RegionBox> kept;
  for (const Region& r : keep) kept.push_back(r.box);
  const int kept_count = static_cast<int>(kept.size());
  for (size_t p = 0; p < planes.size(); ++p) {
    const PlaneGeometry& g = planes[p].geometry;
    const int c = g.channels, n = g.samples_per_row();
    const RegionOwners owners = region_owners(planes[p], regions);
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) {
        const size_t i = static_cast<size_t>(y) * g.width + x;
        if (owners.owner[i] < 0) continue;
        const double w = owners.weight[i] * (1.0 - region_max_weight(kept.data(), kept_count, x, y,
                                                                     planes[p].subsample_x,
                                                                     planes[p].subsample_y));
        for (int ch = 0; ch < c; ++ch) {
          const size_t k = static_cast<size_t>(y) * n + x * c + ch;
          out[p][k] = region_blend(static_cast<int>(dst[p][k]), static_cast<int>(src[p][k]), w,
                                   g.max_value());
        }
      }
  }
  return out;
}

}  // namespace cudagaussian
