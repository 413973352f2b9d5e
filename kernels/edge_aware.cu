// SPDX-License-Identifier: LGPL-2.1-or-later
// Edge-aware recursive blur kernels (edge_aware.h). Per frame:
//   guide spacing   plane 0's transformed distances h, v (once; edges of the original frame);
//   per plane:      resampled spacings (planes other than 0), then per iteration a horizontal
//                   and a vertical pass (the first transpose or a load kernel makes the frame
//                   float), and a final store. A Gaussian pass is one launch (a thread runs both
//                   halves of its segment: the anticausal half reads the input and adds its own
//                   segment's causal result); an RF pass is a causal and an anticausal launch
//                   (its anticausal half filters the causal result, so a segment's warm-up
//                   reads the next segment's causal output: a grid-wide barrier).
// A thread owns one (line, segment) and runs common/edge_aware_lines.h on it, all channels of a
// pixel together (they share the spacing). Every pass runs down columns, where consecutive
// threads (consecutive columns) read consecutive pixels of a row together: the horizontal pass
// runs on a transposed copy of the plane (a tiled transpose before and after it), with the
// horizontal spacings stored transposed too (ht[x * height + y]).

#include "edge_aware.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "edge_aware_lines.h"
#include "plane_blur.h"  // check_run_arguments

