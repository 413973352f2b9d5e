// SPDX-License-Identifier: LGPL-2.1-or-later
// Line-wise access to planes for kernels that run along rows or columns (recursive filters,
// box filters): a line is one channel of one row (read with a stride of C) or one scalar column.
#pragma once

#include <cstddef>
#include <type_traits>

#include "sample_finish.h"
#include "sample_float.cuh"

namespace cudagaussian {

// Where lines live: a line is a scalar column (vertical) or one channel of a row (horizontal).
struct Lines {
  bool vertical;
  int count;     // lines
  int length;    // samples per line
  int channels;  // horizontal: samples per pixel
  // Elements between consecutive samples of a line.
  __device__ size_t step(size_t pitch) const { return vertical ? pitch : static_cast<size_t>(channels); }
  __device__ size_t index(int line, int i, size_t pitch) const {
    if (vertical) return static_cast<size_t>(i) * pitch + line;
    const int row = line / channels, c = line - row * channels;
    return static_cast<size_t>(row) * pitch + static_cast<size_t>(i) * channels + c;
  }
  // Work item t -> (line, segment); horizontal items run channels fastest, then segments.
  __device__ void item(long t, int segments, int& line, int& seg) const {
    if (vertical) {
      line = static_cast<int>(t % count);
      seg = static_cast<int>(t / count);
    } else {
      const int c = static_cast<int>(t % channels);
      const long rest = t / channels;
      seg = static_cast<int>(rest % segments);
      line = static_cast<int>(rest / segments) * channels + c;
    }
  }
};

// Typed access: samples (>> shift on load, rounded and << shift on store) or float.
template <typename T>
struct Plane {
  T* data;
  size_t pitch;  // elements
  int shift;
  float max_value;
  __device__ float load(const Lines& l, int line, int i) const { return load_at(l.index(line, i, pitch)); }
  __device__ void store(const Lines& l, int line, int i, float v) const { store_at(l.index(line, i, pitch), v); }
  // By element index (index() of a line's first sample plus multiples of Lines::step()).
  __device__ float load_at(size_t at) const { return from_sample(data[at]); }
  __device__ void store_at(size_t at, float v) const { data[at] = to_sample(v); }
  // Both directions without conversion instructions (sample_float.cuh); to_sample stores
  // rounded_sample(v, max_value).
  __device__ float from_sample(T v) const {
    if constexpr (std::is_same_v<T, float>) return v;
    else return sample_as_float(v, shift);
  }
  __device__ T to_sample(float v) const {
    if constexpr (std::is_same_v<T, float>) return v;
    else return stored_sample<T>(v, max_value, shift);
  }
};

// One line of a plane: a pointer to its first sample and the elements between its samples,
// found once per thread (Lines::index divides). Offsets along the line are 32-bit (planes
// hold fewer than 2^31 samples: check_run_arguments, and RecursiveBlur::plan for its float
// planes): a 32-bit multiply and a pointer add (SASS:
// a clamped load's address in 4 instructions where a 64-bit index took 6, of ~20 a step).
template <typename T>
struct LineView {
  Plane<T> plane;
  T* line;
  int step;
  __device__ LineView(const Plane<T>& p, const Lines& l, int line_index)
      : plane(p), line(p.data + l.index(line_index, 0, p.pitch)), step(static_cast<int>(l.step(p.pitch))) {}
  __device__ float load(int i) const { return plane.from_sample(line[i * step]); }
  __device__ void store(int i, float v) const { line[i * step] = plane.to_sample(v); }
};

// A batch of kBatch samples from i0 on (forward: loads past `to` repeat x[to - 1]) or from i0
// down (backward: loads below `to` repeat index `to`; b read only when kReadB).
template <int kBatch, typename T>
__device__ inline void load_batch_forward(const LineView<T>& x, int i0, int to, float (&v)[kBatch]) {
#pragma unroll
  for (int j = 0; j < kBatch; ++j) v[j] = x.load(min(i0 + j, to - 1));
}
template <bool kReadB, int kBatch, typename TA, typename TB>
__device__ inline void load_batch_backward(const LineView<TA>& a, const LineView<TB>& b, int i0, int to,
                                           float (&va)[kBatch], float (&vb)[kBatch]) {
#pragma unroll
  for (int j = 0; j < kBatch; ++j) {
    va[j] = a.load(max(i0 - j, to));
    vb[j] = kReadB ? b.load(max(i0 - j, to)) : 0.0f;
  }
}

// for_each_forward / for_each_backward: samples loaded kBatch at a time and, with kAhead, a batch
// ahead of their use: while the recursion steps through batch k, the loads of batch k + 1 are in
// flight. A sequential recursion otherwise waits for every batch in turn (the compiler cannot
// hoist loads above the stores to another plane). The best choice depends on the kernel
// (recursive.cu: long batches ahead for few threads with long lines; short batches, not ahead,
// where registers limit the occupancy that hides the latency instead).
//
// Steps that bring `count` up to a whole number of batches (a loop's lead-in before a line's
// edge: for_each_forward's kLeadIn, two_way_exact_kernel).
__host__ __device__ constexpr int lead_to_whole_batches(int count, int batch) {
  return (batch - count % batch) % batch;
}

// f(i, x[i]) for i = from .. to - 1, in order. Every batch but the last has no per-sample test
// (straight-line code: a test per sample made the compiler branch around every step, 25 % more
// instructions in the warmed-up kernels' loops); loads past `to` repeat x[to - 1].
//
// kLeadIn (with kAhead): whole batches only, the first starting up to kBatch - 1 steps before
// `from` on x[from] (f sees those steps at indices below `from`, where what it stores must be
// harmless: one_way_kernel, from 0, into mid's margin), for recursions that start in the steady
// state of x[from], which such steps keep. A last, partial batch is code that each thread runs
// once, and on an SM with one warp its instruction fetch is not hidden (map_along).
template <int kBatch, bool kAhead, bool kLeadIn = false, typename T, class F>
__device__ inline void for_each_forward(const LineView<T>& x, int from, int to, F&& f) {
  if constexpr (!kAhead) {
    // Each batch loaded at its top; whole batches unclamped.
    int i0 = from;
    for (; i0 + kBatch <= to; i0 += kBatch) {
      float v[kBatch];
#pragma unroll
      for (int j = 0; j < kBatch; ++j) v[j] = x.load(i0 + j);
#pragma unroll
      for (int j = 0; j < kBatch; ++j) f(i0 + j, v[j]);
    }
    if (i0 < to) {
      float v[kBatch];
      load_batch_forward(x, i0, to, v);
#pragma unroll
      for (int j = 0; j < kBatch; ++j)
        if (i0 + j < to) f(i0 + j, v[j]);
    }
    return;
  }
  if (from >= to) return;
  int i0 = kLeadIn ? from - lead_to_whole_batches(to - from, kBatch) : from;
  float cur[kBatch];
#pragma unroll
  for (int j = 0; j < kBatch; ++j) cur[j] = x.load(min(max(i0 + j, from), to - 1));
  for (; i0 + kBatch <= to; i0 += kBatch) {
    float next[kBatch];
    load_batch_forward(x, i0 + kBatch, to, next);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) f(i0 + j, cur[j]);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) cur[j] = next[j];
  }
  if (i0 == to) return;
