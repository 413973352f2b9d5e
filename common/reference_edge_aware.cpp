// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_edge_aware.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "domain_transform.h"
#include "edge_aware_lines.h"

namespace cudagaussian {
namespace {

void validate_plane(const PlaneGeometry& g, const PlaneValues& in) {
  if (!g.valid() || in.size() != static_cast<size_t>(g.samples_per_row()) * g.height)
    throw std::invalid_argument("edge-aware: plane geometry and values disagree");
}

// One axis may have sigma 0 (no passes along it), not both.
void validate_sigmas(double sigma_x, double sigma_y, int iterations) {
  if (!(sigma_x >= 0) || !std::isfinite(sigma_x) || !(sigma_y >= 0) || !std::isfinite(sigma_y) ||
      !(sigma_x > 0 || sigma_y > 0) || iterations < 1)
    throw std::invalid_argument("edge-aware: need sigma_s > 0, sigma_r > 0, iterations >= 1");
}

// One channel of one line, in place (stride between samples; d[k] at d[k * d_stride]).
void rf_line(double* v, int n, size_t stride, const double* d, size_t d_stride, double a) {
  for (int k = 1; k < n; ++k)
    v[k * stride] = rf_step(a, d[k * d_stride], v[(k - 1) * stride], v[k * stride]);
  for (int k = n - 2; k >= 0; --k)
    v[k * stride] = rf_step(a, d[(k + 1) * d_stride], v[(k + 1) * stride], v[k * stride]);
}

// Causal (including sample k) plus anticausal (the same recursion run right to left, which also
// includes sample k, so a f[k] is subtracted once); the real part is the output.
void gaussian_line(double* v, int n, size_t stride, const double* delta, size_t d_stride, double sigma) {
  DtGaussianTerm<double> terms[2];
  dt_gaussian_terms(sigma, terms);
  std::vector<double> f(n), out(n, 0.0);
  for (int k = 0; k < n; ++k) f[k] = v[k * stride];
  for (const DtGaussianTerm<double>& t : terms) {
    DtComplex<double> g = dt_gaussian_steady(t, f[0]);
    out[0] += g.re;
    for (int k = 1; k < n; ++k) {
      g = dt_gaussian_step(t, delta[k * d_stride], f[k - 1], f[k], g);
      out[k] += g.re;
    }
    g = dt_gaussian_steady(t, f[n - 1]);
    out[n - 1] += g.re - (t.a * f[n - 1]).re;
    for (int k = n - 2; k >= 0; --k) {
      g = dt_gaussian_step(t, delta[(k + 1) * d_stride], f[k + 1], f[k], g);
      out[k] += g.re - (t.a * f[k]).re;
    }
  }
  for (int k = 0; k < n; ++k) v[k * stride] = out[k];
}

PlaneValues guided(const PlaneGeometry& g, const PlaneValues& in, const PlaneGeometry& guide_g,
                   const PlaneValues& guide, double sigma_s, double sigma_r, int iterations,
                   EdgeFilter filter) {
  validate_plane(g, in);
  validate_plane(guide_g, guide);
  if (!(sigma_r > 0) || !(sigma_s > 0))
    throw std::invalid_argument("edge-aware: need sigma_s > 0, sigma_r > 0, iterations >= 1");
  validate_sigmas(sigma_s, sigma_s, iterations);
  const double ratio = sigma_s / sigma_r;  // 0 for sigma_r = +inf
  return reference_edge_aware(g, in, reference_edge_spacing(guide_g, guide, filter, ratio, ratio),
                              filter, sigma_s, sigma_s, iterations);
}

}  // namespace

EdgeSpacing reference_edge_spacing(const PlaneGeometry& gg, const PlaneValues& guide, EdgeFilter filter,
                                   double ratio_x, double ratio_y, unsigned mask) {
  validate_plane(gg, guide);
  EdgeSpacing s;
  s.width = gg.width;
  s.height = gg.height;
  s.h.assign(static_cast<size_t>(gg.width) * gg.height, 1.0);
  s.v = s.h;
  const size_t row = gg.samples_per_row();
  auto load = [&](int x, int y, int c) { return guide[y * row + static_cast<size_t>(x) * gg.channels + c]; };
  for (int y = 0; y < gg.height; ++y)
    for (int x = 0; x < gg.width; ++x) {
      const size_t i = static_cast<size_t>(y) * gg.width + x;
      s.h[i] = guide_spacing(filter, true, x, y, gg.channels, mask, ratio_x, load);
      s.v[i] = guide_spacing(filter, false, x, y, gg.channels, mask, ratio_y, load);
    }
  return s;
}

EdgeSpacing resample_edge_spacing(const EdgeSpacing& guide, int width, int height, int sx, int sy) {
  if (width < 1 || height < 1 || sx < 1 || sy < 1)
    throw std::invalid_argument("edge-aware: invalid resampled plane");
  EdgeSpacing s;
  s.width = width;
  s.height = height;
  s.h.resize(static_cast<size_t>(width) * height);
  s.v.resize(s.h.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const size_t i = static_cast<size_t>(y) * width + x;
      s.h[i] = resampled_spacing(guide.h.data(), guide.width, guide.height, true, x, y, sx, sy);
      s.v[i] = resampled_spacing(guide.v.data(), guide.width, guide.height, false, x, y, sx, sy);
    }
  return s;
}

PlaneValues reference_edge_aware(const PlaneGeometry& g, const PlaneValues& in, const EdgeSpacing& spacing,
                                 EdgeFilter filter, double sigma_x, double sigma_y, int iterations) {
  validate_plane(g, in);
  validate_sigmas(sigma_x, sigma_y, iterations);
  if (spacing.width != g.width || spacing.height != g.height)
    throw std::invalid_argument("edge-aware: the guide must have the plane's width and height");
  // Edges from the original guide: the same distances every iteration (Domain Transform §5).
  PlaneValues v = in;
  const size_t row = g.samples_per_row();
  for (int i = 1; i <= iterations; ++i) {
    const double hx = iteration_sigma(sigma_x, i, iterations);
    const double hy = iteration_sigma(sigma_y, i, iterations);
    for (int y = 0; y < g.height && hx > 0; ++y)
      for (int c = 0; c < g.channels; ++c) {
        double* line = &v[y * row + c];
        const double* d = &spacing.h[static_cast<size_t>(y) * g.width];
        if (filter == EdgeFilter::Rf) rf_line(line, g.width, g.channels, d, 1, rf_feedback(hx));
        else gaussian_line(line, g.width, g.channels, d, 1, hx);
      }
    for (int x = 0; x < g.width && hy > 0; ++x)
      for (int c = 0; c < g.channels; ++c) {
        double* line = &v[static_cast<size_t>(x) * g.channels + c];
        const double* d = &spacing.v[x];
        if (filter == EdgeFilter::Rf) rf_line(line, g.height, row, d, g.width, rf_feedback(hy));
        else gaussian_line(line, g.height, row, d, g.width, hy);
      }
  }
  return v;
}

PlaneValues reference_domain_transform_rf(const PlaneGeometry& g, const PlaneValues& in,
                                          double sigma_s, double sigma_r, int iterations) {
  return guided(g, in, g, in, sigma_s, sigma_r, iterations, EdgeFilter::Rf);
}

PlaneValues reference_domain_transform_rf_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                 const PlaneGeometry& guide_g, const PlaneValues& guide,
                                                 double sigma_s, double sigma_r, int iterations) {
  return guided(g, in, guide_g, guide, sigma_s, sigma_r, iterations, EdgeFilter::Rf);
}

PlaneValues reference_domain_transform_gaussian(const PlaneGeometry& g, const PlaneValues& in,
                                                double sigma_s, double sigma_r, int iterations) {
  return guided(g, in, g, in, sigma_s, sigma_r, iterations, EdgeFilter::Gaussian);
}

PlaneValues reference_domain_transform_gaussian_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                       const PlaneGeometry& guide_g,
                                                       const PlaneValues& guide, double sigma_s,
                                                       double sigma_r, int iterations) {
  return guided(g, in, guide_g, guide, sigma_s, sigma_r, iterations, EdgeFilter::Gaussian);
}

}  // namespace cudagaussian
