// SPDX-License-Identifier: LGPL-2.1-or-later
// Soak test: many Full HD RGBA frames through appsrc ! cudagaussian ! fakesink with the element's
// parameters changed at random every 100 frames, checking that nothing is lost, nothing fails,
// GPU memory does not grow, and the last frame still equals the CPU reference.
//
// Usage: soak [FRAMES] [--system-memory] [--seed N] [--width W] [--height H]
//   FRAMES           frames to push (default 100000)
//   --system-memory  pageable system-memory frames (uploaded and downloaded by the element, and
//                    page-locked by it on their second visit) instead of the default CUDA memory
//                    (frames already on the GPU: the faster path)
//   --seed N         seed of the frame contents and of the parameter changes (default 1)
// Every 100 frames (except in the last 100) sigma (0.5-40, log-uniform), algorithm (fir, deriche,
// auto) and border (any for fir/auto, replicate for deriche) change at random; frames-in-flight
// is 3. The element is registered statically: GST_PLUGIN_PATH is not needed.
//
// Prints plain "name: value" lines: frames in and out, order, errors and warnings, GPU free memory
// at start (after a warm-up run through every parameter class) and end and its range while running, the last frame's max
// error against the double-precision reference, the frame rate, and "result: ok" or
// "result: FAILED (...)". Exit code 0 when everything held, 1 on any problem, 77 without a CUDA
// device.

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
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_options.h"
#include "device_memory.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "gstcudagaussian.h"
#include "pushed_frames.h"
#include "reference_blur.h"
#include "reference_multirate.h"
#include "reference_recursive.h"
#include "video_planes.h"

namespace cg = cudagaussian;

namespace {

constexpr int kSourceFrames = 4;            // rotating input frames
constexpr guint kFramesInFlight = 3;
constexpr int kChangeEvery = 100;           // frames between parameter changes
constexpr double kFlatMiB = 8.0;            // allowed change of GPU free memory
constexpr GstClockTime kPtsStep = GST_MSECOND;
constexpr double kStallSeconds = 30.0;      // no frame for this long: the run has hung

struct Params {
  double sigma = 2.0;
  cg::Algorithm algorithm = cg::Algorithm::Auto;
  cg::Border border = cg::Border::Replicate;
};

std::string describe(const Params& p) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "sigma %.3f, algorithm %s, border %s", p.sigma,
                cg::algorithm_name(p.algorithm), cg::border_name(p.border));
  return buf;
}

Params random_params(std::mt19937& rng) {
  Params p;
  std::uniform_real_distribution<double> log_sigma(std::log(0.5), std::log(40.0));
  p.sigma = std::exp(log_sigma(rng));
  const cg::Algorithm algorithms[] = {cg::Algorithm::Fir, cg::Algorithm::Deriche,
                                      cg::Algorithm::Auto};
  p.algorithm = algorithms[rng() % 3];
  p.border = p.algorithm == cg::Algorithm::Deriche ? cg::Border::Replicate
                                                   : static_cast<cg::Border>(rng() % 3);
  return p;
}

// Every class of parameters the random changes can reach, once: each algorithm with each border
// it accepts, at sigmas that select every kernel (the fused FIR below radius 12, the FIR on
// tensor cores from 12 to 128, the two-pass FIR beyond, auto's switch to Deriche past radius 96).
std::vector<Params> every_parameter_class() {
  std::vector<Params> all;
  for (double sigma : {0.5, 2.0, 6.0, 24.0, 40.0})
    for (cg::Algorithm a : {cg::Algorithm::Fir, cg::Algorithm::Deriche, cg::Algorithm::Auto})
      for (cg::Border b : {cg::Border::Replicate, cg::Border::Mirror, cg::Border::Reflect})
        if (b == cg::Border::Replicate || a != cg::Algorithm::Deriche) all.push_back({sigma, a, b});
  return all;
}

// Each property is set on its own (the streaming thread may take a frame between two of them),
// in an order that keeps every intermediate combination valid: recursive algorithms need the
// replicate border, so it comes first for them and last for the others.
void apply(GstElement* blur, const Params& p) {
  if (cg::is_recursive(p.algorithm)) {
    g_object_set(blur, "border", static_cast<gint>(cg::Border::Replicate), nullptr);
    g_object_set(blur, "algorithm", static_cast<gint>(p.algorithm), nullptr);
  } else {
    g_object_set(blur, "algorithm", static_cast<gint>(p.algorithm), nullptr);
    g_object_set(blur, "border", static_cast<gint>(p.border), nullptr);
  }
  g_object_set(blur, "sigma", p.sigma, nullptr);
}

