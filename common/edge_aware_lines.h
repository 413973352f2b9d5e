// The edge-aware blur one line segment at a time, for any scalar type T (float in the CUDA
// kernels and in the CPU tests that replay them, double where exactness matters). A thread of
// kernels/edge_aware.cu runs exactly these functions, so the CPU tests check the kernels' logic
// (warm-up bounds, starts, the order of the passes) line by line. REFERENCE.md §6.
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
#pragma once

#include <cstddef>

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

// Where a causal warm-up for a segment starting at s0 begins: the largest w <= s0 with
// Σ_{w<j<=s0} spacing[j] >= extent, or 0 (the line start, exact).
template <typename T>
CG_HOST_DEVICE inline int edge_warmup_begin(const EdgeLine<T>& l, int s0, T extent) {
  int w = s0;
  T sum = T(0);
  while (w > 0 && sum < extent) sum += l.space(w--);
  return w;
}

// Where an anticausal warm-up for a segment ending at `last` begins: the smallest e >= last with
// Σ_{last<j<=e} spacing[j] >= extent, or n-1 (the line end, exact).
template <typename T>
CG_HOST_DEVICE inline int edge_warmup_end(const EdgeLine<T>& l, int last, T extent) {
  int e = last;
  T sum = T(0);
  while (e < l.length - 1 && sum < extent) sum += l.space(++e);
  return e;
}

// ---- RF (first order): left to right into `mid`, then right to left into `out` ----------------

template <typename T>
CG_HOST_DEVICE inline void edge_rf_causal(const EdgeLine<T>& l, const T* in, T* mid, T log_a, int s0,
                                          int s1, T extent) {
  const int w = edge_warmup_begin(l, s0, extent);
  T j[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) j[c] = in[l.at(w) + c];  // replicate start: J = f
  if (w >= s0)
    CG_FOR_CHANNELS(c, l.channels) mid[l.at(w) + c] = j[c];
  for (int k = w + 1; k < s1; ++k) {
    const T weight = rf_weight(log_a, l.space(k));
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) j[c] = rf_apply(weight, j[c], in[p + c]);
    if (k >= s0)
      CG_FOR_CHANNELS(c, l.channels) mid[p + c] = j[c];
  }
}

template <typename T>
CG_HOST_DEVICE inline void edge_rf_anticausal(const EdgeLine<T>& l, const T* mid, T* out, T log_a,
                                              int s0, int s1, T extent) {
  const int e = edge_warmup_end(l, s1 - 1, extent);
  T j[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) j[c] = mid[l.at(e) + c];
  if (e < s1)
    CG_FOR_CHANNELS(c, l.channels) out[l.at(e) + c] = j[c];
  for (int k = e - 1; k >= s0; --k) {
    const T weight = rf_weight(log_a, l.space(k + 1));
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) j[c] = rf_apply(weight, j[c], mid[p + c]);
    if (k < s1)
      CG_FOR_CHANNELS(c, l.channels) out[p + c] = j[c];
  }
}

// ---- Gaussian (two complex first-order terms): causal sum into `mid`; anticausal added -------

// mid = Re Σ_i causal_i.
template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_causal(const EdgeLine<T>& l, const T* in, T* mid,
                                                const DtGaussianTerm<T> terms[2], int s0, int s1,
                                                T extent) {
  const int w = edge_warmup_begin(l, s0, extent);
  DtComplex<T> g[2][kEdgeMaxChannels] = {};
  T f_previous[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) {
    f_previous[c] = in[l.at(w) + c];
    for (int i = 0; i < 2; ++i) g[i][c] = dt_gaussian_steady(terms[i], f_previous[c]);
    if (w >= s0) mid[l.at(w) + c] = g[0][c].re + g[1][c].re;
  }
  for (int k = w + 1; k < s1; ++k) {
    const T delta = l.space(k);
    const DtStepWeights<T> w0 = dt_gaussian_weights(terms[0], delta);
    const DtStepWeights<T> w1 = dt_gaussian_weights(terms[1], delta);
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) {
      const T f = in[p + c];
      g[0][c] = dt_gaussian_apply(w0, f_previous[c], f, g[0][c]);
      g[1][c] = dt_gaussian_apply(w1, f_previous[c], f, g[1][c]);
      f_previous[c] = f;
      if (k >= s0) mid[p + c] = g[0][c].re + g[1][c].re;
    }
  }
}

// out = mid + Re Σ_i (anticausal_i - a_i f): both halves include the current sample once.
template <typename T>
CG_HOST_DEVICE inline void edge_gaussian_anticausal(const EdgeLine<T>& l, const T* in, const T* mid,
                                                    T* out, const DtGaussianTerm<T> terms[2], int s0,
                                                    int s1, T extent) {
  const int e = edge_warmup_end(l, s1 - 1, extent);
  const T a_sum = terms[0].a.re + terms[1].a.re;
  DtComplex<T> g[2][kEdgeMaxChannels] = {};
  T f_next[kEdgeMaxChannels] = {};
  CG_FOR_CHANNELS(c, l.channels) {
    const size_t p = l.at(e) + c;
    f_next[c] = in[p];
    for (int i = 0; i < 2; ++i) g[i][c] = dt_gaussian_steady(terms[i], f_next[c]);
    if (e < s1) out[p] = mid[p] + g[0][c].re + g[1][c].re - a_sum * f_next[c];
  }
  for (int k = e - 1; k >= s0; --k) {
    const T delta = l.space(k + 1);
    const DtStepWeights<T> w0 = dt_gaussian_weights(terms[0], delta);
    const DtStepWeights<T> w1 = dt_gaussian_weights(terms[1], delta);
    const size_t p = l.at(k);
    CG_FOR_CHANNELS(c, l.channels) {
      const T f = in[p + c];
      g[0][c] = dt_gaussian_apply(w0, f_next[c], f, g[0][c]);
      g[1][c] = dt_gaussian_apply(w1, f_next[c], f, g[1][c]);
      f_next[c] = f;
      if (k < s1) out[p + c] = mid[p + c] + g[0][c].re + g[1][c].re - a_sum * f;
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
