// SPDX-License-Identifier: LGPL-2.1-or-later
// CPU references of the edge-aware recursive blur (docs/algorithms.md, "Edge-aware blur"):
// exact, sequential, double precision, built from the steps in domain_transform.h.
//   N iterations of (horizontal pass over every row, then vertical pass over every column), each
//   pass left→right then right→left (top→bottom, bottom→top), with sigma_Hi of iteration i.
//   Edges come from the original image (not the filtered one), from ALL channels of the guide
//   pixel, and the same distance is applied to every channel of the plane.
//   sigma_s: spatial sigma in pixels (> 0); sigma_r: range sigma in sample units (> 0; +infinity
//   gives the plain recursive low-pass); iterations >= 1. std::invalid_argument otherwise.
// Guided variants: the edges come from a separate guide plane of the SAME width and height (any
// channel count), e.g. luma for a same-size plane. Subsampled chroma (I420, NV12) needs a guide
// resampled to its size first; that resampling is not done here.
#pragma once

#include <vector>

#include "blur_params.h"
#include "plane.h"
#include "reference_blur.h"

namespace cudagaussian {

// Transformed distances between neighbouring pixels of a guide, laid out as the planes of
// edge_aware_lines.h: h[y*w + x] between (x-1, y) and (x, y), v[y*w + x] between (x, y-1) and
// (x, y). ratio_x = sigma_x / sigma_r for h, ratio_y for v; `mask` picks the guide channels.
struct EdgeSpacing {
  int width = 0, height = 0;
  std::vector<double> h, v;
};
EdgeSpacing reference_edge_spacing(const PlaneGeometry& guide_g, const PlaneValues& guide,
                                   EdgeFilter filter, double ratio_x, double ratio_y,
                                   unsigned mask = ~0u);
// The spacing of a plane subsampled by (sx, sy) from the guide's (resampled_spacing()).
EdgeSpacing resample_edge_spacing(const EdgeSpacing& guide, int width, int height, int sx, int sy);

// The edge-aware blur of one plane over given spacings (same width and height as the plane),
// sigma_x for the horizontal passes, sigma_y for the vertical ones (finite, >= 0, not both 0:
// an axis with sigma 0 gets no passes).
PlaneValues reference_edge_aware(const PlaneGeometry& g, const PlaneValues& in, const EdgeSpacing& spacing,
                                 EdgeFilter filter, double sigma_x, double sigma_y, int iterations);

// First-order recursive filter of the Domain Transform (Gastal & Oliveira 2011, "RF").
PlaneValues reference_domain_transform_rf(const PlaneGeometry& g, const PlaneValues& in,
                                          double sigma_s, double sigma_r, int iterations);
PlaneValues reference_domain_transform_rf_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                 const PlaneGeometry& guide_g, const PlaneValues& guide,
                                                 double sigma_s, double sigma_r, int iterations);

// Gaussian in the transformed domain (Gastal & Oliveira 2015, in complex Deriche form),
// with the same iteration schedule. At Δ = 1 everywhere it is Deriche's 1993 filter.
PlaneValues reference_domain_transform_gaussian(const PlaneGeometry& g, const PlaneValues& in,
                                                double sigma_s, double sigma_r, int iterations);
PlaneValues reference_domain_transform_gaussian_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                       const PlaneGeometry& guide_g,
                                                       const PlaneValues& guide, double sigma_s,
                                                       double sigma_r, int iterations);

}  // namespace cudagaussian
