// SPDX-License-Identifier: LGPL-2.1-or-later
// bench_pipeline: what every measurement records, the run's constants, and the list of results
// that the tables and the CSV are made of.
#pragma once

#include <gst/video/video.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_status.h"

namespace pipeline_bench {

namespace cg = cudagaussian;

inline constexpr int kFrames = 8;  // rotating source frames: 8 x 8.3 MB at 1080p, above any L2
inline constexpr int kWarmup = 20;
inline constexpr int kOpSamples = 100;            // single-operation timings (copies, kernel)
inline constexpr double kTargetBytes = 8e9;       // frames per run: about 8 GB of frames ...
inline constexpr int kMinRun = 300, kMaxRun = 2000;  // ... clamped to this range
inline constexpr GstClockTime kPtsStep = GST_MSECOND;  // frame i has PTS i ms (framerate 1000/1)
inline constexpr double kPipelineTimeoutS = 90.0;
static_assert(kFrames >= 8, "fewer frames would let the L2 cache hold the working set");
static_assert(kMinRun > 10 * kWarmup, "runs must be long against the warm-up");

inline const double kNaN = std::nan("");
inline constexpr double kSigma = 2.0;  // the sigma of the size and variant tables
inline const std::vector<double> kSweep = {1.0, 2.0, 5.0, 10.0, 30.0, 100.0};  // at Full HD RGBA

struct Measurement {
  std::string variant;
  std::string format;
  int width = 0, height = 0;
  double sigma = 0;
  int frames_in_flight = 0;  // 0: not applicable / element default
  int frames = 0;            // measured frames (warm-up excluded) or timed operations
  double fps = kNaN;
  double lat_med_ms = kNaN, lat_p95_ms = kNaN;
  // The same interval as GStreamer's latency tracer reports it (GST_TRACERS=latency).
  double tracer_med_ms = kNaN, tracer_p95_ms = kNaN;
  double gbps = kNaN;  // copies only: GB/s per direction
  std::string status = "ok";

  bool ok() const { return status == "ok"; }
  double pixels_per_second() const { return fps * width * height; }
};

// Every measurement of the run, in order (the tables and the CSV read them).
inline std::vector<Measurement> g_results;
inline std::string g_device_name;

inline std::string fmt(double v, const char* f = "%.0f") {
  if (std::isnan(v)) return "–";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

inline std::string format_name(GstVideoFormat f) { return gst_video_format_to_string(f); }

inline GstVideoInfo video_info(GstVideoFormat format, int w, int h) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, w, h);
  GST_VIDEO_INFO_FPS_N(&info) = 1000;  // matches kPtsStep
  GST_VIDEO_INFO_FPS_D(&info) = 1;
  return info;
}

inline std::string failed(const cg::Status& st) { return "failed: " + st.message; }

}  // namespace pipeline_bench
