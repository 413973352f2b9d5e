// SPDX-License-Identifier: LGPL-2.1-or-later
// Pipeline benchmark: frames per second and per-frame latency of `cudagaussian` inside real
// GStreamer pipelines, against the floors measured in the same run.
//
// For each frame size (SD 720x576, HD 1280x720, Full HD 1920x1080, 4K 3840x2160; RGBA, and NV12
// at Full HD) at sigma 2:
//   - the PCIe floor: pinned host frames copied H2D and D2H on two CUDA streams at once
//     (cudaMemcpyAsync of whole frames, timed with CUDA events);
//   - the latency budget of one frame: H2D copy, the kernel alone (cudagaussian::FrameBlur) and
//     the D2H copy, each the median of single operations timed with CUDA events;
//   - pipelines `appsrc ! ... ! fakesink sync=false` fed with K rotating pre-filled frames
//     (random bytes, never zero):
//       sysmem-pinned      pinned input buffers (cudaHostAlloc), frames-in-flight 1..4
//       sysmem-pageable    plain gst_buffer_new_allocate buffers, frames-in-flight 3
//       passthrough        sigma=0 (the element hands buffers on untouched)
//       cudamem            GPU-resident buffers from a GstCudaBufferPool in a GstCudaContext
//                          shared with the element, frames-in-flight 1, 3, 8 and 16
//       cudaupload-download  pinned input → cudaupload → cudagaussian → cudadownload
// plus a sigma sweep at Full HD RGBA and GStreamer's CPU `gaussianblur` (AYUV) as a peer.
//
// fps = frames / wall time between the handoff of the last warm-up frame and that of the last
// frame (steady state; the first kWarmup frames are excluded). Latency of a frame = the time
// appsrc pushes it downstream (probe on appsrc's src pad) to fakesink's handoff, so appsrc's own
// queue is not counted; with frames-in-flight=1 this is the latency a live source sees.
// Frames arrive by PTS: every frame must arrive exactly once and in order, or the run fails.
//
// K = 8 frames rotate, so source frames are not all cached in the GPU's L2.
//
// Usage: bench_pipeline [--csv PATH] [--quick] [--only SIZE]
//   --csv PATH  CSV output (default bench_pipeline.csv); a bare PATH argument works as well
//   --quick     a tenth of the frames, for a smoke test
//   --only SIZE only the cases of one size: SD, HD, "Full HD" or 4K (repeatable)
// Without a CUDA device it prints "skipped: no CUDA device" and exits 0. The element is
// registered from the statically linked sources; GST_PLUGIN_PATH is not needed.

#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench_options.h"
#include "device_memory.h"
#include "frame_blur.h"
#include "gstcudagaussian.h"
#include "pushed_frames.h"
#include "video_planes.h"

namespace cg = cudagaussian;

namespace {

constexpr int kFrames = 8;  // rotating source frames: 8 x 8.3 MB at 1080p, above any L2
constexpr int kWarmup = 20;
constexpr int kOpSamples = 100;            // single-operation timings (copies, kernel)
constexpr double kTargetBytes = 8e9;       // frames per run: about 8 GB of frames ...
constexpr int kMinRun = 300, kMaxRun = 2000;  // ... clamped to this range
constexpr GstClockTime kPtsStep = GST_MSECOND;  // frame i has PTS i ms (framerate 1000/1)
constexpr double kPipelineTimeoutS = 90.0;
static_assert(kFrames >= 8, "fewer frames would let the L2 cache hold the working set");
static_assert(kMinRun > 10 * kWarmup, "runs must be long against the warm-up");

const double kNaN = std::nan("");
const double kSigma = 2.0;  // the sigma of the size and variant tables
const std::vector<double> kSweep = {1.0, 2.0, 5.0, 10.0, 30.0};  // at Full HD RGBA

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

#define BENCH_CUDA(call) CG_CUDA_TRY(call)

// ------------------------------------------------------------------ results

struct Measurement {
  std::string variant;
  std::string format;
  int width = 0, height = 0;
  double sigma = 0;
  int frames_in_flight = 0;  // 0: not applicable / element default
  int frames = 0;            // measured frames (warm-up excluded) or timed operations
  double fps = kNaN;
  double lat_med_ms = kNaN, lat_p95_ms = kNaN;
  double gbps = kNaN;  // copies only: GB/s per direction
  std::string status = "ok";

  bool ok() const { return status == "ok"; }
  double pixels_per_second() const { return fps * width * height; }
};

std::vector<Measurement> g_results;
std::string g_device_name;

std::string fmt(double v, const char* f = "%.0f") {
  if (std::isnan(v)) return "–";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double p95_of(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  size_t idx = static_cast<size_t>(std::ceil(0.95 * v.size()));
  return v[std::min(v.size() - 1, idx > 0 ? idx - 1 : 0)];
}

// ------------------------------------------------------------------ frames

// Random bytes in 1..255: no frame is all zeros, so a blur that does nothing cannot hide.
void fill_random(uint8_t* p, size_t n, uint64_t seed) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t i = 0;
  while (i < n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    for (int b = 0; b < 8 && i < n; ++b, ++i) {
      const uint8_t v = static_cast<uint8_t>(x >> (8 * b));
      p[i] = v ? v : 1;
    }
  }
}

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

void add_default_video_meta(GstBuffer* buf, GstVideoInfo info) {
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                 GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                 GST_VIDEO_INFO_N_PLANES(&info), info.offset, info.stride);
}

// Pinned frames allocated with the CUDA runtime (primary context; portable, so usable from the
// element's own GstCudaContext) and wrapped as GstMemory.
cg::Status make_pinned_frames(const GstVideoInfo& info, uint64_t seed, FrameSet* set) {
  const size_t size = GST_VIDEO_INFO_SIZE(&info);
  for (int k = 0; k < kFrames; ++k) {
    void* p = nullptr;
    BENCH_CUDA(cudaHostAlloc(&p, size, cudaHostAllocPortable));
    set->pinned.push_back(p);
    fill_random(static_cast<uint8_t*>(p), size, seed + k);
    GstBuffer* buf = gst_buffer_new();
    gst_buffer_append_memory(
        buf, gst_memory_new_wrapped((GstMemoryFlags)0, p, size, 0, size, nullptr, nullptr));
    add_default_video_meta(buf, info);
    set->buffers.push_back(buf);
  }
  return cg::Status::success();
}

cg::Status make_pageable_frames(const GstVideoInfo& info, uint64_t seed, FrameSet* set) {
  const size_t size = GST_VIDEO_INFO_SIZE(&info);
  for (int k = 0; k < kFrames; ++k) {
    GstBuffer* buf = gst_buffer_new_allocate(nullptr, size, nullptr);
    GstMapInfo map;
    if (!buf || !gst_buffer_map(buf, &map, GST_MAP_WRITE)) {
      if (buf) gst_buffer_unref(buf);
      return cg::Status::invalid("could not allocate a pageable frame");
    }
    fill_random(map.data, map.size, seed + k);
    gst_buffer_unmap(buf, &map);
    add_default_video_meta(buf, info);
    set->buffers.push_back(buf);
  }
  return cg::Status::success();
}

