// SPDX-License-Identifier: LGPL-2.1-or-later
// The two recursive Gaussian families behind one interface, for the line kernels (float) and
// the host's carry matrices (double): the section recursions of common/recursive_sections.h
// as a causal and an anticausal step over a state, its start at the line ends, and its packing
// into a carry (the recursive part of a state; the inputs a state also remembers are re-read
// from memory at segment boundaries).
#pragma once

#include "recursive_sections.h"

namespace cudagaussian {
namespace recursive {

template <typename T>
struct YvvOps {
  using Coeffs = YvvSections<T>;
  using State = YvvSectionState<T>;
  static constexpr int kCarry = 3;
  static constexpr bool kAnticausalReadsInput = false;  // it filters the causal result

  CG_HOST_DEVICE static State left_start(const Coeffs&, T x0) { return yvv_sections_steady_state(x0); }
  CG_HOST_DEVICE static State causal_entry(const Coeffs&, const T* c, T) { return {c[0], c[1], c[2]}; }
  CG_HOST_DEVICE static T causal_step(const Coeffs& k, T x, State& st) { return yvv_sections_step(k, x, st); }
  CG_HOST_DEVICE static State right_start(const Coeffs& k, const State& end, T x_edge, StartUp s) {
    return yvv_sections_right_start(k, end, x_edge, s);
  }
  // Warm-up start of a segment that is not the last: as if its input were constant beyond.
  CG_HOST_DEVICE static State anticausal_warm_start(const Coeffs&, T value, T) {
    return yvv_sections_steady_state(value);
  }
  CG_HOST_DEVICE static State anticausal_entry(const Coeffs&, const T* c, T, T) { return {c[0], c[1], c[2]}; }
  CG_HOST_DEVICE static T anticausal_step(const Coeffs& k, T in, State& st) { return yvv_sections_step(k, in, st); }
  CG_HOST_DEVICE static T combine(T, T anticausal) { return anticausal; }
  CG_HOST_DEVICE static void pack(const State& st, T* c) { c[0] = st.f, c[1] = st.s, c[2] = st.v; }
};

template <typename T>
struct DericheOps {
  using Coeffs = DericheSections<T>;
  using State = DericheSectionState<T>;
  static constexpr int kCarry = 4;
  static constexpr bool kAnticausalReadsInput = true;  // both halves read x; the result is their sum

  CG_HOST_DEVICE static State left_start(const Coeffs& k, T x0) { return deriche_causal_start(k, x0); }
  CG_HOST_DEVICE static State causal_entry(const Coeffs&, const T* c, T x_prev) {
    State st;
    st.x1 = st.x2 = x_prev;
    st.y[0] = c[0], st.v[0] = c[1], st.y[1] = c[2], st.v[1] = c[3];
    return st;
  }
  CG_HOST_DEVICE static T causal_step(const Coeffs& k, T x, State& st) { return deriche_causal_step(k, x, st); }
  CG_HOST_DEVICE static State right_start(const Coeffs& k, const State&, T x_edge, StartUp) {
    return deriche_anticausal_start(k, x_edge);
  }
  CG_HOST_DEVICE static State anticausal_warm_start(const Coeffs& k, T, T x) {
    return deriche_anticausal_start(k, x);
  }
  CG_HOST_DEVICE static State anticausal_entry(const Coeffs&, const T* c, T x_next1, T x_next2) {
    State st;
    st.x1 = x_next1, st.x2 = x_next2;
    st.y[0] = c[0], st.v[0] = c[1], st.y[1] = c[2], st.v[1] = c[3];
    return st;
  }
  CG_HOST_DEVICE static T anticausal_step(const Coeffs& k, T x, State& st) {
    return deriche_anticausal_step(k, x, st);
  }
  CG_HOST_DEVICE static T combine(T causal, T anticausal) { return causal + anticausal; }
  CG_HOST_DEVICE static void pack(const State& st, T* c) {
    c[0] = st.y[0], c[1] = st.v[0], c[2] = st.y[1], c[3] = st.v[1];
  }
};

}  // namespace recursive
}  // namespace cudagaussian
