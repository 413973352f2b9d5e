// SPDX-License-Identifier: LGPL-2.1-or-later
// Region effects on the GPU. See region_filter.h for the contract and common/region_plan.h for
// the tables.
//
// Per plane, every region of the frame (a task: one region on one plane) runs in at most two
// launches, whose blocks find their task by a binary search over the tasks' first tiles:
//   1. Blur: the horizontal FIR over the rows the vertical pass will read, [y0 - R, y1 + R) of
//      the plane, and the columns of the region, into float scratch (the region's own).
//      Pixelate: the rounded mean of every block the region touches, into scratch.
//   2. Every pixel of the region's rectangle: the effect value (Blur: the vertical FIR of the
//      scratch, rounded to a sample; Pixelate: the block's mean; Fill: the constant), blended
//      with the input by the mask weight. A pixel is written only by the region that owns it
//      (region_precedes over the regions whose rectangles meet this one's), so overlapping
//      regions never write the same pixel and each pixel is written once.
// restore() is launch 2 alone, blending dst back towards src. apply() first copies the whole
// plane, so that pixels outside every region are the input's bytes.
//
// Both FIR passes are register-blocked: a thread makes kRegionBlock consecutive outputs along
// the pass, so each input and each tap is loaded once per kRegionBlock multiply-adds, and the
// padded taps (region_plan.h) leave the multiply-adds without tests. Each output sums over
// k = -R..R in order, as the reference does; a thread away from the edges walks its inputs
// without the border rule.
//
// The tables go up with one copy per call from a ring of pinned staging buffers (a copy from
// pageable memory may wait for the stream, idling the GPU while the host prepares the next
// work).

#include "region_filter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "device_memory.h"
#include "region_checks.h"
#include "region_plan.h"

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

// One batch's tables, by value.
struct BatchArgs {
  const RegionTask* tasks;
  int task_count;
  const RegionEntry* regions;
  const int* neighbours;
  const float* taps;
  const RegionBox* keep;  // restore: regions that stay under the effect
  int keep_count;
  float* scratch;
  int block_x, block_y;  // Pixelate
  int fill[4];           // Fill, sample units
  SampleFinish finish;   // Blur: the unsharp mask; every effect: the channels kept (not written)
};

template <typename T>
__device__ __forceinline__ const T* row_of(const unsigned char* base, size_t pitch, int y) {
  return reinterpret_cast<const T*>(base + static_cast<size_t>(y) * pitch);
}

// A stored sample as its value (stored >> shift) and as float. The float comes from the bits
// of 2^23 + v minus 2^23, exact below 2^23: an integer-to-float conversion runs at an eighth
// of the multiply-add rate, and the horizontal pass would convert every input it reads.
template <typename T>
__device__ __forceinline__ int sample_value(T stored, int shift) {
  return static_cast<int>(static_cast<unsigned>(stored) >> shift);
}
template <typename T>
__device__ __forceinline__ float sample_float(T stored, int shift) {
  return __uint_as_float(0x4B000000u | (static_cast<unsigned>(stored) >> shift)) - 8388608.0f;
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
// region (in registers); the competitors come through the read-only path.
__device__ double owned_weight(const BatchArgs& b, const RegionTask& t, const RegionEntry& self, int x, int y,
                               int sx, int sy) {
  const double w = region_weight(self.box, x, y, sx, sy);
  if (w <= 0.0) return 0.0;
  for (int i = 0; i < t.neighbour_count; ++i) {
    const int q = __ldg(b.neighbours + t.neighbours + i);
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
      const float4 t = __ldg(w4 + q);
      w[4 * q] = t.x, w[4 * q + 1] = t.y, w[4 * q + 2] = t.z, w[4 * q + 3] = t.w;
    }
#pragma unroll
    for (int jj = 0; jj < kRegionBlock; ++jj)
#pragma unroll
      for (int o = 0; o < kRegionBlock; ++o) acc[o] = fmaf(w[jj - o + kRegionBlock - 1], v[jj], acc[o]);
  }
}

