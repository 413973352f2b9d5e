// SPDX-License-Identifier: LGPL-2.1-or-later
// Box passes along lines, one kernel per pass (single passes, and axes box_tile.cu's kernel does
// not take): a thread owns a run of consecutive outputs of one line (run_for()). It finds the
// sum of its first window (2r + 1 samples, border-resolved), then slides: + the sample
// entering, - the sample leaving. Restarting every run bounds the float rounding of sliding.
//
// The first window: narrow ones (up to kDirectWindow samples) are summed directly, many loads
// in flight at once, and on rows of 4-channel 8-bit pixels by the run's four threads together
// as 32-bit words (a quarter of the loads). The part past a line's end is a closed form or a
// range of the line (add_border). Wider windows would make the cost keep growing with sigma, so they
// come from prefix sums instead: a first kernel sums each segment of kSegment samples, a second
// turns those into each line's prefix at segment boundaries (double), and a window is then
// S(b) - S(a), where S is the prefix of the border-extended line (closed forms for replicate, per
// period for mirror and reflect); each S needs at most kSegment / 2 samples besides the stored
// prefixes. The cost is then flat in sigma.

#include "box_filter.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "border.h"
#include "border_prefix.cuh"
#include "box_tile.cuh"
#include "chained_launch.cuh"
#include "sample_finish_pass.h"
#include "line_access.cuh"

