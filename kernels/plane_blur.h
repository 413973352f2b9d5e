// SPDX-License-Identifier: LGPL-2.1-or-later
// What every per-plane blur offers FrameBlur: run on device planes, enqueued on a stream.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

// The checks every run() makes on its arguments: non-null planes, pitches of at least a row, and
// planes and pitches aligned to the sample size.
Status check_run_arguments(const PlaneGeometry& g, const void* src, size_t src_pitch,
                           const void* dst, size_t dst_pitch);

// One frame's plane in a batch: device pointers, pitches in bytes.
struct PlanePair {
  const void* src;
  size_t src_pitch;
  void* dst;
  size_t dst_pitch;
};

// Frames a blur may take in one kernel launch (the kernel's parameters hold their pointers).
constexpr int kMaxBatchFrames = 8;

class PlaneBlur {
 public:
  virtual ~PlaneBlur() = default;
  // src and dst are device pointers with pitches in bytes and must not overlap; returns without
  // synchronising.
  virtual Status run(const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                     cudaStream_t stream) const = 0;
  // The same plane of `count` frames, one after another on `stream`. A blur whose kernel can
  // take several frames in one launch overrides it (a small frame leaves the GPU partly idle and
  // each launch costs microseconds of CPU); by default, one run() per frame.
  virtual Status run_batch(const PlanePair* frames, int count, cudaStream_t stream) const;

  // What the last pass does with each blurred sample before storing it (sharpen, channels
  // kept from the input): in the kernel that writes dst where that kernel can (FIR, direct,
  // per-pixel FIR, integral box, block-parallel recursive), else in a pass of its own
  // (sample_finish_pass.h).
  void set_finish(const SampleFinish& finish) { finish_ = finish; }

 protected:
  SampleFinish finish_;
};

}  // namespace cudagaussian
