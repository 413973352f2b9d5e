// SPDX-License-Identifier: LGPL-2.1-or-later
// Edge-aware recursive filtering in the transformed domain, one sample at a time, for any scalar
// type T (float on the GPU, double in the CPU references): the CPU reference
// (reference_edge_aware.cpp) and the CUDA kernels share these steps (docs/algorithms.md,
// "Edge-aware blur").
//
// Distances are in sample units of the plane (0..255 for 8-bit); sigma_r is in the same units.
//   RF (Gastal & Oliveira 2011, "Domain Transform", eqs. 11 and 21):
//     d[n] = 1 + (sigma_s/sigma_r) Σ_c |I_c[n] - I_c[n-1]|,  a = exp(-sqrt(2)/sigma_H),
//     left→right J[n] += a^{d[n]} (J[n-1] - J[n]),  right→left J[n] += a^{d[n+1]} (J[n+1] - J[n]).
//   Gaussian (Gastal & Oliveira 2015, non-uniform recursive filtering):
//     Δ[n] = sqrt(1 + (sigma_s/sigma_r)² Σ_c (I_c[n] - I_c[n-1])²); Deriche's 4th-order Gaussian
//     as two complex first-order terms g[k] = a f[k] + b^Δ g[k-1] + Φ.
#pragma once

#include <cmath>

#include "blur_params.h"   // EdgeFilter
#include "channel_loop.h"  // CG_HOST_DEVICE, CG_FOR_CHANNELS