// Launch 1 of Blur: the horizontal FIR of rows [row0, row1) over the rectangle's columns.
template <typename T>
__global__ void __launch_bounds__(kRegionSlots* kRegionSlotRows)
    fir_rows_kernel(PlaneArgs p, BatchArgs b) {
  const RegionTask t = b.tasks[find_task(b.tasks, b.task_count, 0, blockIdx.x)];
  const int local = blockIdx.x - t.first_tile[0];
  const int c_count = p.channels;
  const int width = t.rect.x1 - t.rect.x0;
  const int slots = (width + kRegionPixelsPerSlot - 1) / kRegionPixelsPerSlot * c_count;
  const int tiles_x = (slots + kRegionSlots - 1) / kRegionSlots;
  const int slot = local % tiles_x * kRegionSlots + threadIdx.x;
  const int row = t.row0 + local / tiles_x * kRegionSlotRows + threadIdx.y;
  if (slot >= slots || row >= t.row1) return;
  const int group = slot / c_count, c = slot - group * c_count;
  const int x0 = t.rect.x0 + group * kRegionPixelsPerSlot;
  const T* line = row_of<T>(p.src, p.src_pitch, row) + c;
  const int shift = p.shift;
  const int first = x0 - t.radius_x, last = p.width - 1;
  const float* taps = b.taps + t.taps_x;
  float acc[kRegionPixelsPerSlot];
  if (first >= 0 && first + region_fir_inputs(t.radius_x) - 1 <= last) {
    // Away from the left and right edges: consecutive pixels, no border rule.
    const T* in = line + first * c_count;
    fir_block(taps, t.radius_x, [&](int j) { return sample_float(__ldg(in + j * c_count), shift); }, acc);
  } else {
    fir_block(taps, t.radius_x,
              [&](int j) { return sample_float(__ldg(line + min(max(first + j, 0), last) * c_count), shift); }, acc);
  }
  float* out = b.scratch + t.scratch + static_cast<long long>(row - t.row0) * width * c_count +
               (x0 - t.rect.x0) * c_count + c;
#pragma unroll
  for (int o = 0; o < kRegionPixelsPerSlot; ++o)
    if (x0 + o < t.rect.x1) out[o * c_count] = acc[o];
}

