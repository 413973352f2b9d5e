// SPDX-License-Identifier: LGPL-2.1-or-later
// The recursive Gaussians as low-order sections, one sample at a time, for any scalar type T
// (float on the GPU, double in the CPU references). The CUDA kernels and the CPU tests run these
// same functions, so the float32 accuracy measured on the CPU is the GPU's.
//
// Why this form: at large sigma the poles crowd z = 1 and a 3rd/4th-order recursion in direct
// form falls apart in float32 (docs/algorithms.md, "Float32 and the direct form"). Two
// changes fix it:
//   1. sections: each real pole or complex pair gets its own 1st/2nd-order section, whose
//      coefficients are computed in double from the poles (recursive_coeffs.h), not from the
//      expanded polynomial;
//   2. delta form: a section keeps its output and its increment as state,
//        v[n] = gain (input - y[n-1]) + |r|² v[n-1],   y[n] = y[n-1] + v[n],
//      which is the same recursion as y[n] = gain input + 2Re(r) y[n-1] - |r|² y[n-2]. A
//      rounding δ of the stored output acts in direct form like an input error δ/|1-r|²
//      (|1-r|² ~ 1e-4 at sigma 200); here, with the increment stored apart, like
//      δ (1-|r|²)/|1-r|² (~sigma/1.6 instead of ~sigma²/3.8: 130 vs 1e4 at sigma 200). And a
//      section's DC gain is exactly 1 (YvV) or exactly its stored gain (Deriche) however the
//      coefficients round.
// Measured in tests/test_recursive.cpp on a random 8-bit line of 1920: float32 stays within
// 3e-4 (0..255 units) of the double section form from sigma 0.5 to 1000; the double section
// form stays within 1e-10 of long-double truths to sigma 200 (the double *direct* form does not:
// 1e-6 at sigma 200, 2e-3 at 1000).
//
//   Young–van Vliet: cascade, per direction: x -> [1st order, real pole p] -> [2nd order, complex
//     pair] -> out; causal over the line, then anticausal over the causal output.
//   Deriche: parallel, per direction: two 2nd-order sections (the two terms of h(x)) read x; the
//     output is the sum of the causal and anticausal sections.
// Coefficients come from recursive_coeffs.h (double); make_*_sections<T> rounds them.
#pragma once

#include "border.h"  // CG_HOST_DEVICE
#include "recursive_coeffs.h"