namespace cudagaussian {
namespace {

using WindowStart = BoxBlur::WindowStart;

constexpr int kThreads = 128;
constexpr int kSegment = BoxBlur::kSegment;
// Summing the window directly stays cheaper than the prefix start (two more kernels per pass) up
// to about this many samples (docs/bench/kernel_choices.md, "Box filters").
constexpr int kDirectWindow = 255;

// sum += x[from] + .. + x[to - 1] in order, to - from <= N: all N loads issued at once
// (predicated; past `to` they read 0, which leaves the sum as is), then added.
template <int N, typename T, typename Sum>
__device__ inline void add_range(const LineView<T>& x, int from, int to, Sum& sum) {
  float v[N];
#pragma unroll
  for (int j = 0; j < N; ++j) v[j] = from + j < to ? x.load(from + j) : 0.0f;
#pragma unroll
  for (int j = 0; j < N; ++j) sum += v[j];
}

// Sum of x[from .. to), to - from <= N, in double.
template <int N, typename T>
__device__ inline double range_sum(const LineView<T>& x, int from, int to) {
  double sum = 0.0;
  add_range<N>(x, from, to, sum);
  return sum;
}

// P(k) = x[0] + .. + x[k - 1], 0 <= k <= n, from the prefixes at segment boundaries (entry b is
// P(min(b * kSegment, n))) and the samples between k and the nearer boundary.
template <typename T>
__device__ inline double line_prefix(const LineView<T>& x, const double* prefix, int n, int k) {
  const int b = k / kSegment, lo = b * kSegment;
  const int hi = min(lo + kSegment, n);
  if (k == lo) return prefix[b];
  if (k - lo <= hi - k) return prefix[b] + range_sum<kSegment / 2>(x, lo, k);
  return prefix[b + 1] - range_sum<kSegment / 2>(x, k, hi);
}

// S(j) of the border-extended line (border_prefix.cuh) from the prefixes at segment boundaries.
template <typename T>
__device__ inline double extended_prefix(const LineView<T>& x, const double* prefix, int n, int j,
                                         Border border) {
  const double total = prefix[(n + kSegment - 1) / kSegment];  // P(n)
  return border_extended_prefix([&](int k) { return k == n ? total : line_prefix(x, prefix, n, k); },
                                [&] { return x.load(0); }, [&] { return x.load(n - 1); }, n, j, border);
}

// Pass 1 of wide windows: each segment's sum, into prefix entry seg + 1 of its line.
template <typename TIn>
__global__ void __launch_bounds__(kThreads)
segment_sum_kernel(Lines l, Plane<TIn> in, double* prefix, int segments) {
  begin_chained_kernel();
  SegmentItem it;
  if (!segment_item(l, kSegment, segments, it)) return;
  const LineView<TIn> x(in, l, it.line);
  prefix[static_cast<size_t>(it.line) * (segments + 1) + it.seg + 1] = range_sum<kSegment>(x, it.s0, it.s1);
}

// Pass 2: each line's segment sums into prefixes at the boundaries (entry 0 is 0): a warp per
// line, an inclusive shuffle scan over 32 sums at a time plus the carry of those before.
__global__ void __launch_bounds__(kThreads)
prefix_scan_kernel(int lines, double* prefix, int segments) {
  begin_chained_kernel();
  const int line = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (line >= lines) return;  // the whole warp leaves together
  double* p = prefix + static_cast<size_t>(line) * (segments + 1);
  double carry = 0.0;
  for (int b0 = 1; b0 <= segments; b0 += 32) {
    const int b = b0 + lane;
    double v = b <= segments ? p[b] : 0.0;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const double u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }
    if (b <= segments) p[b] = carry + v;
    carry += __shfl_sync(0xffffffffu, v, 31);
  }
  if (lane == 0) p[0] = 0.0;
}

// Loads in flight per thread, by direction: samples (rows: 32-bit words) of a first window
// summed directly, and outputs of the slide (their entering and leaving samples). Rows are bound
// by L1 traffic, so short batches; columns by latency, each thread waiting for its batches in
// turn, so long ones (the fastest measured: docs/bench/kernel_choices.md, "Box filters").
constexpr int kRowWindowBatch = 8, kRowSlideBatch = 8;
constexpr int kColumnWindowBatch = 64, kColumnSlideBatch = 16;

// sum += x[from] + .. + x[to - 1] (from <= to, inside the line): whole batches of kBatch loads,
// then the rest (under kBatch) in batches of 32 and 16, so that a short range does not issue a
// wide batch of loads that read nothing.
template <int kBatch, typename T>
__device__ inline void add_line_range(const LineView<T>& x, int from, int to, float& sum) {
  int k0 = from;
  for (; k0 + kBatch <= to; k0 += kBatch) add_range<kBatch>(x, k0, to, sum);
  if constexpr (kBatch > 32) {
    if (to - k0 > 16) {
      add_range<32>(x, k0, to, sum);
      k0 += 32;
    }
  }
  for (; k0 < to; k0 += 16) add_range<16>(x, k0, to, sum);
}

// sum += the `count` samples of [-count, 0) (left) or [n, n + count) (right) as the border
// extends the line: replicate as count edge samples; mirror and reflect as the range of the line
// they repeat, while it fits in the line (border_index's mapping), in batches of 16 (only the
// runs at a line's ends come here); otherwise sample by sample.
// The window of a run at a line's end (its first run) took one sample at a time, each through
// border_index (~35 instructions), while the rest of its warp waited: at 1080p, σ 30 (52 of them
// a row) that was most of the rows pass's growth with sigma (Nsight Compute: 10.5 -> 12.4 M
// instructions from σ 1).
template <typename T>
__device__ inline void add_border(const LineView<T>& x, int n, int count, bool left, Border border, float& sum) {
  if (count <= 0) return;
  if (border == Border::Replicate || n == 1) {
    sum += static_cast<float>(count) * x.load(left ? 0 : n - 1);
  } else if (border == Border::Mirror && count <= n - 1) {  // x[-k] = x[k], x[n - 1 + k] = x[n - 1 - k]
    if (left) add_line_range<16>(x, 1, count + 1, sum);
    else add_line_range<16>(x, n - 1 - count, n - 1, sum);
  } else if (border == Border::Reflect && count <= n) {  // x[-k] = x[k - 1], x[n + k] = x[n - 1 - k]
    if (left) add_line_range<16>(x, 0, count, sum);
    else add_line_range<16>(x, n - count, n, sum);
  } else {
    for (int k = 0; k < count; ++k) sum += x.load(border_index(left ? k - count : n + k, n, border));
  }
}

// The sum of x[s0 - r .. s0 + r], border-resolved: the part past each end of the line
// (add_border), and the inside loaded directly in batches (add_line_range).
template <int kBatch, typename T>
__device__ inline float first_window_sum(const LineView<T>& x, int s0, int radius, int n, Border border) {
  const int lo = s0 - radius, hi = s0 + radius + 1;
  const int a = max(lo, 0), b = min(hi, n);
  float sum = 0.0f;  // a <= s0 < b: the run starts inside the line
  add_border(x, n, a - lo, true, border, sum);
  add_line_range<kBatch>(x, a, b, sum);
  add_border(x, n, hi - b, false, border, sum);
  return sum;
}

// Pixels k0, k0 + 4, .. (N of them, those from hi on read as 0) as 32-bit words into two sums
// of 16-bit fields: channels 0 and 2 (even), 1 and 3 (odd).
template <int N>
__device__ inline void add_words(const uint32_t* px, int k0, int hi, uint32_t& even, uint32_t& odd) {
  uint32_t w[N];
#pragma unroll
  for (int j = 0; j < N; ++j) w[j] = k0 + 4 * j < hi ? px[k0 + 4 * j] : 0u;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    even += w[j] & 0x00FF00FFu;
    odd += (w[j] >> 8) & 0x00FF00FFu;
  }
}