// Launch 1 of Pixelate: one channel of one block the rectangle touches, the rounded mean of the
// block (clipped to the plane).
template <typename T>
__global__ void __launch_bounds__(kRegionMeanItems) block_means_kernel(PlaneArgs p, BatchArgs b) {
  const RegionTask t = b.tasks[find_task(b.tasks, b.task_count, 0, blockIdx.x)];
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
// region owns gets its blended value.
template <typename T, PixelMode kMode>
__global__ void __launch_bounds__(kRegionPixelThreads) pixels_kernel(PlaneArgs p, BatchArgs b) {
  const RegionTask t = b.tasks[find_task(b.tasks, b.task_count, 1, blockIdx.x)];
  const int local = blockIdx.x - t.first_tile[1];
  const int c_count = p.channels;
  const int cols = (t.rect.x1 - t.rect.x0) * c_count;
  const int tiles_x = (cols + kRegionTileScalars - 1) / kRegionTileScalars;
  const int q = local % tiles_x * kRegionTileScalars + threadIdx.x;
  const int y0 = t.rect.y0 + local / tiles_x * kRegionTileRows + threadIdx.y * kRegionRowsPerThread;
  if (q >= cols || y0 >= t.rect.y1) return;
  const int xi = q / c_count, c = q - xi * c_count;
  const int x = t.rect.x0 + xi;
  // A kept channel is the input's: apply() copied it, restore() leaves it.
  if (kMode != PixelMode::Restore && ((b.finish.keep >> c) & 1u)) return;
  const RegionEntry self = b.regions[t.region];

  float effect[kRegionRowsPerThread] = {};
  if constexpr (kMode == PixelMode::Blur) {
    // The vertical FIR down the scratch column; rows clamped to [row0, row1) are the frame's
    // replicate border for every output inside the rectangle (region_plan.h).
    const float* column = b.scratch + t.scratch + q;
    const int first = y0 - t.radius_y;
    const float* taps = b.taps + t.taps_y;
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
    if constexpr (kMode == PixelMode::Restore)
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
  // A hard-edged rectangle that meets no other region owns its whole rectangle at weight 1.
  const bool whole = t.neighbour_count == 0 && self.box.shape == RegionShape::Rectangle && self.box.feather <= 0;
#pragma unroll
  for (int o = 0; o < kRegionRowsPerThread; ++o) {
    if (o >= rows) break;
    const int y = y0 + o;
    const double w = whole ? 1.0 : owned_weight(b, t, self, x, y, p.subsample_x, p.subsample_y);
    if (w <= 0.0) continue;
    int v;
    if constexpr (kMode == PixelMode::Restore) {
      const double kept = region_max_weight(b.keep, b.keep_count, x, y, p.subsample_x, p.subsample_y);
      v = region_blend(old[o], in[o], w * (1.0 - kept), p.max_value);
    } else {
      int e;
      if constexpr (kMode == PixelMode::Blur) {
        const float finished = finish_sample(b.finish, effect[o], static_cast<float>(in[o]), c);
        e = static_cast<int>(fminf(fmaxf(floorf(finished + 0.5f), 0.0f), static_cast<float>(p.max_value)));
      }
      else if constexpr (kMode == PixelMode::Pixelate)
        e = value[o];
      else
        e = b.fill[c];
      v = region_blend(in[o], e, w, p.max_value);
    }
    T* out = reinterpret_cast<T*>(p.dst + static_cast<size_t>(y) * p.dst_pitch) + column;
    *out = static_cast<T>(static_cast<unsigned>(v) << p.shift);
  }
}

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

// Appends `count` elements to the host staging area at a 16-byte boundary; returns their offset.
template <typename E>
size_t append(std::vector<unsigned char>& host, const E* data, size_t count) {
  const size_t at = align_up(host.size(), 16);
  host.resize(at + count * sizeof(E));
  if (count) std::memcpy(host.data() + at, data, count * sizeof(E));
  return at;
}

// A pinned copy of one call's tables, reused once the copy that read it is done.
struct StagingSlot {
  void* data = nullptr;
  size_t bytes = 0;
  cudaEvent_t copied = nullptr;  // recorded after the copy out of `data`; null before the first
  StagingSlot() = default;
  StagingSlot(const StagingSlot&) = delete;
  StagingSlot& operator=(const StagingSlot&) = delete;
  ~StagingSlot() {
    pinned_free(data);
    if (copied) cudaEventDestroy(copied);
  }
};
// Calls whose tables can be in flight before a call waits for the oldest copy.
constexpr size_t kMaxStagingSlots = 16;

// Whether the copy out of `slot` is done (or there was none), without waiting.
bool slot_free(const StagingSlot& slot) {
  if (!slot.copied) return true;
  const cudaError_t e = cudaEventQuery(slot.copied);
  if (e == cudaErrorNotReady) (void)cudaGetLastError();  // not an error: keep it out of launch_check()
  return e == cudaSuccess;
}

struct RegionState {
  DeviceBuffer tables;   // regions, then each plane's tasks, neighbours and taps
  DeviceBuffer floats;   // FIR rows or block means of one batch
  CudaEvent done;        // the end of the last call: the next one's uploads wait for it
  std::vector<unsigned char> host;
  std::vector<std::unique_ptr<StagingSlot>> staging;  // a ring, `next_slot` the oldest
  size_t next_slot = 0;
  long long budget_floats = kScratchBudgetFloats;

  void release() {
    tables.release();
    floats.release();
    done.release();
    host.clear();
    host.shrink_to_fit();
    staging.clear();
    next_slot = 0;
  }

  // A slot whose copy is done: the oldest if it is, else a new one while there are fewer than
  // kMaxStagingSlots, else the oldest once its copy is done.
  Status take_slot(StagingSlot** out) {
    if (staging.empty() || (!slot_free(*staging[next_slot]) && staging.size() < kMaxStagingSlots)) {
      staging.insert(staging.begin() + next_slot, std::make_unique<StagingSlot>());
    } else if (staging[next_slot]->copied) {
      CG_CUDA_TRY(cudaEventSynchronize(staging[next_slot]->copied));
    }
    *out = staging[next_slot].get();
    next_slot = (next_slot + 1) % staging.size();
    return Status::success();
  }

  // Copies `host` to `tables` on `stream`: from a pinned slot, or from `host` itself when
  // pinned memory is refused (the runtime then stages the pageable copy).
  Status upload(cudaStream_t stream) {
    StagingSlot* taken = nullptr;
    CG_TRY(take_slot(&taken));
    StagingSlot& slot = *taken;
    if (!slot.copied) CG_CUDA_TRY(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming));
    if (slot.bytes < host.size()) {
      pinned_free(slot.data);
      slot.data = nullptr;
      slot.bytes = 0;
      const size_t bytes = align_up(host.size() + host.size() / 2, 4096);
      if (pinned_alloc(bytes, &slot.data).ok()) slot.bytes = bytes;
      else slot.data = nullptr;
    }
    const void* from = host.data();
    if (slot.data) {
      std::memcpy(slot.data, host.data(), host.size());
      from = slot.data;
    }
    CG_CUDA_TRY(cudaMemcpyAsync(tables.get(), from, host.size(), cudaMemcpyHostToDevice, stream));
    CG_CUDA_TRY(cudaEventRecord(slot.copied, stream));
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
Status launch_plane(const PlaneArgs& p, BatchArgs b, const RegionPlanePlan& plan, RegionEffect effect,
                    RegionPass pass, cudaStream_t stream) {
  const RegionTask* all_tasks = b.tasks;
  for (const RegionBatch& batch : plan.batches) {
    b.tasks = all_tasks + batch.first_task;
    b.task_count = batch.task_count;
    const dim3 pixel_block(kRegionTileScalars, kRegionTileRows / kRegionRowsPerThread);
    if (pass == RegionPass::Restore) {
      pixels_kernel<T, PixelMode::Restore><<<batch.tiles[1], pixel_block, 0, stream>>>(p, b);
    } else if (effect == RegionEffect::Blur) {
      fir_rows_kernel<T><<<batch.tiles[0], dim3(kRegionSlots, kRegionSlotRows), 0, stream>>>(p, b);
      pixels_kernel<T, PixelMode::Blur><<<batch.tiles[1], pixel_block, 0, stream>>>(p, b);
    } else if (effect == RegionEffect::Pixelate) {
      block_means_kernel<T><<<batch.tiles[0], kRegionMeanItems, 0, stream>>>(p, b);
      pixels_kernel<T, PixelMode::Pixelate><<<batch.tiles[1], pixel_block, 0, stream>>>(p, b);
    } else {
      pixels_kernel<T, PixelMode::Fill><<<batch.tiles[1], pixel_block, 0, stream>>>(p, b);
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
  CG_TRY(st.done.make_wait(stream));  // the tables and scratch of the last call are no longer read
  if (pass == RegionPass::Apply)
    for (size_t p = 0; p < planes.size(); ++p)
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
  CG_TRY(st.tables.reserve(host.size()));
  if (scratch_floats > 0) CG_TRY(st.floats.reserve(static_cast<size_t>(scratch_floats) * sizeof(float)));
  CG_TRY(st.upload(stream));

  auto* base = static_cast<unsigned char*>(st.tables.get());
  for (size_t p = 0; p < planes.size(); ++p) {
    const PlaneTables& pt = per_plane[p];
    if (pt.plan.tasks.empty()) continue;
    const PlaneGeometry& g = planes[p].geometry;
    PlaneArgs a{static_cast<const unsigned char*>(src[p].data), src[p].pitch,
                static_cast<unsigned char*>(dst[p].data), dst[p].pitch,
                g.width, g.height, g.channels, g.shift, g.max_value(),
                planes[p].subsample_x, planes[p].subsample_y};
    BatchArgs b{};
    b.tasks = reinterpret_cast<const RegionTask*>(base + pt.tasks);
    b.regions = reinterpret_cast<const RegionEntry*>(base + regions_at);
    b.keep = reinterpret_cast<const RegionBox*>(base + keep_at);
    b.keep_count = static_cast<int>(kept.size());
    b.neighbours = reinterpret_cast<const int*>(base + pt.neighbours);
    b.taps = reinterpret_cast<const float*>(base + pt.taps);
    b.scratch = static_cast<float*>(st.floats.get());
    b.block_x = pt.plan.block_x;
    b.block_y = pt.plan.block_y;
    if (pass == RegionPass::Apply) b.finish = region_finish(settings, p, g.max_value());
    if (settings.effect == RegionEffect::Fill && pass == RegionPass::Apply)
      for (int c = 0; c < 4; ++c) b.fill[c] = settings.fill[p][c];
    if (g.bytes_per_sample == 1)
      CG_TRY(launch_plane<uint8_t>(a, b, pt.plan, settings.effect, pass, stream));
    else
      CG_TRY(launch_plane<uint16_t>(a, b, pt.plan, settings.effect, pass, stream));
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
