// SPDX-License-Identifier: LGPL-2.1-or-later
// The edge-aware blur one line segment at a time, for any scalar type T (float in the CUDA
// kernels and in the CPU tests that replay them, double where exactness matters). A thread of
// kernels/edge_aware.cu runs exactly these functions, so the CPU tests check the kernels' logic
// (warm-up bounds, starts, the order of the passes) line by line. See docs/algorithms.md,
// "Edge-aware blur".
//
// Pixel planes are interleaved floats (pitch in elements). Spacing planes hold the transformed
// distances, computed once per frame from the guide:
//   h[y * w + x]  between (x-1, y) and (x, y)  (h[y * w] unused),
//   v[y * w + x]  between (x, y-1) and (x, y)  (v[x] unused).
//
// Algorithm A (Ferreira et al.): a whole line per thread, started exactly from a replicate
// extension — the sequential reference. Algorithm C: each line cut into segments; a segment
// starts from the steady state of a constant signal L samples before it, with L the fewest
// samples whose spacings add up to kappa x sigma (edges shorten the warm-up: the filter forgets
// faster across them), and its last segment/first segment reach the line ends exactly.
// Block-parallel (ours, exact): short segments joined through their linear maps (below).
#pragma once

#include <cstddef>
#include <type_traits>

#include "domain_transform.h"

namespace cudagaussian {

// One line of a pixel plane and of its spacing plane.
template <typename T>
struct EdgeLine {
  size_t first;            // element offset of pixel 0
  ptrdiff_t step;          // elements between consecutive pixels
  const T* spacing;        // spacing of pixel 0 of the line
  ptrdiff_t spacing_step;  // elements between consecutive spacings
  int length;              // pixels
  int channels;

  CG_HOST_DEVICE size_t at(int k) const { return first + static_cast<ptrdiff_t>(k) * step; }
  CG_HOST_DEVICE T space(int k) const { return spacing[static_cast<ptrdiff_t>(k) * spacing_step]; }
};

// Row `index` (horizontal) or column `index` of a width x height plane with `pitch` elements per
// row; `spacing` is the h (horizontal) or v plane.
template <typename T>
CG_HOST_DEVICE inline EdgeLine<T> edge_line(bool horizontal, int index, int width, int height,
                                            int channels, size_t pitch, const T* spacing) {
  if (horizontal)
    return {static_cast<size_t>(index) * pitch, channels, spacing + static_cast<size_t>(index) * width, 1,
            width, channels};
  return {static_cast<size_t>(index) * channels, static_cast<ptrdiff_t>(pitch), spacing + index, width,
          height, channels};
}

// Segment `seg` of `segments` equal pieces of a line of n pixels: [s0, s1), empty past the end.
CG_HOST_DEVICE inline void edge_segment_bounds(int n, int segments, int seg, int& s0, int& s1) {
  const int piece = (n + segments - 1) / segments;
  s0 = seg * piece;
  s1 = s0 + piece < n ? s0 + piece : n;
}

#ifdef __CUDA_ARCH__
#define CG_UNROLL _Pragma("unroll")
#else
#define CG_UNROLL
#endif

// The warm-up bounds read kSearchBatch spacings at a time: loaded one by one, each would wait a
// whole memory latency, since whether to read the next depends on the sum so far.
constexpr int kSearchBatch = 8;

// Where a causal warm-up for a segment starting at s0 begins: the largest w <= s0 with
// Σ_{w<j<=s0} spacing[j] >= extent, or 0 (the line start, exact).
template <typename T>
CG_HOST_DEVICE inline int edge_warmup_begin(const EdgeLine<T>& l, int s0, T extent) {
  int w = s0;
  T sum = T(0);
  while (w > 0 && sum < extent) {
    T space[kSearchBatch];
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) space[j] = w - j > 0 ? l.space(w - j) : T(0);
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) if (w > 0 && sum < extent) sum += space[j], --w;
  }
  return w;
}