namespace cudagaussian {
namespace {

constexpr int kThreads = 128;
constexpr dim3 kBlock2d(32, 8);

using namespace edge_aware;

dim3 grid_2d(int width, int height) {
  return dim3((width + kBlock2d.x - 1) / kBlock2d.x, (height + kBlock2d.y - 1) / kBlock2d.y);
}

// ---- kernels ----------------------------------------------------------------------------------

// Plane 0's spacings: h (row-major, for resampling other planes; null without them), ht (h
// transposed, for the passes), v. A block covers a kTile x kTile pixel tile; ht goes out through
// a shared tile so that its writes, like the others, are whole rows (written straight from
// registers they would be 4-byte pieces 4 * height bytes apart).
constexpr int kTile = 32;
const dim3 kTileBlock(kTile, 8);
dim3 tile_grid(int width, int height) { return dim3((width + kTile - 1) / kTile, (height + kTile - 1) / kTile); }

// A guide pixel's samples (>> shift) as floats: four 8-bit samples in one 4-byte load where
// `packed` (RGBA-like planes with 4-byte aligned rows).
template <typename T>
__device__ inline void guide_pixel(const T* src, size_t pitch, const PlaneGeometry& g, bool packed, int x, int y,
                                   float (&v)[kEdgeMaxChannels]) {
  const T* p = src + static_cast<size_t>(y) * pitch + static_cast<size_t>(x) * g.channels;
  if constexpr (sizeof(T) == 1) {
    if (packed) {
      const uchar4 q = *reinterpret_cast<const uchar4*>(p);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      return;
    }
  }
  CG_FOR_CHANNELS(c, g.channels) { v[c] = static_cast<float>(p[c] >> g.shift); }
}

template <typename T>
__global__ void __launch_bounds__(kTile * 8)
guide_spacing_kernel(const T* src, size_t pitch, PlaneGeometry g, bool packed, unsigned mask, EdgeFilter filter,
                     float ratio_x, float ratio_y, float* h, float* ht, float* v) {
  __shared__ float across_tile[kTile][kTile + 1];
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  const int x = x0 + threadIdx.x;
  for (int dy = threadIdx.y; dy < kTile; dy += blockDim.y) {
    const int y = y0 + dy;
    if (x >= g.width || y >= g.height) continue;
    // Each of the three pixels loaded once (guide_spacing reads the current one for both axes).
    float current[kEdgeMaxChannels] = {}, left[kEdgeMaxChannels] = {}, up[kEdgeMaxChannels] = {};
    guide_pixel(src, pitch, g, packed, x, y, current);
    if (x > 0) guide_pixel(src, pitch, g, packed, x - 1, y, left);
    if (y > 0) guide_pixel(src, pitch, g, packed, x, y - 1, up);
    auto load = [&](int xx, int yy, int c) { return xx != x ? left[c] : yy != y ? up[c] : current[c]; };
    const size_t i = static_cast<size_t>(y) * g.width + x;
    const float across = guide_spacing(filter, true, x, y, g.channels, mask, ratio_x, load);
    across_tile[dy][threadIdx.x] = across;
    if (h) h[i] = across;  // only other planes' resampling reads it
    v[i] = guide_spacing(filter, false, x, y, g.channels, mask, ratio_y, load);
  }
  __syncthreads();
  const int y = y0 + threadIdx.x;  // ht row x holds column x: consecutive threads, consecutive y
  for (int dx = threadIdx.y; dx < kTile; dx += blockDim.y)
    if (x0 + dx < g.width && y < g.height)
      ht[static_cast<size_t>(x0 + dx) * g.height + y] = across_tile[threadIdx.x][dx];
}

// Another plane's spacings from plane 0's: ht (transposed) and v.
__global__ void resample_spacing_kernel(const float* guide_h, const float* guide_v, int guide_width,
                                        int guide_height, int width, int height, int sx, int sy,
                                        float* ht, float* v) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  ht[static_cast<size_t>(x) * height + y] = resampled_spacing(guide_h, guide_width, guide_height, true, x, y, sx, sy);
  v[static_cast<size_t>(y) * width + x] = resampled_spacing(guide_v, guide_width, guide_height, false, x, y, sx, sy);
}

// in: height rows of width pixels of `channels` samples (floats, or integer samples >> shift,
// `pitch` elements per row); out: the float transpose, width rows of height pixels. Through a
// 32 x 32-pixel shared tile whose rows are padded by one float, so that reading it by columns
// does not conflict; reads and writes of global memory are row-wise (coalesced). Reading the
// frame's samples directly, the first transpose also does the load to float.
__device__ inline float to_float(float v, int) { return v; }
__device__ inline float to_float(uint8_t v, int shift) { return static_cast<float>(v >> shift); }
__device__ inline float to_float(uint16_t v, int shift) { return static_cast<float>(v >> shift); }

template <typename TIn>
__global__ void __launch_bounds__(kTile * 8)
transpose_kernel(const TIn* in, size_t pitch, int width, int height, int channels, int shift, float* out) {
  __shared__ float tile[kTile][kTile * kEdgeMaxChannels + 1];
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  for (int dy = threadIdx.y; dy < kTile; dy += blockDim.y) {
    const int x = x0 + threadIdx.x, y = y0 + dy;
    if (x < width && y < height)
      for (int c = 0; c < channels; ++c)
        tile[dy][threadIdx.x * channels + c] =
            to_float(in[static_cast<size_t>(y) * pitch + static_cast<size_t>(x) * channels + c], shift);
  }
  __syncthreads();
  for (int dx = threadIdx.y; dx < kTile; dx += blockDim.y) {
    const int y = y0 + threadIdx.x, x = x0 + dx;  // out pixel (y, x): row x, column y
    if (x < width && y < height)
      for (int c = 0; c < channels; ++c)
        out[(static_cast<size_t>(x) * height + y) * channels + c] = tile[threadIdx.x][dx * channels + c];
  }
}

template <typename TIn>
void launch_transpose(const TIn* in, size_t pitch, int width, int height, int channels, int shift, float* out,
                      cudaStream_t stream) {
  transpose_kernel<TIn><<<tile_grid(width, height), kTileBlock, 0, stream>>>(in, pitch, width, height, channels, shift, out);
}
// The same for four float channels: a pixel per 16-byte access (the work planes are allocated
// aligned), a quarter of the requests of four float accesses 16 bytes apart.
__global__ void __launch_bounds__(kTile * 8)
transpose4_kernel(const float4* in, int width, int height, float4* out) {
  __shared__ float4 tile[kTile][kTile + 1];
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  for (int dy = threadIdx.y; dy < kTile; dy += blockDim.y) {
    const int x = x0 + threadIdx.x, y = y0 + dy;
    if (x < width && y < height) tile[dy][threadIdx.x] = in[static_cast<size_t>(y) * width + x];
  }
  __syncthreads();
  for (int dx = threadIdx.y; dx < kTile; dx += blockDim.y) {
    const int y = y0 + threadIdx.x, x = x0 + dx;
    if (x < width && y < height) out[static_cast<size_t>(x) * height + y] = tile[threadIdx.x][dx];
  }
}

void launch_transpose(const float* in, int width, int height, int channels, float* out, cudaStream_t stream) {
  if (channels == 4)
    transpose4_kernel<<<tile_grid(width, height), kTileBlock, 0, stream>>>(
        reinterpret_cast<const float4*>(in), width, height, reinterpret_cast<float4*>(out));
  else
    launch_transpose(in, static_cast<size_t>(width) * channels, width, height, channels, 0, out, stream);
}

// Load to float and store back (rounded, clamped) with kSamplesPerThread consecutive samples of
// a row per thread: a sample per thread kept these kernels at a third of the memory bandwidth.
constexpr int kSamplesPerThread = 4;
static_assert(kSamplesPerThread == 4, "the aligned paths move float4s");
dim3 grid_samples(int row_samples, int height) {
  return grid_2d((row_samples + kSamplesPerThread - 1) / kSamplesPerThread, height);
}

template <typename T>
__global__ void load_plane_kernel(const T* src, size_t pitch, int row_samples, int height, int shift,
                                  float* work) {
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * kSamplesPerThread;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= row_samples || y >= height) return;
  const T* in = src + static_cast<size_t>(y) * pitch + x;
  float* out = work + static_cast<size_t>(y) * row_samples + x;
  if (row_samples % 4 == 0) {  // whole, 16-byte aligned groups
    *reinterpret_cast<float4*>(out) = make_float4(static_cast<float>(in[0] >> shift), static_cast<float>(in[1] >> shift),
                                                  static_cast<float>(in[2] >> shift), static_cast<float>(in[3] >> shift));
    return;
  }
#pragma unroll
  for (int i = 0; i < kSamplesPerThread; ++i)
    if (x + i < row_samples) out[i] = static_cast<float>(in[i] >> shift);
}