// GPU-resident frames: buffers of a GstCudaBufferPool in @ctx, written once through a host
// mapping (unmapping uploads them).
cg::Status make_cuda_frames(GstCudaContext* ctx, GstCaps* cuda_caps, const GstVideoInfo& info,
                            uint64_t seed, FrameSet* set) {
  if (!ctx) return cg::Status::invalid("no GstCudaContext");
  set->pool = gst_cuda_buffer_pool_new(ctx);
  if (!set->pool) return cg::Status::invalid("gst_cuda_buffer_pool_new failed");
  GstStructure* config = gst_buffer_pool_get_config(set->pool);
  gst_buffer_pool_config_set_params(config, cuda_caps, GST_VIDEO_INFO_SIZE(&info), kFrames, 0);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(set->pool, config))
    return cg::Status::invalid("CUDA buffer pool refused its configuration");
  if (!gst_buffer_pool_set_active(set->pool, TRUE))
    return cg::Status::invalid("could not activate the CUDA buffer pool");
  for (int k = 0; k < kFrames; ++k) {
    GstBuffer* buf = nullptr;
    if (gst_buffer_pool_acquire_buffer(set->pool, &buf, nullptr) != GST_FLOW_OK || !buf)
      return cg::Status::invalid("could not acquire a CUDA buffer");
    set->buffers.push_back(buf);
    GstMapInfo map;
    if (!gst_buffer_map(buf, &map, GST_MAP_WRITE))
      return cg::Status::invalid("could not map a CUDA buffer for writing");
    fill_random(map.data, map.size, seed + k);
    gst_buffer_unmap(buf, &map);
  }
  return cg::Status::success();
}

// ------------------------------------------------------------------ pipelines

struct Stage {
  std::string factory;
  std::function<void(GstElement*)> setup;
};

Stage blur_stage(double sigma, int frames_in_flight) {
  return {"cudagaussian", [=](GstElement* e) {
            g_object_set(e, "sigma", sigma, nullptr);
            if (frames_in_flight > 0)
              g_object_set(e, "frames-in-flight", (guint)frames_in_flight, nullptr);
          }};
}

Stage caps_stage(const char* caps_string) {
  std::string s = caps_string;
  return {"capsfilter", [s](GstElement* e) {
            GstCaps* caps = gst_caps_from_string(s.c_str());
            g_object_set(e, "caps", caps, nullptr);
            gst_caps_unref(caps);
          }};
}

struct Timeline {
  int n = 0;
  std::vector<int64_t> entry, exit;
  std::atomic<int> arrived{0};
  std::atomic<int> duplicated{0}, reordered{0}, unknown{0};
  int last = -1;  // written by the streaming thread only
};

int frame_index(GstBuffer* b, int n) {
  const GstClockTime pts = GST_BUFFER_PTS(b);
  if (!GST_CLOCK_TIME_IS_VALID(pts) || pts % kPtsStep != 0) return -1;
  const guint64 i = pts / kPtsStep;
  return i < (guint64)n ? (int)i : -1;
}

GstPadProbeReturn on_source_push(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* t = static_cast<Timeline*>(data);
  const int i = frame_index(GST_PAD_PROBE_INFO_BUFFER(info), t->n);
  if (i >= 0) t->entry[i] = now_ns();
  return GST_PAD_PROBE_OK;
}

void on_handoff(GstElement*, GstBuffer* buffer, GstPad*, gpointer data) {
  const int64_t t_ns = now_ns();
  auto* t = static_cast<Timeline*>(data);
  const int i = frame_index(buffer, t->n);
  if (i < 0) {
    t->unknown++;
    return;
  }
  if (t->exit[i] != 0) t->duplicated++;
  if (i <= t->last) t->reordered++;
  t->last = i;
  t->exit[i] = t_ns;
  t->arrived++;
}

std::string bus_error_text(GstMessage* msg) {
  GError* err = nullptr;
  gchar* dbg = nullptr;
  gst_message_parse_error(msg, &err, &dbg);
  std::string text = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(msg))) + ": " +
                     (err ? err->message : "unknown error");
  std::fprintf(stderr, "  bus error from %s\n  debug: %s\n", text.c_str(), dbg ? dbg : "");
  // The debug text's last line usually says why (e.g. "streaming stopped, reason
  // not-negotiated (-4)").
  if (dbg && *dbg) {
    std::string d = g_strstrip(dbg);
    const size_t nl = d.find_last_of('\n');
    if (nl != std::string::npos) d = d.substr(nl + 1);
    if (d.size() > 160) d = d.substr(0, 160) + "…";
    text += " (" + d + ")";
  }
  if (err) g_error_free(err);
  g_free(dbg);
  return text;
}

struct RunOptions {
  int n = 0;        // frames pushed, warm-up included
  int warmup = kWarmup;
  GstCudaContext* share = nullptr;  // given to the pipeline (all CUDA elements use it)
  double timeout_s = kPipelineTimeoutS;
};

