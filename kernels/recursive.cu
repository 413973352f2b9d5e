// SPDX-License-Identifier: LGPL-2.1-or-later
// RecursiveBlur (recursive_filter.h): a plane's horizontal pass, then its vertical pass, each
// planned on the host (recursive_plan.h) and run by the kernels of recursive_lines.cu or
// recursive_block_parallel.cu. Each pass filters lines: rows (a line is one channel of one row,
// read with a stride of C) or columns (a line is one scalar column); the horizontal pass writes a
// float plane that the vertical pass reads.

#include "recursive_filter.h"

#include <cstdint>

#include "chained_launch.cuh"
#include "recursive_launch.cuh"
#include "sample_finish_pass.h"

namespace cudagaussian {
namespace {

using namespace recursive;

// `finish`, when given, is applied by the block-parallel apply as it stores the samples, which
// then sets *finished; the other splits leave it to the caller (a pass of its own).
template <class Ops, typename TIn, typename TOut>
Status launch_pass(const Lines& l, const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out,
                   float* carries, float* right, const PassParams<Ops>& p, LineSplit split,
                   const PassPlan& plan, const ColumnCarries* fused, const OutputFinish* finish,
                   bool* finished, cudaStream_t stream) {
  if (p.segments == 1 || split == LineSplit::OneWay) return launch_one_way(l, in, mid, out, p, plan, stream);
  if (split == LineSplit::BlockParallel) {
    if (finish) *finished = true;
    return launch_block_parallel(l, in, out, carries, p, plan, fused, finish, stream);
  }
  return launch_warmed_up(l, in, mid, out, right, p, split, plan, stream);
}

template <typename TIn, typename TOut>
Status run_pass(const PassData& pass, const RecursiveSettings& s, const Lines& l,
                const Plane<TIn>& in, const Plane<float>& mid, const Plane<TOut>& out, float* carries,
                float* right, const ColumnCarries* fused, const OutputFinish* finish, bool* finished,
                cudaStream_t stream) {
  if (pass.plan.identity) return launch_copy(l, in, out, pass.plan.chained, stream);
  if (pass.plan.exact_two_way) {
    // Young–van Vliet's parallel form has a first-order section (its real pole).
    return launch_exact_two_way(l, in, mid, out, pass.parallel, s.filter != RecursiveFilter::Deriche,
                                pass.plan.chained, stream);
  }
  if (s.filter == RecursiveFilter::Deriche)
    return launch_pass(l, in, mid, out, carries, right, pass.deriche, s.split, pass.plan, nullptr, finish, finished,
                       stream);
  return launch_pass(l, in, mid, out, carries, right, pass.yvv, s.split, pass.plan, fused, finish, finished, stream);
}

Plane<float> mid_plane(float* mid, const PlaneGeometry& g, bool margins) {
  return {mid + mid_offset(g, margins), mid_pitch(g, margins), 0, 0.0f};
}

template <typename T>
Status run_plane(const PassData& px, const PassData& py, const RecursiveSettings& s,
                 const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                 float* mid, float* across, float* carries, float* column_carries, float* right,
                 const SampleFinish& finish, cudaStream_t stream) {
  const int row_samples = g.samples_per_row();
  const float max_value = static_cast<float>(g.max_value());
  Plane<T> in{const_cast<T*>(static_cast<const T*>(src)), src_pitch / sizeof(T), g.shift, max_value};
  const Plane<T> out{static_cast<T*>(dst), dst_pitch / sizeof(T), g.shift, max_value};
  const Plane<float> m = mid_plane(mid, g, false), m_margins = mid_plane(mid, g, true);
  Plane<float> a{across, static_cast<size_t>(row_samples), 0, 0.0f};
  const Lines rows{false, g.height * g.channels, g.width, g.channels};
  const Lines columns{true, row_samples, g.height, g.channels};
  // Young–van Vliet's vertical carries from the horizontal apply where both passes take three
  // launches.
  auto three = [](const PassPlan& q) { return !q.identity && q.segments > 1 && q.block_lines == 0; };
  ColumnCarries column_records{columns, &py.yvv, column_carries};
  const ColumnCarries* fused = s.filter != RecursiveFilter::Deriche && s.split == LineSplit::BlockParallel &&
                                       three(px.plan) && three(py.plan) && 4 % g.channels == 0
                                   ? &column_records
                                   : nullptr;
  // The finishing step in the vertical apply where it runs block-parallel, else a pass of its own.
  const OutputFinish output_finish{src, src_pitch / sizeof(T), finish};
  bool finished = false;
  CG_TRY(run_pass(px, s, rows, in, px.plan.mid_margins ? m_margins : m, a, carries, right, fused, nullptr, &finished,
                  stream));
  CG_TRY(run_pass(py, s, columns, a, py.plan.mid_margins ? m_margins : m, out, column_carries, right, fused,
                  finish.active() ? &output_finish : nullptr, &finished, stream));
  if (finish.active() && !finished)
    return finish_plane(g, src, src_pitch, dst, dst_pitch, finish, stream);
  return Status::success();
}

}  // namespace

struct RecursiveBlur::Passes {
  PassData x, y;
};

RecursiveBlur::RecursiveBlur() = default;
RecursiveBlur::~RecursiveBlur() = default;

Status RecursiveBlur::plan(const PlaneGeometry& g, const RecursiveSettings& requested, double sigma_x,
                           double sigma_y) {
  release();
  RecursiveSettings settings = requested;
  if (settings.split == LineSplit::Auto) settings.split = LineSplit::BlockParallel;
  if (!g.valid()) return Status::invalid("invalid plane geometry");
  CG_TRY(validate(settings, sigma_x, sigma_y));
  int device = 0, sm_count = 0;
  CG_CUDA_TRY(cudaGetDevice(&device));
  CG_CUDA_TRY(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  // A row's channels share a block in the one-launch kernels (their samples interleave).
  PassData px = make_pass(settings, sigma_x, g.height * g.channels, g.width, g.channels, sm_count);
  PassData py = make_pass(settings, sigma_y, g.samples_per_row(), g.height, 1, sm_count);
  px.plan.chained = py.plan.chained = chaining_supported();

  const RecursiveBuffers b = recursive_buffers(g, px.plan, py.plan);
  if (const char* why = recursive_buffers_error(b)) return Status::invalid(why);
  CG_TRY(mid_.reserve(b.mid * sizeof(float)));
  CG_TRY(across_.reserve(b.across * sizeof(float)));
  CG_TRY(carries_.reserve((b.carries + b.right) * sizeof(float)));
  row_carry_floats_ = b.row_carries;
  carry_floats_ = b.carries;
  passes_ = std::make_unique<Passes>(Passes{px, py});
  // NaN everywhere: a read of a value no kernel wrote shows up in every test instead of hiding
  // behind whatever the allocation held before. Once per plan, not per frame.
  CG_CUDA_TRY(cudaMemset(mid_.get(), 0xff, b.mid * sizeof(float)));
  CG_CUDA_TRY(cudaMemset(across_.get(), 0xff, b.across * sizeof(float)));
  CG_CUDA_TRY(cudaMemset(carries_.get(), 0xff, (b.carries + b.right) * sizeof(float)));
  // cudaMemset runs on the legacy stream, which non-blocking streams do not wait for.
  CG_CUDA_TRY(cudaStreamSynchronize(nullptr));

  geometry_ = g;
  settings_ = settings;
  planned_ = true;
  return Status::success();
}

Status RecursiveBlur::run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                          cudaStream_t stream) const {
  if (!planned_) return Status::invalid("RecursiveBlur::run before a successful plan()");
  const PlaneGeometry& g = geometry_;
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  auto* carries = static_cast<float*>(carries_.get());
  float* column_carries = carries + row_carry_floats_;
  float* right = carries + carry_floats_;
  auto* mid = static_cast<float*>(mid_.get());
  auto* across = static_cast<float*>(across_.get());
  if (g.bytes_per_sample == 1)
    return run_plane<uint8_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                              across, carries, column_carries, right, finish_, stream);
  return run_plane<uint16_t>(passes_->x, passes_->y, settings_, g, src, src_pitch, dst, dst_pitch, mid,
                             across, carries, column_carries, right, finish_, stream);
}

void RecursiveBlur::release() {
  mid_.release();
  across_.release();
  carries_.release();
  passes_.reset();
  planned_ = false;
}

}  // namespace cudagaussian
