#include "reference_edge_aware.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "domain_transform.h"

namespace cudagaussian {
namespace {

enum class EdgeFilter { Rf, Gaussian };

void validate(const PlaneGeometry& g, const PlaneValues& in, const PlaneGeometry& guide_g,
              const PlaneValues& guide, double sigma_s, double sigma_r, int iterations) {
  if (!g.valid() || in.size() != static_cast<size_t>(g.samples_per_row()) * g.height)
    throw std::invalid_argument("edge-aware: plane geometry and values disagree");
  if (guide_g.width != g.width || guide_g.height != g.height || guide_g.channels < 1 ||
      guide.size() != static_cast<size_t>(guide_g.samples_per_row()) * guide_g.height)
    throw std::invalid_argument("edge-aware: the guide must have the plane's width and height");
  if (!(sigma_s > 0) || !std::isfinite(sigma_s) || !(sigma_r > 0) || iterations < 1)
    throw std::invalid_argument("edge-aware: need sigma_s > 0, sigma_r > 0, iterations >= 1");
}

// spacing[k], k >= 1: the transformed-domain distance between samples k-1 and k of line `index`
// of the guide (a row when horizontal, else a column). spacing[0] is unused.
std::vector<double> line_spacing(const PlaneGeometry& gg, const PlaneValues& guide, bool horizontal,
                                 int index, double ratio, EdgeFilter filter) {
  const int n = horizontal ? gg.width : gg.height;
  const size_t row = gg.samples_per_row();
  std::vector<double> spacing(n, 1.0);
  for (int k = 1; k < n; ++k) {
    const size_t x = horizontal ? k : index, y = horizontal ? index : k;
    const double* cur = &guide[y * row + x * gg.channels];
    const double* prev = horizontal ? cur - gg.channels : cur - row;
    spacing[k] = filter == EdgeFilter::Rf ? rf_distance(prev, cur, gg.channels, ratio)
                                          : gaussian_spacing(prev, cur, gg.channels, ratio);
  }
  return spacing;
}

// One channel of one line, in place (stride between samples).
void rf_line(double* v, int n, size_t stride, const std::vector<double>& d, double a) {
  for (int k = 1; k < n; ++k) v[k * stride] = rf_step(a, d[k], v[(k - 1) * stride], v[k * stride]);
  for (int k = n - 2; k >= 0; --k)
    v[k * stride] = rf_step(a, d[k + 1], v[(k + 1) * stride], v[k * stride]);
}

// Causal (including sample k) plus anticausal (the same recursion run right to left, which also
// includes sample k, so a f[k] is subtracted once); the real part is the output.
void gaussian_line(double* v, int n, size_t stride, const std::vector<double>& delta, double sigma) {
  DtGaussianTerm<double> terms[2];
  dt_gaussian_terms(sigma, terms);
  std::vector<double> f(n), out(n, 0.0);
  for (int k = 0; k < n; ++k) f[k] = v[k * stride];
  for (const DtGaussianTerm<double>& t : terms) {
    DtComplex<double> g = dt_gaussian_steady(t, f[0]);
    out[0] += g.re;
    for (int k = 1; k < n; ++k) {
      g = dt_gaussian_step(t, delta[k], f[k - 1], f[k], g);
      out[k] += g.re;
    }
    g = dt_gaussian_steady(t, f[n - 1]);
    out[n - 1] += g.re - (t.a * f[n - 1]).re;
    for (int k = n - 2; k >= 0; --k) {
      g = dt_gaussian_step(t, delta[k + 1], f[k + 1], f[k], g);
      out[k] += g.re - (t.a * f[k]).re;
    }
  }
  for (int k = 0; k < n; ++k) v[k * stride] = out[k];
}

PlaneValues edge_aware(const PlaneGeometry& g, const PlaneValues& in, const PlaneGeometry& guide_g,
                       const PlaneValues& guide, double sigma_s, double sigma_r, int iterations,
                       EdgeFilter filter) {
  validate(g, in, guide_g, guide, sigma_s, sigma_r, iterations);
  const double ratio = sigma_s / sigma_r;  // 0 for sigma_r = +inf
  // Edges from the original guide: the same distances every iteration (Domain Transform §5).
  std::vector<std::vector<double>> row_spacing(g.height), column_spacing(g.width);
  for (int y = 0; y < g.height; ++y) row_spacing[y] = line_spacing(guide_g, guide, true, y, ratio, filter);
  for (int x = 0; x < g.width; ++x) column_spacing[x] = line_spacing(guide_g, guide, false, x, ratio, filter);

  PlaneValues v = in;
  const size_t row = g.samples_per_row();
  for (int i = 1; i <= iterations; ++i) {
    const double sigma_h = iteration_sigma(sigma_s, i, iterations);
    const double a = rf_feedback(sigma_h);
    auto run = [&](double* line, int n, size_t stride, const std::vector<double>& s) {
      if (filter == EdgeFilter::Rf) rf_line(line, n, stride, s, a);
      else gaussian_line(line, n, stride, s, sigma_h);
    };
    for (int y = 0; y < g.height; ++y)
      for (int c = 0; c < g.channels; ++c) run(&v[y * row + c], g.width, g.channels, row_spacing[y]);
    for (int x = 0; x < g.width; ++x)
      for (int c = 0; c < g.channels; ++c)
        run(&v[static_cast<size_t>(x) * g.channels + c], g.height, row, column_spacing[x]);
  }
  return v;
}

}  // namespace

PlaneValues reference_domain_transform_rf(const PlaneGeometry& g, const PlaneValues& in,
                                          double sigma_s, double sigma_r, int iterations) {
  return edge_aware(g, in, g, in, sigma_s, sigma_r, iterations, EdgeFilter::Rf);
}

PlaneValues reference_domain_transform_rf_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                 const PlaneGeometry& guide_g, const PlaneValues& guide,
                                                 double sigma_s, double sigma_r, int iterations) {
  return edge_aware(g, in, guide_g, guide, sigma_s, sigma_r, iterations, EdgeFilter::Rf);
}

PlaneValues reference_domain_transform_gaussian(const PlaneGeometry& g, const PlaneValues& in,
                                                double sigma_s, double sigma_r, int iterations) {
  return edge_aware(g, in, g, in, sigma_s, sigma_r, iterations, EdgeFilter::Gaussian);
}

PlaneValues reference_domain_transform_gaussian_guided(const PlaneGeometry& g, const PlaneValues& in,
                                                       const PlaneGeometry& guide_g,
                                                       const PlaneValues& guide, double sigma_s,
                                                       double sigma_r, int iterations) {
  return edge_aware(g, in, guide_g, guide, sigma_s, sigma_r, iterations, EdgeFilter::Gaussian);
}

}  // namespace cudagaussian
