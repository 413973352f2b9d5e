// SPDX-License-Identifier: LGPL-2.1-or-later
// Region effects on the GPU. See region_filter.h for the contract and common/region_plan.h for
// the tables.
//
// Per plane, every region of the frame (a task: one region on one plane) runs in two launches
// (launch 2 as two kernel instances when plain and other tasks mix; region_plan.h), whose
// blocks find their task by a binary search over the tasks' first tiles:
//   1. Blur: the horizontal FIR over the rows the vertical pass will read, [y0 - R, y1 + R) of
//      the plane, and the columns of the region, into float scratch (the region's own).
//      Pixelate: the rounded mean of every block the region touches, into scratch.
//   2. Every pixel of the region's rectangle: the effect value (Blur: the vertical FIR of the
//      scratch, rounded to a sample; Pixelate: the block's mean; Fill: the constant), blended
//      with the input by the mask weight. A pixel is written only by the region that owns it
//      (region_precedes over the regions whose rectangles meet this one's), so overlapping
//      regions never write the same pixel and each pixel is written once.
// restore() is launch 2 alone, blending dst back towards src. apply() into another plane first
// copies the whole plane, so that pixels outside every region are the input's bytes; in place
// (src == dst) it copies nothing: launch 1 reads the input before launch 2 writes any of it, and
// launch 2 uses the input only of the pixels its own thread writes (a thread may load a pixel
// another region owns, and drops the value).
//
// Both FIR passes are register-blocked: a thread makes kRegionBlock consecutive outputs along
// the pass, so each input and each tap is loaded once per kRegionBlock multiply-adds, and the
// padded taps (region_plan.h) leave the multiply-adds without tests. Each output sums over
// k = -R..R in order, as the reference does; a thread away from the edges walks its inputs
// without the border rule.
//
// The tables travel inside kernel parameters, so that the stream never hands over to a copy
// engine (which costs more than the region kernels of a few faces) and the host's copy is free
// again once the launch returns: up to 2 KB (a few regions) in every region kernel's own
// parameters, read there through the constant cache; larger tables through one or a few small
// kernels that store them in global memory first.

#include "region_filter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "chained_launch.cuh"
#include "device_memory.h"
#include "region_checks.h"
#include "region_plan.h"
#include "sample_float.cuh"

