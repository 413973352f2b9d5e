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
// Usage: bench_pipeline [--csv PATH] [--quick] [--only SIZE] [--live-latency]
//   --live-latency  only the live latency at Full HD RGBA (sigma 2 and 20) against its budget;
//               run with GST_TRACERS=latency to add the figure of GStreamer's latency tracer
//   --branches  only 1, 2, 4 and 8 independent branches in one pipeline (Full HD RGBA, CUDA
//               memory, sigma 10) against the rate of the kernel alone
//   --csv PATH  CSV output (default bench_pipeline.csv); a bare PATH argument works as well
//   --quick     a tenth of the frames, for a smoke test
//   --only SIZE only the cases of one size: SD, HD, "Full HD" or 4K (repeatable)
// Without a CUDA device it prints "skipped: no CUDA device" and exits 0. The element is
// registered from the statically linked sources; GST_PLUGIN_PATH is not needed.

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench_options.h"
#include "cuda_floors.h"
#include "device_memory.h"
#include "gstcudagaussian.h"
#include "pipeline_report.h"
#include "pipeline_results.h"
#include "pipeline_runs.h"

using namespace pipeline_bench;

namespace {

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

// Live latency, Full HD RGBA system memory, 1 frame in flight, at sigma 2 and 20: the probe's and
// (under GST_TRACERS=latency) GStreamer's latency tracer's medians against H2D + kernel + D2H
// measured just before in the same run. Prints a Markdown table; false if a run failed.
bool live_latency(GstCudaContext* ctx, double scale, bool tracer) {
  const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_RGBA, 1920, 1080);
  Frames fr;
  prepare_frames(info, ctx, &fr);
  if (!fr.pinned_err.empty() || fr.host_dst.size() != static_cast<size_t>(kFrames)) {
    std::printf("live latency: no pinned frames (%s)\n", fr.pinned_err.c_str());
    return false;
  }
  std::printf("## Live latency, Full HD RGBA, system memory, 1 frame in flight\n\n"
              "Probe: appsrc's src pad → fakesink handoff. Tracer: GStreamer's `latency` tracer (src pad → "
              "sink pad)%s. Budget: medians of %d H2D copies, kernels and D2H copies timed with CUDA "
              "events just before the pipeline. Medians after %d warm-up frames; p95 in brackets.\n\n"
              "| sigma | H2D µs | kernel µs | D2H µs | budget µs | probe µs | tracer µs | probe / budget | "
              "tracer / budget |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
              tracer ? "" : " (not run: set GST_TRACERS=latency)", kOpSamples, kWarmup);
  GstCaps* caps = caps_for(info, false);
  RunOptions opt;
  opt.n = frames_for(GST_VIDEO_INFO_SIZE(&info), scale);
  bool ok = true;
  for (double sigma : {2.0, 20.0}) {
    Budget b;
    const cg::Status st = measure_budget(info, fr.pinned.pinned, fr.host_dst, sigma, true, &b);
    Measurement m = base("sysmem-pinned", info, sigma, 1);
    run_pipeline(caps, fr.pinned, {blur_stage(sigma, 1)}, opt, &m);
    record(m);
    if (!st.ok() || !m.ok()) {
      std::printf("| %g | failed: %s |\n", sigma, st.ok() ? m.status.c_str() : st.message.c_str());
      ok = false;
      continue;
    }
    const double sum = b.sum_us();
    std::printf("| %g | %.1f | %.1f | %.1f | %.1f | %.1f (%.1f) | %s (%s) | %.2f | %s |\n", sigma, b.h2d_us,
                b.kernel_us, b.d2h_us, sum, m.lat_med_ms * 1e3, m.lat_p95_ms * 1e3,
                fmt(m.tracer_med_ms * 1e3, "%.1f").c_str(), fmt(m.tracer_p95_ms * 1e3, "%.1f").c_str(),
                m.lat_med_ms * 1e3 / sum, fmt(m.tracer_med_ms * 1e3 / sum, "%.2f").c_str());
  }
  gst_caps_unref(caps);
  return ok;
}