// Where an anticausal warm-up for a segment ending at `last` begins: the smallest e >= last with
// Σ_{last<j<=e} spacing[j] >= extent, or n-1 (the line end, exact).
template <typename T>
CG_HOST_DEVICE inline int edge_warmup_end(const EdgeLine<T>& l, int last, T extent) {
  int e = last;
  T sum = T(0);
  while (e < l.length - 1 && sum < extent) {
    T space[kSearchBatch];
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) space[j] = e + 1 + j < l.length ? l.space(e + 1 + j) : T(0);
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) if (e < l.length - 1 && sum < extent) sum += space[j], ++e;
  }
  return e;
}

// ---- one direction over a segment and its warm-up (Algorithms A and C) ------------------------
//
// Direction 0 (causal, left to right) starts edge_warmup_begin() samples before the segment,
// direction 1 (anticausal, right to left) edge_warmup_end() after it, each from the steady state
// of a constant signal (exact at the line's ends), and stores only the segment's samples.
template <typename T>
CG_HOST_DEVICE inline int edge_warm_start(const EdgeLine<T>& l, int direction, int s0, int s1, T extent) {
  return direction == 0 ? edge_warmup_begin(l, s0, extent) : edge_warmup_end(l, s1 - 1, extent);
}

// A thread walking a column would wait a whole memory latency per sample if each sample were
// loaded where it is used: prefetched_walk issues the loads of K samples together, then runs
// their steps (in order). On the CPU it is the plain loop. K is what the registers allow: 8
// for the RF; 4 for the Gaussian, whose state is four times larger (at 8 its register count
// limited the threads resident per SM and it ran slower than without prefetching).
constexpr int kRfPrefetch = 8;
constexpr int kGaussianPrefetch = 4;

// Whole batches of K come first, with no per-sample test (straight-line code: the recursive
// Gaussians' kernels ran 25 % more instructions with such a test in every step), then the last,
// partial batch.
template <int K, class Load, class Step>
CG_HOST_DEVICE inline void prefetched_walk(int count, Load load, Step step) {
  int base = 0;
  for (; base + K <= count; base += K) {
    decltype(load(0)) buffer[K];
    CG_UNROLL for (int j = 0; j < K; ++j) buffer[j] = load(base + j);
    CG_UNROLL for (int j = 0; j < K; ++j) step(base + j, buffer[j]);
  }
  if (base < count) {
    decltype(load(0)) buffer[K];
    CG_UNROLL for (int j = 0; j < K; ++j) if (base + j < count) buffer[j] = load(base + j);
    CG_UNROLL for (int j = 0; j < K; ++j) if (base + j < count) step(base + j, buffer[j]);
  }
}

// What one step of a warm walk reads: the pixel, the spacing to the sample filtered before it
// (unused at the walk's first sample) and, for the Gaussian's anticausal half, the causal result
// stored there (only inside the segment).
template <typename T>
struct EdgeSample {
  T f[kEdgeMaxChannels];
  T space;
  T causal[kEdgeMaxChannels];
};

// A pixel's channels at element p. Four float channels on the GPU move as one 16-byte access
// (p is a multiple of 4 and the planes are allocated aligned): a warp's scalar accesses 16 bytes
// apart cost the L1 four times the requests.
template <typename T>
CG_HOST_DEVICE inline void edge_load_pixel(const T* plane, size_t p, int channels, T (&v)[kEdgeMaxChannels]) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, float>) {
    if (channels == 4) {
      const float4 q = *reinterpret_cast<const float4*>(plane + p);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      return;
    }
  }
#endif
  CG_FOR_CHANNELS(c, channels) { v[c] = plane[p + c]; }
}
template <typename T>
CG_HOST_DEVICE inline void edge_store_pixel(T* plane, size_t p, int channels, const T (&v)[kEdgeMaxChannels]) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, float>) {
    if (channels == 4) {
      *reinterpret_cast<float4*>(plane + p) = make_float4(v[0], v[1], v[2], v[3]);
      return;
    }
  }
#endif
  CG_FOR_CHANNELS(c, channels) { plane[p + c] = v[c]; }
}

