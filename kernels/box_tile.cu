// SPDX-License-Identifier: LGPL-2.1-or-later
// Box passes of one axis, one kernel (box_tile.h). Thread (l, c) of a block holds samples
// 16c .. 16c + 15 of tile line l in registers. A pass:
//   1. turns them into running sums and publishes the total of the 16;
//   2. a warp per line scans those totals (exclusive), so each thread knows the sum before it;
//   3. every thread writes its prefix sums S(q) = x[0] + .. + x[q - 1] to shared memory;
//   4. S past the ends, S(-r - 1 .. -1) and S(n + 1 .. n + r), from the border rule
//      (border_prefix.cuh, as box_filter.cu's wide windows);
//   5. each output becomes (S(p + r + 1) - S(p - r)) / (2r + 1).
// Prefix sums are float for 8-bit planes (at most a few million: rounding far below a level) and
// double for 16-bit ones.

#include "box_tile.cuh"

#include <cstdint>
#include <type_traits>

#include "border_prefix.cuh"
#include "chained_launch.cuh"

namespace cudagaussian {
namespace {

constexpr int kShift = 4;
constexpr int kChunk = 1 << kShift;  // samples per thread
// Blocks of up to 768 threads at 40 registers: three blocks of a 1080-row strip (544 threads) per
// SM, so that one block's loads overlap another's passes. (At 1,024 threads the kernel took 58
// registers and one such block per SM.)
constexpr int kMaxThreads = 768;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kMinBlocks = 1;  // Turing runs at most 1,024 threads per SM
#else
constexpr int kMinBlocks = 2;
#endif

// One padding element after every kChunk prefix sums: the threads of a warp, 16 samples apart,
// then read and write different banks.
__host__ __device__ inline int padded(int q) { return q + (q >> kShift); }

// S(j) of a line (border_prefix.cuh), from its prefix sums S(0 .. n) at S0[padded(k)] and its
// first and last samples.
template <typename TSum>
__device__ inline double extended_prefix(const TSum* S0, int n, float first, float last, int j, Border border) {
  return border_extended_prefix([&](int k) -> double { return S0[padded(k)]; }, [&] { return first; },
                                [&] { return last; }, n, j, border);
}

template <typename TSum, typename TIn, typename TOut>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
box_tile_kernel(BoxTileShape s, Plane<TIn> in, Plane<TOut> out, BoxTilePasses passes, Border border) {
  begin_chained_kernel();
  extern __shared__ double shared[];
  TSum* prefix = reinterpret_cast<TSum*>(shared);                   // lines x line_stride
  TSum* chunk_sum = prefix + s.lines_per_tile * s.line_stride;      // lines x chunks
  float* edge = reinterpret_cast<float*>(chunk_sum + s.lines_per_tile * s.chunks);  // first, last
  float* last_chunk = edge + 2 * s.lines_per_tile;  // lines x kChunk: the samples of the last chunk
  const int n = s.length, tile = blockIdx.x, chunks = s.chunks, apron = s.apron;
  const int m = s.vertical ? min(s.lines_per_tile, s.lines - tile * s.lines_per_tile) : s.lines_per_tile;
  const int l = threadIdx.x % m, chunk = threadIdx.x / m, p0 = chunk * kChunk;
  const int count = chunk < chunks ? min(kChunk, n - p0) : 0;  // this thread's samples
  // Sample p of tile line `line`: rows hold their channels interleaved, columns a strip side by
  // side. (Staging the tile through shared memory to read and write it in memory order is
  // slower: docs/bench/kernel_choices.md, "Box filters".)
  const int groups = s.channels / s.lines_per_tile;  // rows: blocks per row, each a group of channels
  const auto global_at = [&](size_t pitch, int p, int line) {
    return s.vertical ? static_cast<size_t>(p) * pitch + static_cast<size_t>(tile) * s.lines_per_tile + line
                      : static_cast<size_t>(tile / groups) * pitch + static_cast<size_t>(p) * s.channels +
                            (tile % groups) * m + line;
  };
  float v[kChunk];
#pragma unroll
  for (int j = 0; j < kChunk; ++j) v[j] = j < count ? in.load_at(global_at(in.pitch, p0 + j, l)) : 0.0f;

  // S(q) of line l, q in [-apron, n + apron), at S[padded(q + apron)].
  TSum* S = prefix + l * s.line_stride;
  const auto at = [&](int q) { return padded(q + apron); };
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  for (int k = 0; k < passes.count; ++k) {
    // 1. Running sums. The last chunk's samples are also kept in shared memory, where the line's
    // last sample is picked up for the border (indexing the registers by count would move them
    // to local memory).
    if (chunk == 0 && count > 0) edge[l] = v[0];
    if (count > 0 && p0 + count == n) {
#pragma unroll
      for (int j = 0; j < kChunk; ++j) last_chunk[l * kChunk + j] = v[j];
    }
#pragma unroll
    for (int j = 1; j < kChunk; ++j) v[j] += v[j - 1];
    if (count > 0) chunk_sum[l * chunks + chunk] = v[kChunk - 1];
    __syncthreads();
    // 2. A warp per line: exclusive scan of the chunk totals, 32 at a time; its last sample.
    for (int line = warp; line < m; line += warps) {
      TSum* sums = chunk_sum + line * chunks;
      if (lane == 0) edge[m + line] = last_chunk[line * kChunk + (n - 1) % kChunk];
      TSum carry = 0;
      for (int c0 = 0; c0 < chunks; c0 += 32) {
        const int c = c0 + lane;
        const TSum own = c < chunks ? sums[c] : TSum(0);
        TSum inclusive = own;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const TSum u = __shfl_up_sync(0xffffffffu, inclusive, d);
          if (lane >= d) inclusive += u;
        }
        if (c < chunks) sums[c] = carry + inclusive - own;
        carry += __shfl_sync(0xffffffffu, inclusive, 31);
      }
    }
    __syncthreads();
    // 3. Prefix sums S(p0 + 1 .. p0 + count); S(0) = 0.
    if (count > 0) {
      const TSum before = chunk_sum[l * chunks + chunk];
      if (chunk == 0) S[at(0)] = 0;
#pragma unroll
      for (int j = 0; j < kChunk; ++j)
        if (j < count) S[at(p0 + j + 1)] = before + TSum(v[j]);
    }
    __syncthreads();
    // 4. S past the ends, from the border rule.
    const int r = passes.radius[k];
    const int span = r + 1;  // this pass reads S(-r) .. S(n + r)
    for (int i = threadIdx.x; i < m * 2 * span; i += blockDim.x) {
      const int line = i / (2 * span), e = i - line * 2 * span;
      const int q = e < span ? e - span : n + 1 + (e - span);  // [-span, 0) and (n, n + span]
      if (q > n + r) continue;
      TSum* line_sums = prefix + line * s.line_stride;
      line_sums[at(q)] = static_cast<TSum>(
          extended_prefix(line_sums + apron + apron / kChunk, n, edge[line], edge[m + line], q, border));
    }
    __syncthreads();
    // 5. Window sums. (Until its second barrier, which every thread reaches after these reads,
    // the next pass writes no prefix sums.)
    const float inv = 1.0f / (2 * r + 1);
    // S[at(q0 + j)] = S[at(q0) + j], plus one past the padding element where (q0 + apron) % 16 + j
    // reaches 16 (p0 and the apron are multiples of 16).
    const TSum* hi = S + at(p0 + r + 1);
    const TSum* lo = S + at(p0 - r);
    const int hi_pad = 15 - ((r + 1) & 15), lo_pad = 15 - ((-r) & 15);
#pragma unroll
    for (int j = 0; j < kChunk; ++j)
      v[j] = j < count ? static_cast<float>(hi[j + (j > hi_pad)] - lo[j + (j > lo_pad)]) * inv : 0.0f;
  }
#pragma unroll
  for (int j = 0; j < kChunk; ++j)
    if (j < count) out.store_at(global_at(out.pitch, p0 + j, l), v[j]);
}

// Prefix sums of 16-bit planes in double: float would round sums of more than 2^24.
template <typename T>
using PrefixSum = std::conditional_t<std::is_same_v<T, uint8_t>, float, double>;

// Bank conflicts of the warp's first prefix-sum access (thread t: line t % m, chunk t / m) for a
// line stride congruent to `stride` modulo 32.
int worst_conflict(int m, int stride) {
  int hits[32] = {};
  int worst = 0;
  for (int t = 0; t < 32; ++t) {
    const int bank = ((t % m) * stride + (t / m) * (kChunk + 1)) % 32;
    worst = hits[bank] + 1 > worst ? hits[bank] + 1 : worst;
    ++hits[bank];
  }
  return worst;
}

}  // namespace

