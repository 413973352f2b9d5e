// SPDX-License-Identifier: LGPL-2.1-or-later
#include "reference_recursive.h"

#include <cstddef>

#include "recursive_sections.h"

namespace cudagaussian {

// The direct forms are evaluated as increments over the previous output, e.g.
//   w[n] = w[n-1] + B (x[n] - w[n-1]) - a2 (w[n-1] - w[n-2]) - a3 (w[n-1] - w[n-3]),
// which is eq. 3 exactly (a1 = 1 - B - a2 - a3) but keeps a constant line exactly constant and
// rounds small differences instead of sums of terms ~3x the signal. The direct form stays
// ill-conditioned at large sigma all the same (a rounding of w acts like an input error / B, and
// B ~ 6e-7 at sigma 200); tests/test_recursive.cpp measures how far it is from the section form.

void yvv_filter_line(const YvvCoeffs& c, const double* in, double* out, int n, StartUp start) {
  if (n <= 0) return;
  constexpr int kPad = 3;
  const double b = c.b0_gain, a2 = c.a2, a3 = c.a3;
  // Causal, Lee et al. 2014 eq. 3, started from the steady state w[-1..-3] = x[0] — exact for a
  // replicate border and also the rule of Lee, Ko and Choe.
  std::vector<double> w(n + kPad, in[0]);
  for (int i = 0; i < n; ++i) {
    const double w1 = w[i + 2], w2 = w[i + 1], w3 = w[i];
    w[i + kPad] = w1 + b * (in[i] - w1) - a2 * (w1 - w2) - a3 * (w1 - w3);
  }
  const double x_edge = in[n - 1];

  // Anticausal, eq. 4, over y[0..n+2] (y[n..n+2] lie beyond the edge).
  std::vector<double> y(n + kPad);
  int first;  // the first index computed by the recursion
  if (start == StartUp::Exact) {
    const double w_last[3] = {w[n - 1 + kPad], w[n - 2 + kPad], w[n - 3 + kPad]};
    double v[3];
    yvv_triggs_sdika_start(c, triggs_sdika_matrix(c), w_last, x_edge, v);
    y[n - 1] = v[0];
    y[n] = v[1];
    y[n + 1] = v[2];
    first = n - 2;
  } else {
    y[n] = y[n + 1] = y[n + 2] = w[n - 1 + kPad];  // Lee, Ko and Choe: copy the last causal output
    first = n - 1;
  }
  for (int i = first; i >= 0; --i) {
    const double y1 = y[i + 1], y2 = y[i + 2], y3 = y[i + 3];
    y[i] = y1 + b * (w[i + kPad] - y1) - a2 * (y1 - y2) - a3 * (y1 - y3);
  }
  for (int i = 0; i < n; ++i) out[i] = y[i];
}

void deriche_filter_line(const DericheCoeffs& c, const double* in, double* out, int n) {
  if (n <= 0) return;
  constexpr int kPad = 4;
  // x padded with the replicated edge values on both sides; the steady states of a constant
  // input start both recursions, which is exact for replicate (docs/algorithms.md, "Replicate
  // start-up").
  std::vector<double> x(n + 2 * kPad);
  for (int i = 0; i < n + 2 * kPad; ++i) x[i] = in[i < kPad ? 0 : (i >= n + kPad ? n - 1 : i - kPad)];
  // Increment form (see above): with SN = Σn, SM = Σm, SD = 1 + Σd,
  //   y+[n] = y+[n-1] + (SN x[n] - SD y+[n-1]) + Σ_k n_k (x[n-k] - x[n]) + Σ_{k>=2} d_k (y+[n-1] - y+[n-k])
  // and the mirror image for y-, with x[n+1] in the role of x[n].
  const double sn = c.causal_gain * c.sd, sm = c.anticausal_gain * c.sd;
  std::vector<double> causal(n + kPad, in[0] * c.causal_gain);
  for (int i = 0; i < n; ++i) {
    const int j = i + kPad;  // index in x and causal
    const double x0 = x[j], y1 = causal[j - 1];
    causal[j] = y1 + (sn * x0 - c.sd * y1) + c.n1 * (x[j - 1] - x0) + c.n2 * (x[j - 2] - x0) +
                c.n3 * (x[j - 3] - x0) + c.d2 * (y1 - causal[j - 2]) + c.d3 * (y1 - causal[j - 3]) +
                c.d4 * (y1 - causal[j - 4]);
  }
  std::vector<double> anti(n + kPad, in[n - 1] * c.anticausal_gain);  // anti[i] = y-[i]
  for (int i = n - 1; i >= 0; --i) {
    const int j = i + kPad;  // index of x[i]
    const double x1 = x[j + 1], y1 = anti[i + 1];
    anti[i] = y1 + (sm * x1 - c.sd * y1) + c.m2 * (x[j + 2] - x1) + c.m3 * (x[j + 3] - x1) +
              c.m4 * (x[j + 4] - x1) + c.d2 * (y1 - anti[i + 2]) + c.d3 * (y1 - anti[i + 3]) +
              c.d4 * (y1 - anti[i + 4]);
  }
  for (int i = 0; i < n; ++i) out[i] = causal[i + kPad] + anti[i];
}

namespace {

YvvVariant yvv_variant(RecursiveFilter filter) {
  return filter == RecursiveFilter::YoungVanVliet1995 ? YvvVariant::Y1995 : YvvVariant::Y2002;
}

// One direction's filter for many lines: coefficients computed once, then applied per line.
class DirectLineFilter {
 public:
  DirectLineFilter(RecursiveFilter filter, double sigma, StartUp start)
      : filter_(filter), start_(start), identity_(!(sigma > 0.0)) {
    if (identity_) return;
    if (filter == RecursiveFilter::Deriche) deriche_ = deriche_coefficients(sigma);
    else yvv_ = yvv_coefficients(sigma, yvv_variant(filter));
  }
  void operator()(double* line, int n) const {
    if (identity_) return;
    if (filter_ == RecursiveFilter::Deriche) deriche_filter_line(deriche_, line, line, n);
    else yvv_filter_line(yvv_, line, line, n, start_);
  }
  bool identity() const { return identity_; }