template <typename T>
CG_HOST_DEVICE inline EdgeSample<T> edge_load_sample(const EdgeLine<T>& l, bool causal, const T* src,
                                                     const T* causal_result, int k, bool first, bool in_segment) {
  EdgeSample<T> s;
  const size_t p = l.at(k);
  s.space = first ? T(0) : l.space(causal ? k : k + 1);
  edge_load_pixel(src, p, l.channels, s.f);
  if (causal_result && in_segment) {
    edge_load_pixel(causal_result, p, l.channels, s.causal);
  } else {
    CG_FOR_CHANNELS(c, l.channels) { s.causal[c] = T(0); }
  }
  return s;
}

// A warm-up over pixels all equal to the one next to the segment changes nothing: started from
// the steady state of a constant signal, the Gaussian stays in it, exactly (its deviations stay
// 0). Where `src` is constant from `start` to that pixel, the walk may begin there instead: flat
// regions (a test pattern, a solid background) would otherwise run every warm-up to its full
// kappa x sigma. Compares kSearchBatch pixels at a time and stops at the first that differs.
// GCC's -Wmaybe-uninitialized misreads the compares below (they test the loads' own guard); the
// host compilers of plain C++ files are told so, the CUDA compile is left as it is.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <typename T>
CG_HOST_DEVICE inline int edge_skip_constant_warmup(const EdgeLine<T>& l, const T* src, int direction, int start,
                                                    int s0, int s1) {
  const int next = direction == 0 ? s0 - 1 : s1;  // the warm-up's pixel next to the segment
  const int step = direction == 0 ? -1 : 1;
  const int beyond = (start - next) * step;  // warm-up pixels before it in the walk
  if (beyond <= 0) return start;
  T reference[kEdgeMaxChannels];
  edge_load_pixel(src, l.at(next), l.channels, reference);
  for (int base = 1; base <= beyond; base += kSearchBatch) {
    T pixel[kSearchBatch][kEdgeMaxChannels];
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) if (base + j <= beyond) {
      edge_load_pixel(src, l.at(next + step * (base + j)), l.channels, pixel[j]);
    }
    bool same = true;
    CG_UNROLL for (int j = 0; j < kSearchBatch; ++j) if (base + j <= beyond) {
      CG_FOR_CHANNELS(c, l.channels) { same = same && pixel[j][c] == reference[c]; }
    }
    if (!same) return start;
  }
  return next;
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

// RF: direction 0 filters `in` into `mid`, direction 1 filters `mid` into `out`. Its steps are
// cheap enough that edge_skip_constant_warmup gains nothing here.
template <typename T>
CG_HOST_DEVICE inline void edge_rf_warm(const EdgeLine<T>& l, int direction, const T* in, T* mid, T* out,
                                        T log_a, int s0, int s1, T extent) {
  const bool causal = direction == 0;
  const T* src = causal ? in : mid;
  T* dst = causal ? mid : out;
  const int start = edge_warm_start(l, direction, s0, s1, extent);
  const int count = causal ? s1 - start : start - s0 + 1;
  T j[kEdgeMaxChannels] = {};
  auto index = [&](int i) { return causal ? start + i : start - i; };
  auto load = [&](int i) {
    const int k = index(i);
    return edge_load_sample<T>(l, causal, src, nullptr, k, i == 0, k >= s0 && k < s1);
  };
  prefetched_walk<kRfPrefetch>(count, load, [&](int i, const EdgeSample<T>& s) {
    const int k = index(i);
    const size_t p = l.at(k);
    const T weight = i == 0 ? T(0) : rf_weight(log_a, s.space);  // replicate start: J = f
    CG_FOR_CHANNELS(c, l.channels) { j[c] = rf_apply(weight, j[c], s.f[c]); }
    if (k >= s0 && k < s1) edge_store_pixel(dst, p, l.channels, j);
  });
}

