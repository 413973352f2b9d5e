// SPDX-License-Identifier: LGPL-2.1-or-later
#include "recursive_coeffs.h"

#include <cmath>
#include <complex>
#include <stdexcept>

namespace cudagaussian {

const char* recursive_filter_name(RecursiveFilter filter) {
  switch (filter) {
    case RecursiveFilter::YoungVanVliet2002: return "young-van-vliet-2002";
    case RecursiveFilter::YoungVanVliet1995: return "young-van-vliet-1995";
    case RecursiveFilter::Deriche: return "deriche";
  }
  return "unknown";
}

const char* start_up_name(StartUp start) {
  switch (start) {
    case StartUp::Exact: return "exact";
    case StartUp::Simple: return "simple";
  }
  return "unknown";
}

const char* recursive_sigma_error(RecursiveFilter filter, double sigma) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) return "sigma must be a finite number > 0";
  if (filter == RecursiveFilter::YoungVanVliet1995 && sigma < kYvv1995MinSigma)
    return "the 1995 Young-van Vliet coefficients need sigma >= 0.5";
  return nullptr;
}

bool recursive_sigma_valid(RecursiveFilter filter, double sigma) {
  return recursive_sigma_error(filter, sigma) == nullptr;
}

namespace {

void require_valid(RecursiveFilter filter, double sigma) {
  if (const char* why = recursive_sigma_error(filter, sigma)) throw std::invalid_argument(why);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Young–van Vliet

namespace {

constexpr double kM0 = 1.16680, kM1 = 1.10783, kM2 = 1.40586;  // Young et al. 2002, table 1

// q of Young, van Vliet, van Ginkel 2002 (exact variance for the m0, m1, m2 poles).
double yvv2002_q(double sigma) { return 1.31564 * (std::sqrt(1.0 + 0.490811 * sigma * sigma) - 1.0); }

// 1 - a1 - a2 - a3 of the rounded a's with one rounding: the terms span a few binades, so their
// sum is exact in long double (64-bit significand on x86) and at worst a few ulps elsewhere.
double one_minus_sum(double a1, double a2, double a3) {
  const long double s = 1.0L - static_cast<long double>(a1) - static_cast<long double>(a2) -
                        static_cast<long double>(a3);
  return static_cast<double>(s);
}

}  // namespace

YvvCoeffs yvv_coefficients(double sigma, YvvVariant variant) {
  YvvCoeffs c;
  if (variant == YvvVariant::Y1995) {
    require_valid(RecursiveFilter::YoungVanVliet1995, sigma);
    // Young & van Vliet 1995 (Signal Processing 44(2)): q(sigma) in two branches, then b0..b3.
    const double q = sigma >= 2.5 ? 0.98711 * sigma - 0.96330
                                  : 3.97156 - 4.14554 * std::sqrt(1.0 - 0.26891 * sigma);
    const double q2 = q * q, q3 = q2 * q;
    const double b0 = 1.57825 + 2.44413 * q + 1.4281 * q2 + 0.422205 * q3;
    const double b1 = 2.44413 * q + 2.85619 * q2 + 1.26661 * q3;
    const double b2 = -(1.4281 * q2 + 1.26661 * q3);
    const double b3 = 0.422205 * q3;
    c.a1 = b1 / b0;
    c.a2 = b2 / b0;
    c.a3 = b3 / b0;
  } else {
    require_valid(RecursiveFilter::YoungVanVliet2002, sigma);
    // Young, van Vliet, van Ginkel 2002 (as in ImageFiltering.jl kernelfactors.jl, IIRGaussian).
    const double q = yvv2002_q(sigma);
    const double q2 = q * q, q3 = q2 * q;
    const double scale = (kM0 + q) * (kM1 * kM1 + kM2 * kM2 + 2.0 * kM1 * q + q2);
    c.a1 = q * (2.0 * kM0 * kM1 + kM1 * kM1 + kM2 * kM2 + (2.0 * kM0 + 4.0 * kM1) * q + 3.0 * q2) / scale;
    c.a2 = -q2 * (kM0 + 2.0 * kM1 + 3.0 * q) / scale;
    c.a3 = q3 / scale;
    // The paper's B = m0 (m1² + m2²) / scale is the same number in exact arithmetic.
  }
  c.b0_gain = one_minus_sum(c.a1, c.a2, c.a3);
  return c;
}

TriggsSdikaMatrix triggs_sdika_matrix(const YvvCoeffs& c) {
  const double a1 = c.a1, a2 = c.a2, a3 = c.a3;
  // Triggs & Sdika 2006, eq. 15 (the form verified in ImageFiltering.jl; GEGL's is shifted).
  // Its factor 1 - a1 - a2 - a3 is B, taken as stored (see YvvCoeffs) so that B·M, which the
  // normalised start uses, carries no cancellation error at large sigma.
  const double d = (1.0 + a1 - a2 + a3) * c.b0_gain * (1.0 + a2 + (a1 - a3) * a3);
  TriggsSdikaMatrix m;
  m.m[0][0] = 1.0 - a2 - a1 * a3 - a3 * a3;
  m.m[0][1] = (a1 + a3) * (a2 + a1 * a3);
  m.m[0][2] = a3 * (a1 + a2 * a3);
  m.m[1][0] = a1 + a2 * a3;
  m.m[1][1] = (1.0 - a2) * (a2 + a1 * a3);
  m.m[1][2] = -a3 * (a1 * a3 + a3 * a3 + a2 - 1.0);
  m.m[2][0] = a1 * a3 + a2 + a1 * a1 - a2 * a2;
  m.m[2][1] = a1 * a2 + a2 * a2 * a3 - a1 * a3 * a3 - a3 * a3 * a3 - a2 * a3 + a3;
  m.m[2][2] = a3 * (a1 + a2 * a3);
  for (auto& row : m.m)
    for (double& v : row) v /= d;
  return m;
}

void yvv_triggs_sdika_start(const YvvCoeffs& c, const TriggsSdikaMatrix& m, const double w_last[3],
                            double x_edge, double out[3]) {
  // Unnormalised: v - v+ = M (u - u+). With w = B u, y = B² v and w+ = y+ = x_edge (unit DC
  // gain): y - x_edge = B M (w - x_edge).
  for (int i = 0; i < 3; ++i) {
    double acc = 0.0;
    for (int j = 0; j < 3; ++j) acc += (c.b0_gain * m.m[i][j]) * (w_last[j] - x_edge);
    out[i] = x_edge + acc;
  }
}

namespace {

using cplx = std::complex<double>;

// The poles of one direction: 1 - a1 z^-1 - a2 z^-2 - a3 z^-3 = (1 - p z^-1)(1 - r z^-1)(1 - r* z^-1),
// with 1 - p and 1 - r kept separately because they are what matters near z = 1.
struct YvvPoles {
  double p, one_minus_p;
  cplx r, one_minus_r;
};

// The real root of z³ - a1 z² - a2 z - a3 in (0, 1). For a stable low-pass with a3 > 0 the
// cubic is -a3 < 0 at z = 0 and B > 0 at z = 1; bisection cannot fail, Newton polishes.
double real_root_of_denominator(const YvvCoeffs& c) {
  auto f = [&](double z) { return ((z - c.a1) * z - c.a2) * z - c.a3; };
  auto df = [&](double z) { return (3.0 * z - 2.0 * c.a1) * z - c.a2; };
  double lo = 0.0, hi = 1.0;
  if (!(f(lo) < 0.0 && f(hi) > 0.0))
    throw std::invalid_argument("Young-van Vliet coefficients without a real pole in (0, 1)");
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) < 0.0 ? lo : hi) = mid;
  }
  double z = 0.5 * (lo + hi);
  for (int i = 0; i < 2; ++i) {
    const double slope = df(z);
    if (slope != 0.0) z -= f(z) / slope;
  }
  return z;
}