// The first window of a row of 4-channel 8-bit pixels, x[lo .. hi) inside the line (`row`: the
// row's first byte, 4-byte aligned; c: this thread's channel). The four threads of a run (its
// channels: adjacent lanes) load its pixels as 32-bit words, a quarter each, and exchange their
// channel sums by shuffles: a quarter of the loads, and of the L1 traffic that bounds this pass.
// Sums are exact integers: two channels per 32-bit word of 16-bit fields (no carry between
// fields while a thread adds at most 257 words of 255: windows up to 1024 samples).
template <int kBatch>
__device__ inline float rgba8_window_sum(const uint8_t* row, int lo, int hi, int c) {
  const auto* px = reinterpret_cast<const uint32_t*>(row);
  uint32_t even = 0, odd = 0;  // channels 0 and 2, 1 and 3
  for (int k0 = lo + c; k0 < hi; k0 += 4 * kBatch) add_words<kBatch>(px, k0, hi, even, odd);
  // Reduce-scatter over the four lanes: lanes swap half their sums with lane ^ 2, then a quarter
  // with lane ^ 1, and lane c is left with channel c's total.
  const unsigned group = 0xFu << ((threadIdx.x % 32) & ~3u);
  const bool high = c & 2, odd_lane = c & 1;
  unsigned keep0 = high ? even >> 16 : even & 0xFFFFu, keep1 = high ? odd >> 16 : odd & 0xFFFFu;
  const unsigned give0 = high ? even & 0xFFFFu : even >> 16, give1 = high ? odd & 0xFFFFu : odd >> 16;
  keep0 += __shfl_xor_sync(group, give0, 2);
  keep1 += __shfl_xor_sync(group, give1, 2);
  const unsigned keep = odd_lane ? keep1 : keep0, give = odd_lane ? keep0 : keep1;
  return static_cast<float>(keep + __shfl_xor_sync(group, give, 1));
}