// Gaussian: direction 0 writes mid = Re Σ_i causal_i; direction 1 writes
// out = mid + Re Σ_i (anticausal_i - a_i f) (both halves include the current sample once).
// Each term runs as a deviation e from its steady state S f (dt_gaussian_apply), e = 0 at the start.
// Direction 1's outputs go through store_out(k, element offset of k, result[channels]).
// skip_constant_warmup: edge_skip_constant_warmup (off only in the test that shows it exact).
template <typename T, class StoreOut>
CG_HOST_DEVICE inline void edge_gaussian_walk(const EdgeLine<T>& l, int direction, const T* in, T* mid,
                                              StoreOut store_out, const DtGaussianTerm<T> terms[2], int s0, int s1,
                                              T extent, bool skip_constant_warmup = true) {
  const bool causal = direction == 0;
  int start = edge_warm_start(l, direction, s0, s1, extent);
  if (skip_constant_warmup) start = edge_skip_constant_warmup(l, in, direction, start, s0, s1);
  const int count = causal ? s1 - start : start - s0 + 1;
  const T steady = terms[0].steady.re + terms[1].steady.re;
  const T a_sum = terms[0].a.re + terms[1].a.re;
  DtComplex<T> e[2][kEdgeMaxChannels] = {};
  T f_before[kEdgeMaxChannels] = {};  // the sample filtered just before
  auto index = [&](int i) { return causal ? start + i : start - i; };
  auto load = [&](int i) {
    const int k = index(i);
    return edge_load_sample<T>(l, causal, in, causal ? nullptr : mid, k, i == 0, k >= s0 && k < s1);
  };
  prefetched_walk<kGaussianPrefetch>(count, load, [&](int i, const EdgeSample<T>& s) {
    const int k = index(i);
    const size_t p = l.at(k);
    DtStepWeights<T> w[2];
    if (i > 0)
      for (int t = 0; t < 2; ++t) w[t] = dt_gaussian_weights(terms[t], s.space);
    T result[kEdgeMaxChannels] = {};
    CG_FOR_CHANNELS(c, l.channels) {
      const T f = s.f[c];
      if (i > 0)
        for (int t = 0; t < 2; ++t) e[t][c] = dt_gaussian_apply(w[t], f_before[c], f, e[t][c]);
      f_before[c] = f;
      const T sum = steady * f + e[0][c].re + e[1][c].re;
      result[c] = causal ? sum : s.causal[c] + sum - a_sum * f;
    }
    if (k >= s0 && k < s1) {
      if (causal) edge_store_pixel(mid, p, l.channels, result);
      else store_out(k, p, result);
    }
  });
}

// A store_out for edge_gaussian_walk that writes into `out` where the line puts the sample.
template <typename T>
CG_HOST_DEVICE inline auto edge_store_into(T* out, int channels) {
  return [out, channels](int, size_t p, const T(&result)[kEdgeMaxChannels]) {
    edge_store_pixel(out, p, channels, result);
  };
}

template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_warm(const EdgeLine<T>& l, int direction, const T* in, T* mid, T* out,
                                              const DtGaussianTerm<T> terms[2], int s0, int s1, T extent) {
  edge_gaussian_walk(l, direction, in, mid, edge_store_into(out, l.channels), terms, s0, s1, extent);
}

// Gaussian, both halves of a segment in one thread: the causal half goes to `mid`, and the
// anticausal half adds to it, the results handed to store_out (as for edge_gaussian_walk). The
// anticausal warm-up reads only the input, never another segment's causal half, so no thread
// waits for another: one launch per pass (the kernels' schedule).
template <typename T, class StoreOut>
CG_HOST_DEVICE inline void edge_gaussian_warm_both(const EdgeLine<T>& l, const T* in, T* mid, StoreOut store_out,
                                                   const DtGaussianTerm<T> terms[2], int s0, int s1, T extent) {
  edge_gaussian_walk(l, 0, in, mid, store_out, terms, s0, s1, extent);
  edge_gaussian_walk(l, 1, in, mid, store_out, terms, s0, s1, extent);
}

// The same in place: the causal half kept in `out` until the anticausal half adds to it.
template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_warm_both(const EdgeLine<T>& l, const T* in, T* out,
                                                   const DtGaussianTerm<T> terms[2], int s0, int s1, T extent) {
  edge_gaussian_warm_both(l, in, out, edge_store_into(out, l.channels), terms, s0, s1, extent);
}