YvvPoles yvv_poles(double sigma, YvvVariant variant) {
  YvvPoles k;
  if (variant == YvvVariant::Y2002) {
    require_valid(RecursiveFilter::YoungVanVliet2002, sigma);
    // Young et al. 2002 build the filter from these poles: scale = (m0+q)((m1+q)² + m2²).
    const double q = yvv2002_q(sigma);
    k.p = q / (kM0 + q);
    k.one_minus_p = kM0 / (kM0 + q);
    const cplx pair_den(kM1 + q, kM2);
    k.r = q / pair_den;
    k.one_minus_r = cplx(kM1, kM2) / pair_den;
  } else {
    const YvvCoeffs c = yvv_coefficients(sigma, variant);
    k.p = real_root_of_denominator(c);
    k.one_minus_p = 1.0 - k.p;
    // z³ - a1 z² - a2 z - a3 = (z - p)(z² - c1 z - c2): match the z² and z coefficients.
    const double c1 = c.a1 - k.p, c2 = c.a2 + k.p * c1;
    k.r = 0.5 * (c1 + std::sqrt(cplx(c1 * c1 + 4.0 * c2, 0.0)));
    k.one_minus_r = 1.0 - k.r;
  }
  return k;
}

}  // namespace

YvvSectionCoeffs yvv_section_coefficients(double sigma, YvvVariant variant) {
  const YvvPoles k = yvv_poles(sigma, variant);
  YvvSectionCoeffs s;
  s.pole = k.p;
  s.pole_gain = k.one_minus_p;
  s.pair_gain = std::norm(k.one_minus_r);
  s.pair_radius2 = std::norm(k.r);

  // Exact right start. Beyond the edge the input is the constant x_edge, so the deviations from
  // x_edge of the causal outputs are free responses. With m counting samples from L-1:
  //   f - x_edge = da p^m,
  //   s - x_edge = e[m], e[m] = g2 da p^m + c1 e[m-1] + c2 e[m-2], e[0] = ds1, e[-1] = ds2,
  // where g1 = 1-p, g2 = |1-r|², 1 - c1 z^-1 - c2 z^-2 = (1 - r z^-1)(1 - r* z^-1). So e is a sum
  // of modes A_λ λ^m over λ ∈ {p, r, r*}: the forced one A_p = g2 da p² / ((p-r)(p-r*)), then
  // A_r, A_r* from the two initial values. The anticausal sections, started at +infinity, map a
  // mode λ^m (|λ| < 1, geometric sums) to
  //   first order:  g1 λ^m / (1 - p λ),
  //   both:         g1 g2 λ^m / ((1 - p λ)(1 - r λ)(1 - r* λ)),
  // which we read at m = 1 (f'[L], s'[L]) and m = 2 (s'[L+1]). All of it is linear in
  // (da, ds1, ds2); the columns of the map are the responses to unit deviations.
  const double g1 = k.one_minus_p, g2 = s.pair_gain, p = k.p;
  const cplx r1 = k.r, r2 = std::conj(k.r);
  auto first_gain = [&](cplx l) { return g1 / (1.0 - p * l); };
  auto both_gain = [&](cplx l) { return first_gain(l) * g2 / ((1.0 - r1 * l) * (1.0 - r2 * l)); };
  double by_sample[3][3];  // rows f'[L], s'[L], s'[L+1]; columns da, ds1 = s[L-1], ds2 = s[L-2]
  for (int col = 0; col < 3; ++col) {
    const double da = col == 0, ds1 = col == 1, ds2 = col == 2;
    const cplx ap = g2 * da * p * p / ((p - r1) * (p - r2));
    const cplx rhs0 = ds1 - ap, rhs1 = ds2 - ap / p;  // A1 + A2 = rhs0, A1/r1 + A2/r2 = rhs1
    const cplx det = 1.0 / r2 - 1.0 / r1;
    const cplx a1 = (rhs0 / r2 - rhs1) / det;
    const cplx a2 = (rhs1 - rhs0 / r1) / det;
    const cplx f_at_1 = ap * p * first_gain(p) + a1 * r1 * first_gain(r1) + a2 * r2 * first_gain(r2);
    const cplx s_at_1 = ap * p * both_gain(p) + a1 * r1 * both_gain(r1) + a2 * r2 * both_gain(r2);
    const cplx s_at_2 = ap * p * p * both_gain(p) + a1 * r1 * r1 * both_gain(r1) + a2 * r2 * r2 * both_gain(r2);
    by_sample[0][col] = f_at_1.real();
    by_sample[1][col] = s_at_1.real();
    by_sample[2][col] = s_at_2.real();
  }
  // To the delta-form state: input (da, ds, v) has ds1 = ds, ds2 = ds - v; output v' = s'[L] - s'[L+1].
  double by_input[3][3];
  for (int row = 0; row < 3; ++row) {
    by_input[row][0] = by_sample[row][0];
    by_input[row][1] = by_sample[row][1] + by_sample[row][2];
    by_input[row][2] = -by_sample[row][2];
  }
  for (int col = 0; col < 3; ++col) {
    s.right_start[0][col] = by_input[0][col];
    s.right_start[1][col] = by_input[1][col];
    s.right_start[2][col] = by_input[1][col] - by_input[2][col];
  }
  return s;
}