namespace cudagaussian {
namespace {

// Scratch of one batch, floats: larger frames of regions run as several batches (region_plan.h).
constexpr long long kScratchBudgetFloats = 64ll << 20;  // 256 MB

enum class PixelMode { Blur, Pixelate, Fill, Restore };

// One plane's pointers and layout, by value.
struct PlaneArgs {
  const unsigned char* src;
  size_t src_pitch;  // bytes
  unsigned char* dst;
  size_t dst_pitch;
  int width, height, channels, shift, max_value;
  int subsample_x, subsample_y;
};

// Up to kWords 16-byte words of a call's tables, passed by value (kernel parameters may hold
// up to 32764 bytes since CUDA 12.1).
template <int kWords>
struct TableChunk {
  uint4 words[kWords];
};
constexpr int kSmallChunkWords = 128;   // 2 KB: the tables of a few regions
constexpr int kLargeChunkWords = 2032;  // 32512 bytes

// The tables of a call small enough to travel in every region kernel's parameters; larger ones
// are stored in global memory first (RegionState::upload).
using ParamTables = TableChunk<kSmallChunkWords>;

// Where a batch's tables start, in bytes from the start of the call's tables.
struct TableOffsets {
  size_t tasks, regions, neighbours, taps, keep;
};

// One batch's tables, by value.
struct BatchArgs {
  const unsigned char* tables;  // the call's tables in global memory; null: in ParamTables
  TableOffsets at;
  int task_count;
  int keep_count;  // restore: regions that stay under the effect
  float* scratch;
  int block_x, block_y;  // Pixelate
  int fill[4];           // Fill, sample units
  SampleFinish finish;   // Blur: the unsharp mask; every effect: the channels kept (not written)
};

// A batch's tables as the kernel reads them: from global memory or from its own parameters
// (through the constant cache; every thread of a block reads the same entries).
struct BatchTables {
  const RegionTask* tasks;
  const RegionEntry* regions;
  const int* neighbours;
  const float* taps;
  const RegionBox* keep;
};
__device__ __forceinline__ BatchTables batch_tables(const BatchArgs& b, const ParamTables& params) {
  const unsigned char* base = b.tables ? b.tables : reinterpret_cast<const unsigned char*>(params.words);
  return {reinterpret_cast<const RegionTask*>(base + b.at.tasks), reinterpret_cast<const RegionEntry*>(base + b.at.regions),
          reinterpret_cast<const int*>(base + b.at.neighbours), reinterpret_cast<const float*>(base + b.at.taps),
          reinterpret_cast<const RegionBox*>(base + b.at.keep)};
}

template <typename T>
__device__ __forceinline__ const T* row_of(const unsigned char* base, size_t pitch, int y) {
  return reinterpret_cast<const T*>(base + static_cast<size_t>(y) * pitch);
}

// A stored sample's value (stored >> shift); as float, sample_as_float (sample_float.cuh): the
// horizontal pass would otherwise convert every input it reads.
template <typename T>
__device__ __forceinline__ int sample_value(T stored, int shift) {
  return static_cast<int>(static_cast<unsigned>(stored) >> shift);
}

// The task of tile `tile` of launch `which`: the last one whose first tile is at most `tile`.
__device__ __forceinline__ int find_task(const RegionTask* tasks, int count, int which, int tile) {
  int lo = 0, hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (tasks[mid].first_tile[which] <= tile)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The region's weight at plane pixel (x, y) if it owns the pixel, else 0. `self` is the task's
// region (in registers); the competitors are read from the tables.
__device__ double owned_weight(const BatchTables& b, const RegionTask& t, const RegionEntry& self, int x, int y,
                               int sx, int sy) {
  const double w = region_weight(self.box, x, y, sx, sy);
  if (w <= 0.0) return 0.0;
  for (int i = 0; i < t.neighbour_count; ++i) {
    const int q = b.neighbours[t.neighbours + i];
    const RegionEntry other = b.regions[q];
    const double wq = region_weight(other.box, x, y, sx, sy);
    if (wq > 0.0 && region_precedes(wq, other.strength, q, w, self.strength, t.region)) return 0.0;
  }
  return w;
}

// kRegionBlock outputs of a FIR along a line: acc[o] = sum over k = -R..R of taps[k] * v(o + k + R),
// where v(j) = load(j) is the j-th input of the thread (region_fir_inputs(R) of them, loaded in
// groups; the padded taps give the inputs past 2R + kRegionBlock - 1 zero weight).
template <class Load>
__device__ __forceinline__ void fir_block(const float* __restrict__ padded, int radius, Load load,
                                          float (&acc)[kRegionBlock]) {
#pragma unroll
  for (int o = 0; o < kRegionBlock; ++o) acc[o] = 0.0f;
  const int inputs = region_fir_inputs(radius);
  for (int j0 = 0; j0 < inputs; j0 += kRegionBlock) {
    float v[kRegionBlock];
#pragma unroll
    for (int jj = 0; jj < kRegionBlock; ++jj) v[jj] = load(j0 + jj);
    // Output o takes input jj with padded tap j0 + jj - o + kRegionBlock - 1: taps j0 .. j0 + 14.
    float w[2 * kRegionBlock];
    const float4* w4 = reinterpret_cast<const float4*>(padded + j0);
#pragma unroll
    for (int q = 0; q < 2 * kRegionBlock / 4; ++q) {
      const float4 t = w4[q];
      w[4 * q] = t.x, w[4 * q + 1] = t.y, w[4 * q + 2] = t.z, w[4 * q + 3] = t.w;
    }
#pragma unroll
    for (int jj = 0; jj < kRegionBlock; ++jj)
#pragma unroll
      for (int o = 0; o < kRegionBlock; ++o) acc[o] = fmaf(w[jj - o + kRegionBlock - 1], v[jj], acc[o]);
  }
}

// Launch 1 of Blur: the horizontal FIR of rows [row0, row1) over the rectangle's columns. The
// channel count is a template parameter, so that a thread's loads are fixed offsets from one
// pointer.
template <typename T, int C>
__global__ void __launch_bounds__(kRegionThreads)
    fir_rows_kernel(PlaneArgs p, BatchArgs b, const __grid_constant__ ParamTables params) {
  begin_chained_kernel();
  const BatchTables tb = batch_tables(b, params);
  const RegionTask t = tb.tasks[find_task(tb.tasks, b.task_count, 0, blockIdx.x)];
  const unsigned id = (blockIdx.x - t.first_tile[0]) * kRegionThreads + threadIdx.x;
  const int width = t.rect.x1 - t.rect.x0;
  const unsigned slots = (width + kRegionPixelsPerSlot - 1) / kRegionPixelsPerSlot * C;
  const int slot = static_cast<int>(id % slots);
  const int row = t.row0 + static_cast<int>(id / slots);
  if (row >= t.row1) return;
  const int group = slot / C, c = slot - group * C;
  const int x0 = t.rect.x0 + group * kRegionPixelsPerSlot;
  const T* line = row_of<T>(p.src, p.src_pitch, row) + c;
  const int shift = p.shift;
  const int first = x0 - t.radius_x, last = p.width - 1;
  const float* taps = tb.taps + t.taps_x;
  float acc[kRegionPixelsPerSlot];
  if (first >= 0 && first + region_fir_inputs(t.radius_x) - 1 <= last) {
    // Away from the left and right edges: consecutive pixels, no border rule.
    const T* in = line + first * C;
    fir_block(taps, t.radius_x, [&](int j) { return sample_as_float(__ldg(in + static_cast<ptrdiff_t>(j) * C), shift); }, acc);
  } else {
    fir_block(taps, t.radius_x,
              [&](int j) { return sample_as_float(__ldg(line + min(max(first + j, 0), last) * C), shift); }, acc);
  }
  float* out = b.scratch + t.scratch + static_cast<long long>(row - t.row0) * width * C + (x0 - t.rect.x0) * C + c;
#pragma unroll
  for (int o = 0; o < kRegionPixelsPerSlot; ++o)
    if (x0 + o < t.rect.x1) out[o * C] = acc[o];
}

// Launch 1 of Pixelate: one channel of one block the rectangle touches, the rounded mean of the
// block (clipped to the plane).
template <typename T>
__global__ void __launch_bounds__(kRegionMeanItems)
    block_means_kernel(PlaneArgs p, BatchArgs b, const __grid_constant__ ParamTables params) {
  begin_chained_kernel();
  const BatchTables tb = batch_tables(b, params);
  const RegionTask t = tb.tasks[find_task(tb.tasks, b.task_count, 0, blockIdx.x)];
  const long long item = static_cast<long long>(blockIdx.x - t.first_tile[0]) * kRegionMeanItems + threadIdx.x;
  const int c_count = p.channels;
  if (item >= static_cast<long long>(t.blocks_x) * t.blocks_y * c_count) return;
  const int c = static_cast<int>(item % c_count);
  const int block = static_cast<int>(item / c_count);
  const int bx = t.block_x0 + block % t.blocks_x, by = t.block_y0 + block / t.blocks_x;
  const int x0 = bx * b.block_x, x1 = min(x0 + b.block_x, p.width);
  const int y0 = by * b.block_y, y1 = min(y0 + b.block_y, p.height);
  uint64_t sum = 0;
  for (int y = y0; y < y1; ++y) {
    const T* line = row_of<T>(p.src, p.src_pitch, y);
    unsigned row_sum = 0;  // at most kMaxPixelSize samples of 16 bits
    for (int x = x0; x < x1; ++x) row_sum += __ldg(line + x * c_count + c) >> p.shift;
    sum += row_sum;
  }
  b.scratch[t.scratch + item] =
      static_cast<float>(pixelate_mean(sum, static_cast<uint64_t>(x1 - x0) * static_cast<uint64_t>(y1 - y0)));
}

// Launch 2: kRegionRowsPerThread rows of one scalar column of the rectangle; each pixel the
// region owns gets its blended value. kPlain: the tiles of plain tasks (region_plan.h), whose
// every pixel takes the effect (restore: the input) at weight 1, so no weights are computed;
// block b runs tile first_tile + b.
template <typename T, PixelMode kMode, bool kPlain>
__global__ void __launch_bounds__(kRegionThreads)
    pixels_kernel(PlaneArgs p, BatchArgs b, int first_tile, const __grid_constant__ ParamTables params) {
  begin_chained_kernel();
  const BatchTables tb = batch_tables(b, params);
  const int tile = first_tile + static_cast<int>(blockIdx.x);
  const RegionTask t = tb.tasks[find_task(tb.tasks, b.task_count, 1, tile)];
  const unsigned id = (tile - t.first_tile[1]) * kRegionThreads + threadIdx.x;
  const int c_count = p.channels;
  const int cols = (t.rect.x1 - t.rect.x0) * c_count;
  const int q = static_cast<int>(id % static_cast<unsigned>(cols));
  const int y0 = t.rect.y0 + static_cast<int>(id / static_cast<unsigned>(cols)) * kRegionRowsPerThread;
  if (y0 >= t.rect.y1) return;
  const int xi = q / c_count, c = q - xi * c_count;
  const int x = t.rect.x0 + xi;
  // A kept channel is the input's: apply() copied it, restore() leaves it.
  if (kMode != PixelMode::Restore && ((b.finish.keep >> c) & 1u)) return;

  float effect[kRegionRowsPerThread] = {};
  if constexpr (kMode == PixelMode::Blur) {
    // The vertical FIR down the scratch column; rows clamped to [row0, row1) are the frame's
    // replicate border for every output inside the rectangle (region_plan.h).
    const float* column = b.scratch + t.scratch + q;
    const int first = y0 - t.radius_y;
    const float* taps = tb.taps + t.taps_y;
    if (first >= t.row0 && first + region_fir_inputs(t.radius_y) - 1 < t.row1) {
      const float* in = column + static_cast<long long>(first - t.row0) * cols;
      fir_block(taps, t.radius_y, [&](int j) { return in[static_cast<long long>(j) * cols]; }, effect);
    } else {
      fir_block(taps, t.radius_y,
                [&](int j) {
                  const int r = min(max(first + j, t.row0), t.row1 - 1) - t.row0;
                  return column[static_cast<long long>(r) * cols];
                },
                effect);
    }
  }
  // Every load before the first store (a store could alias them, so later loads would wait for
  // it): the input samples of the thread's rows (the last row again past the rectangle), and
  // for restore the effect in dst.
  const int rows = min(kRegionRowsPerThread, t.rect.y1 - y0);
  const size_t column = static_cast<size_t>(t.rect.x0) * c_count + q;
  int in[kRegionRowsPerThread], old[kRegionRowsPerThread];
#pragma unroll
  for (int o = 0; o < kRegionRowsPerThread; ++o) {
    const int y = y0 + min(o, rows - 1);
    in[o] = sample_value(__ldg(row_of<T>(p.src, p.src_pitch, y) + column), p.shift);
    if constexpr (kMode == PixelMode::Restore && !kPlain)
      old[o] = sample_value(row_of<T>(p.dst, p.dst_pitch, y)[column], p.shift);
    else
      old[o] = 0;
  }
  int value[kRegionRowsPerThread];
  if constexpr (kMode == PixelMode::Pixelate) {
#pragma unroll
    for (int o = 0; o < kRegionRowsPerThread; ++o) {
      const int bx = x / b.block_x - t.block_x0, by = (y0 + min(o, rows - 1)) / b.block_y - t.block_y0;
      value[o] = static_cast<int>(__ldg(b.scratch + t.scratch + (static_cast<long long>(by) * t.blocks_x + bx) * c_count + c));
    }
  }
#pragma unroll
  for (int o = 0; o < kRegionRowsPerThread; ++o) {
    if (o >= rows) break;
    const int y = y0 + o;
    double w = 1.0;
    if constexpr (!kPlain) {
      w = t.plain ? 1.0 : owned_weight(tb, t, tb.regions[t.region], x, y, p.subsample_x, p.subsample_y);
      if (w <= 0.0) continue;
    }
    int v;
    if constexpr (kMode == PixelMode::Restore && kPlain) {
      v = in[o];
    } else if constexpr (kMode == PixelMode::Restore) {
      const double kept = region_max_weight(tb.keep, b.keep_count, x, y, p.subsample_x, p.subsample_y);
      v = region_blend(old[o], in[o], w * (1.0 - kept), p.max_value);
    } else {
      int e;
      if constexpr (kMode == PixelMode::Blur) {
        const float finished = finish_sample(b.finish, effect[o], static_cast<float>(in[o]), c);
        e = static_cast<int>(rounded_sample(finished, static_cast<float>(p.max_value)));
      }
      else if constexpr (kMode == PixelMode::Pixelate)
        e = value[o];
      else
        e = c == 0 ? b.fill[0] : c == 1 ? b.fill[1] : c == 2 ? b.fill[2] : b.fill[3];  // no local copy of b
      v = kPlain ? e : region_blend(in[o], e, w, p.max_value);
    }
    T* out = reinterpret_cast<T*>(p.dst + static_cast<size_t>(y) * p.dst_pitch) + column;
    *out = static_cast<T>(static_cast<unsigned>(v) << p.shift);
  }
}

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

constexpr int kStoreThreads = 256;

template <int kWords>
__global__ void __launch_bounds__(kStoreThreads)
    store_tables_kernel(uint4* __restrict__ to, int count, const __grid_constant__ TableChunk<kWords> chunk) {
  begin_chained_kernel();
  for (int i = blockIdx.x * kStoreThreads + threadIdx.x; i < count; i += gridDim.x * kStoreThreads)
    to[i] = chunk.words[i];
}

// Appends `count` elements to the host staging area at a 16-byte boundary; returns their offset.
template <typename E>
size_t append(std::vector<unsigned char>& host, const E* data, size_t count) {
  const size_t at = align_up(host.size(), 16);
  host.resize(at + count * sizeof(E));
  if (count) std::memcpy(host.data() + at, data, count * sizeof(E));
  return at;
}

// Whether plane p is filtered in place (the same memory as source and destination).
bool in_place(const DevicePlaneRef& src, const MutableDevicePlaneRef& dst) {
  return src.data == dst.data && src.pitch == dst.pitch;
}

struct RegionState {
  DeviceBuffer tables;   // regions, then each plane's tasks, neighbours and taps
  DeviceBuffer floats;   // FIR rows or block means of one batch
  DeviceBuffer source;   // a copy of the input, for an in-place call of several batches
  CudaEvent done;        // the end of the last call: the next one's uploads wait for it
  std::vector<unsigned char> host;
  ParamTables params{};  // the tables of a call that fits in the kernels' parameters
  std::unique_ptr<TableChunk<kLargeChunkWords>> large;  // host side of a large chunk
  long long budget_floats = kScratchBudgetFloats;
  int chain_device = -1;  // the device `chained` was asked for
  bool chained = false;

  // Whether the current device runs the launches chained (chained_launch.cuh), asked once per
  // device.
  bool chaining() {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    if (device != chain_device) {
      chained = chaining_supported();
      (void)cudaGetLastError();
      chain_device = device;
    }
    return chained;
  }

  void release() {
    tables.release();
    floats.release();
    source.release();
    done.release();
    host.clear();
    host.shrink_to_fit();
    large.reset();
  }

  // Grows `buffer` to `bytes`. Work of earlier calls, queued on any stream, may still read it:
  // a buffer that must grow is replaced only once that work is done.
  Status grow(DeviceBuffer& buffer, size_t bytes) {
    if (buffer.size() >= bytes) return Status::success();
    CG_TRY(done.synchronize());
    return buffer.reserve(bytes);
  }

  // Copies the planes of `src` that `which` marks into `source` on `stream`, and points `copy`
  // at them.
  Status copy_source(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                     const std::vector<bool>& which, cudaStream_t stream, std::vector<DevicePlaneRef>* copy) {
    std::vector<size_t> at(planes.size());
    size_t bytes = 0;
    for (size_t p = 0; p < planes.size(); ++p) {
      at[p] = bytes;
      if (which[p])
        bytes = align_up(bytes + planes[p].geometry.row_bytes() * static_cast<size_t>(planes[p].geometry.height), 256);
    }
    CG_TRY(grow(source, bytes));
    for (size_t p = 0; p < planes.size(); ++p) {
      if (!which[p]) continue;
      unsigned char* to = static_cast<unsigned char*>(source.get()) + at[p];
      const size_t row = planes[p].geometry.row_bytes();
      CG_TRY(copy_2d_async(to, row, src[p].data, src[p].pitch, row, planes[p].geometry.height, stream));
      (*copy)[p] = DevicePlaneRef{to, row};
    }
    return Status::success();
  }

  // Stores `host` (padded to 16 bytes) into `tables` on `stream`, in chunks of kernel
  // parameters (tables too large to travel in the region kernels' own parameters).
  Status upload(bool chained, cudaStream_t stream) {
    host.resize(align_up(host.size(), sizeof(uint4)));
    const int words = static_cast<int>(host.size() / sizeof(uint4));
    uint4* to = static_cast<uint4*>(tables.get());
    for (int at = 0; at < words;) {
      const int n = std::min(words - at, kLargeChunkWords);
      const int blocks = (n + kStoreThreads - 1) / kStoreThreads;
      if (!large) large = std::make_unique<TableChunk<kLargeChunkWords>>();  // zeroed
      std::memcpy(large->words, host.data() + at * sizeof(uint4), n * sizeof(uint4));
      CG_CUDA_TRY(launch_chained(chained, store_tables_kernel<kLargeChunkWords>, blocks, kStoreThreads, 0, stream,
                                 to + at, n, *large));
      at += n;
    }
    return Status::success();
  }
};

}  // namespace

struct RegionFilter::Scratch {
  RegionState state;
};

RegionFilter::RegionFilter() : scratch_(new Scratch) {}
RegionFilter::~RegionFilter() {
  release();
  delete scratch_;
}

void RegionFilter::release() { scratch_->state.release(); }

void RegionFilter::force_scratch_budget(long long floats) {
  scratch_->state.budget_floats = floats > 0 ? floats : kScratchBudgetFloats;
}

namespace {

struct PlaneTables {
  RegionPlanePlan plan;
  size_t tasks = 0, neighbours = 0, taps = 0;  // byte offsets in the table buffer
};

template <typename T>
Status launch_fir_rows(bool chained, const PlaneArgs& p, const BatchArgs& b, const ParamTables& params, int tiles,
                       cudaStream_t stream) {
  void (*kernel)(PlaneArgs, BatchArgs, ParamTables) = nullptr;
  switch (p.channels) {
    case 1: kernel = fir_rows_kernel<T, 1>; break;
    case 2: kernel = fir_rows_kernel<T, 2>; break;
    case 3: kernel = fir_rows_kernel<T, 3>; break;
    case 4: kernel = fir_rows_kernel<T, 4>; break;
    default: return Status::invalid("region blur: unsupported channel count " + std::to_string(p.channels));
  }
  CG_CUDA_TRY(launch_chained(chained, kernel, tiles, kRegionThreads, 0, stream, p, b, params));
  return Status::success();
}

// Launch 2 of one batch: the plain tasks' tiles with the kernel that computes no weights, the
// others' with the full one (all of them when restore keeps regions under the effect).
template <typename T, PixelMode kMode>
Status launch_pixels(bool chained, const PlaneArgs& p, const BatchArgs& b, const ParamTables& params,
                     const RegionBatch& batch, cudaStream_t stream) {
  const int plain = kMode == PixelMode::Restore && b.keep_count > 0 ? 0 : batch.plain_tiles;
  if (plain > 0)
    CG_CUDA_TRY(
        launch_chained(chained, pixels_kernel<T, kMode, true>, plain, kRegionThreads, 0, stream, p, b, 0, params));
  if (batch.tiles[1] > plain)
    CG_CUDA_TRY(launch_chained(chained, pixels_kernel<T, kMode, false>, batch.tiles[1] - plain, kRegionThreads, 0,
                               stream, p, b, plain, params));
  return Status::success();
}

template <typename T>
Status launch_plane(bool chained, const PlaneArgs& p, BatchArgs b, const ParamTables& params,
                    const RegionPlanePlan& plan, RegionEffect effect, RegionPass pass, cudaStream_t stream) {
  const size_t all_tasks = b.at.tasks;
  for (const RegionBatch& batch : plan.batches) {
    b.at.tasks = all_tasks + batch.first_task * sizeof(RegionTask);
    b.task_count = batch.task_count;
    if (pass == RegionPass::Restore) {
      CG_TRY((launch_pixels<T, PixelMode::Restore>(chained, p, b, params, batch, stream)));
    } else if (effect == RegionEffect::Blur) {
      CG_TRY(launch_fir_rows<T>(chained, p, b, params, batch.tiles[0], stream));
      CG_TRY((launch_pixels<T, PixelMode::Blur>(chained, p, b, params, batch, stream)));
    } else if (effect == RegionEffect::Pixelate) {
      CG_CUDA_TRY(launch_chained(chained, block_means_kernel<T>, batch.tiles[0], kRegionMeanItems, 0, stream, p, b,
                                 params));
      CG_TRY((launch_pixels<T, PixelMode::Pixelate>(chained, p, b, params, batch, stream)));
    } else {
      CG_TRY((launch_pixels<T, PixelMode::Fill>(chained, p, b, params, batch, stream)));
    }
    CG_TRY(launch_check());
  }
  return Status::success();
}

// Plans every plane, uploads the tables, and runs the launches of `pass` (after apply's copy).
Status run_regions(RegionState& st, const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                   const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                   const std::vector<Region>& keep, const RegionEffectSettings& settings, RegionPass pass,
                   cudaStream_t stream) {
  const std::vector<RegionPlane> layout = region_planes(planes);
  if (!st.done.created()) CG_TRY(st.done.create());
  CG_TRY(st.done.make_wait(stream));  // the tables, scratch and source copy of the last call are free
  if (pass == RegionPass::Apply)
    for (size_t p = 0; p < planes.size(); ++p)
      if (!in_place(src[p], dst[p]))
        CG_TRY(copy_2d_async(dst[p].data, dst[p].pitch, src[p].data, src[p].pitch, planes[p].geometry.row_bytes(),
                           planes[p].geometry.height, stream));
  if (regions.empty()) return st.done.record(stream);

  std::vector<unsigned char>& host = st.host;
  host.clear();
  const std::vector<RegionEntry> entries = region_entries(regions);
  const size_t regions_at = append(host, entries.data(), entries.size());
  std::vector<RegionBox> kept;
  for (const Region& r : keep) kept.push_back(r.box);
  const size_t keep_at = append(host, kept.data(), kept.size());
  std::vector<PlaneTables> per_plane(planes.size());
  long long scratch_floats = 0;
  for (size_t p = 0; p < planes.size(); ++p) {
    PlaneTables& pt = per_plane[p];
    pt.plan = plan_region_plane(layout[p], regions, settings, pass, st.budget_floats);
    pt.tasks = append(host, pt.plan.tasks.data(), pt.plan.tasks.size());
    pt.neighbours = append(host, pt.plan.neighbours.data(), pt.plan.neighbours.size());
    pt.taps = append(host, pt.plan.taps.data(), pt.plan.taps.size());
    for (const RegionBatch& batch : pt.plan.batches) scratch_floats = std::max(scratch_floats, batch.scratch_floats);
  }
  // In place, launch 1 of a batch must read the input before any launch 2 writes it: a plane of
  // several batches, under an effect that reads around its pixels, works from a copy.
  std::vector<DevicePlaneRef> source = src;
  std::vector<bool> copied(planes.size(), false);
  for (size_t p = 0; p < planes.size(); ++p)
    copied[p] = pass == RegionPass::Apply && settings.effect != RegionEffect::Fill && in_place(src[p], dst[p]) &&
                per_plane[p].plan.batches.size() > 1;
  if (std::find(copied.begin(), copied.end(), true) != copied.end())
    CG_TRY(st.copy_source(planes, src, copied, stream, &source));
  CG_TRY(st.grow(st.floats, static_cast<size_t>(scratch_floats) * sizeof(float)));
  const bool chained = st.chaining();
  const bool in_params = host.size() <= sizeof(ParamTables);
  if (in_params) {
    std::memcpy(st.params.words, host.data(), host.size());
  } else {
    CG_TRY(st.grow(st.tables, align_up(host.size(), 16)));
    CG_TRY(st.upload(chained, stream));
  }
  for (size_t p = 0; p < planes.size(); ++p) {
    const PlaneTables& pt = per_plane[p];
    if (pt.plan.tasks.empty()) continue;
    const PlaneGeometry& g = planes[p].geometry;
    PlaneArgs a{static_cast<const unsigned char*>(source[p].data), source[p].pitch,
                static_cast<unsigned char*>(dst[p].data), dst[p].pitch,
                g.width, g.height, g.channels, g.shift, g.max_value(),
                planes[p].subsample_x, planes[p].subsample_y};
    BatchArgs b{};
    b.tables = in_params ? nullptr : static_cast<const unsigned char*>(st.tables.get());
    b.at = TableOffsets{pt.tasks, regions_at, pt.neighbours, pt.taps, keep_at};
    b.keep_count = static_cast<int>(kept.size());
    b.scratch = static_cast<float*>(st.floats.get());
    b.block_x = pt.plan.block_x;
    b.block_y = pt.plan.block_y;
    if (pass == RegionPass::Apply) b.finish = region_finish(settings, p, g.max_value());
    if (settings.effect == RegionEffect::Fill && pass == RegionPass::Apply)
      for (int c = 0; c < 4; ++c) b.fill[c] = settings.fill[p][c];
    if (g.bytes_per_sample == 1)
      CG_TRY(launch_plane<uint8_t>(chained, a, b, st.params, pt.plan, settings.effect, pass, stream));
    else
      CG_TRY(launch_plane<uint16_t>(chained, a, b, st.params, pt.plan, settings.effect, pass, stream));
  }
  return st.done.record(stream);
}

}  // namespace

Status RegionFilter::apply(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                           const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                           const RegionEffectSettings& settings, cudaStream_t stream) {
  CG_TRY(check_region_apply(planes, src, dst, regions, settings));
  return run_regions(scratch_->state, planes, src, dst, regions, {}, settings, RegionPass::Apply, stream);
}

Status RegionFilter::restore(const std::vector<PlaneSpec>& planes, const std::vector<DevicePlaneRef>& src,
                             const std::vector<MutableDevicePlaneRef>& dst, const std::vector<Region>& regions,
                             const std::vector<Region>& keep, cudaStream_t stream) {
  CG_TRY(check_region_restore(planes, src, dst, regions, keep));
  const RegionEffectSettings settings;  // unused by restore's launches
  return run_regions(scratch_->state, planes, src, dst, regions, keep, settings, RegionPass::Restore, stream);
}

}  // namespace cudagaussian