// A float result as a sample: rounded half up, clamped, shifted into place.
template <typename T>
__device__ inline T float_to_sample(float v, float max_value, int shift) {
  const float r = rounded_sample(v, max_value);
  return static_cast<T>(static_cast<unsigned>(r) << shift);
}

template <typename T>
__global__ void store_plane_kernel(const float* work, int row_samples, int height, int shift,
                                   float max_value, T* dst, size_t pitch) {
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * kSamplesPerThread;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= row_samples || y >= height) return;
  const float* in = work + static_cast<size_t>(y) * row_samples + x;
  T* out = dst + static_cast<size_t>(y) * pitch + x;
  float v[kSamplesPerThread];
  if (row_samples % 4 == 0) {  // whole, 16-byte aligned groups
    const float4 q = *reinterpret_cast<const float4*>(in);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else {
#pragma unroll
    for (int i = 0; i < kSamplesPerThread; ++i) v[i] = x + i < row_samples ? in[i] : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < kSamplesPerThread; ++i)
    if (x + i < row_samples) out[i] = float_to_sample<T>(v[i], max_value, shift);
}

// A pass runs down the columns of a width x height float plane (a transposed one for the
// horizontal pass); `spacing` is laid out like the plane, one float per pixel.
struct PassShape {
  int width, height, channels;
  const float* spacing;
};
// Where this thread's (line, segment) lies; false past the last one or for an empty segment.
// `item` is the pair's index, seg x lines + line (a block-parallel record's index).
__device__ inline bool pass_item(const PassShape& s, int segments, EdgeLine<float>& l, int& s0, int& s1,
                                 long& item) {
  item = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lines = s.width;
  if (item >= static_cast<long>(lines) * segments) return false;
  const int line = static_cast<int>(item % lines), seg = static_cast<int>(item / lines);
  l = edge_line(false, line, s.width, s.height, s.channels, static_cast<size_t>(s.width) * s.channels, s.spacing);
  edge_segment_bounds(l.length, segments, seg, s0, s1);
  return s0 < s1;
}