// kPrefixStart: the first window's sum from the prefixes (a separate instance, so that narrow
// windows do not pay its registers). kWindowBatch, kSlideBatch: loads in flight (above).
// rgba8_words: the lines are channels of 4-channel 8-bit rows that start 4-byte aligned.
template <bool kPrefixStart, int kWindowBatch, int kSlideBatch, typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
box_pass_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, int radius, bool rgba8_words, int run, int runs,
                int segments, Border border, const double* prefix) {
  begin_chained_kernel();
  SegmentItem it;
  if (!segment_item(l, run, runs, it)) return;
  const int n = l.length;
  const LineView<TIn> x(in, l, it.line);
  const LineView<TOut> y(out, l, it.line);
  const float inv = 1.0f / (2 * radius + 1);
  float sum = 0.0f;
  if constexpr (kPrefixStart) {
    const double* p = prefix + static_cast<size_t>(it.line) * (segments + 1);
    sum = static_cast<float>(extended_prefix(x, p, n, it.s0 + radius + 1, border) -
                             extended_prefix(x, p, n, it.s0 - radius, border));
  } else {
    const bool words = std::is_same_v<TIn, uint8_t> && rgba8_words && radius < 512 && it.s0 - radius >= 0 &&
                       it.s0 + radius < n;
    if (words) {  // the run's four threads take this branch together
      const int c = it.line % 4;
      sum = rgba8_window_sum<kWindowBatch>(reinterpret_cast<const uint8_t*>(x.line - c), it.s0 - radius,
                                           it.s0 + radius + 1, c);
    } else {
      sum = first_window_sum<kWindowBatch>(x, it.s0, radius, n, border);
    }
  }
  y.store(it.s0, sum * inv);
  // Slide: the entering and leaving samples of kSlideBatch outputs loaded before they are used;
  // whole batches with no per-output test (straight-line code, as line_access.cuh's loops),
  // then the last, partial one.
  const bool interior = it.s0 - radius >= 0 && it.s1 - 1 + radius < n;
  auto slide = [&](int i0, auto whole) {
    float enter[kSlideBatch], leave[kSlideBatch];
#pragma unroll
    for (int j = 0; j < kSlideBatch; ++j) {
      const int i = decltype(whole)::value ? i0 + j : min(i0 + j, it.s1 - 1);
      enter[j] = x.load(interior ? i + radius : border_index(i + radius, n, border));
      leave[j] = x.load(interior ? i - radius - 1 : border_index(i - radius - 1, n, border));
    }
#pragma unroll
    for (int j = 0; j < kSlideBatch; ++j) {
      if (!decltype(whole)::value && i0 + j >= it.s1) break;
      sum += enter[j] - leave[j];
      y.store(i0 + j, sum * inv);
    }
  };
  int i0 = it.s0 + 1;
  for (; i0 + kSlideBatch <= it.s1; i0 += kSlideBatch) slide(i0, std::true_type{});
  if (i0 < it.s1) slide(i0, std::false_type{});
}