// Independent branches appsrc ! cudagaussian ! fakesink in one pipeline, Full HD RGBA in CUDA
// memory, sigma 10, 3 frames in flight each: the fps of all branches together against the rate
// of the kernel alone (CUDA events, same run). Prints a Markdown table; false if a run failed.
bool branch_scaling(GstCudaContext* ctx, double scale) {
  constexpr double kBranchSigma = 10.0;
  const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_RGBA, 1920, 1080);
  Frames fr;
  prepare_frames(info, ctx, &fr);
  Budget b;
  const cg::Status st = fr.pinned_err.empty()
                            ? measure_budget(info, fr.pinned.pinned, fr.host_dst, kBranchSigma, false, &b)
                            : cg::Status::invalid(fr.pinned_err);
  if (!fr.cuda_err.empty() || !st.ok()) {
    std::printf("branches: %s\n", fr.cuda_err.empty() ? st.message.c_str() : fr.cuda_err.c_str());
    return false;
  }
  const double kernel_fps = 1e6 / b.kernel_us;
  std::printf("\n## Branches in one pipeline, Full HD RGBA in CUDA memory, sigma %g\n\n"
              "Each branch: appsrc ! cudagaussian frames-in-flight=3 ! fakesink, pushing GPU-resident "
              "frames. The kernel alone: %.1f µs (median of %d, CUDA events), %.0f frames a second.\n\n"
              "| branches | fps, all together | fps per branch | × the kernel's rate | median latency ms |\n"
              "|---:|---:|---:|---:|---:|\n",
              kBranchSigma, b.kernel_us, kOpSamples, kernel_fps);
  GstCaps* caps = caps_for(info, true);
  RunOptions opt;
  opt.share = ctx;
  opt.n = std::min(4 * kMaxRun, static_cast<int>(2 * frames_for(GST_VIDEO_INFO_SIZE(&info), scale)));
  bool ok = true;
  for (int branches : {1, 2, 4, 8}) {
    opt.branches = branches;
    Measurement m = base("cudamem-branches-" + std::to_string(branches), info, kBranchSigma, 3);
    run_pipeline(caps, fr.cuda, {blur_stage(kBranchSigma, 3)}, opt, &m);
    record(m);
    if (!m.ok()) {
      std::printf("| %d | %s |\n", branches, m.status.c_str());
      ok = false;
      continue;
    }
    std::printf("| %d | %.0f | %.0f | %.2f | %.3f |\n", branches, m.fps, m.fps / branches, m.fps / kernel_fps,
                m.lat_med_ms);
  }
  gst_caps_unref(caps);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  gchar* csv_option = nullptr;
  gboolean quick = FALSE;
  gchar** only_option = nullptr;
  gboolean live_only = FALSE, branches_only = FALSE;
  const GOptionEntry entries[] = {
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_option,
       "CSV output (default bench_pipeline.csv; also as a bare PATH)", "PATH"},
      {"quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A tenth of the frames, for a smoke test", nullptr},
      {"only", 0, 0, G_OPTION_ARG_STRING_ARRAY, &only_option,
       "Only the cases of one size: SD, HD, \"Full HD\" or 4K (repeatable)", "SIZE"},
      {"live-latency", 0, 0, G_OPTION_ARG_NONE, &live_only,
       "Only the live latency at Full HD against its budget (with GST_TRACERS=latency also as "
       "GStreamer's latency tracer reports it)", nullptr},
      {"branches", 0, 0, G_OPTION_ARG_NONE, &branches_only,
       "Only 1, 2, 4 and 8 independent branches in one pipeline (Full HD, CUDA memory, sigma 10)", nullptr},
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
  if (live_only || branches_only) {
    const bool tracer = live_only && capture_latency_tracer();
    std::printf("cudagaussian pipelines on %s.\n\n", prop.name);
    bool ok = true;
    if (live_only) ok = live_latency(ctx, scale, tracer) && ok;
    if (branches_only) ok = branch_scaling(ctx, scale) && ok;
    if (ctx) gst_object_unref(ctx);
    return ok ? 0 : 1;
  }

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