// Algorithms A and C, RF: one direction of a pass (0: in -> mid, 1: mid -> out) over every
// segment; two launches, because a segment's anticausal warm-up reads the causal results of the
// segments after it.
template <int kDirection>
__global__ void __launch_bounds__(kThreads)
rf_warm_kernel(PassShape shape, PassParams p, const float* in, float* mid, float* out) {
  EdgeLine<float> l;
  int s0, s1;
  long item;
  if (!pass_item(shape, p.segments, l, s0, s1, item)) return;
  edge_rf_warm(l, kDirection, in, mid, out, p.log_a, s0, s1, p.extent);
}

// Algorithms A and C, Gaussian: both halves of a segment in one thread, the causal half kept in
// `out` (edge_gaussian_warm_both). Two launches through a mid plane are slower, and so is
// writing the horizontal pass's result straight into the rows of the plane instead of
// transposing it back (docs/bench/kernel_choices.md, "Edge-aware kernels").
__global__ void __launch_bounds__(kThreads)
gaussian_warm_kernel(PassShape shape, PassParams p, const float* in, float* out) {
  EdgeLine<float> l;
  int s0, s1;
  long item;
  if (!pass_item(shape, p.segments, l, s0, s1, item)) return;
  edge_gaussian_warm_both(l, in, out, p.terms, s0, s1, p.extent);
}

// The Gaussian's last (vertical) pass with Algorithm A or C: as gaussian_warm_kernel, the causal
// half in `mid`, the results written as the frame's samples (no store kernel, and a quarter of
// the bytes written for 8-bit frames).
template <typename T>
__global__ void __launch_bounds__(kThreads)
gaussian_warm_store_kernel(PassShape shape, PassParams p, const float* in, float* mid, T* dst, size_t dst_pitch,
                           int shift, float max_value) {
  EdgeLine<float> l;
  int s0, s1;
  long item;
  if (!pass_item(shape, p.segments, l, s0, s1, item)) return;
  const size_t column = static_cast<size_t>(item % shape.width) * shape.channels;
  auto store = [&](int k, size_t, const float(&result)[kEdgeMaxChannels]) {
    T* px = dst + static_cast<size_t>(k) * dst_pitch + column;
    CG_FOR_CHANNELS(c, shape.channels) { px[c] = float_to_sample<T>(result[c], max_value, shift); }
  };
  edge_gaussian_warm_both(l, in, mid, store, p.terms, s0, s1, p.extent);
}

// ---- block-parallel: records of segment maps (edge_aware_lines.h), scanned per line ------------

// Stage of the block-parallel pass a launch runs.
enum class BpStage { GaussianCarry, GaussianApply, RfCausalCarry, RfCausalApply, RfAnticausalApply };

template <BpStage kStage>
__global__ void __launch_bounds__(kThreads)
bp_segment_kernel(PassShape shape, PassParams p, const float* in, float* mid, float* out, float* carries) {
  EdgeLine<float> l;
  int s0, s1;
  long item;
  if (!pass_item(shape, p.segments, l, s0, s1, item)) return;
  const EdgeFilter filter = kStage == BpStage::GaussianCarry || kStage == BpStage::GaussianApply ? EdgeFilter::Gaussian
                                                                                                  : EdgeFilter::Rf;
  float* record = carries + item * edge_record_floats(filter, shape.channels);
  if constexpr (kStage == BpStage::GaussianCarry) edge_gaussian_bp_carry(l, in, p.terms, s0, s1, record);
  if constexpr (kStage == BpStage::GaussianApply) edge_gaussian_bp_apply(l, in, out, p.terms, s0, s1, record);
  if constexpr (kStage == BpStage::RfCausalCarry) edge_rf_bp_causal_carry(l, in, p.log_a, s0, s1, record);
  if constexpr (kStage == BpStage::RfCausalApply) edge_rf_bp_causal_apply(l, in, mid, p.log_a, s0, s1, record);
  if constexpr (kStage == BpStage::RfAnticausalApply) edge_rf_bp_anticausal_apply(l, mid, out, p.log_a, s0, s1, record);
}