// ---- block-parallel (exact): each segment's linear map, composed along the line by a scan ----
//
// Each recursion is first order per term (the RF, and each complex term of the Gaussian):
// y[k] = W[k] y[k-1] + u[k]. Over a segment it maps the state entering the segment to the state
// leaving it linearly, exit = P entry + F, with P = Π W[k] (shared by the channels) and F the
// exit reached from a zero entry. A line's first sample has W = 0 (its start depends on nothing
// before it), so a sequential scan over a line's segments turns the (P, F) into every segment's
// true entry state, and each segment is then filtered from it: the result is Algorithm A's up to
// float rounding, with no warm-up, at any sigma (Nehab et al. 2011, in 1D).
//
// A segment's record holds one map per direction and term, each [P, F[0..channels-1]], complex
// (the RF's are real: im = 0): maps = 2 directions x terms (2 for the Gaussian, 1 for the RF),
// map m = direction * terms + term, 2 + 2 x channels floats each. The scan replaces F by the
// entry state.

CG_HOST_DEVICE inline int edge_map_floats(int channels) { return 2 + 2 * channels; }
// Floats per segment record: 2 directions x terms maps.
CG_HOST_DEVICE inline int edge_record_floats(EdgeFilter filter, int channels) {
  return 2 * (filter == EdgeFilter::Gaussian ? 2 : 1) * edge_map_floats(channels);
}

template <typename T>
CG_HOST_DEVICE inline void edge_store_map(T* map, DtComplex<T> p, const DtComplex<T>* f, int channels) {
  map[0] = p.re, map[1] = p.im;
  CG_FOR_CHANNELS(c, channels) { map[2 + 2 * c] = f[c].re, map[3 + 2 * c] = f[c].im; }
}

// A real map (the RF's) stored in the complex layout.
template <typename T>
CG_HOST_DEVICE inline void edge_store_real_map(T* map, T p, const T* f, int channels) {
  DtComplex<T> fc[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, channels) { fc[c] = {f[c], T(0)}; }
  edge_store_map(map, DtComplex<T>{p, T(0)}, fc, channels);
}

template <typename T>
CG_HOST_DEVICE inline void edge_load_entry(const T* map, DtComplex<T>* entry, int channels) {
  CG_FOR_CHANNELS(c, channels) { entry[c] = {map[2 + 2 * c], map[3 + 2 * c]}; }
}

// The scan of one map over a line's segments: `first` is the map in segment 0, consecutive
// segments' maps are `stride` floats apart; forward for the causal direction, backward for the
// anticausal one. Replaces every F by the segment's entry state.
template <typename T>
CG_HOST_DEVICE inline void edge_scan_map(T* first, ptrdiff_t stride, int segments, bool backward, int channels) {
  DtComplex<T> state[kEdgeMaxChannels] = {};
  for (int i = 0; i < segments; ++i) {
    T* map = first + static_cast<ptrdiff_t>(backward ? segments - 1 - i : i) * stride;
    const DtComplex<T> p = {map[0], map[1]};
    CG_FOR_CHANNELS(c, channels) {
      const DtComplex<T> f = {map[2 + 2 * c], map[3 + 2 * c]};
      map[2 + 2 * c] = state[c].re, map[3 + 2 * c] = state[c].im;
      state[c] = p * state[c] + f;
    }
  }
}

// RF, causal half: the segment's map (record map 0) from the input.
template <typename T>
CG_HOST_DEVICE inline void edge_rf_bp_causal_carry(const EdgeLine<T>& l, const T* in, T log_a, int s0, int s1,
                                                   T* record) {
  T p = T(1), f[kEdgeMaxChannels] = {};
  for (int k = s0; k < s1; ++k) {
    const T w = k == 0 ? T(0) : rf_weight(log_a, l.space(k));
    CG_FOR_CHANNELS(c, l.channels) { f[c] = rf_apply(w, f[c], in[l.at(k) + c]); }
    p *= w;
  }
  edge_store_real_map(record, p, f, l.channels);
}