namespace cudagaussian {

constexpr int kEdgeMaxChannels = kMaxChannels;

// Distance between two neighbouring pixels (pointers to their first channel; channels are
// interleaved) over the channels set in `mask` (bit c: channel c; alpha and padding are left
// out). ratio = sigma_s / sigma_r (0 when sigma_r is infinite: plain recursive filter).
template <typename T>
CG_HOST_DEVICE inline T rf_distance(const T* previous, const T* current, int channels, T ratio,
                                    unsigned mask = ~0u) {
  T sum = T(0);
  CG_FOR_CHANNELS(c, channels) {
    if ((mask >> c) & 1u) sum += std::fabs(current[c] - previous[c]);
  }
  return T(1) + ratio * sum;
}

// The 2015 spacing: the L2 norm of (1, ratio ΔI) instead of the L1 norm of the 2011 paper.
template <typename T>
CG_HOST_DEVICE inline T gaussian_spacing(const T* previous, const T* current, int channels, T ratio,
                                         unsigned mask = ~0u) {
  T sum = T(0);
  CG_FOR_CHANNELS(c, channels) {
    if (!((mask >> c) & 1u)) continue;
    const T diff = current[c] - previous[c];
    sum += diff * diff;
  }
  return std::sqrt(T(1) + ratio * ratio * sum);
}

template <typename T>
CG_HOST_DEVICE inline T edge_spacing(EdgeFilter filter, const T* previous, const T* current,
                                     int channels, T ratio, unsigned mask = ~0u) {
  return filter == EdgeFilter::Rf ? rf_distance(previous, current, channels, ratio, mask)
                                  : gaussian_spacing(previous, current, channels, ratio, mask);
}

// sigma of iteration i (1..N), Domain Transform eq. 14: halves each iteration and the variances
// add up to sigma_s² (Σ_i 3·4^{N-i}/(4^N-1) = 1), so N passes blur like one of sigma_s.
template <typename T>
CG_HOST_DEVICE inline T iteration_sigma(T sigma_s, int iteration, int iterations) {
  return sigma_s * std::sqrt(T(3)) * std::ldexp(T(1), iterations - iteration) /
         std::sqrt(std::ldexp(T(1), 2 * iterations) - T(1));
}

// RF feedback: a two-sided exponential a^|x| with a = exp(-sqrt(2)/sigma) has variance sigma²
// (continuous x; the sampled one is 2a/(1-a)², slightly less).
template <typename T>
CG_HOST_DEVICE inline T rf_feedback(T sigma_h) {
  return std::exp(-std::sqrt(T(2)) / sigma_h);
}

// 1/d for d >= 1: on the GPU the correctly rounded reciprocal without the division's slow path.
template <typename T>
CG_HOST_DEVICE inline T dt_reciprocal(T d) { return T(1) / d; }
#ifdef __CUDA_ARCH__
template <>
__device__ inline float dt_reciprocal(float d) { return __frcp_rn(d); }
#endif

// One RF step in either direction: `previous_out` is the neighbour already filtered in the
// direction of travel, d the distance to it (Domain Transform eq. 21).
template <typename T>
CG_HOST_DEVICE inline T rf_step(T a, T d, T previous_out, T current) {
  return current + std::pow(a, d) * (previous_out - current);
}

// The same with the weight a^d = exp(d ln a) computed once for all channels of a pixel.
template <typename T>
CG_HOST_DEVICE inline T rf_weight(T log_a, T d) {
  return std::exp(log_a * d);
}
#ifdef __CUDA_ARCH__
// MUFU.EX2: a relative error of a few 1e-7 in a weight below 1 moves a result by at most that
// much of a neighbour's difference.
template <>
__device__ inline float rf_weight(float log_a, float d) { return __expf(log_a * d); }
#endif
template <typename T>
CG_HOST_DEVICE inline T rf_apply(T weight, T previous_out, T current) {
  return current + weight * (previous_out - current);
}

// ---------------------------------------------------------------------------------------------
// Gaussian in the transformed domain

// Just what the recursion needs; std::complex is not usable in device code.
template <typename T>
struct DtComplex {
  T re, im;
};
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> operator+(DtComplex<T> x, DtComplex<T> y) { return {x.re + y.re, x.im + y.im}; }
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> operator-(DtComplex<T> x, DtComplex<T> y) { return {x.re - y.re, x.im - y.im}; }
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> operator*(DtComplex<T> x, DtComplex<T> y) {
  return {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
}
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> operator*(DtComplex<T> x, T s) { return {x.re * s, x.im * s}; }
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> operator/(DtComplex<T> x, DtComplex<T> y) {
  const T n = y.re * y.re + y.im * y.im;
  return {(x.re * y.re + x.im * y.im) / n, (x.im * y.re - x.re * y.im) / n};
}

// One complex first-order term of the Gaussian, h_i(x) = a_i b_i^x for x >= 0 (x in samples).
//   decay = λ_i / sigma, so b^Δ = exp(-decay Δ) in polar form (as published: "complex powers via
//   polar form").
//   inv_r0 = 1/r_{i,0} = a b / (b-1)², r1 = r_{i,1} = a / (b-1)  (Gastal & Oliveira 2015).
template <typename T>
struct DtGaussianTerm {
  DtComplex<T> a, b, decay, inv_r0, r1;
  DtComplex<T> steady;  // a / (1 - b): the state of a constant input of 1
};

// Deriche 1993 constants as complex terms: [c0 cos(w x) + c1 sin(w x)] e^{-β x} is
// Re[(c0 + i c1) e^{-(β + i w) x}], so α = c0 + i c1 and λ = β + i w. With Deriche's
// c1 = -0.2598 the second α is -0.6803 - 0.2598i (as the published code has it; the paper prints
// +0.2598i). Normalised so that the discrete kernel sums to 1 (γ = Re Σ α (1+b)/(1-b)).
template <typename T>
CG_HOST_DEVICE inline void dt_gaussian_terms(T sigma, DtGaussianTerm<T> terms[2]) {
  const DtComplex<T> alpha[2] = {{T(1.6800), T(3.7350)}, {T(-0.6803), T(-0.2598)}};
  const DtComplex<T> lambda[2] = {{T(1.783), T(0.6318)}, {T(1.723), T(1.9970)}};
  const DtComplex<T> one = {T(1), T(0)};
  T gamma = T(0);
  for (int i = 0; i < 2; ++i) {
    terms[i].decay = lambda[i] * (T(1) / sigma);
    const T m = std::exp(-terms[i].decay.re);
    terms[i].b = {m * std::cos(terms[i].decay.im), -m * std::sin(terms[i].decay.im)};
    gamma += (alpha[i] * (one + terms[i].b) / (one - terms[i].b)).re;
  }
  for (int i = 0; i < 2; ++i) {
    DtGaussianTerm<T>& t = terms[i];
    t.a = alpha[i] * (T(1) / gamma);
    const DtComplex<T> bm1 = t.b - one;
    t.inv_r0 = t.a * t.b / (bm1 * bm1);
    t.r1 = t.a / bm1;
    t.steady = t.a / (one - t.b);
  }
}

// The terms computed in double and rounded once to T (what the float kernels use).
template <typename T>
inline void dt_gaussian_terms_rounded(double sigma, DtGaussianTerm<T> terms[2]) {
  DtGaussianTerm<double> d[2];
  dt_gaussian_terms(sigma, d);
  auto r = [](DtComplex<double> c) { return DtComplex<T>{static_cast<T>(c.re), static_cast<T>(c.im)}; };
  for (int i = 0; i < 2; ++i)
    terms[i] = {r(d[i].a), r(d[i].b), r(d[i].decay), r(d[i].inv_r0), r(d[i].r1), r(d[i].steady)};
}

// b^Δ in polar form.
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> dt_power(const DtGaussianTerm<T>& t, T delta) {
  const T m = std::exp(-t.decay.re * delta);
  return {m * std::cos(t.decay.im * delta), -m * std::sin(t.decay.im * delta)};
}

// Steady state of a constant input f extended beyond the line: a f / (1 - b). Starts both
// directions (and is Algorithm C's initial condition).
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> dt_gaussian_steady(const DtGaussianTerm<T>& t, T f) {
  return t.steady * f;
}

// One step of one term, either direction, including the current sample (the published form; the
// CPU reference runs it in double):
//   g[k] = a f[k] + b^Δ g[k-1] + Φ,
//   Φ = [(b^Δ-1)/(r0 Δ) - r1 b] f[k] - [(b^Δ-1)/(r0 Δ) - r1 b^Δ] f[k-1].
// Φ is the uniform filter run over the input linearly interpolated between f[k-1] and f[k] at
// unit steps (Σ_{j<Δ} a b^j f(t_k - j), summed in closed form for any real Δ): Φ = 0 at Δ = 1,
// and a constant input gives a f/(1-b) for any Δ. Derived here; it has the published r0, r1.
template <typename T>
CG_HOST_DEVICE inline DtComplex<T> dt_gaussian_step(const DtGaussianTerm<T>& t, T delta, T f_previous,
                                                    T f_current, DtComplex<T> g_previous) {
  const DtComplex<T> bd = dt_power(t, delta);
  const DtComplex<T> ramp = (bd - DtComplex<T>{T(1), T(0)}) * t.inv_r0 * (T(1) / delta);
  const DtComplex<T> phi = (ramp - t.r1 * t.b) * f_current - (ramp - t.r1 * bd) * f_previous;
  return t.a * f_current + bd * g_previous + phi;
}

// The same recursion in float, well conditioned: as a deviation from the steady state,
// g[k] = S f[k] + e[k] with S = a/(1-b), the step is
//   e[k] = R (f[k] - f[k-1]) + b^Δ e[k-1],   R = (b^Δ - 1) / (r0 Δ),
// (the published coefficients of f[k] and f[k-1] are S + R and S b^Δ + R: at large sigma they are
// ~sigma times larger than what they add to, and cancel in float; R and e do not). A line starts
// with e = 0. b^Δ - 1 comes from expm1 and sin(yΔ/2), also without cancellation.
template <typename T>
struct DtStepWeights {
  DtComplex<T> feedback, ramp;  // b^Δ, R
};

// expm1(-x) for x >= 0, and sin, cos of h >= 0: what the weights need. On the CPU the library
// functions. In float on the GPU, the hardware approximations (MUFU) plus short Taylor
// polynomials where those lose digits: the library's expm1f and sincosf, with their slow-path
// argument reduction, took most of a step's instructions and raised the warm kernels' register
// count (84-95), which limited their occupancy. Errors: under 2e-7 relative for expm1 and sin,
// 2e-7 absolute for cos (sin h and cos h only enter b^Δ scaled by e^{-x}, and h <= 0.58 x).
template <typename T>
CG_HOST_DEVICE inline T dt_expm1_negative(T x) { return std::expm1(-x); }
template <typename T>
CG_HOST_DEVICE inline void dt_sincos(T h, T* s, T* c) { *s = std::sin(h), *c = std::cos(h); }
#ifdef __CUDA_ARCH__
template <>
__device__ inline float dt_expm1_negative(float x) {
  // Below 0.1, -x + x²/2 - ... + x^6/720 (truncation x^7/5040: under 1e-9 of the result); above,
  // e^{-x} - 1 loses at most 2 ulp of 1, under 2e-6 of |e^{-x} - 1| >= 0.095.
  const float poly = -x * fmaf(x, fmaf(x, fmaf(x, fmaf(x, fmaf(x, -1.0f / 720, 1.0f / 120), -1.0f / 24), 1.0f / 6),
                                       -0.5f), 1.0f);
  return x < 0.1f ? poly : __expf(-x) - 1.0f;
}
template <>
__device__ inline void dt_sincos(float h, float* s, float* c) {
  // Below 0.25, Taylor to h^7 and h^8 (truncation under 2e-9 of either); above, MUFU.SIN/COS
  // (2^-21.4 absolute within ±π, growing slowly beyond, where e^{-x} < 0.005 scales it).
  const float h2 = h * h;
  const float ps = h * fmaf(h2, fmaf(h2, fmaf(h2, -1.0f / 5040, 1.0f / 120), -1.0f / 6), 1.0f);
  const float pc = fmaf(h2, fmaf(h2, fmaf(h2, -1.0f / 720, 1.0f / 24), -0.5f), 1.0f);
  const bool small = h < 0.25f;
  *s = small ? ps : __sinf(h);
  *c = small ? pc : __cosf(h);
}
#endif

template <typename T>
CG_HOST_DEVICE inline DtStepWeights<T> dt_gaussian_weights(const DtGaussianTerm<T>& t, T delta) {
  const T x = t.decay.re * delta, half = T(0.5) * t.decay.im * delta;
  // e^{-x} = 1 + expm1(-x): one exponential; its absolute error (what b^Δ needs) stays at float
  // rounding even where e^{-x} itself underflows relative to 1.
  const T em1 = dt_expm1_negative(x), e = T(1) + em1;
  T sh, ch;
  dt_sincos(half, &sh, &ch);
  // e^{-x} (cos y - i sin y) - 1 with cos y = 1 - 2 sin²(y/2), sin y = 2 sin(y/2) cos(y/2).
  const DtComplex<T> bm1 = {em1 - T(2) * sh * sh * e, -T(2) * sh * ch * e};
  return {DtComplex<T>{T(1) + bm1.re, bm1.im}, bm1 * t.inv_r0 * dt_reciprocal(delta)};
}

template <typename T>
CG_HOST_DEVICE inline DtComplex<T> dt_gaussian_apply(const DtStepWeights<T>& w, T f_previous, T f_current,
                                                     DtComplex<T> e_previous) {
  return w.ramp * (f_current - f_previous) + w.feedback * e_previous;
}

}  // namespace cudagaussian