// One warp per (line, map) for maps [map_begin, map_begin + map_count): the scan that turns the
// maps' F into entry states (edge_scan_map's result); the maps of direction 1 (map / terms) run
// backward. A segment maps its entry e to P e + F; such maps compose associatively, so each lane
// composes a run of consecutive segments, a warp-wide inclusive scan over shuffles gives each
// lane the map of every segment before its run (applied to the line's zero start, its F), and
// the lane walks its run again writing entry states — loads independent of each other, unlike a
// sequential walk.
constexpr int kWarp = 32;

struct SegmentMap {
  DtComplex<float> p, f[kEdgeMaxChannels];
};

// after ∘ before.
__device__ inline SegmentMap compose(const SegmentMap& after, const SegmentMap& before, int channels) {
  SegmentMap m;
  m.p = after.p * before.p;
  CG_FOR_CHANNELS(c, channels) { m.f[c] = after.p * before.f[c] + after.f[c]; }
  return m;
}

__device__ inline SegmentMap shuffle_up(const SegmentMap& m, int delta, int channels) {
  SegmentMap r;
  r.p = {__shfl_up_sync(0xffffffffu, m.p.re, delta), __shfl_up_sync(0xffffffffu, m.p.im, delta)};
  CG_FOR_CHANNELS(c, channels) {
    r.f[c] = {__shfl_up_sync(0xffffffffu, m.f[c].re, delta), __shfl_up_sync(0xffffffffu, m.f[c].im, delta)};
  }
  return r;
}

__global__ void bp_scan_kernel(float* carries, int lines, int segments, int channels, int record, int terms,
                               int map_begin, int map_count) {
  const long warp = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  if (warp >= static_cast<long>(lines) * map_count) return;  // whole warps leave together
  const int lane = threadIdx.x % kWarp;
  const int line = static_cast<int>(warp % lines), map = map_begin + static_cast<int>(warp / lines);
  const bool backward = map / terms == 1;
  float* first = carries + static_cast<size_t>(line) * record + map * edge_map_floats(channels);
  const ptrdiff_t stride = static_cast<ptrdiff_t>(lines) * record;
  const int run = (segments + kWarp - 1) / kWarp;
  const int j0 = min(segments, lane * run), j1 = min(segments, j0 + run);
  auto map_at = [&](int j) { return first + static_cast<ptrdiff_t>(backward ? segments - 1 - j : j) * stride; };
  auto load = [&](const float* m) {
    SegmentMap s;
    s.p = {m[0], m[1]};
    CG_FOR_CHANNELS(c, channels) { s.f[c] = {m[2 + 2 * c], m[3 + 2 * c]}; }
    return s;
  };

  SegmentMap mine{{1.0f, 0.0f}, {}};
  for (int j = j0; j < j1; ++j) mine = compose(load(map_at(j)), mine, channels);
  SegmentMap inclusive = mine;
  for (int delta = 1; delta < kWarp; delta *= 2) {
    const SegmentMap earlier = shuffle_up(inclusive, delta, channels);
    if (lane >= delta) inclusive = compose(inclusive, earlier, channels);
  }
  const SegmentMap before = shuffle_up(inclusive, 1, channels);
  DtComplex<float> state[kEdgeMaxChannels] = {};  // the line's start: e = 0
  if (lane > 0) CG_FOR_CHANNELS(c, channels) { state[c] = before.f[c]; }
  for (int j = j0; j < j1; ++j) {
    float* m = map_at(j);
    const SegmentMap s = load(m);
    CG_FOR_CHANNELS(c, channels) {
      m[2 + 2 * c] = state[c].re, m[3 + 2 * c] = state[c].im;
      state[c] = s.p * state[c] + s.f[c];
    }
  }
}