// Runs appsrc ! stages ! fakesink once over @frames; fills fps/latency/status of @m.
void run_pipeline(GstCaps* caps, const FrameSet& frames, const std::vector<Stage>& stages,
                  const RunOptions& opt, Measurement* m) {
  m->frames = opt.n - opt.warmup;
  for (const Stage& s : stages) {
    GstElementFactory* f = gst_element_factory_find(s.factory.c_str());
    if (!f) {
      m->status = "skipped: element '" + s.factory + "' not available";
      return;
    }
    gst_object_unref(f);
  }
  if (frames.empty()) {
    m->status = "failed: no input frames";
    return;
  }

  GstElement* pipeline = gst_pipeline_new(nullptr);
  GstElement* src = gst_element_factory_make("appsrc", nullptr);
  GstElement* sink = gst_element_factory_make("fakesink", nullptr);
  if (!src || !sink) {
    m->status = "skipped: appsrc or fakesink not available";
    if (src) gst_object_unref(src);
    if (sink) gst_object_unref(sink);
    gst_object_unref(pipeline);
    return;
  }
  g_object_set(src, "format", GST_FORMAT_TIME, "is-live", FALSE, "block", TRUE, "do-timestamp",
               FALSE, nullptr);
  gst_app_src_set_caps(GST_APP_SRC(src), caps);
  gst_app_src_set_stream_type(GST_APP_SRC(src), GST_APP_STREAM_TYPE_STREAM);
  gst_app_src_set_max_bytes(GST_APP_SRC(src), 2 * frames.buffer_size());
  g_object_set(sink, "sync", FALSE, "signal-handoffs", TRUE, "enable-last-sample", FALSE, "qos",
               FALSE, nullptr);

  std::vector<GstElement*> chain{src};
  gst_bin_add(GST_BIN(pipeline), src);
  for (const Stage& s : stages) {
    GstElement* e = gst_element_factory_make(s.factory.c_str(), nullptr);
    if (!e) {
      m->status = "failed: could not create '" + s.factory + "'";
      gst_object_unref(sink);
      gst_object_unref(pipeline);
      return;
    }
    if (s.setup) s.setup(e);
    gst_bin_add(GST_BIN(pipeline), e);
    chain.push_back(e);
  }
  gst_bin_add(GST_BIN(pipeline), sink);
  chain.push_back(sink);
  for (size_t i = 0; i + 1 < chain.size(); ++i) {
    if (!gst_element_link(chain[i], chain[i + 1])) {
      m->status = std::string("failed: could not link ") + GST_OBJECT_NAME(chain[i]) + " to " +
                  GST_OBJECT_NAME(chain[i + 1]);
      gst_object_unref(pipeline);
      return;
    }
  }
  if (opt.share) {
    GstContext* context = gst_context_new_cuda_context(opt.share);
    gst_element_set_context(pipeline, context);
    gst_context_unref(context);
  }

  Timeline t;
  t.n = opt.n;
  t.entry.assign(opt.n, 0);
  t.exit.assign(opt.n, 0);
  GstPad* srcpad = gst_element_get_static_pad(src, "src");
  gst_pad_add_probe(srcpad, GST_PAD_PROBE_TYPE_BUFFER, on_source_push, &t, nullptr);
  gst_object_unref(srcpad);
  g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &t);

  GstBus* bus = gst_element_get_bus(pipeline);
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    m->status = "failed: " + (msg ? bus_error_text(msg) : std::string("could not start"));
    if (msg) gst_message_unref(msg);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(bus);
    gst_object_unref(pipeline);
    return;
  }

  std::atomic<bool> stop{false};
  GstFlowReturn push_ret = GST_FLOW_OK;
  std::thread pusher([&] {
    for (int i = 0; i < opt.n && !stop.load(); ++i) {
      GstBuffer* b = wrap_for_push(frames.buffers[i % frames.buffers.size()], (guint64)i, kPtsStep);
      const GstFlowReturn r = gst_app_src_push_buffer(GST_APP_SRC(src), b);
      if (r != GST_FLOW_OK) {
        push_ret = r;
        break;
      }
    }
    gst_app_src_end_of_stream(GST_APP_SRC(src));
  });

  GstMessage* msg = gst_bus_timed_pop_filtered(
      bus, (GstClockTime)(opt.timeout_s * GST_SECOND),
      (GstMessageType)(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  if (!msg) {
    m->status = "failed: timed out after " + fmt(opt.timeout_s) + " s (" +
                std::to_string(t.arrived.load()) + " of " + std::to_string(opt.n) +
                " frames arrived)";
  } else if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
    m->status = "failed: " + bus_error_text(msg);
  }
  if (msg) gst_message_unref(msg);
  stop = true;
  // Unblocks a push waiting for queue space (appsrc flushes on the way down).
  gst_element_set_state(pipeline, GST_STATE_NULL);
  pusher.join();
  gst_object_unref(bus);
  gst_object_unref(pipeline);

  if (!m->ok()) return;
  if (push_ret != GST_FLOW_OK) {
    m->status = std::string("failed: push returned ") + gst_flow_get_name(push_ret);
    return;
  }
  if (t.arrived != opt.n || t.duplicated || t.reordered || t.unknown) {
    m->status = "failed: " + std::to_string(t.arrived.load()) + " of " + std::to_string(opt.n) +
                " frames arrived, " + std::to_string(t.duplicated.load()) + " duplicated, " +
                std::to_string(t.reordered.load()) + " out of order, " +
                std::to_string(t.unknown.load()) + " unknown";
    return;
  }
  const int64_t t0 = t.exit[opt.warmup - 1], t1 = t.exit[opt.n - 1];
  m->fps = (opt.n - opt.warmup) / ((t1 - t0) * 1e-9);
  std::vector<double> lat;
  for (int i = opt.warmup; i < opt.n; ++i)
    if (t.entry[i]) lat.push_back((t.exit[i] - t.entry[i]) * 1e-6);
  m->lat_med_ms = median_of(lat);
  m->lat_p95_ms = p95_of(lat);
}

// ------------------------------------------------------------------ CUDA-only measurements

struct DeviceFrames {
  std::vector<std::vector<cg::DevicePlane>> planes;  // [frame][plane]
};

struct PlaneLayout {
  std::vector<size_t> offset, stride, row_bytes;
  std::vector<int> rows;
};

PlaneLayout layout_of(const GstVideoInfo& info, const std::vector<cg::PlaneSpec>& specs) {
  PlaneLayout l;
  for (size_t p = 0; p < specs.size(); ++p) {
    l.offset.push_back(GST_VIDEO_INFO_PLANE_OFFSET(&info, p));
    l.stride.push_back(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    l.row_bytes.push_back(specs[p].geometry.row_bytes());
    l.rows.push_back(specs[p].geometry.height);
  }
  return l;
}

cg::Status alloc_device_frames(const PlaneLayout& l, DeviceFrames* f) {
  f->planes.resize(kFrames);
  for (auto& frame : f->planes) {
    frame.resize(l.rows.size());
    for (size_t p = 0; p < l.rows.size(); ++p) CG_TRY(frame[p].allocate(l.row_bytes[p], l.rows[p]));
  }
  return cg::Status::success();
}

struct EventPairs {
  std::vector<cudaEvent_t> start, stop;
  ~EventPairs() {
    for (cudaEvent_t e : start) cudaEventDestroy(e);
    for (cudaEvent_t e : stop) cudaEventDestroy(e);
  }
  cg::Status create(int n) {
    for (int i = 0; i < n; ++i) {
      cudaEvent_t a = nullptr, b = nullptr;
      BENCH_CUDA(cudaEventCreate(&a));
      start.push_back(a);
      BENCH_CUDA(cudaEventCreate(&b));
      stop.push_back(b);
    }
    return cg::Status::success();
  }
};

// Median and p95 (µs) of single operations op(frame), rotating frames, each between events.
cg::Status time_ops(cudaStream_t s, const std::function<cg::Status(int)>& op, double* med_us,
                    double* p95_us) {
  EventPairs ev;
  CG_TRY(ev.create(kOpSamples));
  for (int i = 0; i < 10; ++i) CG_TRY(op(i % kFrames));
  for (int i = 0; i < kOpSamples; ++i) {
    BENCH_CUDA(cudaEventRecord(ev.start[i], s));
    CG_TRY(op(i % kFrames));
    BENCH_CUDA(cudaEventRecord(ev.stop[i], s));
  }
  BENCH_CUDA(cudaStreamSynchronize(s));
  std::vector<double> us(kOpSamples);
  for (int i = 0; i < kOpSamples; ++i) {
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, ev.start[i], ev.stop[i]));
    us[i] = ms * 1000.0;
  }
  *med_us = median_of(us);
  *p95_us = p95_of(us);
  return cg::Status::success();
}