size_t gpu_free_bytes(GstCudaContext* ctx) {
  size_t free_b = 0, total_b = 0;
  if (!gst_cuda_context_push(ctx)) return 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    free_b = 0;
  }
  gst_cuda_context_pop(nullptr);
  return free_b;
}

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

void fill_random(guint8* p, size_t n, std::mt19937& rng) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const guint32 v = rng();
    std::memcpy(p + i, &v, 4);
  }
  for (; i < n; ++i) p[i] = static_cast<guint8>(rng());
}

// ------------------------------------------------------------------ source frames

struct Frames {
  std::vector<GstBuffer*> buffers;
  GstBufferPool* pool = nullptr;
  ~Frames() {
    for (GstBuffer* b : buffers) gst_buffer_unref(b);
    if (pool) {
      gst_buffer_pool_set_active(pool, FALSE);
      gst_object_unref(pool);
    }
  }
};

std::string make_frames(GstCudaContext* ctx, GstCaps* caps, const GstVideoInfo& info, bool cuda,
                        unsigned seed, Frames* f) {
  std::mt19937 rng(seed);
  if (cuda) {
    f->pool = gst_cuda_buffer_pool_new(ctx);
    GstStructure* config = gst_buffer_pool_get_config(f->pool);
    gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info), kSourceFrames, 0);
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config(f->pool, config) || !gst_buffer_pool_set_active(f->pool, TRUE))
      return "could not set up a CUDA buffer pool";
  }
  for (int k = 0; k < kSourceFrames; ++k) {
    GstBuffer* buf = nullptr;
    if (cuda) {
      if (gst_buffer_pool_acquire_buffer(f->pool, &buf, nullptr) != GST_FLOW_OK || !buf)
        return "could not get a CUDA buffer";
    } else {
      GstVideoInfo copy = info;  // the meta takes non-const arrays
      buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
      gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&copy),
                                     GST_VIDEO_INFO_WIDTH(&copy), GST_VIDEO_INFO_HEIGHT(&copy),
                                     GST_VIDEO_INFO_N_PLANES(&copy), copy.offset, copy.stride);
    }
    f->buffers.push_back(buf);
    GstMapInfo map;
    if (!gst_buffer_map(buf, &map, GST_MAP_WRITE)) return "could not map a source frame";
    fill_random(map.data, map.size, rng);
    gst_buffer_unmap(buf, &map);  // CUDA memory: uploaded on its next use on the GPU
  }
  return "";
}

// ------------------------------------------------------------------ one run

struct Run {
  // filled by the streaming thread (handoffs)
  std::atomic<guint64> out{0};
  std::atomic<guint64> disorder{0};  // out of order, duplicated or unknown PTS
  guint64 next = 0;
  std::mutex last_lock;
  GstBuffer* last = nullptr;  // the latest output frame
  // filled by the main thread
  guint64 in = 0;
  int errors = 0, warnings = 0, changes = 0;
  std::string first_error;
  Params final_params;
  size_t free_min = SIZE_MAX, free_max = 0;
  double seconds = 0;
  bool stalled = false;

  ~Run() { gst_clear_buffer(&last); }
};

void on_handoff(GstElement*, GstBuffer* buf, GstPad*, gpointer data) {
  Run* r = static_cast<Run*>(data);
  const GstClockTime pts = GST_BUFFER_PTS(buf);
  if (!GST_CLOCK_TIME_IS_VALID(pts) || pts != r->next * kPtsStep) r->disorder++;
  r->next = GST_CLOCK_TIME_IS_VALID(pts) ? pts / kPtsStep + 1 : r->next + 1;
  {
    std::lock_guard<std::mutex> g(r->last_lock);
    gst_buffer_replace(&r->last, buf);
  }
  r->out++;
}

std::string message_text(GstMessage* msg) {
  GError* err = nullptr;
  gchar* dbg = nullptr;
  if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error(msg, &err, &dbg);
  else
    gst_message_parse_warning(msg, &err, &dbg);
  std::string s = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(msg))) + ": " +
                  (err ? err->message : "?") + " (" + (dbg ? dbg : "") + ")";
  g_clear_error(&err);
  g_free(dbg);
  return s;
}