bool box_tile_shape(const PlaneGeometry& g, bool vertical, int max_radius, size_t shared_limit,
                    int columns_forced, BoxTileShape& s) {
  if (max_radius < 0 || max_radius > (1 << 20)) return false;  // far past any frame: the line kernels
  s.vertical = vertical;
  s.length = vertical ? g.height : g.width;
  s.lines = vertical ? g.samples_per_row() : g.height;
  s.chunks = (s.length + kChunk - 1) / kChunk;
  s.channels = g.channels;
  if (!vertical) {
    // A row, its channels interleaved; split into groups of channels where it needs too many threads.
    int m = g.channels;
    while (m > 1 && m * s.chunks > kMaxThreads) m = m % 2 == 0 ? m / 2 : 1;
    s.lines_per_tile = m;
  } else if (columns_forced > 0) {
    s.lines_per_tile = columns_forced;
  } else {
    int m = 8;  // 8 floats: one 32-byte sector of a row
    while (m > 1 && m * s.chunks > kMaxThreads) m /= 2;
    s.lines_per_tile = m;
  }
  const int m = s.lines_per_tile;
  s.threads = (m * s.chunks + 31) / 32 * 32;
  // S(-apron .. n + apron - 1) per line, the stride chosen for the fewest bank conflicts.
  s.apron = (max_radius + 1 + kChunk - 1) / kChunk * kChunk;
  const int need = padded(s.length + 2 * s.apron);
  int best = 0;
  for (int r = 0; r < 32; ++r)
    if (worst_conflict(m, r) < worst_conflict(m, best)) best = r;
  s.line_stride = need + ((best - need % 32) % 32 + 32) % 32;
  const size_t sum_bytes = g.bytes_per_sample == 1 ? sizeof(float) : sizeof(double);
  s.shared_bytes =
      static_cast<size_t>(m) * (s.line_stride + s.chunks) * sum_bytes + (2 + kChunk) * m * sizeof(float);
  return s.threads <= kMaxThreads && s.shared_bytes <= shared_limit;
}