struct PcieFloor {
  double fps = kNaN;           // frames per second, one up and one down per frame, overlapped
  double gbps = kNaN;          // per direction, overlapped
  double h2d_gbps = kNaN, d2h_gbps = kNaN;  // each direction streaming alone
};

// Whole frames, cudaMemcpyAsync (1D: the fastest copy there is), H2D on one stream and D2H of
// other frames on another, n of each; timed from an event both streams wait on to one recorded
// after both finish.
cg::Status measure_pcie(const std::vector<void*>& host_src, const std::vector<void*>& host_dst,
                        size_t bytes, int n, PcieFloor* out) {
  std::vector<void*> dev(kFrames, nullptr);
  cudaStream_t up = nullptr, down = nullptr;
  cudaEvent_t start = nullptr, up_done = nullptr, stop = nullptr;
  auto cleanup = [&] {
    for (void* p : dev) cudaFree(p);
    if (up) cudaStreamDestroy(up);
    if (down) cudaStreamDestroy(down);
    if (start) cudaEventDestroy(start);
    if (up_done) cudaEventDestroy(up_done);
    if (stop) cudaEventDestroy(stop);
  };
  auto body = [&]() -> cg::Status {
    for (void*& p : dev) BENCH_CUDA(cudaMalloc(&p, bytes));
    BENCH_CUDA(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking));
    BENCH_CUDA(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking));
    BENCH_CUDA(cudaEventCreate(&start));
    BENCH_CUDA(cudaEventCreate(&up_done));
    BENCH_CUDA(cudaEventCreate(&stop));

    // mode 0: both directions overlapped; 1: H2D alone; 2: D2H alone.
    auto run = [&](int mode, int count, double* seconds) -> cg::Status {
      BENCH_CUDA(cudaEventRecord(start, up));
      BENCH_CUDA(cudaStreamWaitEvent(down, start, 0));
      for (int i = 0; i < count; ++i) {
        if (mode != 2)
          BENCH_CUDA(cudaMemcpyAsync(dev[i % kFrames], host_src[i % kFrames], bytes,
                                     cudaMemcpyHostToDevice, up));
        if (mode != 1)
          BENCH_CUDA(cudaMemcpyAsync(host_dst[i % kFrames], dev[(i + kFrames / 2) % kFrames],
                                     bytes, cudaMemcpyDeviceToHost, down));
      }
      BENCH_CUDA(cudaEventRecord(up_done, up));
      BENCH_CUDA(cudaStreamWaitEvent(down, up_done, 0));
      BENCH_CUDA(cudaEventRecord(stop, down));
      BENCH_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
      *seconds = ms * 1e-3;
      return cg::Status::success();
    };
    double s = 0;
    CG_TRY(run(0, 2 * kFrames, &s));  // warm-up
    CG_TRY(run(0, n, &s));
    out->fps = n / s;
    out->gbps = bytes * out->fps / 1e9;
    CG_TRY(run(1, n, &s));
    out->h2d_gbps = bytes * (n / s) / 1e9;
    CG_TRY(run(2, n, &s));
    out->d2h_gbps = bytes * (n / s) / 1e9;
    return cg::Status::success();
  };
  cg::Status st = body();
  cleanup();
  return st;
}

struct Budget {
  double h2d_us = kNaN, h2d_p95 = kNaN, kernel_us = kNaN, kernel_p95 = kNaN, d2h_us = kNaN,
         d2h_p95 = kNaN;
  double sum_us() const { return h2d_us + kernel_us + d2h_us; }
};

// What the element does for one system-memory frame, piece by piece: per-plane 2D copies from
// pinned memory into pitched device planes, FrameBlur::run, per-plane 2D copies back.
cg::Status measure_budget(const GstVideoInfo& info, const std::vector<void*>& host_src,
                          const std::vector<void*>& host_dst, double sigma, bool copies,
                          Budget* out) {
  std::vector<cg::PlaneSpec> specs;
  if (!gst_cuda_gaussian_plane_specs(&info, &specs))
    return cg::Status::invalid("format not supported by the kernels");
  const PlaneLayout l = layout_of(info, specs);
  DeviceFrames in, outf;
  CG_TRY(alloc_device_frames(l, &in));
  CG_TRY(alloc_device_frames(l, &outf));
  cg::CudaStream stream;
  CG_TRY(stream.create());
  const size_t n_planes = specs.size();

  // The device frames get content before the kernel is timed.
  for (int f = 0; f < kFrames; ++f)
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(in.planes[f][p].get(), in.planes[f][p].pitch(),
                               static_cast<uint8_t*>(host_src[f]) + l.offset[p], l.stride[p],
                               l.row_bytes[p], l.rows[p], stream.get()));

  cg::BlurSettings settings;
  settings.sigma_x = settings.sigma_y = sigma;
  cg::FrameBlur blur;
  CG_TRY(blur.plan(settings, specs));
  auto kernel = [&](int f) -> cg::Status {
    std::vector<cg::DevicePlaneRef> src(n_planes);
    std::vector<cg::MutableDevicePlaneRef> dst(n_planes);
    for (size_t p = 0; p < n_planes; ++p) {
      src[p] = {in.planes[f][p].get(), in.planes[f][p].pitch()};
      dst[p] = {outf.planes[f][p].get(), outf.planes[f][p].pitch()};
    }
    return blur.run(src, dst, stream.get());
  };
  CG_TRY(time_ops(stream.get(), kernel, &out->kernel_us, &out->kernel_p95));
  if (!copies) return cg::Status::success();

  auto h2d = [&](int f) -> cg::Status {
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(in.planes[f][p].get(), in.planes[f][p].pitch(),
                               static_cast<uint8_t*>(host_src[f]) + l.offset[p], l.stride[p],
                               l.row_bytes[p], l.rows[p], stream.get()));
    return cg::Status::success();
  };
  auto d2h = [&](int f) -> cg::Status {
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(static_cast<uint8_t*>(host_dst[f]) + l.offset[p], l.stride[p],
                               outf.planes[f][p].get(), outf.planes[f][p].pitch(),
                               l.row_bytes[p], l.rows[p], stream.get()));
    return cg::Status::success();
  };
  CG_TRY(time_ops(stream.get(), h2d, &out->h2d_us, &out->h2d_p95));
  CG_TRY(time_ops(stream.get(), d2h, &out->d2h_us, &out->d2h_p95));
  return cg::Status::success();
}

// ------------------------------------------------------------------ cases

struct Case {
  GstVideoFormat format;
  int width, height;
  const char* label;
};

std::string format_name(GstVideoFormat f) { return gst_video_format_to_string(f); }

GstVideoInfo video_info(GstVideoFormat format, int w, int h) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, w, h);
  GST_VIDEO_INFO_FPS_N(&info) = 1000;  // matches kPtsStep
  GST_VIDEO_INFO_FPS_D(&info) = 1;
  return info;
}

GstCaps* caps_for(const GstVideoInfo& info, bool cuda) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  if (cuda)
    gst_caps_set_features(caps, 0,
                          gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
  return caps;
}