// RF: the causal half of the segment from its entry state (map 0) into `mid`, then the
// anticausal map of the segment (map 1) from those values.
template <typename T>
CG_HOST_DEVICE inline void edge_rf_bp_causal_apply(const EdgeLine<T>& l, const T* in, T* mid, T log_a, int s0,
                                                   int s1, T* record) {
  const int mf = edge_map_floats(l.channels);
  DtComplex<T> entry[kEdgeMaxChannels] = {};
  edge_load_entry(record, entry, l.channels);
  T j[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) { j[c] = entry[c].re; }
  for (int k = s0; k < s1; ++k) {
    const T w = k == 0 ? T(0) : rf_weight(log_a, l.space(k));
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) {
      j[c] = rf_apply(w, j[c], in[p + c]);
      mid[p + c] = j[c];
    }
  }
  T p = T(1), f[kEdgeMaxChannels] = {};
  for (int k = s1 - 1; k >= s0; --k) {
    const T w = k == l.length - 1 ? T(0) : rf_weight(log_a, l.space(k + 1));
    CG_FOR_CHANNELS(c, l.channels) { f[c] = rf_apply(w, f[c], mid[l.at(k) + c]); }
    p *= w;
  }
  edge_store_real_map(record + mf, p, f, l.channels);
}

// RF, anticausal half: the segment from its entry state (map 1) into `out`.
template <typename T>
CG_HOST_DEVICE inline void edge_rf_bp_anticausal_apply(const EdgeLine<T>& l, const T* mid, T* out, T log_a,
                                                       int s0, int s1, const T* record) {
  DtComplex<T> entry[kEdgeMaxChannels] = {};
  edge_load_entry(record + edge_map_floats(l.channels), entry, l.channels);
  T j[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) { j[c] = entry[c].re; }
  for (int k = s1 - 1; k >= s0; --k) {
    const T w = k == l.length - 1 ? T(0) : rf_weight(log_a, l.space(k + 1));
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) {
      j[c] = rf_apply(w, j[c], mid[p + c]);
      out[p + c] = j[c];
    }
  }
}

// Gaussian: the segment's maps in both directions for both terms (maps 0, 1 causal; 2, 3
// anticausal), from the input alone, in the deviation form of dt_gaussian_apply (a line's first
// sample in each direction has e = 0: W = 0, u = 0).
template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_bp_carry(const EdgeLine<T>& l, const T* in,
                                                  const DtGaussianTerm<T> terms[2], int s0, int s1, T* record) {
  const int mf = edge_map_floats(l.channels), n = l.length;
  for (int direction = 0; direction < 2; ++direction) {
    DtComplex<T> p[2] = {{T(1), T(0)}, {T(1), T(0)}};
    DtComplex<T> f[2][kEdgeMaxChannels] = {};
    for (int i = 0; i < s1 - s0; ++i) {
      const int k = direction == 0 ? s0 + i : s1 - 1 - i;
      if (k == (direction == 0 ? 0 : n - 1)) {  // where the line starts in this direction
        p[0] = p[1] = {T(0), T(0)};
        continue;  // F is still zero there: e = 0
      }
      const int before = direction == 0 ? k - 1 : k + 1;  // the sample filtered just before k
      const T delta = l.space(direction == 0 ? k : k + 1);
      const size_t at = l.at(k), bt = l.at(before);
      for (int t = 0; t < 2; ++t) {
        const DtStepWeights<T> w = dt_gaussian_weights(terms[t], delta);
        CG_FOR_CHANNELS(c, l.channels) { f[t][c] = dt_gaussian_apply(w, in[bt + c], in[at + c], f[t][c]); }
        p[t] = w.feedback * p[t];
      }
    }
    for (int t = 0; t < 2; ++t) edge_store_map(record + (direction * 2 + t) * mf, p[t], f[t], l.channels);
  }
}