unsigned blocks_for(long threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

template <BpStage kStage>
void launch_bp(const PassShape& shape, const PassParams& p, const float* in, float* mid, float* out, float* carries,
               cudaStream_t stream) {
  bp_segment_kernel<kStage><<<blocks_for(static_cast<long>(shape.width) * p.segments), kThreads, 0, stream>>>(
      shape, p, in, mid, out, carries);
}

void launch_scan(const PassShape& shape, const PassParams& p, EdgeFilter filter, int map_begin, int map_count,
                 float* carries, cudaStream_t stream) {
  const int terms = filter == EdgeFilter::Gaussian ? 2 : 1;
  bp_scan_kernel<<<blocks_for(static_cast<long>(shape.width) * map_count * kWarp), kThreads, 0, stream>>>(
      carries, shape.width, p.segments, shape.channels, edge_record_floats(filter, shape.channels), terms, map_begin,
      map_count);
}

// in -> out (through mid and the carries), one direction of one iteration.
template <EdgeFilter kFilter>
void launch_pass(const PassShape& shape, const PassParams& p, const float* in, float* mid, float* out,
                 float* carries, cudaStream_t stream) {
  if (p.block_parallel) {
    if constexpr (kFilter == EdgeFilter::Gaussian) {
      launch_bp<BpStage::GaussianCarry>(shape, p, in, mid, out, carries, stream);
      launch_scan(shape, p, kFilter, 0, 4, carries, stream);
      launch_bp<BpStage::GaussianApply>(shape, p, in, mid, out, carries, stream);
    } else {
      launch_bp<BpStage::RfCausalCarry>(shape, p, in, mid, out, carries, stream);
      launch_scan(shape, p, kFilter, 0, 1, carries, stream);
      launch_bp<BpStage::RfCausalApply>(shape, p, in, mid, out, carries, stream);
      launch_scan(shape, p, kFilter, 1, 1, carries, stream);
      launch_bp<BpStage::RfAnticausalApply>(shape, p, in, mid, out, carries, stream);
    }
    return;
  }
  const unsigned blocks = blocks_for(static_cast<long>(shape.width) * p.segments);
  if constexpr (kFilter == EdgeFilter::Rf) {
    rf_warm_kernel<0><<<blocks, kThreads, 0, stream>>>(shape, p, in, mid, out);
    rf_warm_kernel<1><<<blocks, kThreads, 0, stream>>>(shape, p, in, mid, out);
  } else {
    gaussian_warm_kernel<<<blocks, kThreads, 0, stream>>>(shape, p, in, out);
  }
}

// Per iteration, with `cur` the filtered plane and `tmp` the other buffer: the horizontal pass
// (cur -> transposed tmp -> pass -> cur, transposed -> tmp, then swap) and the vertical pass
// (cur -> tmp, then swap); an axis with sigma 0 is skipped. The frame's samples are loaded to
// float by the first transpose where the first pass is horizontal, else by a load kernel.
template <typename T>
Status run_plane(const PlanePlan& pp, EdgeFilter filter, const void* src, size_t src_pitch, void* dst,
                 size_t dst_pitch, const float* ht, const float* v, float* a, float* b, float* mid,
                 float* carries, cudaStream_t stream) {
  const PlaneGeometry& g = pp.g;
  const int row_samples = g.samples_per_row();
  const T* samples = static_cast<const T*>(src);
  const size_t sample_pitch = src_pitch / sizeof(T);
  const PassShape across{g.height, g.width, g.channels, ht};  // on the transposed plane
  const PassShape down{g.width, g.height, g.channels, v};
  auto pass = [&](const PassShape& shape, const PassParams& p, const float* in, float* out) {
    if (filter == EdgeFilter::Rf) launch_pass<EdgeFilter::Rf>(shape, p, in, mid, out, carries, stream);
    else launch_pass<EdgeFilter::Gaussian>(shape, p, in, mid, out, carries, stream);
  };
  float* cur = a;
  float* tmp = b;
  bool loaded = false;  // cur holds the frame as floats
  auto ensure_loaded = [&] {
    if (loaded) return;
    load_plane_kernel<T><<<grid_samples(row_samples, g.height), kBlock2d, 0, stream>>>(samples, sample_pitch,
                                                                                         row_samples, g.height,
                                                                                         g.shift, cur);
    loaded = true;
  };
  for (size_t i = 0; i < pp.x.size(); ++i) {
    if (!pp.x[i].identity) {
      if (loaded) launch_transpose(cur, g.width, g.height, g.channels, tmp, stream);
      else launch_transpose(samples, sample_pitch, g.width, g.height, g.channels, g.shift, tmp, stream);
      loaded = true;
      pass(across, pp.x[i], tmp, cur);
      launch_transpose(cur, g.height, g.width, g.channels, tmp, stream);
      std::swap(cur, tmp);
    }
    if (!pp.y[i].identity) {
      ensure_loaded();
      if (i + 1 == pp.y.size() && filter == EdgeFilter::Gaussian && !pp.y[i].block_parallel) {
        // The last pass writes the frame itself.
        const unsigned blocks = blocks_for(static_cast<long>(down.width) * pp.y[i].segments);
        gaussian_warm_store_kernel<T><<<blocks, kThreads, 0, stream>>>(
            down, pp.y[i], cur, tmp, static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift,
            static_cast<float>(g.max_value()));
        return launch_check();
      }
      pass(down, pp.y[i], cur, tmp);
      std::swap(cur, tmp);
    }
  }
  ensure_loaded();  // no pass at all: the frame is copied through the rounding
  store_plane_kernel<T><<<grid_samples(row_samples, g.height), kBlock2d, 0, stream>>>(
      cur, row_samples, g.height, g.shift, static_cast<float>(g.max_value()), static_cast<T*>(dst),
      dst_pitch / sizeof(T));
  return launch_check();
}

size_t pixels(const PlaneGeometry& g) { return static_cast<size_t>(g.width) * g.height; }

}  // namespace