int frames_for(size_t frame_bytes, double scale) {
  const int n = std::clamp((int)std::lround(kTargetBytes / frame_bytes), kMinRun, kMaxRun);
  return std::max(kWarmup + 20, (int)(n * scale));
}

Measurement base(const std::string& variant, const GstVideoInfo& info, double sigma, int fif) {
  Measurement m;
  m.variant = variant;
  m.format = format_name(GST_VIDEO_INFO_FORMAT(&info));
  m.width = GST_VIDEO_INFO_WIDTH(&info);
  m.height = GST_VIDEO_INFO_HEIGHT(&info);
  m.sigma = sigma;
  m.frames_in_flight = fif;
  return m;
}

void progress(const Measurement& m) {
  std::fprintf(stderr, "  %-20s %s %dx%d sigma %g fif %d: %s fps, latency %s ms — %s\n",
               m.variant.c_str(), m.format.c_str(), m.width, m.height, m.sigma,
               m.frames_in_flight, fmt(m.fps).c_str(), fmt(m.lat_med_ms, "%.3f").c_str(),
               m.status.c_str());
}

void record(const Measurement& m) {
  progress(m);
  g_results.push_back(m);
}

struct Frames {
  FrameSet pinned, pageable, cuda;
  std::vector<void*> host_dst;  // pinned, for D2H copies
  std::string pinned_err, pageable_err, cuda_err;
  ~Frames() {
    for (void* p : host_dst) cudaFreeHost(p);
  }
};

struct CaseResult {
  Case c;
  PcieFloor floor;
  Budget budget;
  std::string floor_status = "ok", budget_status = "ok";
};

std::string failed(const cg::Status& st) { return "failed: " + st.message; }

// Pipelines over one frame set at one sigma.
void run_blur_variants(const GstVideoInfo& info, Frames& fr, double sigma, int n,
                       GstCudaContext* ctx, const std::vector<int>& pinned_depths,
                       bool pageable, bool passthrough, const std::vector<int>& cuda_depths,
                       bool upload_download) {
  GstCaps* sys_caps = caps_for(info, false);
  GstCaps* cuda_caps = caps_for(info, true);
  RunOptions opt;
  opt.n = n;

  for (int d : pinned_depths) {
    Measurement m = base("sysmem-pinned", info, sigma, d);
    if (!fr.pinned_err.empty())
      m.status = fr.pinned_err;
    else
      run_pipeline(sys_caps, fr.pinned, {blur_stage(sigma, d)}, opt, &m);
    record(m);
  }
  if (pageable) {
    Measurement m = base("sysmem-pageable", info, sigma, 3);
    if (!fr.pageable_err.empty())
      m.status = fr.pageable_err;
    else
      run_pipeline(sys_caps, fr.pageable, {blur_stage(sigma, 3)}, opt, &m);
    record(m);
  }
  if (passthrough) {
    Measurement m = base("passthrough", info, 0.0, 0);
    if (!fr.pinned_err.empty())
      m.status = fr.pinned_err;
    else
      run_pipeline(sys_caps, fr.pinned, {blur_stage(0.0, 0)}, opt, &m);
    record(m);
  }
  RunOptions cuda_opt = opt;
  cuda_opt.share = ctx;
  cuda_opt.n = std::min(4 * kMaxRun, 2 * n);  // cheap per frame: longer runs, steadier rates
  for (int d : cuda_depths) {
    Measurement m = base("cudamem", info, sigma, d);
    if (!fr.cuda_err.empty())
      m.status = fr.cuda_err;
    else
      run_pipeline(cuda_caps, fr.cuda, {blur_stage(sigma, d)}, cuda_opt, &m);
    record(m);
  }
  if (upload_download) {
    Measurement m = base("cudaupload-download", info, sigma, 3);
    RunOptions ud_opt = opt;
    ud_opt.share = ctx;
    if (!fr.pinned_err.empty())
      m.status = fr.pinned_err;
    else
      run_pipeline(sys_caps, fr.pinned,
                   {{"cudaupload", nullptr}, caps_stage("video/x-raw(memory:CUDAMemory)"),
                    blur_stage(sigma, 3), caps_stage("video/x-raw(memory:CUDAMemory)"),
                    {"cudadownload", nullptr}, caps_stage("video/x-raw")},
                   ud_opt, &m);
    record(m);
  }
  gst_caps_unref(sys_caps);
  gst_caps_unref(cuda_caps);
}

void prepare_frames(const GstVideoInfo& info, GstCudaContext* ctx, Frames* fr) {
  cg::Status st = make_pinned_frames(info, 1000, &fr->pinned);
  if (!st.ok()) fr->pinned_err = failed(st);
  st = make_pageable_frames(info, 2000, &fr->pageable);
  if (!st.ok()) fr->pageable_err = failed(st);
  GstCaps* cuda_caps = caps_for(info, true);
  st = make_cuda_frames(ctx, cuda_caps, info, 3000, &fr->cuda);
  gst_caps_unref(cuda_caps);
  if (!st.ok()) fr->cuda_err = failed(st);
  const size_t size = GST_VIDEO_INFO_SIZE(&info);
  for (int k = 0; k < kFrames; ++k) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, size, cudaHostAllocPortable) != cudaSuccess) break;
    std::memset(p, 0, size);
    fr->host_dst.push_back(p);
  }
}

// ------------------------------------------------------------------ output

const Measurement* find(const std::string& variant, const std::string& format, int w, int h,
                        double sigma, int fif) {
  for (const Measurement& m : g_results)
    if (m.variant == variant && m.format == format && m.width == w && m.height == h &&
        m.sigma == sigma && m.frames_in_flight == fif)
      return &m;
  return nullptr;
}

// The fastest successful run of @variant (any frames in flight).
const Measurement* best(const std::string& variant, const std::string& format, int w, int h,
                        double sigma) {
  const Measurement* b = nullptr;
  for (const Measurement& m : g_results)
    if (m.ok() && m.variant == variant && m.format == format && m.width == w && m.height == h &&
        m.sigma == sigma && (!b || m.fps > b->fps))
      b = &m;
  return b;
}

std::string fif_text(const Measurement& m) {
  return m.frames_in_flight > 0 ? std::to_string(m.frames_in_flight) : "auto";
}

void print_pipeline_table(const std::vector<const Measurement*>& rows, double floor_fps,
                          bool sigma_column) {
  std::printf("| variant |%s frames in flight | frames | fps | × PCIe floor | latency median ms "
              "| latency p95 ms | Mpixel/s | status |\n",
              sigma_column ? " sigma |" : "");
  std::printf("|---|%s---:|---:|---:|---:|---:|---:|---:|---|\n", sigma_column ? "---:|" : "");
  for (const Measurement* m : rows) {
    std::printf("| %s |%s %s | %d | %s | %s | %s | %s | %s | %s |\n", m->variant.c_str(),
                sigma_column ? (" " + fmt(m->sigma, "%g") + " |").c_str() : "",
                fif_text(*m).c_str(), m->frames, fmt(m->fps).c_str(),
                fmt(m->fps / floor_fps, "%.2f").c_str(), fmt(m->lat_med_ms, "%.3f").c_str(),
                fmt(m->lat_p95_ms, "%.3f").c_str(), fmt(m->pixels_per_second() / 1e6).c_str(),
                m->status.c_str());
  }
  std::printf("\n");
}

