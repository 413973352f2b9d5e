// SPDX-License-Identifier: LGPL-2.1-or-later
// Coefficients of the recursive Gaussian filters (Young–van Vliet 1995 and 2002, Deriche 1993;
// docs/algorithms.md), all computed in double:
//   Young–van Vliet 3rd order (1995 and 2002 coefficients) with the Triggs–Sdika right border,
//   Deriche 4th order (1993 constants) with its steady-state edge terms,
// and the same filters split into low-order sections, the form that stays accurate in float32
// (recursive_sections.h runs them; reference_recursive.h filters lines and planes with them).
//
// Plain declarations only: this header is included by CUDA code through recursive_sections.h.
#pragma once

namespace cudagaussian {

enum class RecursiveFilter : int { YoungVanVliet2002 = 0, YoungVanVliet1995 = 1, Deriche = 2 };

// How a line's recursions are started at its two ends.
//   Exact:  the result equals filtering an infinite replicate (clamp-to-edge) extension of the
//           line: steady state of the edge value on the left, Triggs–Sdika (YvV) / steady state
//           of the anticausal pass (Deriche) on the right.
//   Simple: the rule of Lee, Ko and Choe (2014): every pass starts from the steady state of the
//           edge value of *its own input*, as if that input were constant beyond the edge. For
//           YvV the anticausal pass reads the causal output, so y[L..L+2] = w[L-1]; that ignores
//           the causal transient beyond the edge and is wrong near the right end. Deriche's two
//           passes both read x, so the same rule is already exact: Simple == Exact for Deriche.
enum class StartUp : int { Exact = 0, Simple = 1 };

const char* recursive_filter_name(RecursiveFilter filter);
const char* start_up_name(StartUp start);

// Valid sigma ranges (the coefficient functions require them).
//   YvV 1995: sigma >= 0.5 — its q(sigma) fit is only defined from there (Young & van Vliet 1995).
//   YvV 2002, Deriche: any sigma > 0. Both are poor Gaussians below sigma ~ 0.5–1 (a 3rd/4th-order
//   recursion cannot make a kernel narrower than a few samples), but they stay stable filters.
// No upper limit on the coefficients: they are computed in double. The float32 section form is
// tested to sigma 200 here (tests/test_recursive.cpp prints the measured error up to 1000).
// The 1995 coefficients are meant for reproducing Lee, Ko and Choe (2014) at moderate sigma:
// their published b_i are rounded to ~6 digits, which bends the filter away from its design as
// sigma grows (variance 1.16 sigma² at 30, 1.03 at 90, 0.68 at 200; impulse L1 error 0.019 at
// 30, 0.057 at 90, 0.225 at 200). The 2002 coefficients keep the exact variance at any sigma.
constexpr double kYvv1995MinSigma = 0.5;
bool recursive_sigma_valid(RecursiveFilter filter, double sigma);
// nullptr when valid, else a readable reason (for GST_ELEMENT_ERROR / property warnings).
const char* recursive_sigma_error(RecursiveFilter filter, double sigma);

// ---------------------------------------------------------------------------------------------
// Young–van Vliet, direct (normalised) form, Lee et al. 2014 eqs. 3–4:
//   causal      w[n] = B x[n] + a1 w[n-1] + a2 w[n-2] + a3 w[n-3]
//   anticausal  y[n] = B w[n] + a1 y[n+1] + a2 y[n+2] + a3 y[n+3],   B = 1 - a1 - a2 - a3.
enum class YvvVariant : int { Y2002 = 0, Y1995 = 1 };

struct YvvCoeffs {
  // B. Set to 1 - a1 - a2 - a3 of the *rounded* a's, summed without rounding: the recursion's DC
  // gain B / (1 - Σa) is then 1 to one rounding (at sigma 200, B ~ 6e-7 while a1 ~ 3, so a plain
  // double sum would leave a 1e-9 gain error per pass).
  double b0_gain = 1.0;
  double a1 = 0.0, a2 = 0.0, a3 = 0.0;
};

// 1995: Young & van Vliet, Signal Processing 44 (1995): q fit in two branches, then b0..b3.
// 2002: Young, van Vliet, van Ginkel, IEEE TSP 50 (2002), with m0, m1, m2 of their table.
// Throws std::invalid_argument outside recursive_sigma_valid().
YvvCoeffs yvv_coefficients(double sigma, YvvVariant variant);

// Triggs & Sdika 2006 (IEEE TSP 54), eqs. 14–15: the exact anticausal start for a replicate border.
// M is given for the unnormalised recursion u[n] = x[n] + Σ a_k u[n-k], v[n] = u[n] + Σ a_k v[n+k].
struct TriggsSdikaMatrix {
  double m[3][3];
};
TriggsSdikaMatrix triggs_sdika_matrix(const YvvCoeffs& c);

// The exact right start in the *normalised* form above (the one reference_recursive uses).
// Input: the last three causal outputs w[L-1], w[L-2], w[L-3] (a line shorter than 3 uses the
// left start's w = x[0] for the missing ones) and the edge value x_edge = x[L-1].
// Output: y[L-1], y[L], y[L+1] in out[0..2]; the anticausal recursion then resumes at n = L-2
// (note: y[L-1] itself comes from M, as in Triggs–Sdika and ImageFiltering.jl `_rightborder!`).
// Derivation: w = B u, y = B² v, and both steady states equal x_edge, so
//   y[L-1+i] = x_edge + B Σ_j M[i][j] (w[L-1-j] - x_edge).
void yvv_triggs_sdika_start(const YvvCoeffs& c, const TriggsSdikaMatrix& m, const double w_last[3],
                            double x_edge, double out[3]);

// ---------------------------------------------------------------------------------------------
// Young–van Vliet as a cascade of sections, for float32 (same transfer function as above).
// 1 - a1 z^-1 - a2 z^-2 - a3 z^-3 = (1 - p z^-1)(1 - r z^-1)(1 - r* z^-1): p is the real pole,
// r, r* the complex pair. Per direction, in "delta" form (state = output and its increment):
//   first order   f[n] = f[n-1] + (1-p) (x[n] - f[n-1])
//   second order  v[n] = |1-r|² (f[n] - s[n-1]) + |r|² v[n-1],   s[n] = s[n-1] + v[n]
// (the second is s[n] = |1-r|² f[n] + 2Re(r) s[n-1] - |r|² s[n-2] rewritten around v = s[n] - s[n-1]).
// Why: at large sigma the poles crowd z = 1. In direct form a rounding δ of the stored output
// acts like an input error δ/|1-r|² (|1-r|² ~ 1e-4 at sigma 200); with the increment kept as its
// own state, like δ (1-|r|²)/|1-r|², ~80x less there; and every section has unit DC gain
// whatever its rounded coefficients (recursive_sections.h; measured in the tests).
struct YvvSectionCoeffs {
  double pole = 0.0;          // p
  double pole_gain = 1.0;     // 1 - p (computed without cancellation where a closed form exists)
  double pair_gain = 1.0;     // |1 - r|²: the DC denominator of the 2nd-order section
  double pair_radius2 = 0.0;  // |r|²
  // Exact replicate right start: with x_edge = x[L-1] and the causal state after x[L-1]
  //   d = (f[L-1] - x_edge, s[L-1] - x_edge, v[L-1]),
  // the anticausal state before sample L-1 (f'[L], s'[L], v' = s'[L] - s'[L+1]) is
  //   (x_edge, x_edge, 0) + right_start · d.
  // Derived in recursive_coeffs.cpp (yvv_section_coefficients) and checked against a long
  // explicit replicate extension in tests/test_recursive.cpp.
  double right_start[3][3] = {};
};
// 2002: the poles in closed form (the design's own: p = q/(m0+q), r = q/(m1+q ± i m2)), so
// 1-p and |1-r|² carry full relative precision at any sigma. 1995: its b0..b3 are rounded
// independently (b0 - b1 - b2 - b3 = 1.57825 + 1e-5 q², not 1.57825), so its poles are those of
// its own cubic, found numerically.
YvvSectionCoeffs yvv_section_coefficients(double sigma, YvvVariant variant);

// ---------------------------------------------------------------------------------------------
// Deriche 4th order, Deriche 1993 (INRIA RR-1893) constants and recursions:
//   causal      y+[n] = n0 x[n] + n1 x[n-1] + n2 x[n-2] + n3 x[n-3] - d1 y+[n-1] - ... - d4 y+[n-4]
//   anticausal  y-[n] = m1 x[n+1] + ... + m4 x[n+4] - d1 y-[n+1] - ... - d4 y-[n+4]
//   y = y+ + y-
// All n (hence m) normalised by 2 SN/SD - n0 so that the DC gain of y is 1.
struct DericheConstants {  // h(x) = [a0 cos(w0 x/s) + a1 sin(w0 x/s)] e^{-b0 x/s} + [c0 .., c1 ..] e^{-b1 x/s}
  double a0 = 1.680, a1 = 3.735, b0 = 1.783, b1 = 1.723;
  double c0 = -0.6803, c1 = -0.2598, w0 = 0.6318, w1 = 1.997;
};

struct DericheCoeffs {
  double n0 = 1.0, n1 = 0.0, n2 = 0.0, n3 = 0.0;
  double d1 = 0.0, d2 = 0.0, d3 = 0.0, d4 = 0.0;
  double m1 = 0.0, m2 = 0.0, m3 = 0.0, m4 = 0.0;
  // SD = 1 + d1 + d2 + d3 + d4, and SN/SD, SM/SD: the DC gains of y+ and y-, i.e. their steady
  // states per unit edge value. Computed from the section form without cancellation (SD is the
  // product of the two terms' 1 + d1 + d2; it is ~1e-8 at sigma 200).
  double sd = 1.0;
  double causal_gain = 1.0;
  double anticausal_gain = 0.0;
};
// Throws std::invalid_argument for sigma <= 0.
DericheCoeffs deriche_coefficients(double sigma);

// Deriche as a parallel sum of two 2nd-order sections per direction: term i of h(x) sampled at
// k >= 0 is e^{-b k/s}(α cos(w k/s) + β sin(w k/s)), whose z-transform is
//   (n0 + n1 z^-1) / (1 + d1 z^-1 + d2 z^-2),  d1 = -2E cos θ, d2 = E², E = e^{-b/s}, θ = w/s,
// (causal, k >= 0); the anticausal part (k >= 1: the centre is counted once) is
//   (m1 z + m2 z²) / (1 + d1 z + d2 z²),  m1 = n1 - d1 n0, m2 = -d2 n0.
// Summing the two terms gives back n0..n3, d1..d4 of DericheCoeffs. Each section runs in the
// same delta form as above:
//   v[n] = u[n] - den y[n-1] + E² v[n-1],  y[n] = y[n-1] + v[n],   den = 1 + d1 + d2,
//   causal u[n] = nsum x[n] + n1 (x[n-1] - x[n])            (nsum = n0 + n1),
//   anticausal u[n] = msum x[n+1] + m2 (x[n+2] - x[n+1])   (msum = m1 + m2),
// so the DC gains nsum/den and msum/den hold whatever the rounding of the coefficients.
struct DericheSectionCoeffs {
  struct Term {
    double n0, n1, nsum;  // causal numerator and its DC sum n0 + n1
    double m2, msum;      // anticausal numerator (m1 = msum - m2)
    double den;           // 1 + d1 + d2 = (1-E)² + 4E sin²(θ/2)
    double radius2;       // d2 = E²
  };
  Term term[2];
};
DericheSectionCoeffs deriche_section_coefficients(double sigma);

// Young–van Vliet in the same parallel form: the symmetric response of the causal cascade
// followed by the anticausal one, h[k] = Σ_λ c_λ λ^|k| over its poles λ ∈ {p, r, r*}, split into
// a causal part (k >= 0) and an anticausal part (k >= 1), each a 1st-order section for p
// (radius2 = 0, den = 1 - p, n1 = 0) plus a 2nd-order one for the pair, run by the Deriche
// section code. With c_λ = g² α_λ / Π_μ (1 - λ μ) (g = (1-p)|1-r|², α_λ the partial-fraction
// weights of the cascade, Π_{μ≠λ} 1/(1 - μ/λ)). Each part reads x and starts from the steady
// state of its edge value, which is exact for a replicate border: the result equals the cascade
// with StartUp::Exact (Triggs–Sdika) up to rounding (tests/test_recursive.cpp). It lets the two
// directions of a line run at the same time (the exact two-way split, recursive.cu).
DericheSectionCoeffs yvv_parallel_coefficients(double sigma, YvvVariant variant);

}  // namespace cudagaussian