 private:
  RecursiveFilter filter_;
  StartUp start_;
  bool identity_;
  YvvCoeffs yvv_;
  DericheCoeffs deriche_;
};

template <typename T>
class SectionLineFilter {
 public:
  SectionLineFilter(RecursiveFilter filter, double sigma, StartUp start)
      : filter_(filter), start_(start), identity_(!(sigma > 0.0)) {
    if (identity_) return;
    if (filter == RecursiveFilter::Deriche)
      deriche_ = make_deriche_sections<T>(deriche_section_coefficients(sigma));
    else
      yvv_ = make_yvv_sections<T>(yvv_section_coefficients(sigma, yvv_variant(filter)));
  }
  // `in` and `out` are strided views of n samples; they must not overlap for Deriche.
  void operator()(const T* in, int in_stride, T* out, int out_stride, int n) const {
    if (identity_) {
      for (int i = 0; i < n; ++i) out[i * out_stride] = in[i * in_stride];
    } else if (filter_ == RecursiveFilter::Deriche) {
      deriche_sections_filter_line(deriche_, in, in_stride, out, out_stride, n);
    } else {
      yvv_sections_filter_line(yvv_, in, in_stride, out, out_stride, n, start_);
    }
  }
  bool identity() const { return identity_; }

 private:
  RecursiveFilter filter_;
  StartUp start_;
  bool identity_;
  YvvSections<T> yvv_{};
  DericheSections<T> deriche_{};
};

template <typename T>
std::vector<double> sections_line(RecursiveFilter filter, double sigma, const std::vector<double>& line,
                                  StartUp start) {
  const int n = static_cast<int>(line.size());
  std::vector<T> in(line.begin(), line.end()), out(line.size());
  SectionLineFilter<T>(filter, sigma, start)(in.data(), 1, out.data(), 1, n);
  return std::vector<double>(out.begin(), out.end());
}

// The GPU's data flow: input -> (horizontal) -> intermediate in T -> (vertical) -> output in T,
// each line filtered in place in a strided plane buffer.
template <typename T>
PlaneValues sections_plane(const PlaneGeometry& g, const PlaneValues& in, RecursiveFilter filter,
                           double sigma_x, double sigma_y, StartUp start) {
  const int w = g.width, h = g.height, c = g.channels, row = g.samples_per_row();
  const SectionLineFilter<T> fx(filter, sigma_x, start), fy(filter, sigma_y, start);
  std::vector<T> src(in.begin(), in.end()), mid(in.size()), dst(in.size());
  for (int y = 0; y < h; ++y)
    for (int ch = 0; ch < c; ++ch) {
      const size_t at = static_cast<size_t>(y) * row + ch;
      fx(src.data() + at, c, mid.data() + at, c, w);
    }
  for (int i = 0; i < row; ++i) fy(mid.data() + i, row, dst.data() + i, row, h);
  return PlaneValues(dst.begin(), dst.end());
}

}  // namespace

std::vector<double> recursive_line(RecursiveFilter filter, double sigma, const std::vector<double>& line,
                                   StartUp start) {
  std::vector<double> out(line);
  DirectLineFilter(filter, sigma, start)(out.data(), static_cast<int>(out.size()));
  return out;
}

std::vector<double> recursive_line_sections(RecursiveFilter filter, double sigma,
                                            const std::vector<double>& line, StartUp start,
                                            SectionPrecision precision) {
  return precision == SectionPrecision::Float ? sections_line<float>(filter, sigma, line, start)
                                              : sections_line<double>(filter, sigma, line, start);
}

PlaneValues reference_recursive(const PlaneGeometry& g, const PlaneValues& in, RecursiveFilter filter,
                                double sigma_x, double sigma_y, StartUp start) {
  const int w = g.width, h = g.height, c = g.channels, row = g.samples_per_row();
  const DirectLineFilter fx(filter, sigma_x, start), fy(filter, sigma_y, start);
  PlaneValues out(in);
  std::vector<double> line(static_cast<size_t>(w > h ? w : h));
  if (!fx.identity()) {
    for (int y = 0; y < h; ++y)
      for (int ch = 0; ch < c; ++ch) {
        double* base = out.data() + static_cast<size_t>(y) * row + ch;
        for (int x = 0; x < w; ++x) line[x] = base[x * c];
        fx(line.data(), w);
        for (int x = 0; x < w; ++x) base[x * c] = line[x];
      }
  }
  if (!fy.identity()) {
    for (int i = 0; i < row; ++i) {
      for (int y = 0; y < h; ++y) line[y] = out[static_cast<size_t>(y) * row + i];
      fy(line.data(), h);
      for (int y = 0; y < h; ++y) out[static_cast<size_t>(y) * row + i] = line[y];
    }
  }
  return out;
}

PlaneValues recursive_sections_plane(const PlaneGeometry& g, const PlaneValues& in,
                                     RecursiveFilter filter, double sigma_x, double sigma_y,
                                     StartUp start, SectionPrecision precision) {
  return precision == SectionPrecision::Float
             ? sections_plane<float>(g, in, filter, sigma_x, sigma_y, start)
             : sections_plane<double>(g, in, filter, sigma_x, sigma_y, start);
}

}  // namespace cudagaussian