unsigned blocks_for(long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

// Outputs per thread (a multiple of kSegment): 128 (fewer first windows) where that still makes
// enough threads, else 64; longer runs leave too few threads (docs/bench/kernel_choices.md, "Box filters").
int run_for(const Lines& l, int forced) {
  if (forced) return forced;
  const long threads_at_128 = static_cast<long>(l.count) * ((l.length + 127) / 128);
  return threads_at_128 >= 32768 ? 2 * kSegment : kSegment;
}

template <typename TIn, typename TOut>
Status launch(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, int radius, Border border,
              double* prefix, WindowStart start, int forced_run, bool chained, cudaStream_t stream) {
  const int segments = (l.length + kSegment - 1) / kSegment;
  const long items = static_cast<long>(l.count) * segments;
  const bool wide = start == WindowStart::Auto ? 2 * radius + 1 > kDirectWindow : start == WindowStart::Prefix;
  if (wide) {
    CG_CUDA_TRY(launch_chained(chained, segment_sum_kernel<TIn>, blocks_for(items), kThreads, 0, stream, l, in, prefix,
                               segments));
    CG_CUDA_TRY(launch_chained(chained, prefix_scan_kernel, blocks_for(32L * l.count), kThreads, 0, stream, l.count,
                               prefix, segments));
  }
  const int run = run_for(l, forced_run);
  const int runs = (l.length + run - 1) / run;
  const unsigned blocks = blocks_for(static_cast<long>(l.count) * runs);
  const bool rgba8_words = std::is_same_v<TIn, uint8_t> && !l.vertical && l.channels == 4 &&
                           reinterpret_cast<uintptr_t>(in.data) % 4 == 0 && in.pitch % 4 == 0;
  const auto pass = [&](auto kernel) {
    return launch_chained(chained, kernel, blocks, kThreads, 0, stream, l, in, out, radius, rgba8_words, run, runs,
                          segments, border, static_cast<const double*>(prefix));
  };
  if (wide) CG_CUDA_TRY(pass(box_pass_kernel<true, kRowWindowBatch, kRowSlideBatch, TIn, TOut>));
  else if (l.vertical) CG_CUDA_TRY(pass(box_pass_kernel<false, kColumnWindowBatch, kColumnSlideBatch, TIn, TOut>));
  else CG_CUDA_TRY(pass(box_pass_kernel<false, kRowWindowBatch, kRowSlideBatch, TIn, TOut>));
  return Status::success();
}

// The stages of a plane (BoxBlur::plan): sample type in and out, float in between (ping-pong).
template <typename T, typename Stage>
Status run_stages(const PlaneGeometry& g, const std::vector<Stage>& stages, const BoxTileShape* shapes,
                  Border border, const void* src, size_t src_pitch, void* dst, size_t dst_pitch, float* ping,
                  float* pong, double* prefix, WindowStart start, int forced_run, bool chained,
                  cudaStream_t stream) {
  const int row_samples = g.samples_per_row();
  const float max_value = static_cast<float>(g.max_value());
  const Plane<T> in{const_cast<T*>(static_cast<const T*>(src)), src_pitch / sizeof(T), g.shift, max_value};
  const Plane<T> out{static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift, max_value};
  const Plane<float> buf[2] = {{ping, static_cast<size_t>(row_samples), 0, 0.0f},
                               {pong, static_cast<size_t>(row_samples), 0, 0.0f}};
  const Lines rows{false, g.height * g.channels, g.width, g.channels};
  const Lines columns{true, row_samples, g.height, g.channels};
  const size_t last = stages.size() - 1;
  for (size_t k = 0; k < stages.size(); ++k) {
    const Stage& st = stages[k];
    const auto run_stage = [&](const auto& from, const auto& to) -> Status {
      // A tile stage runs all passes of an axis, so it is first or last: never float to float.
      constexpr bool kFloatToFloat = std::is_same_v<decltype(from), const Plane<float>&> &&
                                     std::is_same_v<decltype(to), const Plane<float>&>;
      if constexpr (!kFloatToFloat)
        if (st.tiled) return launch_box_tile<T>(shapes[st.axis], from, to, st.passes, border, chained, stream);
      return launch(st.axis == 1 ? columns : rows, from, to, st.passes.radius[0], border, prefix, start, forced_run,
                    chained, stream);
    };
    const Plane<float>& prev = buf[(k + 1) % 2];
    const Plane<float>& next = buf[k % 2];
    if (k == 0 && k == last) CG_TRY(run_stage(in, out));
    else if (k == 0) CG_TRY(run_stage(in, next));
    else if (k == last) CG_TRY(run_stage(prev, out));
    else CG_TRY(run_stage(prev, next));
  }
  return Status::success();
}

}  // namespace