DericheSectionCoeffs yvv_parallel_coefficients(double sigma, YvvVariant variant) {
  const YvvPoles k = yvv_poles(sigma, variant);
  const cplx lambda[3] = {k.p, k.r, std::conj(k.r)};
  const cplx one_minus[3] = {k.one_minus_p, k.one_minus_r, std::conj(k.one_minus_r)};
  const double g = k.one_minus_p * std::norm(k.one_minus_r);
  // c for the real pole (index 0) and for r (index 1; r* has the conjugate).
  cplx c[2];
  for (int i = 0; i < 2; ++i) {
    cplx alpha = 1.0, both = 1.0;
    for (int j = 0; j < 3; ++j) {
      if (j != i) alpha *= lambda[i] / (lambda[i] - lambda[j]);
      // 1 - λμ = (1 - λ) + λ (1 - μ), without cancellation near z = 1.
      both *= one_minus[i] + lambda[i] * one_minus[j];
    }
    c[i] = g * g * alpha / both;
  }
  DericheSectionCoeffs s;
  // The real pole: c / (1 - p z^-1).
  DericheSectionCoeffs::Term& t0 = s.term[0];
  t0.n0 = c[0].real();
  t0.n1 = 0.0;
  t0.nsum = t0.n0;
  t0.den = k.one_minus_p;
  t0.radius2 = 0.0;
  // The pair: c / (1 - r z^-1) + conj = (2Re c - 2Re(c r*) z^-1) / (1 - 2Re r z^-1 + |r|² z^-2).
  DericheSectionCoeffs::Term& t1 = s.term[1];
  t1.n0 = 2.0 * c[1].real();
  t1.n1 = -2.0 * (c[1] * std::conj(k.r)).real();
  t1.nsum = 2.0 * (c[1] * std::conj(k.one_minus_r)).real();  // n0 + n1
  t1.den = std::norm(k.one_minus_r);
  t1.radius2 = std::norm(k.r);
  // The anticausal parts, Σ c λ z / (1 - λ z): as for Deriche, m2 = -radius2 n0 and
  // m1 + m2 = nsum - den n0 (the filter is symmetric).
  for (DericheSectionCoeffs::Term& t : s.term) {
    t.m2 = -t.radius2 * t.n0;
    t.msum = t.nsum - t.n0 * t.den;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Deriche

namespace {

// One term of h(x), e^{-b x/s}(α cos(w x/s) + β sin(w x/s)), as a causal 2nd-order section, not
// yet normalised. The DC quantities are written without cancellation (1 - E = -expm1(-b/s),
// 1 - cos θ = 2 sin²(θ/2)): at sigma 200 they are ~1e-4 of the coefficients they combine.
struct DericheTermRaw {
  double n0, n1, nsum, den, radius2;
};

DericheTermRaw deriche_term(double alpha, double beta, double b, double w, double sigma) {
  const double e = std::exp(-b / sigma), one_minus_e = -std::expm1(-b / sigma);
  const double th = w / sigma, half_sin = std::sin(0.5 * th);
  const double one_minus_cos = 2.0 * half_sin * half_sin;
  DericheTermRaw t;
  // z-transform of e^{-bk/s}(α cos kθ + β sin kθ), k >= 0:
  //   (α + E(β sin θ - α cos θ) z^-1) / (1 - 2E cos θ z^-1 + E² z^-2).
  t.n0 = alpha;
  t.n1 = e * (beta * std::sin(th) - alpha * std::cos(th));
  t.nsum = alpha * (one_minus_e + e * one_minus_cos) + beta * e * std::sin(th);
  t.den = one_minus_e * one_minus_e + 2.0 * e * one_minus_cos;  // 1 - 2E cos θ + E²
  t.radius2 = e * e;
  return t;
}

void deriche_terms(double sigma, DericheTermRaw out[2], double* total_gain) {
  const DericheConstants k;
  out[0] = deriche_term(k.a0, k.a1, k.b0, k.w0, sigma);
  out[1] = deriche_term(k.c0, k.c1, k.b1, k.w1, sigma);
  // DC gain of y+ + y-: each term counts its centre tap once.
  *total_gain = 0.0;
  for (int i = 0; i < 2; ++i) *total_gain += 2.0 * out[i].nsum / out[i].den - out[i].n0;
}

}  // namespace

DericheCoeffs deriche_coefficients(double sigma) {
  require_valid(RecursiveFilter::Deriche, sigma);
  const DericheConstants k;
  // Deriche 1993 (INRIA RR-1893), 4th-order causal and anticausal coefficients.
  const double e0 = std::exp(-k.b0 / sigma), e1 = std::exp(-k.b1 / sigma);
  const double cw0 = std::cos(k.w0 / sigma), sw0 = std::sin(k.w0 / sigma);
  const double cw1 = std::cos(k.w1 / sigma), sw1 = std::sin(k.w1 / sigma);
  DericheCoeffs c;
  c.n0 = k.a0 + k.c0;
  c.n1 = e1 * (k.c1 * sw1 - (k.c0 + 2.0 * k.a0) * cw1) + e0 * (k.a1 * sw0 - (2.0 * k.c0 + k.a0) * cw0);
  c.n2 = 2.0 * e0 * e1 * ((k.a0 + k.c0) * cw1 * cw0 - k.a1 * cw1 * sw0 - k.c1 * cw0 * sw1) +
         k.c0 * e0 * e0 + k.a0 * e1 * e1;
  c.n3 = e1 * e0 * e0 * (k.c1 * sw1 - k.c0 * cw1) + e0 * e1 * e1 * (k.a1 * sw0 - k.a0 * cw0);
  c.d1 = -2.0 * e0 * cw0 - 2.0 * e1 * cw1;
  c.d2 = 4.0 * e0 * e1 * cw0 * cw1 + e0 * e0 + e1 * e1;
  c.d3 = -2.0 * e0 * e1 * e1 * cw0 - 2.0 * e1 * e0 * e0 * cw1;
  c.d4 = e0 * e0 * e1 * e1;
  // Normalise by the DC gain of y+ + y-, 2 SN/SD - n0. SN/SD is computed per term (it is
  // Σ_i nsum_i/den_i) because SD = 1 + Σd cancels to ~1e-8 at sigma 200.
  DericheTermRaw t[2];
  double norm;
  deriche_terms(sigma, t, &norm);
  c.n0 /= norm;
  c.n1 /= norm;
  c.n2 /= norm;
  c.n3 /= norm;
  c.m1 = c.n1 - c.d1 * c.n0;
  c.m2 = c.n2 - c.d2 * c.n0;
  c.m3 = c.n3 - c.d3 * c.n0;
  c.m4 = -c.d4 * c.n0;
  c.sd = t[0].den * t[1].den;
  c.causal_gain = (t[0].nsum / t[0].den + t[1].nsum / t[1].den) / norm;
  c.anticausal_gain = c.causal_gain - c.n0;  // SM = SN - n0 SD
  return c;
}

DericheSectionCoeffs deriche_section_coefficients(double sigma) {
  require_valid(RecursiveFilter::Deriche, sigma);
  DericheTermRaw t[2];
  double norm;
  deriche_terms(sigma, t, &norm);
  DericheSectionCoeffs s;
  for (int i = 0; i < 2; ++i) {
    DericheSectionCoeffs::Term& o = s.term[i];
    o.n0 = t[i].n0 / norm;
    o.n1 = t[i].n1 / norm;
    o.nsum = t[i].nsum / norm;
    o.den = t[i].den;
    o.radius2 = t[i].radius2;
    o.m2 = -o.radius2 * o.n0;           // m2 = -d2 n0
    o.msum = o.nsum - o.n0 * o.den;     // m1 + m2 = n1 - (d1 + d2) n0 = nsum - den n0
  }
  return s;
}

}  // namespace cudagaussian