#pragma unroll
  for (int j = 0; j < kBatch; ++j)
    if (i0 + j < to) f(i0 + j, cur[j]);
}

// f(i, a[i], b[i]) for i = from - 1 down to `to`; b is read only when kReadB. Pipelined as
// for_each_forward.
template <int kBatch, bool kAhead, bool kReadB, typename TA, typename TB, class F>
__device__ inline void for_each_backward(const LineView<TA>& a, const LineView<TB>& b, int from, int to,
                                         F&& f) {
  if constexpr (!kAhead) {
    // Each batch loaded at its top; whole batches unclamped.
    int i0 = from - 1;
    for (; i0 - kBatch + 1 >= to; i0 -= kBatch) {
      float va[kBatch], vb[kBatch];
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        va[j] = a.load(i0 - j);
        vb[j] = kReadB ? b.load(i0 - j) : 0.0f;
      }
#pragma unroll
      for (int j = 0; j < kBatch; ++j) f(i0 - j, va[j], vb[j]);
    }
    if (i0 >= to) {
      float va[kBatch], vb[kBatch];
      load_batch_backward<kReadB>(a, b, i0, to, va, vb);
#pragma unroll
      for (int j = 0; j < kBatch; ++j)
        if (i0 - j >= to) f(i0 - j, va[j], vb[j]);
    }
    return;
  }
  if (from <= to) return;
  float ca[kBatch], cb[kBatch];
  load_batch_backward<kReadB>(a, b, from - 1, to, ca, cb);
  int i0 = from - 1;
  for (; i0 - kBatch + 1 >= to; i0 -= kBatch) {
    float na[kBatch], nb[kBatch];
    load_batch_backward<kReadB>(a, b, i0 - kBatch, to, na, nb);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) f(i0 - j, ca[j], cb[j]);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) ca[j] = na[j], cb[j] = nb[j];
  }
  if (i0 < to) return;
#pragma unroll
  for (int j = 0; j < kBatch; ++j)
    if (i0 - j >= to) f(i0 - j, ca[j], cb[j]);
}