// Gaussian: the segment from its entry states into `out` (causal sum, then the anticausal terms
// added, the current sample counted once).
template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_bp_apply(const EdgeLine<T>& l, const T* in, T* out,
                                                  const DtGaussianTerm<T> terms[2], int s0, int s1,
                                                  const T* record) {
  const int mf = edge_map_floats(l.channels), n = l.length;
  const T steady = terms[0].steady.re + terms[1].steady.re;
  const T a_sum = terms[0].a.re + terms[1].a.re;
  for (int direction = 0; direction < 2; ++direction) {
    DtComplex<T> e[2][kEdgeMaxChannels] = {};
    for (int t = 0; t < 2; ++t) edge_load_entry(record + (direction * 2 + t) * mf, e[t], l.channels);
    for (int i = 0; i < s1 - s0; ++i) {
      const int k = direction == 0 ? s0 + i : s1 - 1 - i;
      const size_t at = l.at(k);
      if (k == (direction == 0 ? 0 : n - 1)) {
        for (int t = 0; t < 2; ++t) CG_FOR_CHANNELS(c, l.channels) { e[t][c] = {T(0), T(0)}; }
      } else {
        const T delta = l.space(direction == 0 ? k : k + 1);
        const size_t bt = l.at(direction == 0 ? k - 1 : k + 1);
        for (int t = 0; t < 2; ++t) {
          const DtStepWeights<T> w = dt_gaussian_weights(terms[t], delta);
          CG_FOR_CHANNELS(c, l.channels) { e[t][c] = dt_gaussian_apply(w, in[bt + c], in[at + c], e[t][c]); }
        }
      }
      CG_FOR_CHANNELS(c, l.channels) {
        const T f = in[at + c];
        const T sum = steady * f + e[0][c].re + e[1][c].re;
        if (direction == 0) out[at + c] = sum;
        else out[at + c] += sum - a_sum * f;
      }
    }
  }
}

// ---- spacing planes --------------------------------------------------------------------------

// Spacing at (x, y) of a guide plane (interleaved, `pitch` elements per row) along one axis.
template <typename T, typename Load>
CG_HOST_DEVICE inline T guide_spacing(EdgeFilter filter, bool horizontal, int x, int y, int channels,
                                      unsigned mask, T ratio, Load load) {
  if (horizontal ? x == 0 : y == 0) return T(1);
  T previous[kEdgeMaxChannels] = {}, current[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, channels) {
    current[c] = load(x, y, c);
    previous[c] = horizontal ? load(x - 1, y, c) : load(x, y - 1, c);
  }
  return edge_spacing(filter, previous, current, channels, ratio, mask);
}

// Spacing at (x, y) of a plane subsampled by (sx, sy) from a guide of gw x gh pixels, from the
// guide's spacing plane along the same axis: the guide's transformed distance over the sx (sy)
// guide steps between the two samples, averaged over the sy rows (sx columns) the sample
// covers, in units of the plane's pixels (/ sx or / sy). Beyond the guide's last row or column
// the replicate extension is flat (spacing 1). With sx = sy = 1 it is the guide's spacing.
template <typename T>
CG_HOST_DEVICE inline T resampled_spacing(const T* guide_spacing_plane, int gw, int gh, bool horizontal,
                                          int x, int y, int sx, int sy) {
  if (horizontal ? x == 0 : y == 0) return T(1);
  T sum = T(0);
  if (horizontal) {
    for (int r = 0; r < sy; ++r) {
      const int row = sy * y + r < gh ? sy * y + r : gh - 1;
      for (int j = sx * (x - 1) + 1; j <= sx * x; ++j)
        sum += j < gw ? guide_spacing_plane[static_cast<size_t>(row) * gw + j] : T(1);
    }
    return sum / T(sx * sy);
  }
  for (int c = 0; c < sx; ++c) {
    const int col = sx * x + c < gw ? sx * x + c : gw - 1;
    for (int i = sy * (y - 1) + 1; i <= sy * y; ++i)
      sum += i < gh ? guide_spacing_plane[static_cast<size_t>(i) * gw + col] : T(1);
  }
  return sum / T(sx * sy);
}

}  // namespace cudagaussian
