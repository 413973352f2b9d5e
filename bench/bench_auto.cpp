// SPDX-License-Identifier: LGPL-2.1-or-later
// Where algorithm=auto should leave the FIR for Deriche block-parallel: both timed through
// FrameBlur (algorithm fir and deriche) by frame size, format and sigma, with what auto picks,
// in the same run. Frames rotate beyond the L2 cache (rotating_frames.h); GPU times are medians
// of operations queued behind a held stream, after warm-up (bench_timing.h).
//
// Usage: bench_auto [--csv PATH] [--quick] [--only TEXT]   (--only picks formats or sizes by name)

#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "fir_taps.h"
#include "frame_blur_timing.h"

using namespace cudagaussian;

namespace {

constexpr double kMinRotatedBytes = 128e6;

struct Size {
  const char* name;
  int width, height;
};

// A frame layout: its planes for a width and height.
struct Format {
  const char* name;
  std::vector<PlaneSpec> (*planes)(int width, int height);
};

PlaneSpec plane(int width, int height, int channels, int bytes_per_sample, int subsample) {
  PlaneSpec p;
  p.geometry.width = width / subsample;
  p.geometry.height = height / subsample;
  p.geometry.channels = channels;
  p.geometry.bytes_per_sample = bytes_per_sample;
  p.subsample_x = p.subsample_y = subsample;
  return p;
}

const Format kFormats[] = {
    {"RGBA8", [](int w, int h) { return std::vector<PlaneSpec>{plane(w, h, 4, 1, 1)}; }},
    {"NV12", [](int w, int h) { return std::vector<PlaneSpec>{plane(w, h, 1, 1, 1), plane(w, h, 2, 1, 2)}; }},
    {"GRAY8", [](int w, int h) { return std::vector<PlaneSpec>{plane(w, h, 1, 1, 1)}; }},
    {"RGBA16", [](int w, int h) { return std::vector<PlaneSpec>{plane(w, h, 4, 2, 1)}; }},
};

}  // namespace

int main(int argc, char** argv) {
  const BenchOptions opt = parse_bench_options(
      &argc, &argv, "bench_auto.csv",
      "The FIR against Deriche block-parallel by frame size, format and sigma (where algorithm=auto\n"
      "switches). Prints Markdown; without a CUDA device prints a skip line.",
      nullptr);
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  const int warmup = opt.quick ? 3 : 10, reps = opt.quick ? 5 : 15;
  Csv csv;
  csv.open(opt.csv_path, "device,size,format,sigma,radius,fir_us,deriche_us,auto");
  CudaStream stream;
  BENCH_CHECK(stream.create());
  const Size sizes_full[] = {{"SD", 720, 576}, {"720p", 1280, 720}, {"1080p", 1920, 1080}, {"4K", 3840, 2160}};
  const Size sizes_quick[] = {{"SD", 720, 576}};
  const std::vector<Size> sizes = opt.quick ? std::vector<Size>(std::begin(sizes_quick), std::end(sizes_quick))
                                            : std::vector<Size>(std::begin(sizes_full), std::end(sizes_full));
  const std::vector<double> sigmas = opt.quick ? std::vector<double>{5.0, 14.0}
                                               : std::vector<double>{5, 8, 10, 12, 14, 16, 20, 24, 30};
  std::printf("FIR against Deriche block-parallel on %s (%d SMs), truncate 4, replicate border; GPU time per\n"
              "frame (FrameBlur), median of %d groups of %d queued runs after %d warm-up, frames rotated\n"
              "(> %.0f MB). 'auto' is what algorithm=auto runs.\n\n",
              prop.name, prop.multiProcessorCount, reps, kQueued, warmup, kMinRotatedBytes / 1e6);
  std::printf("| size | format | sigma | radius | fir µs | deriche µs | faster | auto |\n"
              "|---|---|---:|---:|---:|---:|---|---|\n");
  for (const Size& size : sizes)
    for (const Format& format : kFormats) {
      if (!opt.wanted(format.name) && !opt.wanted(size.name)) continue;
      const std::vector<PlaneSpec> planes = format.planes(size.width, size.height);
      Frames frames;
      BENCH_CHECK(make_frames(planes, kMinRotatedBytes, &frames));
      for (double sigma : sigmas) {
        double us[2] = {0, 0};
        const Algorithm algorithms[2] = {Algorithm::Fir, Algorithm::Deriche};
        for (int a = 0; a < 2; ++a) {
          BlurSettings s;
          s.sigma_x = s.sigma_y = sigma;
          s.algorithm = algorithms[a];
          if (!time_frame_blur(s, planes, frames, stream.get(), reps, warmup, &us[a])) return 1;
        }
        BlurSettings automatic;
        automatic.sigma_x = automatic.sigma_y = sigma;
        const char* picked = algorithm_name(FrameBlur::resolve(automatic, planes));
        const int radius = fir_radius(sigma, automatic.truncate);
        const char* faster = us[0] <= us[1] ? "fir" : "deriche";
        std::printf("| %s | %s | %g | %d | %.1f | %.1f | %s | %s |\n", size.name, format.name, sigma, radius, us[0],
                    us[1], faster, picked);
        char line[512];
        std::snprintf(line, sizeof line, "\"%s\",%s,%s,%g,%d,%.2f,%.2f,%s", prop.name, size.name, format.name, sigma,
                      radius, us[0], us[1], picked);
        csv.row(line);
      }
    }
  return 0;
}