namespace cudagaussian {

// ---------------------------------------------------------------------------------------------
// Young–van Vliet cascade

template <typename T>
struct YvvSections {
  T pole_gain;                 // 1 - p
  T pair_gain, pair_radius2;   // |1 - r|², |r|²
  T right_start[3][3];         // YvvSectionCoeffs::right_start
};

// The recursion state after a sample, in the direction of travel: the 1st-order section's output
// f, the 2nd-order section's output s and its increment v = s[n] - s[n-1].
template <typename T>
struct YvvSectionState {
  T f, s, v;
};

// Host only: rounds the double coefficients. Nothing needs recomputing: in delta form each
// section's DC gain is exactly 1 for any value of its coefficients.
template <typename T>
inline YvvSections<T> make_yvv_sections(const YvvSectionCoeffs& c) {
  YvvSections<T> k;
  k.pole_gain = static_cast<T>(c.pole_gain);
  k.pair_gain = static_cast<T>(c.pair_gain);
  k.pair_radius2 = static_cast<T>(c.pair_radius2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) k.right_start[i][j] = static_cast<T>(c.right_start[i][j]);
  return k;
}

// One output sample; the same step serves both directions (the filter is symmetric).
template <typename T>
CG_HOST_DEVICE inline T yvv_sections_step(const YvvSections<T>& k, T x, YvvSectionState<T>& st) {
  st.f += k.pole_gain * (x - st.f);
  st.v = k.pair_gain * (st.f - st.s) + k.pair_radius2 * st.v;
  st.s += st.v;
  return st.s;
}

// Steady state of a constant input: the exact left start, x[-k] = x[0].
template <typename T>
CG_HOST_DEVICE inline YvvSectionState<T> yvv_sections_steady_state(T value) {
  return {value, value, T(0)};
}

// The anticausal start at the right end, from the causal state after x[L-1] and x_edge = x[L-1].
// Returns the state "before" sample L-1 in the anticausal direction (f'[L], s'[L],
// v' = s'[L] - s'[L+1]): the anticausal pass then runs yvv_sections_step from n = L-1 down to 0.
//   Exact:  the infinite replicate extension (YvvSectionCoeffs::right_start).
//   Simple: Lee, Ko and Choe's rule, the steady state of the last causal output s[L-1] (in
//           direct form, y[L..L+2] = w[L-1]).
template <typename T>
CG_HOST_DEVICE inline YvvSectionState<T> yvv_sections_right_start(const YvvSections<T>& k,
                                                                  const YvvSectionState<T>& causal_end,
                                                                  T x_edge, StartUp start) {
  if (start == StartUp::Simple) return yvv_sections_steady_state(causal_end.s);
  const T d0 = causal_end.f - x_edge, d1 = causal_end.s - x_edge, d2 = causal_end.v;
  YvvSectionState<T> st;
  st.f = x_edge + (k.right_start[0][0] * d0 + k.right_start[0][1] * d1 + k.right_start[0][2] * d2);
  st.s = x_edge + (k.right_start[1][0] * d0 + k.right_start[1][1] * d1 + k.right_start[1][2] * d2);
  st.v = k.right_start[2][0] * d0 + k.right_start[2][1] * d1 + k.right_start[2][2] * d2;
  return st;
}

// A whole line (n samples, strides in elements), sequentially: causal then anticausal.
// `out` may alias `in`.
template <typename T>
CG_HOST_DEVICE inline void yvv_sections_filter_line(const YvvSections<T>& k, const T* in,
                                                    int in_stride, T* out, int out_stride, int n,
                                                    StartUp start) {
  if (n <= 0) return;
  const T x_edge = in[(n - 1) * in_stride];  // read before an aliased `out` overwrites it
  YvvSectionState<T> st = yvv_sections_steady_state(in[0]);
  for (int i = 0; i < n; ++i) out[i * out_stride] = yvv_sections_step(k, in[i * in_stride], st);
  st = yvv_sections_right_start(k, st, x_edge, start);
  for (int i = n - 1; i >= 0; --i) out[i * out_stride] = yvv_sections_step(k, out[i * out_stride], st);
}

// ---------------------------------------------------------------------------------------------
// Deriche parallel sections

template <typename T>
struct DericheSections {
  struct Term {
    T nsum, n1;    // causal input:      u = nsum x[n] + n1 (x[n-1] - x[n])
    T msum, m2;    // anticausal input:  u = msum x[n+1] + m2 (x[n+2] - x[n+1])
    T den, radius2;
    T causal_gain, anticausal_gain;  // nsum/den, msum/den of the rounded values: steady states
  };
  Term term[2];
};

// In the direction of travel: the previous two inputs, each term's previous output and increment.
template <typename T>
struct DericheSectionState {
  T x1, x2;
  T y[2], v[2];
};

// Host only. The steady-state gains come from the rounded coefficients, so a constant line is
// the exact fixed point of the rounded recursion.
template <typename T>
inline DericheSections<T> make_deriche_sections(const DericheSectionCoeffs& c) {
  DericheSections<T> k;
  for (int i = 0; i < 2; ++i) {
    const DericheSectionCoeffs::Term& e = c.term[i];
    typename DericheSections<T>::Term& t = k.term[i];
    t.nsum = static_cast<T>(e.nsum);
    t.n1 = static_cast<T>(e.n1);
    t.msum = static_cast<T>(e.msum);
    t.m2 = static_cast<T>(e.m2);
    t.den = static_cast<T>(e.den);
    t.radius2 = static_cast<T>(e.radius2);
    t.causal_gain = static_cast<T>(static_cast<double>(t.nsum) / static_cast<double>(t.den));
    t.anticausal_gain = static_cast<T>(static_cast<double>(t.msum) / static_cast<double>(t.den));
  }
  return k;
}

// One second-order section's step from its input term u (its y and increment v).
template <typename T>
CG_HOST_DEVICE inline T section_update(T u, T den, T radius2, T& y, T& v) {
  v = u - den * y + radius2 * v;
  y += v;
  return y;
}

template <typename T>
CG_HOST_DEVICE inline T deriche_section_update(const typename DericheSections<T>::Term& t, T u, T& y, T& v) {
  return section_update(u, t.den, t.radius2, y, v);
}

// y+[n] for input x = x[n]; the state holds x[n-1] and each term's y+[n-1] and increment.
template <typename T>
CG_HOST_DEVICE inline T deriche_causal_step(const DericheSections<T>& k, T x,
                                            DericheSectionState<T>& st) {
  T sum = T(0);
  for (int i = 0; i < 2; ++i) {
    const typename DericheSections<T>::Term& t = k.term[i];
    sum += deriche_section_update<T>(t, t.nsum * x + t.n1 * (st.x1 - x), st.y[i], st.v[i]);
  }
  st.x2 = st.x1;
  st.x1 = x;
  return sum;
}

// y-[n], reading x = x[n] only to shift it into the state: y-[n] uses x[n+1], x[n+2] (the centre
// sample belongs to the causal part) and each term's y-[n+1] and increment.
template <typename T>
CG_HOST_DEVICE inline T deriche_anticausal_step(const DericheSections<T>& k, T x,
                                                DericheSectionState<T>& st) {
  T sum = T(0);
  for (int i = 0; i < 2; ++i) {
    const typename DericheSections<T>::Term& t = k.term[i];
    sum += deriche_section_update<T>(t, t.msum * st.x1 + t.m2 * (st.x2 - st.x1), st.y[i], st.v[i]);
  }
  st.x2 = st.x1;
  st.x1 = x;
  return sum;
}

// Replicate start-up (docs/algorithms.md, "Replicate start-up"): each pass reads x, so the
// steady state of the edge value is exact on both sides — and the simple rule of Lee, Ko and
// Choe gives the same, so StartUp has no effect on Deriche.
template <typename T>
CG_HOST_DEVICE inline DericheSectionState<T> deriche_causal_start(const DericheSections<T>& k, T x_first) {
  DericheSectionState<T> st;
  st.x1 = st.x2 = x_first;
  for (int i = 0; i < 2; ++i) {
    st.y[i] = x_first * k.term[i].causal_gain;
    st.v[i] = T(0);
  }
  return st;
}

template <typename T>
CG_HOST_DEVICE inline DericheSectionState<T> deriche_anticausal_start(const DericheSections<T>& k, T x_last) {
  DericheSectionState<T> st;
  st.x1 = st.x2 = x_last;
  for (int i = 0; i < 2; ++i) {
    st.y[i] = x_last * k.term[i].anticausal_gain;
    st.v[i] = T(0);
  }
  return st;
}

// A whole line, sequentially. `out` must not alias `in`: the anticausal pass reads x again.
template <typename T>
CG_HOST_DEVICE inline void deriche_sections_filter_line(const DericheSections<T>& k, const T* in,
                                                        int in_stride, T* out, int out_stride, int n) {
  if (n <= 0) return;
  DericheSectionState<T> st = deriche_causal_start(k, in[0]);
  for (int i = 0; i < n; ++i) out[i * out_stride] = deriche_causal_step(k, in[i * in_stride], st);
  st = deriche_anticausal_start(k, in[(n - 1) * in_stride]);
  for (int i = n - 1; i >= 0; --i)
    out[i * out_stride] += deriche_anticausal_step(k, in[i * in_stride], st);
}

}  // namespace cudagaussian
