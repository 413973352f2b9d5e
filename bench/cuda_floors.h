// SPDX-License-Identifier: LGPL-2.1-or-later
// bench_pipeline: what the GPU can do without GStreamer, the floors the pipelines are measured
// against: the PCIe copy rate (PcieFloor) and one frame's H2D copy, kernel and D2H copy (Budget).
#pragma once

#include <gst/video/video.h>

#include <cstddef>
#include <vector>

#include "pipeline_results.h"

namespace pipeline_bench {

struct PcieFloor {
  double fps = kNaN;           // frames per second, one up and one down per frame, overlapped
  double gbps = kNaN;          // per direction, overlapped
  double h2d_gbps = kNaN, d2h_gbps = kNaN;  // each direction streaming alone
};

// Whole frames, cudaMemcpyAsync (1D: the fastest copy there is), H2D on one stream and D2H of
// other frames on another, n of each; timed from an event both streams wait on to one recorded
// after both finish.
cg::Status measure_pcie(const std::vector<void*>& host_src, const std::vector<void*>& host_dst,
                        size_t bytes, int n, PcieFloor* out);

struct Budget {
  double h2d_us = kNaN, h2d_p95 = kNaN, kernel_us = kNaN, kernel_p95 = kNaN, d2h_us = kNaN,
         d2h_p95 = kNaN;
  double sum_us() const { return h2d_us + kernel_us + d2h_us; }
};

// What the element does for one system-memory frame, piece by piece: per-plane 2D copies from
// pinned memory into pitched device planes, FrameBlur::run, per-plane 2D copies back.
cg::Status measure_budget(const GstVideoInfo& info, const std::vector<void*>& host_src,
                          const std::vector<void*>& host_dst, double sigma, bool copies,
                          Budget* out);

}  // namespace pipeline_bench