Status BoxBlur::plan(const PlaneGeometry& g, const std::vector<int>& widths_x,
                     const std::vector<int>& widths_y, Border border, const Schedule& schedule) {
  release();
  schedule_ = schedule;
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  // Plain loops, one per direction: the two width lists may be the same vector.
  radii_x_.clear();
  radii_y_.clear();
  for (int w : widths_x) radii_x_.push_back(w / 2);
  for (int w : widths_y) radii_y_.push_back(w / 2);
  for (int w : widths_x)
    if (w < 1 || w % 2 == 0) return Status::invalid("box widths must be odd and positive");
  for (int w : widths_y)
    if (w < 1 || w % 2 == 0) return Status::invalid("box widths must be odd and positive");
  // The tile kernel (box_tile.h), per axis, where its tile fits a block.
  int device = 0, optin = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  size_t tile_bytes = 0;
  for (int axis = 0; axis < 2; ++axis) {
    const std::vector<int>& radii = axis == 0 ? radii_x_ : radii_y_;
    const int max_radius = radii.empty() ? 0 : *std::max_element(radii.begin(), radii.end());
    tile_fits_[axis] = box_tile_shape(g, axis == 1, max_radius, static_cast<size_t>(optin), schedule_.column_strip,
                                      tiles_[axis]);
    if (tile_fits_[axis]) tile_bytes = std::max(tile_bytes, tiles_[axis].shared_bytes);
  }
  // The limit is per kernel and shared by every plan: always the device's maximum, so that a
  // plan for a smaller plane (a chroma plane) never lowers what another plan relies on.
  if (tile_bytes > 0)
    CG_TRY(g.bytes_per_sample == 1 ? allow_box_tile_shared<uint8_t>(static_cast<size_t>(optin))
                                   : allow_box_tile_shared<uint16_t>(static_cast<size_t>(optin)));
  // The stages: the tile kernel for an axis of two or more passes (at one pass the line kernels
  // are faster: docs/bench/kernel_choices.md, "Box filters"), a line kernel per pass otherwise.
  stages_.clear();
  bool line_stages = false;
  for (int axis = 0; axis < 2; ++axis) {
    const std::vector<int>& radii = axis == 0 ? radii_x_ : radii_y_;
    if (radii.empty()) continue;
    const bool tiled = tile_fits_[axis] && radii.size() <= kMaxBoxTilePasses &&
                       schedule_.kernels != Kernels::Lines && (schedule_.kernels == Kernels::Tiles || radii.size() >= 2);
    if (tiled) {
      Stage st{axis, true, {}};
      st.passes.count = static_cast<int>(radii.size());
      for (size_t k = 0; k < radii.size(); ++k) st.passes.radius[k] = radii[k];
      stages_.push_back(st);
    } else {
      for (int r : radii) stages_.push_back({axis, false, {{r}, 1}});
      line_stages = true;
    }
  }
  if (stages_.empty()) {  // identity: still copies src to dst
    stages_.push_back({0, false, {{0}, 1}});
    line_stages = true;
  }
  // Float planes between stages: one for two stages, two (ping-pong) for more.
  const size_t bytes = static_cast<size_t>(g.samples_per_row()) * g.height * sizeof(float);
  if (stages_.size() >= 2) CG_TRY(ping_.reserve(bytes));
  if (stages_.size() >= 3) CG_TRY(pong_.reserve(bytes));
  if (line_stages) {
    // Prefix sums at segment boundaries for wide windows, for the larger of the two directions.
    const auto prefix_doubles = [](long lines, int length) {
      return static_cast<size_t>(lines) * ((length + kSegment - 1) / kSegment + 1);
    };
    CG_TRY(prefix_.reserve(std::max(prefix_doubles(static_cast<long>(g.height) * g.channels, g.width),
                                    prefix_doubles(g.samples_per_row(), g.height)) * sizeof(double)));
  }
  chained_ = chaining_supported();
  geometry_ = g;
  border_ = border;
  planned_ = true;
  return Status::success();
}

Status BoxBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                    cudaStream_t stream) const {
  if (!planned_) return Status::invalid("BoxBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  auto* ping = static_cast<float*>(ping_.get());
  auto* pong = static_cast<float*>(pong_.get());
  auto* prefix = static_cast<double*>(prefix_.get());
  if (g.bytes_per_sample == 1)
    CG_TRY(run_stages<uint8_t>(g, stages_, tiles_, border_, src, src_pitch, dst, dst_pitch, ping, pong, prefix,
                               schedule_.window_start, schedule_.run, chained_, stream));
  else
    CG_TRY(run_stages<uint16_t>(g, stages_, tiles_, border_, src, src_pitch, dst, dst_pitch, ping, pong, prefix,
                                schedule_.window_start, schedule_.run, chained_, stream));
  // The line and tile kernels finish no samples (their registers would slow the plain blur):
  // the finishing step is a pass of its own here.
  if (finish_.active()) return finish_plane(g, src, src_pitch, dst, dst_pitch, finish_, stream);
  return Status::success();
}

void BoxBlur::release() {
  ping_.release();
  pong_.release();
  prefix_.release();
  planned_ = false;
}

}  // namespace cudagaussian
