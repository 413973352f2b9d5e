// SPDX-License-Identifier: LGPL-2.1-or-later
// The GPU time of a whole-frame blur (FrameBlur) on rotating frames, for the kernel benchmarks.
#pragma once

#include <cstdio>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_timing.h"
#include "frame_blur.h"
#include "rotating_frames.h"

// Plans FrameBlur with `settings` for `planes` and times it over `frames` (time_queued: `reps`
// groups after `warmup` runs) into *us; *chosen (where given) is what algorithm=auto resolved
// to. False, with the reason printed, where planning or a run fails.
inline bool time_frame_blur(const cudagaussian::BlurSettings& settings,
                            const std::vector<cudagaussian::PlaneSpec>& planes, const cudagaussian::Frames& frames,
                            cudaStream_t stream, int reps, int warmup, double* us,
                            cudagaussian::Algorithm* chosen = nullptr) {
  cudagaussian::FrameBlur blur;
  const cudagaussian::Status planned = blur.plan(settings, planes);
  if (!planned.ok()) {
    std::fprintf(stderr, "FrameBlur::plan failed: %s\n", planned.message.c_str());
    return false;
  }
  if (chosen) *chosen = blur.chosen();
  auto op = [&](int f) { return blur.run(frames.src_refs(f), frames.dst_refs(f), stream); };
  return time_queued(stream, frames.count, reps, op, us, warmup);
}
