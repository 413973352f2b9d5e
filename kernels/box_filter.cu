// Box passes: a thread owns kSegment consecutive outputs of one line. It sums its first window
// (2r + 1 samples, border-resolved), then slides: + the sample entering, - the sample leaving.
// Restarting the sum every kSegment outputs bounds the float rounding that sliding accumulates.

#include "box_filter.h"

#include <cstdint>
#include <string>

#include "border.h"
#include "line_access.cuh"

namespace cudagaussian {
namespace {

constexpr int kThreads = 128;

template <typename TIn, typename TOut>
__global__ void __launch_bounds__(kThreads)
box_pass_kernel(Lines l, Plane<TIn> in, Plane<TOut> out, int radius, int segments, Border border) {
  SegmentItem it;
  if (!segment_item(l, BoxBlur::kSegment, segments, it)) return;
  const int n = l.length;
  const float inv = 1.0f / (2 * radius + 1);
  float sum = 0.0f;
  for (int k = -radius; k <= radius; ++k) sum += in.load(l, it.line, border_index(it.s0 + k, n, border));
  out.store(l, it.line, it.s0, sum * inv);
  for (int i = it.s0 + 1; i < it.s1; ++i) {
    sum += in.load(l, it.line, border_index(i + radius, n, border)) -
           in.load(l, it.line, border_index(i - radius - 1, n, border));
    out.store(l, it.line, i, sum * inv);
  }
}

template <typename TIn, typename TOut>
Status launch(const Lines& l, const Plane<TIn>& in, const Plane<TOut>& out, int radius, Border border,
              cudaStream_t stream) {
  const int segments = (l.length + BoxBlur::kSegment - 1) / BoxBlur::kSegment;
  const long items = static_cast<long>(l.count) * segments;
  box_pass_kernel<TIn, TOut><<<static_cast<unsigned>((items + kThreads - 1) / kThreads), kThreads, 0,
                               stream>>>(l, in, out, radius, segments, border);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

// All passes of a plane: sample type in and out, float in between (ping-pong).
template <typename T>
Status run_passes(const PlaneGeometry& g, const std::vector<int>& rx, const std::vector<int>& ry,
                  Border border, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                  float* ping, float* pong, cudaStream_t stream) {
  const int row_samples = g.samples_per_row();
  const float max_value = static_cast<float>(g.max_value());
  const Plane<T> in{const_cast<T*>(static_cast<const T*>(src)), src_pitch / sizeof(T), g.shift, max_value};
  const Plane<T> out{static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift, max_value};
  const Plane<float> buf[2] = {{ping, static_cast<size_t>(row_samples), 0, 0.0f},
                               {pong, static_cast<size_t>(row_samples), 0, 0.0f}};
  const Lines rows{false, g.height * g.channels, g.width, g.channels};
  const Lines columns{true, row_samples, g.height, g.channels};

  std::vector<std::pair<bool, int>> passes;  // (vertical, radius)
  for (int r : rx) passes.push_back({false, r});
  for (int r : ry) passes.push_back({true, r});
  if (passes.empty()) passes.push_back({false, 0});  // identity: still copies src to dst
  const size_t last = passes.size() - 1;
  for (size_t k = 0; k < passes.size(); ++k) {
    const Lines& l = passes[k].first ? columns : rows;
    const int r = passes[k].second;
    const Plane<float>& prev = buf[(k + 1) % 2];
    const Plane<float>& next = buf[k % 2];
    if (k == 0 && k == last) CG_TRY(launch(l, in, out, r, border, stream));
    else if (k == 0) CG_TRY(launch(l, in, next, r, border, stream));
    else if (k == last) CG_TRY(launch(l, prev, out, r, border, stream));
    else CG_TRY(launch(l, prev, next, r, border, stream));
  }
  return Status::success();
}

}  // namespace

Status BoxBlur::plan(const PlaneGeometry& g, const std::vector<int>& widths_x,
                     const std::vector<int>& widths_y, Border border) {
  release();
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
  const size_t bytes = static_cast<size_t>(g.samples_per_row()) * g.height * sizeof(float);
  CG_TRY(ping_.reserve(bytes));
  CG_TRY(pong_.reserve(bytes));
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
  if (g.bytes_per_sample == 1)
    return run_passes<uint8_t>(g, radii_x_, radii_y_, border_, src, src_pitch, dst, dst_pitch, ping, pong, stream);
  return run_passes<uint16_t>(g, radii_x_, radii_y_, border_, src, src_pitch, dst, dst_pitch, ping, pong, stream);
}

void BoxBlur::release() {
  ping_.release();
  pong_.release();
  planned_ = false;
}

}  // namespace cudagaussian
