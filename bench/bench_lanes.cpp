// SPDX-License-Identifier: LGPL-2.1-or-later
// Frames in flight without GStreamer: FrameBlur (algorithm=auto) on 1080p RGBA8 frames already on
// the GPU, on one to three compute lanes (a CUDA stream and a FrameBlur each, frames taken in
// turn, as gst/frame_queue.h runs them). Two ways to feed them:
//
//   free-running   every frame launched at once, the host never waits;
//   queue of 3     three frames in flight: before launching a frame the host waits for the one
//                  launched three frames earlier, as the element does before it hands a frame on.
//
// Each case runs twice: every channel blurred, and alpha kept from the input (the element's
// default `planes`), whose last pass also reads the input. Frames rotate beyond the L2
// (rotating_frames.h). Frames a second: wall clock over 1500 frames
// (150 with --quick) after 30 of warm-up, median of 5 runs. The same work through `appsrc !
// cudagaussian ! fakesink` is bench_pipeline's cudamem rows: the difference is what GStreamer
// and the element add.
//
// Usage: bench_lanes [--csv PATH] [--quick] [SIGMA...]   (default sigmas 2 10 30 100; Markdown on
// stdout; without a CUDA device a skip line, exit 0)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <glib.h>

#include "bench_timing.h"
#include "blur_algorithms.h"
#include "frame_blur.h"
#include "rotating_frames.h"

using namespace cudagaussian;

namespace {

constexpr int kMaxLanes = 3;
constexpr int kDepth = 3;  // frames in flight of the queued feed
constexpr int kWarmup = 30;
constexpr int kRuns = 5;

// Frames a second of `lanes` lanes, fed free-running or through a queue of kDepth.
Status lanes_fps(const BlurSettings& settings, const std::vector<PlaneSpec>& planes, const Frames& frames, int lanes,
                 bool queued, int count, double* fps) {
  std::vector<FrameBlur> blurs(lanes);
  std::vector<CudaStream> streams(lanes);
  for (int l = 0; l < lanes; ++l) {
    CG_TRY(blurs[l].plan(settings, planes));
    CG_TRY(streams[l].create());
  }
  std::vector<CudaEvent> launched(kDepth);
  for (CudaEvent& e : launched) CG_TRY(e.create());
  auto run_frame = [&](int i) -> Status {
    if (queued && i >= kDepth) CG_TRY(launched[i % kDepth].synchronize());
    const int lane = i % lanes, f = i % frames.count;
    CG_TRY(blurs[lane].run(frames.src_refs(f), frames.dst_refs(f), streams[lane].get()));
    return launched[i % kDepth].record(streams[lane].get());
  };
  std::vector<double> rates;
  for (int run = 0; run < kRuns; ++run) {
    for (int i = 0; i < kWarmup; ++i) CG_TRY(run_frame(i));
    CG_CUDA_TRY(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) CG_TRY(run_frame(i));
    CG_CUDA_TRY(cudaDeviceSynchronize());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(count / seconds);
  }
  *fps = median(rates);
  return Status::success();
}

}  // namespace

int main(int argc, char** argv) {
  const CsvQuickOptions options = parse_csv_quick_options(
      &argc, &argv, "[SIGMA...]",
      "FrameBlur on 1080p RGBA8 frames in CUDA memory on 1 to 3 compute lanes, free-running\n"
      "and with three frames in flight, without GStreamer. Prints Markdown; without a CUDA\n"
      "device a skip line (exit 0).",
      "bench_lanes.csv", "Fewer frames, for a smoke test");
  std::vector<double> sigmas;
  for (int i = 1; i < argc; ++i) sigmas.push_back(std::atof(argv[i]));
  if (sigmas.empty()) sigmas = {2, 10, 30, 100};
  const int count = options.quick ? 150 : 1500;
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;

  PlaneGeometry g;
  g.width = 1920;
  g.height = 1080;
  g.channels = 4;
  const std::vector<PlaneSpec> planes{PlaneSpec{g}};
  std::vector<PlaneSpec> alpha_planes = planes;
  alpha_planes[0].channel_parts[3] = kPartAlpha;
  Frames frames;
  BENCH_CHECK(make_frames(planes, 128.0 * 1024 * 1024, &frames));

  Csv csv;
  csv.open(options.csv_path, "device,sigma,algorithm,alpha,lanes,feed,fps");
  std::printf("FrameBlur (algorithm=auto) on %s, 1080p RGBA8 frames in CUDA memory rotated over %d frames; "
              "frames a second, wall clock over %d frames, median of %d runs.\n\n",
              prop.name, frames.count, count, kRuns);
  std::printf("| sigma | algorithm | alpha | lanes | free-running fps | queue of %d fps |\n"
              "|---:|---|---|---:|---:|---:|\n", kDepth);
  for (double sigma : sigmas)
    for (const bool keep_alpha : {false, true}) {
      BlurSettings settings;
      settings.sigma_x = settings.sigma_y = sigma;
      if (keep_alpha) settings.parts = kAllParts & ~kPartAlpha;
      const std::vector<PlaneSpec>& specs = keep_alpha ? alpha_planes : planes;
      const char* algorithm = algorithm_name(FrameBlur::resolve(settings, specs));
      const char* alpha = keep_alpha ? "kept" : "blurred";
      for (int lanes = 1; lanes <= kMaxLanes; ++lanes) {
        double free_fps = 0, queued_fps = 0;
        BENCH_CHECK(lanes_fps(settings, specs, frames, lanes, false, count, &free_fps));
        BENCH_CHECK(lanes_fps(settings, specs, frames, lanes, true, count, &queued_fps));
        std::printf("| %g | %s | %s | %d | %.0f | %.0f |\n", sigma, algorithm, alpha, lanes, free_fps, queued_fps);
        for (const auto& [feed, fps] : {std::pair<const char*, double>{"free-running", free_fps}, {"queue", queued_fps}})
          csv.row("\"" + std::string(prop.name) + "\"," + std::to_string(sigma) + "," + algorithm + "," + alpha + "," +
                  std::to_string(lanes) + "," + feed + "," + std::to_string(fps));
      }
    }
  return 0;
}