std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += (c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

bool write_csv(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  std::fprintf(f, "device,variant,format,width,height,sigma,frames_in_flight,frames,fps,"
                  "latency_median_ms,latency_p95_ms,pixels_per_second,gbps,status\n");
  auto num = [](double v, const char* format) { return std::isnan(v) ? std::string() : fmt(v, format); };
  for (const Measurement& m : g_results)
    std::fprintf(f, "%s,%s,%s,%d,%d,%g,%d,%d,%s,%s,%s,%s,%s,%s\n",
                 csv_quote(g_device_name).c_str(), m.variant.c_str(), m.format.c_str(), m.width,
                 m.height, m.sigma, m.frames_in_flight, m.frames, num(m.fps, "%.2f").c_str(),
                 num(m.lat_med_ms, "%.4f").c_str(), num(m.lat_p95_ms, "%.4f").c_str(),
                 num(m.pixels_per_second(), "%.0f").c_str(), num(m.gbps, "%.2f").c_str(),
                 csv_quote(m.status).c_str());
  std::fclose(f);
  return true;
}

struct Report {
  std::string device;
  int major, minor, driver, runtime;
  double total_s;
  const std::vector<CaseResult>& case_results;
  std::map<double, Budget>& sweep_kernels;
};

// Markdown on stdout: the tables, then the targets.
void print_report(const Report& r) {
  const std::vector<CaseResult>& case_results = r.case_results;
  std::map<double, Budget>& sweep_kernels = r.sweep_kernels;
  std::printf("# cudagaussian pipeline benchmark\n\n");
  std::printf("%s (compute capability %d.%d), driver %d.%d, CUDA runtime %d.%d, %s. Each run "
              "pushes N frames from appsrc\n(K = %d rotating pre-filled frames, random bytes) "
              "through the pipeline into fakesink sync=false; the first %d are warm-up.\n"
              "fps: frames / time between the handoffs of the last warm-up frame and the last "
              "frame. Latency: appsrc pushing\na frame downstream → fakesink handoff (appsrc's "
              "queue excluded); with 1 frame in flight, the live latency.\n"
              "× PCIe floor: fps over the overlapped H2D+D2H copy rate of the same frame size, "
              "measured in this run.\nTotal time %.0f s.\n\n",
              r.device.c_str(), r.major, r.minor, r.driver / 1000, (r.driver % 1000) / 10,
              r.runtime / 1000, (r.runtime % 1000) / 10, gst_version_string(), kFrames, kWarmup,
              r.total_s);

  std::printf("## PCIe floor (pinned memory, whole-frame cudaMemcpyAsync)\n\n");
  std::printf("| format | size | MB/frame | H2D+D2H overlapped fps | GB/s per direction, "
              "overlapped | H2D alone GB/s | D2H alone GB/s | status |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---|\n");
  for (const CaseResult& cr : case_results) {
    const GstVideoInfo info = video_info(cr.c.format, cr.c.width, cr.c.height);
    std::printf("| %s | %dx%d | %.2f | %s | %s | %s | %s | %s |\n",
                format_name(cr.c.format).c_str(), cr.c.width, cr.c.height,
                GST_VIDEO_INFO_SIZE(&info) / 1e6, fmt(cr.floor.fps).c_str(),
                fmt(cr.floor.gbps, "%.1f").c_str(), fmt(cr.floor.h2d_gbps, "%.1f").c_str(),
                fmt(cr.floor.d2h_gbps, "%.1f").c_str(), cr.floor_status.c_str());
  }
  std::printf("\n## Pipelines at sigma %g\n\n", kSigma);
  for (const CaseResult& cr : case_results) {
    const std::string f = format_name(cr.c.format);
    std::printf("### %s %s %dx%d\n\n", cr.c.label, f.c_str(), cr.c.width, cr.c.height);
    std::vector<const Measurement*> rows;
    for (const Measurement& m : g_results)
      if (m.format == f && m.width == cr.c.width && m.height == cr.c.height &&
          (m.sigma == kSigma || m.variant == "passthrough") && m.variant != "kernel" &&
          m.variant.rfind("pcie", 0) != 0 && m.variant != "h2d" && m.variant != "d2h")
        rows.push_back(&m);
    print_pipeline_table(rows, cr.floor.fps, false);
  }

  std::printf("## Latency budget of one system-memory frame (pinned), sigma %g\n\n", kSigma);
  std::printf("H2D, kernel, D2H: medians of %d single operations timed with CUDA events (2D "
              "copies per plane, as the element does them).\nMeasured: median latency of the "
              "sysmem-pinned pipeline with 1 frame in flight. Target: ratio ≤ 1.25.\n\n",
              kOpSamples);
  std::printf("| format | size | H2D µs | kernel µs | D2H µs | sum µs | measured µs | measured / "
              "sum |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (const CaseResult& cr : case_results) {
    const Measurement* live = find("sysmem-pinned", format_name(cr.c.format), cr.c.width,
                                   cr.c.height, kSigma, 1);
    const double lat_us = live && live->ok() ? live->lat_med_ms * 1e3 : kNaN;
    std::printf("| %s | %dx%d | %s | %s | %s | %s | %s | %s |\n", format_name(cr.c.format).c_str(),
                cr.c.width, cr.c.height, fmt(cr.budget.h2d_us, "%.1f").c_str(),
                fmt(cr.budget.kernel_us, "%.1f").c_str(), fmt(cr.budget.d2h_us, "%.1f").c_str(),
                fmt(cr.budget.sum_us(), "%.1f").c_str(), fmt(lat_us, "%.1f").c_str(),
                fmt(lat_us / cr.budget.sum_us(), "%.2f").c_str());
  }

  std::printf("\n## Sigma sweep, RGBA 1920x1080\n\n");
  {
    double floor_fps = kNaN;
    for (const CaseResult& cr : case_results)
      if (cr.c.format == GST_VIDEO_FORMAT_RGBA && cr.c.width == 1920) floor_fps = cr.floor.fps;
    std::printf("| sigma | kernel µs | kernel fps | sysmem-pinned fif 1 fps | sysmem-pinned fif 3 "
                "fps | × PCIe floor | cudamem fif 3 fps | fif 1 latency ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (double s : kSweep) {
      const Measurement* p1 = find("sysmem-pinned", "RGBA", 1920, 1080, s, 1);
      const Measurement* p3 = find("sysmem-pinned", "RGBA", 1920, 1080, s, 3);
      const Measurement* c3 = find("cudamem", "RGBA", 1920, 1080, s, 3);
      auto fps = [](const Measurement* m) { return m && m->ok() ? m->fps : kNaN; };
      const Budget& b = sweep_kernels[s];
      std::printf("| %g | %s | %s | %s | %s | %s | %s | %s |\n", s,
                  fmt(b.kernel_us, "%.1f").c_str(), fmt(1e6 / b.kernel_us).c_str(),
                  fmt(fps(p1)).c_str(), fmt(fps(p3)).c_str(),
                  fmt(fps(p3) / floor_fps, "%.2f").c_str(), fmt(fps(c3)).c_str(),
                  fmt(p1 && p1->ok() ? p1->lat_med_ms : kNaN, "%.3f").c_str());
    }
    std::printf("\nFailed or skipped runs of the sweep:\n\n");
    int n_bad = 0;
    for (const Measurement& m : g_results)
      if (!m.ok() && m.format == "RGBA" && m.width == 1920 && m.sigma != kSigma &&
          m.variant != "passthrough" && m.variant.rfind("pcie", 0) != 0) {
        std::printf("- %s sigma %g fif %d: %s\n", m.variant.c_str(), m.sigma, m.frames_in_flight,
                    m.status.c_str());
        ++n_bad;
      }
    if (!n_bad) std::printf("- none\n");
  }

  std::printf("\n## GStreamer CPU `gaussianblur` (AYUV, sigma %g), the CPU peer\n\n", kSigma);
  {
    std::vector<const Measurement*> rows;
    for (const Measurement& m : g_results)
      if (m.variant == "gaussianblur-cpu") rows.push_back(&m);
    std::printf("| size | frames | fps | ms per frame | latency median ms | status |\n");
    std::printf("|---|---:|---:|---:|---:|---|\n");
    for (const Measurement* m : rows)
      std::printf("| %dx%d | %d | %s | %s | %s | %s |\n", m->width, m->height, m->frames,
                  fmt(m->fps, "%.2f").c_str(), fmt(1e3 / m->fps, "%.1f").c_str(),
                  fmt(m->lat_med_ms, "%.1f").c_str(), m->status.c_str());
  }

  // ---------------------------------------------------------------- targets
  std::printf("\n## Targets, on %s\n\n", r.device.c_str());
  {
    const CaseResult* fhd = nullptr;
    for (const CaseResult& cr : case_results)
      if (cr.c.format == GST_VIDEO_FORMAT_RGBA && cr.c.width == 1920) fhd = &cr;
    const Measurement* bp = best("sysmem-pinned", "RGBA", 1920, 1080, kSigma);
    if (fhd && bp && !std::isnan(fhd->floor.fps)) {
      const double r = bp->fps / fhd->floor.fps;
      std::printf("- Full HD RGBA system memory: best %.0f fps (frames-in-flight %d) = %.1f %% of "
                  "the PCIe floor %.0f fps (target ≥ 85 %%): %s\n",
                  bp->fps, bp->frames_in_flight, 100 * r, fhd->floor.fps,
                  r >= 0.85 ? "met" : ("MISSED by " + fmt(100 * (0.85 - r), "%.1f") +
                                       " points").c_str());
    } else {
      std::printf("- Full HD RGBA system memory vs PCIe floor: not measured (see failures)\n");
    }
    const Measurement* bc = best("cudamem", "RGBA", 1920, 1080, kSigma);
    if (bc)
      std::printf("- Full HD RGBA CUDA memory: best %.0f fps (frames-in-flight %d) (target ≥ "
                  "10000): %s\n",
                  bc->fps, bc->frames_in_flight,
                  bc->fps >= 10000 ? "met" : ("MISSED by " + fmt(10000 - bc->fps) + " fps").c_str());
    else
      std::printf("- Full HD RGBA CUDA memory: not measured (see failures)\n");
    const Measurement* live = find("sysmem-pinned", "RGBA", 1920, 1080, kSigma, 1);
    if (fhd && live && live->ok() && !std::isnan(fhd->budget.sum_us())) {
      const double r = live->lat_med_ms * 1e3 / fhd->budget.sum_us();
      std::printf("- Live latency, Full HD RGBA system memory, 1 frame in flight: %.1f µs median "
                  "(p95 %.1f µs) = %.2f × (H2D %.1f + kernel %.1f + D2H %.1f = %.1f µs) "
                  "(target ≤ 1.25×): %s\n",
                  live->lat_med_ms * 1e3, live->lat_p95_ms * 1e3, r, fhd->budget.h2d_us,
                  fhd->budget.kernel_us, fhd->budget.d2h_us, fhd->budget.sum_us(),
                  r <= 1.25 ? "met" : ("MISSED by " + fmt(r - 1.25, "%.2f") + "×").c_str());
    } else {
      std::printf("- Live latency: not measured (see failures)\n");
    }
    for (const char* variant : {"sysmem-pinned", "cudamem"}) {
      double lo = kNaN, hi = kNaN;
      std::string detail;
      for (const CaseResult& cr : case_results) {
        if (cr.c.format != GST_VIDEO_FORMAT_RGBA) continue;
        const Measurement* b = best(variant, "RGBA", cr.c.width, cr.c.height, kSigma);
        if (!b) continue;
        const double pps = b->pixels_per_second() / 1e6;
        lo = std::isnan(lo) ? pps : std::min(lo, pps);
        hi = std::isnan(hi) ? pps : std::max(hi, pps);
        detail += (detail.empty() ? "" : ", ") + std::string(cr.c.label) + " " + fmt(pps);
      }
      if (std::isnan(lo)) continue;
      const double spread = hi / lo - 1.0;
      std::printf("- Linear in pixels, %s RGBA (best frames-in-flight, Mpixel/s): %s; spread "
                  "%.0f %% (target ≤ 20 %%): %s\n",
                  variant, detail.c_str(), 100 * spread,
                  spread <= 0.20 ? "met" : "MISSED (small frames pay fixed per-frame costs)");
    }
  }

}

}  // namespace