// Pushes @n frames through appsrc ! cudagaussian ! fakesink, changing parameters every
// kChangeEvery frames: to @schedule's entries in turn when given, else at random (@rng); fills
// @r. Returns an empty string or why the run could not be made.
std::string run_pipeline(GstCudaContext* ctx, GstCaps* caps, const Frames& frames, guint64 n,
                         const std::vector<Params>* schedule, std::mt19937& rng, Run* r) {
  GstElement* pipeline = gst_parse_launch(
      "appsrc name=src format=time is-live=false block=true ! cudagaussian name=blur ! "
      "fakesink name=sink sync=false signal-handoffs=true enable-last-sample=false",
      nullptr);
  if (!pipeline) return "the pipeline does not parse";
  GstContext* c = gst_context_new_cuda_context(ctx);
  gst_element_set_context(pipeline, c);
  gst_context_unref(c);
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* blur = gst_bin_get_by_name(GST_BIN(pipeline), "blur");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  gst_app_src_set_caps(GST_APP_SRC(src), caps);
  gst_app_src_set_max_bytes(GST_APP_SRC(src), 2 * gst_buffer_get_size(frames.buffers[0]));
  g_object_set(blur, "frames-in-flight", kFramesInFlight, nullptr);
  apply(blur, r->final_params);
  g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), r);

  GstBus* bus = gst_element_get_bus(pipeline);
  const auto t0 = std::chrono::steady_clock::now();
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  std::atomic<bool> stop{false};
  std::thread pusher([&] {
    for (guint64 i = 0; i < n && !stop; ++i) {
      if (i % kChangeEvery == 0 && i + kChangeEvery <= n) {
        r->final_params = schedule ? (*schedule)[(i / kChangeEvery) % schedule->size()] : random_params(rng);
        apply(blur, r->final_params);
        r->changes++;
      }
      if (gst_app_src_push_buffer(GST_APP_SRC(src),
                                  wrap_for_push(frames.buffers[i % frames.buffers.size()], i, kPtsStep)) !=
          GST_FLOW_OK)
        break;
      r->in = i + 1;
    }
    gst_app_src_end_of_stream(GST_APP_SRC(src));
  });

  guint64 seen = 0, progress_mark = 0;
  auto last_progress = std::chrono::steady_clock::now();
  for (;;) {
    GstMessage* msg = gst_bus_timed_pop_filtered(
        bus, 2 * GST_SECOND,
        (GstMessageType)(GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_EOS));
    const size_t free_now = gpu_free_bytes(ctx);
    if (free_now) {
      r->free_min = std::min(r->free_min, free_now);
      r->free_max = std::max(r->free_max, free_now);
    }
    const guint64 out = r->out;
    if (out != seen) {
      seen = out;
      last_progress = std::chrono::steady_clock::now();
    }
    if (n >= 20000 && out >= progress_mark + n / 10) {
      progress_mark = out;
      std::fprintf(stderr, "  %llu of %llu frames\n", (unsigned long long)out,
                   (unsigned long long)n);
    }
    if (msg) {
      const GstMessageType type = GST_MESSAGE_TYPE(msg);
      if (type == GST_MESSAGE_WARNING) {
        r->warnings++;
        std::fprintf(stderr, "warning: %s\n", message_text(msg).c_str());
      } else if (type == GST_MESSAGE_ERROR) {
        r->errors++;
        r->first_error = message_text(msg);
      }
      gst_message_unref(msg);
      if (type != GST_MESSAGE_WARNING) break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_progress).count() >
        kStallSeconds) {
      r->stalled = true;
      break;
    }
  }
  r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stop = true;
  gst_element_set_state(pipeline, GST_STATE_NULL);  // also unblocks a waiting push
  pusher.join();
  gst_object_unref(bus);
  gst_object_unref(src);
  gst_object_unref(blur);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return "";
}

// ------------------------------------------------------------------ the final frame