// out[i] = f(a[i], b[i]) for the `count` samples i = first, first + dir, first + 2·dir, ...
// (dir = ±1), in that order; b is read only when kReadB. Pipelined as for_each_forward, kBatch a
// batch ahead. The addresses are walked, not recomputed: per batch each view's pointer moves
// kBatch steps, and a sample's address is that pointer plus a constant multiple of the view's
// step (one multiply-add), against five instructions for a clamped, direction-scaled index (SASS;
// loads are clamped in the first and last batches only). One code path for either direction, so
// that threads running opposite directions share their instructions (two_way_exact_kernel).
// The first `edge_steps` steps read the samples of step `edge_steps` (two_way_exact_kernel's
// steps before a line's edge, on the edge value; edge_steps <= kBatch, and that sample must be
// in the line). Whole batches run in the loop; a last, partial one after it, unrolled with a
// test per step, is code that each thread runs once, and on an SM with one warp its instruction
// fetch is not hidden (Nsight Compute: "no instruction").
template <int kBatch, bool kReadB, typename TA, typename TB, typename TO, class F>
__device__ inline void map_along(const LineView<TA>& a, const LineView<TB>& b, const LineView<TO>& out, int first,
                                 int dir, int count, int edge_steps, F&& f) {
  if (count <= 0) return;
  const int sa = dir * a.step, sb = dir * b.step, so = dir * out.step;
  const TA* pa = a.line + first * a.step;
  const TB* pb = b.line + first * b.step;
  TO* po = out.line + first * out.step;
  // The batch at pa, pb (`left` samples from there on; past them the last is loaded again, and
  // with none left, after the last whole batch, the sample before pa: its values go unused).
  auto load = [&](int left, float (&va)[kBatch], float (&vb)[kBatch]) {
    if (left >= kBatch) {
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        va[j] = a.plane.from_sample(pa[j * sa]);
        vb[j] = kReadB ? b.plane.from_sample(pb[j * sb]) : 0.0f;
      }
    } else {
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        const int k = min(j, left - 1);
        va[j] = a.plane.from_sample(pa[k * sa]);
        vb[j] = kReadB ? b.plane.from_sample(pb[k * sb]) : 0.0f;
      }
    }
  };
  float ca[kBatch], cb[kBatch];
#pragma unroll
  for (int j = 0; j < kBatch; ++j) {
    const int k = max(min(j, count - 1), edge_steps);
    ca[j] = a.plane.from_sample(pa[k * sa]);
    cb[j] = kReadB ? b.plane.from_sample(pb[k * sb]) : 0.0f;
  }
  int j0 = 0;
  for (; j0 + kBatch <= count; j0 += kBatch) {
    pa += kBatch * sa, pb += kBatch * sb;
    float na[kBatch], nb[kBatch];
    load(count - j0 - kBatch, na, nb);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) po[j * so] = out.plane.to_sample(f(ca[j], cb[j]));
    po += kBatch * so;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) ca[j] = na[j], cb[j] = nb[j];
  }
  if (j0 == count) return;
#pragma unroll
  for (int j = 0; j < kBatch; ++j)
    if (j0 + j < count) po[j * so] = out.plane.to_sample(f(ca[j], cb[j]));
}

// The (line, segment) pair this thread owns and the segment's sample range [s0, s1); false for
// threads past the last pair.
struct SegmentItem {
  int line, seg, s0, s1;
};
__device__ inline bool segment_item(const Lines& l, int segment, int segments, SegmentItem& it) {
  const long t = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<long>(l.count) * segments) return false;
  l.item(t, segments, it.line, it.seg);
  it.s0 = it.seg * segment;
  it.s1 = min(l.length, it.s0 + segment);
  return true;
}

// The same for kernels whose blocks own whole lines, so that a line's segments can meet at a
// __syncthreads: block b holds lines [b·block_lines, (b+1)·block_lines), a thread per (line,
// segment). Adjacent columns run fastest (vertical), or channels, then segments, then rows
// (horizontal; block_lines is then a multiple of the channels), so that neighbouring threads
// read neighbouring samples. `local_line` is the line's place in the block; false (with the
// fields unset) for threads past the block's pairs or the plane's lines.
__device__ inline bool block_segment_item(const Lines& l, int segment, int segments, int block_lines,
                                          SegmentItem& it, int& local_line) {
  const int t = threadIdx.x;
  if (t >= block_lines * segments) return false;
  if (l.vertical) {
    local_line = t % block_lines;
    it.seg = t / block_lines;
  } else {
    const int c = t % l.channels, rest = t / l.channels;
    it.seg = rest % segments;
    local_line = rest / segments * l.channels + c;
  }
  it.line = blockIdx.x * block_lines + local_line;
  if (it.line >= l.count) return false;
  it.s0 = it.seg * segment;
  it.s1 = min(l.length, it.s0 + segment);
  return true;
}

}  // namespace cudagaussian