struct EdgeAwareBlur::Plan {
  EdgeAwareSettings settings;
  std::vector<PlanePlan> planes;
  float ratio_x = 0.0f, ratio_y = 0.0f;
  unsigned mask = ~0u;
};

EdgeAwareBlur::EdgeAwareBlur() = default;
EdgeAwareBlur::~EdgeAwareBlur() = default;

Status EdgeAwareBlur::plan(const EdgeAwareSettings& s, const std::vector<PlaneSpec>& planes, double sigma_x,
                           double sigma_y) {
  release();
  CG_TRY(validate(s, planes, sigma_x, sigma_y));
  auto plan = std::make_unique<Plan>();
  plan->settings = s;
  const PlaneGeometry& g0 = planes[0].geometry;
  // sigma_r in plane 0's sample units; spacings are computed in luma pixels of plane 0.
  const double sigma_r = s.sigma_r * g0.max_value() / 255.0;
  plan->ratio_x = static_cast<float>(sigma_x / sigma_r);
  plan->ratio_y = static_cast<float>(sigma_y / sigma_r);
  plan->mask = planes[0].edge_channels;
  for (const PlaneSpec& spec : planes) plan->planes.push_back(plan_plane(s, spec, sigma_x, sigma_y));
  const EdgeAwareBuffers buffers = edge_aware_buffers(s, plan->planes);
  const size_t work = buffers.work, other = buffers.other, carry_floats = buffers.carries;
  for (DeviceBuffer* b : {&work_a_, &work_b_}) CG_TRY(b->reserve(work * sizeof(float)));
  // The Gaussian's passes keep their causal half in the output: only the RF needs a mid plane.
  if (s.filter == EdgeFilter::Rf) CG_TRY(mid_.reserve(work * sizeof(float)));
  for (DeviceBuffer* b : {&guide_ht_, &guide_v_}) CG_TRY(b->reserve(pixels(g0) * sizeof(float)));
  if (planes.size() > 1) CG_TRY(guide_h_.reserve(pixels(g0) * sizeof(float)));
  if (other > 0)
    for (DeviceBuffer* b : {&plane_ht_, &plane_v_}) CG_TRY(b->reserve(other * sizeof(float)));
  if (carry_floats > 0) CG_TRY(carries_.reserve(carry_floats * sizeof(float)));
  // NaN everywhere: a read of a value no kernel wrote shows up in every test. Once per plan.
  for (DeviceBuffer* b : {&work_a_, &work_b_, &mid_, &guide_h_, &guide_ht_, &guide_v_, &plane_ht_, &plane_v_, &carries_})
    if (b->get()) CG_CUDA_TRY(cudaMemset(b->get(), 0xff, b->size()));
  // cudaMemset runs on the legacy stream, which non-blocking streams do not wait for.
  CG_CUDA_TRY(cudaStreamSynchronize(nullptr));
  plan_ = std::move(plan);
  return Status::success();
}