// Largest difference between @out and the double reference of @in blurred with @p.
double final_frame_error(const GstVideoInfo& info, GstBuffer* in, GstBuffer* out, const Params& p,
                         std::string* why) {
  std::vector<cg::PlaneSpec> specs;
  if (!gst_cuda_gaussian_plane_specs(&info, &specs)) {
    *why = "unsupported format";
    return -1;
  }
  cg::BlurSettings s;
  s.algorithm = p.algorithm;
  s.sigma_x = s.sigma_y = p.sigma;
  s.border = p.border;
  const cg::Algorithm alg = cg::FrameBlur::resolve(s, specs);
  GstVideoFrame fin, fout;
  if (!gst_video_frame_map(&fin, &info, in, GST_MAP_READ)) {
    *why = "could not map the input frame";
    return -1;
  }
  if (!gst_video_frame_map(&fout, &info, out, GST_MAP_READ)) {
    gst_video_frame_unmap(&fin);
    *why = "could not map the output frame";
    return -1;
  }
  double worst = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    const cg::PlaneGeometry& g = specs[i].geometry;
    const double sx = p.sigma / specs[i].subsample_x, sy = p.sigma / specs[i].subsample_y;
    const cg::PlaneValues src = cg::read_plane(g, GST_VIDEO_FRAME_PLANE_DATA(&fin, i),
                                               GST_VIDEO_FRAME_PLANE_STRIDE(&fin, i));
    const cg::PlaneValues ref =
        alg == cg::Algorithm::Fir
            ? cg::reference_fir(g, src, cg::gaussian_taps(sx, cg::fir_radius(sx, cg::kDefaultTruncate)),
                                cg::gaussian_taps(sy, cg::fir_radius(sy, cg::kDefaultTruncate)), p.border)
        : alg == cg::Algorithm::Multirate
            ? cg::reference_multirate(g, src, cg::plan_multirate_axis(g.width, sx),
                                      cg::plan_multirate_axis(g.height, sy), p.border)
            : cg::reference_recursive(g, src, cg::recursive_filter_of(alg), sx, sy, cg::StartUp::Exact);
    const cg::PlaneValues got = cg::read_plane(g, GST_VIDEO_FRAME_PLANE_DATA(&fout, i),
                                               GST_VIDEO_FRAME_PLANE_STRIDE(&fout, i));
    for (size_t k = 0; k < ref.size(); ++k) worst = std::max(worst, std::fabs(got[k] - ref[k]));
  }
  gst_video_frame_unmap(&fin);
  gst_video_frame_unmap(&fout);
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  gboolean system_memory = FALSE;
  gint64 seed_option = 1;
  int width = 1920, height = 1080;
  const GOptionEntry entries[] = {
      {"system-memory", 0, 0, G_OPTION_ARG_NONE, &system_memory,
       "Pageable system-memory frames instead of frames in CUDA memory", nullptr},
      {"seed", 0, 0, G_OPTION_ARG_INT64, &seed_option,
       "Seed of the frame contents and of the parameter changes (default 1)", "N"},
      {"width", 0, 0, G_OPTION_ARG_INT, &width, "Frame width (default 1920)", "W"},
      {"height", 0, 0, G_OPTION_ARG_INT, &height, "Frame height (default 1080)", "H"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(&argc, &argv, "[FRAMES]",
                        "Pushes FRAMES (default 100000) RGBA frames through appsrc ! cudagaussian ! fakesink\n"
                        "with random parameter changes; exit 0 only when nothing was lost or failed, GPU\n"
                        "memory stayed flat and the last frame matches the CPU reference (77 without a\n"
                        "CUDA device).",
                        entries, gst_init_get_option_group());
  allow_positional_or_exit(argc, argv, 1);
  guint64 frames = 100000;
  if (argc > 1) {
    char* end = nullptr;
    frames = std::strtoull(argv[1], &end, 10);
    if (argv[1][0] == '-' || *end != '\0' || frames == 0) {
      std::fprintf(stderr, "soak: FRAMES must be a positive number, not '%s'\n", argv[1]);
      return 2;
    }
  }
  const bool cuda = !system_memory;
  const auto seed = static_cast<unsigned>(seed_option);
  if (width < 1 || height < 1) {
    std::fprintf(stderr, "soak: bad frame size\n");
    return 2;
  }

  g_setenv("CUDA_MODULE_LOADING", "EAGER", FALSE);  // kernels loaded up front: steady memory
  gst_init(&argc, &argv);
  if (!gst_cuda_load_library() || cg::cuda_device_count() == 0) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  gst_cuda_memory_init_once();
  if (!GST_ELEMENT_REGISTER(cudagaussian, nullptr)) {
    std::fprintf(stderr, "soak: could not register cudagaussian\n");
    return 1;
  }
  GstCudaContext* ctx = gst_cuda_context_new(0);
  if (!ctx) {
    std::fprintf(stderr, "soak: could not create a CUDA context on device 0\n");
    return 1;
  }
  cudaDeviceProp prop{};
  const bool have_name = cudaGetDeviceProperties(&prop, 0) == cudaSuccess;

  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, width, height);
  info.fps_n = 1000;
  info.fps_d = 1;
  GstCaps* caps = gst_video_info_to_caps(&info);
  if (cuda)
    gst_caps_set_features(caps, 0, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY,
                                                          nullptr));
  std::printf("soak: %llu frames of %dx%d RGBA in %s, frames-in-flight %u, parameters changed "
              "every %d frames, seed %u\n",
              (unsigned long long)frames, width, height, cuda ? "CUDA memory" : "system memory",
              kFramesInFlight, kChangeEvery, seed);
  std::printf("device: %s\n", have_name ? prop.name : "(unknown)");

  int status = 0;
  {
    Frames source;
    std::string why = make_frames(ctx, caps, info, cuda, seed, &source);
    if (!why.empty()) {
      std::fprintf(stderr, "soak: %s\n", why.c_str());
      gst_caps_unref(caps);
      gst_object_unref(ctx);
      return 1;
    }
    std::mt19937 rng(seed * 7919u + 1);

    // Warm-up over every parameter class: pools, plans and whatever the CUDA context reserves
    // once (e.g. the driver grows its local-memory pool the first time a kernel with a larger
    // stack frame runs, and keeps it for the context's life). Its own memory is given back when
    // the pipeline goes, so the start figure below is the baseline for the same kernels.
    {
      Run warm;
      const std::vector<Params> sweep = every_parameter_class();
      run_pipeline(ctx, caps, source, sweep.size() * kChangeEvery, &sweep, rng, &warm);
      if (warm.errors || warm.stalled)
        std::fprintf(stderr, "warm-up: %s\n",
                     warm.stalled ? "stalled" : warm.first_error.c_str());
    }
    const size_t free_start = gpu_free_bytes(ctx);

    Run r;
    why = run_pipeline(ctx, caps, source, frames, nullptr, rng, &r);
    if (!why.empty()) r.first_error = why, r.errors++;

    // The last frame against the CPU reference of its parameters.
    double final_error = -1;
    std::string final_why;
    GstBuffer* last = nullptr;
    {
      std::lock_guard<std::mutex> g(r.last_lock);
      last = r.last ? gst_buffer_ref(r.last) : nullptr;
    }
    if (last && r.out == frames) {
      GstBuffer* in = source.buffers[(frames - 1) % source.buffers.size()];
      final_error = final_frame_error(info, in, last, r.final_params, &final_why);
    } else {
      final_why = "no final frame";
    }
    gst_clear_buffer(&last);
    // Measured with nothing of the run held, like the start: one held output buffer keeps its
    // pool's allocator, and with it every frame that pool allocated, alive.
    {
      std::lock_guard<std::mutex> g(r.last_lock);
      gst_clear_buffer(&r.last);
    }
    const size_t free_end = gpu_free_bytes(ctx);

    const double delta = mib((double)free_start - (double)free_end);
    std::printf("frames in: %llu\n", (unsigned long long)r.in);
    std::printf("frames out: %llu\n", (unsigned long long)r.out.load());
    std::printf("frames out of order or duplicated: %llu\n",
                (unsigned long long)r.disorder.load());
    std::printf("parameter changes: %d\n", r.changes);
    const std::string error_text = r.stalled ? "stalled: no frame for 30 s" : r.first_error;
    std::printf("errors: %d%s%s\n", r.errors + (r.stalled ? 1 : 0), error_text.empty() ? "" : " (first: ",
                error_text.empty() ? "" : (error_text + ")").c_str());
    std::printf("warnings: %d\n", r.warnings);
    std::printf("GPU free memory at start: %.1f MiB\n", mib(free_start));
    std::printf("GPU free memory at end: %.1f MiB (%.2f MiB less; limit %.0f)\n", mib(free_end),
                delta, kFlatMiB);
    if (r.free_max)
      std::printf("GPU free memory while running: %.1f to %.1f MiB\n", mib(r.free_min),
                  mib(r.free_max));
    std::printf("final frame: %s\n", describe(r.final_params).c_str());
    if (final_error >= 0)
      std::printf("final frame max error vs the CPU reference: %.3f (limit 1)\n", final_error);
    else
      std::printf("final frame max error vs the CPU reference: not measured (%s)\n",
                  final_why.c_str());
    std::printf("elapsed: %.1f s, %.0f frames/s\n", r.seconds,
                r.seconds > 0 ? r.out / r.seconds : 0.0);

    std::string problems;
    if (r.in != frames) problems += "not every frame was pushed; ";
    if (r.out != frames) problems += "frames lost; ";
    if (r.disorder) problems += "frames out of order; ";
    if (r.errors || r.stalled) problems += "errors; ";
    if (r.warnings) problems += "warnings; ";
    if (!free_start || !free_end) problems += "cudaMemGetInfo failed; ";
    else if (std::fabs(delta) > kFlatMiB) problems += "GPU memory not flat; ";
    if (final_error < 0 || final_error > 1.0) problems += "final frame differs from the reference; ";
    if (problems.empty()) {
      std::printf("result: ok\n");
    } else {
      problems.resize(problems.size() - 2);
      std::printf("result: FAILED (%s)\n", problems.c_str());
      status = 1;
    }
  }
  gst_caps_unref(caps);
  gst_object_unref(ctx);
  return status;
}
