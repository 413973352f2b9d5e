// SPDX-License-Identifier: LGPL-2.1-or-later
#include "pipeline_runs.h"

#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "bench_timing.h"
#include "pushed_frames.h"

namespace pipeline_bench {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

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

void add_default_video_meta(GstBuffer* buf, GstVideoInfo info) {
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                 GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                 GST_VIDEO_INFO_N_PLANES(&info), info.offset, info.stride);
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

}  // namespace

cg::Status make_pinned_frames(const GstVideoInfo& info, uint64_t seed, FrameSet* set) {
  const size_t size = GST_VIDEO_INFO_SIZE(&info);
  for (int k = 0; k < kFrames; ++k) {
    void* p = nullptr;
    CG_CUDA_TRY(cudaHostAlloc(&p, size, cudaHostAllocPortable));
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

namespace {

// The latency tracer's records ("latency, ..., time=(guint64)NS, ...") in arrival order.
std::mutex g_tracer_mutex;
std::vector<double> g_tracer_ms;
bool g_tracer_capture = false;

void collect_tracer_record(GstDebugCategory* category, GstDebugLevel level, const gchar* file,
                           const gchar* function, gint line, GObject* object, GstDebugMessage* message,
                           gpointer) {
  if (std::strcmp(gst_debug_category_get_name(category), "GST_TRACER") != 0) {
    gst_debug_log_default(category, level, file, function, line, object, message, nullptr);
    return;
  }
  const gchar* text = gst_debug_message_get(message);
  if (!text || std::strncmp(text, "latency,", 8) != 0) return;
  const char* time = std::strstr(text, "time=(guint64)");
  if (!time) return;
  const double ns = std::strtod(time + std::strlen("time=(guint64)"), nullptr);
  std::lock_guard<std::mutex> lock(g_tracer_mutex);
  g_tracer_ms.push_back(ns * 1e-6);
}

}  // namespace

bool capture_latency_tracer() {
  const gchar* tracers = g_getenv("GST_TRACERS");
  if (!tracers || !std::strstr(tracers, "latency")) return false;
  gst_debug_set_active(TRUE);
  gst_debug_set_threshold_for_name("GST_TRACER", GST_LEVEL_TRACE);
  gst_debug_remove_log_function(gst_debug_log_default);
  gst_debug_add_log_function(collect_tracer_record, nullptr, nullptr);
  g_tracer_capture = true;
  return true;
}

namespace {

void clear_tracer_records() {
  std::lock_guard<std::mutex> lock(g_tracer_mutex);
  g_tracer_ms.clear();
}

// Median and p95 of the tracer's records after the warm-up frames.
void take_tracer_latency(int warmup, Measurement* m) {
  std::lock_guard<std::mutex> lock(g_tracer_mutex);
  if (static_cast<int>(g_tracer_ms.size()) > warmup) {
    const std::vector<double> lat(g_tracer_ms.begin() + warmup, g_tracer_ms.end());
    m->tracer_med_ms = median(lat);
    m->tracer_p95_ms = p95(lat);
  }
  g_tracer_ms.clear();
}

}  // namespace

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

  // One appsrc ! stages ! fakesink chain per branch, all in one pipeline.
  struct Branch {
    GstElement* src = nullptr;
    Timeline t;
    GstFlowReturn push_ret = GST_FLOW_OK;
  };
  const int branch_count = std::max(1, opt.branches);
  std::vector<Branch> branches(branch_count);
  GstElement* pipeline = gst_pipeline_new(nullptr);
  for (Branch& br : branches) {
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
    for (const Stage& st : stages) {
      GstElement* e = gst_element_factory_make(st.factory.c_str(), nullptr);
      if (!e) {
        m->status = "failed: could not create '" + st.factory + "'";
        gst_object_unref(sink);
        gst_object_unref(pipeline);
        return;
      }
      if (st.setup) st.setup(e);
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
    br.src = src;
    br.t.n = opt.n;
    br.t.entry.assign(opt.n, 0);
    br.t.exit.assign(opt.n, 0);
    GstPad* srcpad = gst_element_get_static_pad(src, "src");
    gst_pad_add_probe(srcpad, GST_PAD_PROBE_TYPE_BUFFER, on_source_push, &br.t, nullptr);
    gst_object_unref(srcpad);
    g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &br.t);
  }
  if (opt.share) {
    GstContext* context = gst_context_new_cuda_context(opt.share);
    gst_element_set_context(pipeline, context);
    gst_context_unref(context);
  }

  if (g_tracer_capture) clear_tracer_records();  // what an earlier pipeline left
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
  std::vector<std::thread> pushers;
  for (Branch& branch : branches)
    pushers.emplace_back([&, br = &branch] {
      for (int i = 0; i < opt.n && !stop.load(); ++i) {
        GstBuffer* b = wrap_for_push(frames.buffers[i % frames.buffers.size()], (guint64)i, kPtsStep);
        const GstFlowReturn r = gst_app_src_push_buffer(GST_APP_SRC(br->src), b);
        if (r != GST_FLOW_OK) {
          br->push_ret = r;
          break;
        }
      }
      gst_app_src_end_of_stream(GST_APP_SRC(br->src));
    });

  GstMessage* msg = gst_bus_timed_pop_filtered(
      bus, (GstClockTime)(opt.timeout_s * GST_SECOND),
      (GstMessageType)(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  if (!msg) {
    int arrived = 0;
    for (const Branch& br : branches) arrived += br.t.arrived.load();
    m->status = "failed: timed out after " + fmt(opt.timeout_s) + " s (" + std::to_string(arrived) +
                " of " + std::to_string(opt.n * branch_count) + " frames arrived)";
  } else if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
    m->status = "failed: " + bus_error_text(msg);
  }
  if (msg) gst_message_unref(msg);
  stop = true;
  // Unblocks a push waiting for queue space (appsrc flushes on the way down).
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (std::thread& p : pushers) p.join();
  gst_object_unref(bus);
  gst_object_unref(pipeline);

  if (!m->ok()) return;
  for (const Branch& br : branches) {
    const Timeline& t = br.t;
    if (br.push_ret != GST_FLOW_OK) {
      m->status = std::string("failed: push returned ") + gst_flow_get_name(br.push_ret);
      return;
    }
    if (t.arrived != opt.n || t.duplicated || t.reordered || t.unknown) {
      m->status = "failed: " + std::to_string(t.arrived.load()) + " of " + std::to_string(opt.n) +
                  " frames arrived, " + std::to_string(t.duplicated.load()) + " duplicated, " +
                  std::to_string(t.reordered.load()) + " out of order, " +
                  std::to_string(t.unknown.load()) + " unknown";
      return;
    }
  }
  // Steady state: from the moment every branch is past its warm-up to the moment the first
  // branch ends, the frames that arrived in between (one branch: frames warmup .. n-1).
  int64_t t0 = 0, t1 = INT64_MAX;
  for (const Branch& br : branches) {
    t0 = std::max(t0, br.t.exit[opt.warmup - 1]);
    t1 = std::min(t1, br.t.exit[opt.n - 1]);
  }
  int64_t counted = 0;
  std::vector<double> lat;
  for (const Branch& br : branches)
    for (int i = opt.warmup; i < opt.n; ++i) {
      if (br.t.exit[i] > t0 && br.t.exit[i] <= t1) ++counted;
      if (br.t.entry[i]) lat.push_back((br.t.exit[i] - br.t.entry[i]) * 1e-6);
    }
  m->frames = static_cast<int>(counted);
  m->fps = t1 > t0 ? counted / ((t1 - t0) * 1e-9) : kNaN;
  m->lat_med_ms = median(lat);
  m->lat_p95_ms = p95(lat);
  if (g_tracer_capture) take_tracer_latency(opt.warmup, m);
}

}  // namespace pipeline_bench
