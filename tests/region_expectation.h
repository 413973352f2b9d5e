/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What cudagaussian's region modes must output, computed in double from the same rules the
 * element documents: the whole-frame FIR at region pixels, blended by the region mask
 * (region_mask.h); pixelate means on the frame's grid; fill values; outside every region the
 * input itself. The comparison demands bit-identical pixels wherever no region reaches. */
#pragma once

#include <gst/video/video.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "default_planes.h"
#include "fir_taps.h"
#include "reference_blur.h"
#include "region_filter.h"
#include "region_mask.h"
#include "video_planes.h"

namespace cgt {

namespace cg = cudagaussian;

enum class Mode { Inside, Outside };

struct RegionExpectation
{
  Mode mode = Mode::Inside;
  std::vector < cg::Region > regions;   /* planned as the element plans them */
  std::vector < cg::Region > zones;     /* outside: stay under the effect */
  cg::RegionEffectSettings effect;      /* fill: per plane */
  double sigma_x = 2.0, sigma_y = 2.0;  /* outside + blur: the whole-frame blur */
};

/* The largest weight of @regions at plane pixel (x, y); @owner gets the region that supplies
 * the effect there (largest weight, then largest sigma, then first). */
inline double
max_weight (const std::vector < cg::Region > &regions, int x, int y, int sx, int sy,
    int *owner = nullptr)
{
  double best = 0.0;
  int who = -1;
  for (size_t i = 0; i < regions.size (); ++i) {
    const double w = cg::region_weight (regions[i].box, x, y, sx, sy);
    if (w <= 0.0)
      continue;
    const bool better = who < 0 || w > best || (w == best &&
        regions[i].sigma_x + regions[i].sigma_y > regions[who].sigma_x + regions[who].sigma_y);
    if (better)
      best = w, who = (int) i;
  }
  if (owner)
    *owner = who;
  return best;
}

inline cg::PlaneValues
fir_plane (const cg::PlaneSpec & ps, const cg::PlaneValues & src, double sigma_x, double sigma_y,
    double truncate)
{
  const double sx = sigma_x / ps.subsample_x, sy = sigma_y / ps.subsample_y;
  return cg::reference_fir (ps.geometry, src, cg::gaussian_taps (sx, cg::fir_radius (sx,
              truncate)), cg::gaussian_taps (sy, cg::fir_radius (sy, truncate)),
      cg::Border::Replicate);
}

inline int
to_sample (double v, int max_value)
{
  const double r = std::floor (v + 0.5);
  return (int) std::min (std::max (r, 0.0), (double) max_value);
}

/* Mean of the pixel-size block (on the frame's grid) around sample (x, y, c). */
inline int
pixelate_value (const cg::PlaneSpec & ps, const cg::PlaneValues & src, int pixel_size, int x,
    int y, int c)
{
  const cg::PlaneGeometry & g = ps.geometry;
  const int bw = std::max (1, pixel_size / ps.subsample_x);
  const int bh = std::max (1, pixel_size / ps.subsample_y);
  const int x0 = x / bw * bw, y0 = y / bh * bh;
  const int x1 = std::min (x0 + bw, g.width), y1 = std::min (y0 + bh, g.height);
  double sum = 0.0;
  for (int yy = y0; yy < y1; ++yy)
    for (int xx = x0; xx < x1; ++xx)
      sum += src[(size_t) yy * g.samples_per_row () + (size_t) xx * g.channels + c];
  return to_sample (sum / ((x1 - x0) * (y1 - y0)), g.max_value ());
}

/* Compares @out with what the element must output for @in. Returns "" or what is wrong. */
inline std::string
check_regions (const GstVideoInfo & info, GstBuffer * in, GstBuffer * out,
    const RegionExpectation & e, double *worst_inside = nullptr)
{
  std::vector < cg::PlaneSpec > specs;
  if (!gst_cuda_gaussian_plane_specs (&info, &specs))
    return "unsupported format";
  GstVideoFrame fin, fout;
  if (!gst_video_frame_map (&fin, &info, in, GST_MAP_READ))
    return "cannot map the input";
  if (!gst_video_frame_map (&fout, &info, out, GST_MAP_READ)) {
    gst_video_frame_unmap (&fin);
    return "cannot map the output";
  }
  std::string wrong;
  double worst = 0.0;
  for (size_t p = 0; p < specs.size () && wrong.empty (); ++p) {
    const cg::PlaneSpec & ps = specs[p];
    const cg::PlaneGeometry & g = ps.geometry;
    const cg::PlaneValues src = cg::read_plane (g, GST_VIDEO_FRAME_PLANE_DATA (&fin, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fin, p));
    const cg::PlaneValues got = cg::read_plane (g, GST_VIDEO_FRAME_PLANE_DATA (&fout, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fout, p));
    std::map < std::pair < double, double >, cg::PlaneValues > blurred;
    auto blur = [&](double sx, double sy) -> const cg::PlaneValues & {
      auto key = std::make_pair (sx, sy);
      auto it = blurred.find (key);
      if (it == blurred.end ())
        it = blurred.emplace (key, fir_plane (ps, src, sx, sy, e.effect.truncate)).first;
      return it->second;
    };
    /* The default planes leave alpha as it is, under every effect. */
    const unsigned keep = cg::kept_channels (ps, kDefaultPlanes);
    for (int y = 0; y < g.height && wrong.empty (); ++y) {
      for (int x = 0; x < g.width && wrong.empty (); ++x) {
        int owner = -1;
        double w = max_weight (e.regions, x, y, ps.subsample_x, ps.subsample_y, &owner);
        if (e.mode == Mode::Outside)
          w *= 1.0 - max_weight (e.zones, x, y, ps.subsample_x, ps.subsample_y);
        for (int c = 0; c < g.channels; ++c) {
          const size_t i = (size_t) y * g.samples_per_row () + (size_t) x * g.channels + c;
          const int s = (int) src[i];
          int effect;
          if (e.effect.effect == cg::RegionEffect::Fill)
            effect = e.effect.fill[p][c];
          else if (e.effect.effect == cg::RegionEffect::Pixelate)
            effect = pixelate_value (ps, src, e.effect.pixel_size, x, y, c);
          else if (e.mode == Mode::Outside)
            effect = to_sample (blur (e.sigma_x, e.sigma_y)[i], g.max_value ());
          else if (owner >= 0)
            effect = to_sample (blur (e.regions[owner].sigma_x, e.regions[owner].sigma_y)[i],
                g.max_value ());
          else
            effect = s;
          const bool kept = (keep >> c) & 1u;
          const int expected = kept ? s : e.mode == Mode::Inside ?
              cg::region_blend (s, effect, w, g.max_value ()) :
              cg::region_blend (effect, s, w, g.max_value ());
          const bool untouched = kept || (e.mode == Mode::Inside ? w <= 0.0 : w >= 1.0);
          const double err = std::fabs (got[i] - expected);
          if (untouched && got[i] != s)
            wrong = "plane " + std::to_string (p) + " (" + std::to_string (x) + "," +
                std::to_string (y) + ") channel " + std::to_string (c) +
                " is outside the effect but changed: " + std::to_string (s) + " -> " +
                std::to_string ((int) got[i]);
          else if (err > 1.0)
            wrong = "plane " + std::to_string (p) + " (" + std::to_string (x) + "," +
                std::to_string (y) + ") channel " + std::to_string (c) + ": got " +
                std::to_string ((int) got[i]) + ", expected " + std::to_string (expected);
          if (!untouched)
            worst = std::max (worst, err);
        }
      }
    }
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  if (worst_inside)
    *worst_inside = worst;
  return wrong;
}

}  // namespace cgt