template <typename T>
Status allow_box_tile_shared(size_t bytes) {
  using TSum = PrefixSum<T>;
  const int limit = static_cast<int>(bytes);
  constexpr auto attr = cudaFuncAttributeMaxDynamicSharedMemorySize;
  CG_CUDA_TRY(cudaFuncSetAttribute(box_tile_kernel<TSum, T, float>, attr, limit));
  CG_CUDA_TRY(cudaFuncSetAttribute(box_tile_kernel<TSum, float, T>, attr, limit));
  CG_CUDA_TRY(cudaFuncSetAttribute(box_tile_kernel<TSum, T, T>, attr, limit));
  return Status::success();
}

// TSample: the plane's sample type (sets the prefix sums' precision).
template <typename TSample, typename TIn, typename TOut>
Status launch_box_tile(const BoxTileShape& shape, const Plane<TIn>& in, const Plane<TOut>& out,
                       const BoxTilePasses& passes, Border border, bool chained, cudaStream_t stream) {
  CG_CUDA_TRY(launch_chained(chained, box_tile_kernel<PrefixSum<TSample>, TIn, TOut>, shape.blocks(), shape.threads,
                             shape.shared_bytes, stream, shape, in, out, passes, border));
  return Status::success();
}

template Status allow_box_tile_shared<uint8_t>(size_t);
template Status allow_box_tile_shared<uint16_t>(size_t);
#define CG_INSTANTIATE_BOX_TILE(T, TIn, TOut)                                                                     \
  template Status launch_box_tile<T, TIn, TOut>(const BoxTileShape&, const Plane<TIn>&, const Plane<TOut>&, \
                                                const BoxTilePasses&, Border, bool, cudaStream_t);
CG_INSTANTIATE_BOX_TILE(uint8_t, uint8_t, float)
CG_INSTANTIATE_BOX_TILE(uint8_t, float, uint8_t)
CG_INSTANTIATE_BOX_TILE(uint8_t, uint8_t, uint8_t)
CG_INSTANTIATE_BOX_TILE(uint16_t, uint16_t, float)
CG_INSTANTIATE_BOX_TILE(uint16_t, float, uint16_t)
CG_INSTANTIATE_BOX_TILE(uint16_t, uint16_t, uint16_t)
#undef CG_INSTANTIATE_BOX_TILE

}  // namespace cudagaussian