Status EdgeAwareBlur::run(const std::vector<DevicePlaneRef>& src, const std::vector<MutableDevicePlaneRef>& dst,
                          cudaStream_t stream) const {
  if (!plan_) return Status::invalid("EdgeAwareBlur::run before a successful plan()");
  const std::vector<PlanePlan>& planes = plan_->planes;
  if (src.size() != planes.size() || dst.size() != planes.size())
    return Status::invalid("plane count does not match the plan");
  for (size_t i = 0; i < planes.size(); ++i)
    CG_TRY(check_run_arguments(planes[i].g, src[i].data, src[i].pitch, dst[i].data, dst[i].pitch));

  const PlaneGeometry& g0 = planes[0].g;
  auto* guide_h = planes.size() > 1 ? static_cast<float*>(guide_h_.get()) : nullptr;
  auto* guide_ht = static_cast<float*>(guide_ht_.get());
  auto* guide_v = static_cast<float*>(guide_v_.get());
  const EdgeFilter filter = plan_->settings.filter;
  const bool packed = g0.bytes_per_sample == 1 && g0.channels == 4 &&
                      (reinterpret_cast<uintptr_t>(src[0].data) | src[0].pitch) % 4 == 0;
  if (g0.bytes_per_sample == 1)
    guide_spacing_kernel<uint8_t><<<tile_grid(g0.width, g0.height), kTileBlock, 0, stream>>>(
        static_cast<const uint8_t*>(src[0].data), src[0].pitch, g0, packed, plan_->mask, filter, plan_->ratio_x,
        plan_->ratio_y, guide_h, guide_ht, guide_v);
  else
    guide_spacing_kernel<uint16_t><<<tile_grid(g0.width, g0.height), kTileBlock, 0, stream>>>(
        static_cast<const uint16_t*>(src[0].data), src[0].pitch / sizeof(uint16_t), g0, false, plan_->mask,
        filter, plan_->ratio_x, plan_->ratio_y, guide_h, guide_ht, guide_v);
  CG_TRY(launch_check());

  auto* a = static_cast<float*>(work_a_.get());
  auto* b = static_cast<float*>(work_b_.get());
  auto* mid = static_cast<float*>(mid_.get());
  auto* carries = static_cast<float*>(carries_.get());
  for (size_t i = 0; i < planes.size(); ++i) {
    const PlanePlan& pp = planes[i];
    const float* ht = guide_ht;
    const float* v = guide_v;
    if (i > 0) {
      auto* pht = static_cast<float*>(plane_ht_.get());
      auto* pv = static_cast<float*>(plane_v_.get());
      // U and V of I420/YV12 share one grid: resample once for both.
      const PlanePlan& before = planes[i - 1];
      const bool same_grid = i > 1 && before.g.width == pp.g.width && before.g.height == pp.g.height &&
                             before.subsample_x == pp.subsample_x && before.subsample_y == pp.subsample_y;
      if (!same_grid)
        resample_spacing_kernel<<<grid_2d(pp.g.width, pp.g.height), kBlock2d, 0, stream>>>(
            guide_h, guide_v, g0.width, g0.height, pp.g.width, pp.g.height, pp.subsample_x, pp.subsample_y, pht,
            pv);
      ht = pht;
      v = pv;
    }
    if (pp.g.bytes_per_sample == 1)
      CG_TRY(run_plane<uint8_t>(pp, filter, src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, ht, v, a, b,
                                mid, carries, stream));
    else
      CG_TRY(run_plane<uint16_t>(pp, filter, src[i].data, src[i].pitch, dst[i].data, dst[i].pitch, ht, v, a,
                                 b, mid, carries, stream));
  }
  return Status::success();
}

void EdgeAwareBlur::release() {
  for (DeviceBuffer* b : {&work_a_, &work_b_, &mid_, &guide_h_, &guide_ht_, &guide_v_, &plane_ht_, &plane_v_, &carries_}) b->release();
  plan_.reset();
}

}  // namespace cudagaussian