int main(int argc, char** argv) {
  gchar* csv_option = nullptr;
  gboolean quick = FALSE;
  gchar** only_option = nullptr;
  const GOptionEntry entries[] = {
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_option,
       "CSV output (default bench_pipeline.csv; also as a bare PATH)", "PATH"},
      {"quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A tenth of the frames, for a smoke test", nullptr},
      {"only", 0, 0, G_OPTION_ARG_STRING_ARRAY, &only_option,
       "Only the cases of one size: SD, HD, \"Full HD\" or 4K (repeatable)", "SIZE"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(&argc, &argv, "[PATH]",
                        "Frames per second and latency of cudagaussian in appsrc ! ... ! fakesink pipelines,\n"
                        "against the PCIe floor measured in the same run. Prints Markdown; without a CUDA\n"
                        "device a skip line (exit 0).",
                        entries, gst_init_get_option_group());
  allow_positional_or_exit(argc, argv, 1);
  const std::string csv_path = take_option_string(csv_option, argc > 1 ? argv[1] : "bench_pipeline.csv");
  const double scale = quick ? 0.1 : 1.0;
  std::vector<std::string> only;
  for (gchar** o = only_option; o && *o; ++o) only.push_back(*o);
  g_strfreev(only_option);

  gst_init(&argc, &argv);
  if (cg::cuda_device_count() == 0 || !gst_cuda_load_library()) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop{};
  if (cudaSetDevice(0) != cudaSuccess || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaFree(nullptr) != cudaSuccess) {
    std::printf("skipped: no CUDA device (device 0 unusable)\n");
    return 0;
  }
  g_device_name = prop.name;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);

  // The element from this build, registered statically: no plugin path needed.
  gst_cuda_memory_init_once();
  if (!GST_ELEMENT_REGISTER(cudagaussian, nullptr)) {
    std::fprintf(stderr, "could not register cudagaussian\n");
    return 1;
  }
  GstCudaContext* ctx = gst_cuda_context_new(0);
  if (!ctx) std::fprintf(stderr, "gst_cuda_context_new(0) failed: CUDA-memory variants fail\n");

  const std::vector<Case> cases = {
      {GST_VIDEO_FORMAT_RGBA, 720, 576, "SD"},
      {GST_VIDEO_FORMAT_RGBA, 1280, 720, "HD"},
      {GST_VIDEO_FORMAT_RGBA, 1920, 1080, "Full HD"},
      {GST_VIDEO_FORMAT_NV12, 1920, 1080, "Full HD"},
      {GST_VIDEO_FORMAT_RGBA, 3840, 2160, "4K"},
  };
  std::vector<CaseResult> case_results;
  std::map<double, Budget> sweep_kernels;
  const auto t_start = std::chrono::steady_clock::now();

  for (const Case& c : cases) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.label) == only.end()) continue;
    const GstVideoInfo info = video_info(c.format, c.width, c.height);
    const size_t bytes = GST_VIDEO_INFO_SIZE(&info);
    const int n = frames_for(bytes, scale);
    std::fprintf(stderr, "%s %s %dx%d (%.2f MB), %d frames per run\n", c.label,
                 format_name(c.format).c_str(), c.width, c.height, bytes / 1e6, n);
    Frames fr;
    prepare_frames(info, ctx, &fr);
    CaseResult cr{c, {}, {}, "ok", "ok"};

    if (fr.pinned_err.empty() && fr.host_dst.size() == (size_t)kFrames) {
      cg::Status st = measure_pcie(fr.pinned.pinned, fr.host_dst, bytes, n, &cr.floor);
      if (!st.ok()) cr.floor_status = failed(st);
      st = measure_budget(info, fr.pinned.pinned, fr.host_dst, kSigma, true, &cr.budget);
      if (!st.ok()) cr.budget_status = failed(st);
    } else {
      cr.floor_status = cr.budget_status =
          fr.pinned_err.empty() ? "failed: no pinned memory" : fr.pinned_err;
    }
    {
      Measurement m = base("pcie-floor", info, 0.0, 0);
      m.frames = n;
      m.fps = cr.floor.fps;
      m.lat_med_ms = 1e3 / cr.floor.fps;
      m.gbps = cr.floor.gbps;
      m.status = cr.floor_status;
      record(m);
      Measurement up = m, down = m;
      up.variant = "pcie-h2d-stream";
      up.gbps = cr.floor.h2d_gbps;
      up.fps = up.gbps * 1e9 / bytes;
      up.lat_med_ms = 1e3 / up.fps;
      down.variant = "pcie-d2h-stream";
      down.gbps = cr.floor.d2h_gbps;
      down.fps = down.gbps * 1e9 / bytes;
      down.lat_med_ms = 1e3 / down.fps;
      record(up);
      record(down);
    }
    {
      const std::pair<const char*, std::pair<double, double>> parts[] = {
          {"h2d", {cr.budget.h2d_us, cr.budget.h2d_p95}},
          {"kernel", {cr.budget.kernel_us, cr.budget.kernel_p95}},
          {"d2h", {cr.budget.d2h_us, cr.budget.d2h_p95}}};
      for (const auto& p : parts) {
        Measurement m = base(p.first, info, std::strcmp(p.first, "kernel") ? 0.0 : kSigma, 0);
        m.frames = kOpSamples;
        m.fps = 1e6 / p.second.first;
        m.lat_med_ms = p.second.first / 1e3;
        m.lat_p95_ms = p.second.second / 1e3;
        if (std::strcmp(p.first, "kernel")) m.gbps = bytes / (p.second.first * 1e3);
        m.status = cr.budget_status;
        record(m);
      }
    }

    run_blur_variants(info, fr, kSigma, n, ctx, {1, 2, 3, 4}, true, true, {1, 3, 8, 16}, true);

    if (c.format == GST_VIDEO_FORMAT_RGBA && c.width == 1920) {
      for (double s : kSweep) {
        Budget b;
        cg::Status st = fr.pinned_err.empty()
                            ? measure_budget(info, fr.pinned.pinned, fr.host_dst, s, false, &b)
                            : cg::Status::invalid(fr.pinned_err);
        Measurement m = base("kernel", info, s, 0);
        m.frames = kOpSamples;
        m.fps = 1e6 / b.kernel_us;
        m.lat_med_ms = b.kernel_us / 1e3;
        m.lat_p95_ms = b.kernel_p95 / 1e3;
        m.status = st.ok() ? "ok" : failed(st);
        sweep_kernels[s] = b;
        if (s != kSigma) {
          record(m);
          run_blur_variants(info, fr, s, n, ctx, {1, 3}, false, false, {3}, false);
        }
      }
    }
    case_results.push_back(cr);
  }

  // GStreamer's CPU gaussianblur (gst-plugins-bad, gaudieffects); it takes AYUV only.
  const struct {
    int w, h, n;
  } cpu_cases[] = {{720, 576, 60}, {1280, 720, 40}, {1920, 1080, 30}};
  for (const auto& cc : cpu_cases) {
    const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_AYUV, cc.w, cc.h);
    Measurement m = base("gaussianblur-cpu", info, kSigma, 0);
    FrameSet frames;
    cg::Status st = make_pageable_frames(info, 4000, &frames);
    RunOptions opt;
    opt.n = std::max(8, (int)(cc.n * std::max(scale, 0.3)));
    opt.warmup = 3;
    opt.timeout_s = 300;
    if (!st.ok()) {
      m.status = failed(st);
    } else {
      GstCaps* caps = caps_for(info, false);
      const Stage blur{"gaussianblur",
                       [&](GstElement* e) { g_object_set(e, "sigma", kSigma, nullptr); }};
      run_pipeline(caps, frames, {blur}, opt, &m);
      gst_caps_unref(caps);
    }
    record(m);
  }
  if (ctx) gst_object_unref(ctx);
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

  const Report report{prop.name, prop.major, prop.minor, driver, runtime, total_s, case_results,
                      sweep_kernels};
  print_report(report);
  int n_failed = 0;
  for (const Measurement& m : g_results)
    if (m.status.rfind("failed", 0) == 0) ++n_failed;
  std::printf("\n%zu measurements, %d failed; CSV: %s\n", g_results.size(), n_failed,
              csv_path.c_str());
  if (!write_csv(csv_path)) return 1;
  return 0;
}
