// SPDX-License-Identifier: LGPL-2.1-or-later
// bench_pipeline: the frames pushed (pinned, pageable, CUDA memory) and one run of
// appsrc ! stages ! fakesink, timed per frame.
#pragma once

#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <functional>
#include <string>
#include <vector>

#include "pipeline_results.h"

namespace pipeline_bench {

// K frames to push: each push wraps the same memory in a new buffer (no copy).
struct FrameSet {
  std::vector<GstBuffer*> buffers;
  std::vector<void*> pinned;  // pinned host frames (sysmem-pinned sets)
  GstBufferPool* pool = nullptr;

  FrameSet() = default;
  FrameSet(const FrameSet&) = delete;
  FrameSet& operator=(const FrameSet&) = delete;
  ~FrameSet() { release(); }
  bool empty() const { return buffers.empty(); }
  size_t buffer_size() const { return buffers.empty() ? 0 : gst_buffer_get_size(buffers[0]); }
  void release() {
    for (GstBuffer* b : buffers) gst_buffer_unref(b);
    buffers.clear();
    for (void* p : pinned) cudaFreeHost(p);
    pinned.clear();
    if (pool) {
      gst_buffer_pool_set_active(pool, FALSE);
      gst_object_unref(pool);
      pool = nullptr;
    }
  }
};

// Pinned frames allocated with the CUDA runtime (primary context; portable, so usable from the
// element's own GstCudaContext) and wrapped as GstMemory.
cg::Status make_pinned_frames(const GstVideoInfo& info, uint64_t seed, FrameSet* set);
cg::Status make_pageable_frames(const GstVideoInfo& info, uint64_t seed, FrameSet* set);
// GPU-resident frames: buffers of a GstCudaBufferPool in @ctx, written once through a host
// mapping (unmapping uploads them).
cg::Status make_cuda_frames(GstCudaContext* ctx, GstCaps* cuda_caps, const GstVideoInfo& info,
                            uint64_t seed, FrameSet* set);

struct Stage {
  std::string factory;
  std::function<void(GstElement*)> setup;
};

Stage blur_stage(double sigma, int frames_in_flight);
Stage caps_stage(const char* caps_string);

struct RunOptions {
  int n = 0;        // frames pushed, warm-up included
  int warmup = kWarmup;
  GstCudaContext* share = nullptr;  // given to the pipeline (all CUDA elements use it)
  int branches = 1;  // independent appsrc ! stages ! fakesink chains in the one pipeline
  double timeout_s = kPipelineTimeoutS;
};

// Where GST_TRACERS names the latency tracer: collects its records (GST_TRACER messages, no
// longer printed) so that run_pipeline can fill tracer_med_ms. Call after gst_init; false
// without the tracer.
bool capture_latency_tracer();

// Runs appsrc ! stages ! fakesink once over @frames (opt.branches such chains side by side, each
// pushing all of @frames); fills fps (of all branches together), latency and status of @m (and
// the tracer's latency under capture_latency_tracer).
void run_pipeline(GstCaps* caps, const FrameSet& frames, const std::vector<Stage>& stages,
                  const RunOptions& opt, Measurement* m);

}  // namespace pipeline_bench
