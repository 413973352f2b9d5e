// SPDX-License-Identifier: LGPL-2.1-or-later
// Where algorithm=auto should leave the FIR for the multirate Gaussian or Deriche block-parallel:
// the three timed through FrameBlur by frame size, format and sigma, beside a device-to-device
// copy of the same frames and what auto picks, in the same run. Frames rotate beyond the L2 cache (rotating_frames.h); GPU times are medians
// of operations queued behind a held stream, after warm-up (bench_timing.h).
//
// Usage: bench_auto [--csv PATH] [--quick] [--only TEXT]   (--only picks formats or sizes by name)

#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "device_memory.h"
#include "fir_taps.h"
#include "separable_fir.h"
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
      "The FIR against the multirate Gaussian and Deriche block-parallel by frame size, format and\n"
      "sigma (where algorithm=auto switches). Prints Markdown; without a CUDA device prints a skip line.",
      nullptr);
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  const int warmup = opt.quick ? 3 : 10, reps = opt.quick ? 5 : 15;
  Csv csv;
  csv.open(opt.csv_path, "device,size,format,sigma,radius,copy_us,fir_us,multirate_us,deriche_us,auto");
  CudaStream stream;
  BENCH_CHECK(stream.create());
  const Size sizes_full[] = {{"SD", 720, 576}, {"720p", 1280, 720}, {"1080p", 1920, 1080}, {"4K", 3840, 2160}};
  const Size sizes_quick[] = {{"SD", 720, 576}};
  const std::vector<Size> sizes = opt.quick ? std::vector<Size>(std::begin(sizes_quick), std::end(sizes_quick))
                                            : std::vector<Size>(std::begin(sizes_full), std::end(sizes_full));
  const std::vector<double> sigmas =
      opt.quick ? std::vector<double>{5.0, 14.0}
                : std::vector<double>{2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 30, 50, 100, 250};
  std::printf("FIR, multirate and Deriche block-parallel on %s (%d SMs), truncate 4, replicate border; GPU\n"
              "time per frame (FrameBlur), median of %d groups of %d queued runs after %d warm-up, frames\n"
              "rotated (> %.0f MB); copy: cudaMemcpy2DAsync of every plane of the same frames. The FIR runs\n"
              "to radius %d (sigma %g at truncate 4). 'auto' is what algorithm=auto runs.\n\n",
              prop.name, prop.multiProcessorCount, reps, kQueued, warmup, kMinRotatedBytes / 1e6,
              SeparableFir::kMaxRadius, SeparableFir::kMaxRadius / 4.0);
  std::printf("| size | format | sigma | radius | copy µs | fir µs | multirate µs | deriche µs | fastest | auto |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
  for (const Size& size : sizes)
    for (const Format& format : kFormats) {
      if (!opt.wanted(format.name) && !opt.wanted(size.name)) continue;
      const std::vector<PlaneSpec> planes = format.planes(size.width, size.height);
      Frames frames;
      BENCH_CHECK(make_frames(planes, kMinRotatedBytes, &frames));
      auto copy = [&](int f) -> Status {
        for (size_t p = 0; p < planes.size(); ++p)
          CG_TRY(copy_2d_async(frames.dst[f][p].get(), frames.dst[f][p].pitch(), frames.src[f][p].get(),
                               frames.src[f][p].pitch(), planes[p].geometry.row_bytes(), planes[p].geometry.height,
                               stream.get()));
        return Status::success();
      };
      double copy_us = 0.0;
      if (!time_queued(stream.get(), frames.count, reps, copy, &copy_us, warmup)) return 1;
      for (double sigma : sigmas) {
        const Algorithm algorithms[3] = {Algorithm::Fir, Algorithm::Multirate, Algorithm::Deriche};
        const char* names[3] = {"fir", "multirate", "deriche"};
        double us[3] = {-1, -1, -1};
        BlurSettings automatic;
        automatic.sigma_x = automatic.sigma_y = sigma;
        const int radius = fir_radius(sigma, automatic.truncate);
        int fastest = -1;
        for (int a = 0; a < 3; ++a) {
          BlurSettings s = automatic;
          s.algorithm = algorithms[a];
          // The FIR past radius 256 takes milliseconds a frame and is never the fastest there.
          if (!FrameBlur::validate(s, planes).ok() || (a == 0 && radius > 256)) continue;
          if (!time_frame_blur(s, planes, frames, stream.get(), reps, warmup, &us[a])) return 1;
          if (fastest < 0 || us[a] < us[fastest]) fastest = a;
        }
        const char* picked = algorithm_name(FrameBlur::resolve(automatic, planes));
        char fir[32] = "n/a";
        if (us[0] >= 0) std::snprintf(fir, sizeof fir, "%.1f", us[0]);
        std::printf("| %s | %s | %g | %d | %.1f | %s | %.1f | %.1f | %s | %s |\n", size.name, format.name, sigma,
                    radius, copy_us, fir, us[1], us[2], names[fastest], picked);
        char line[512];
        std::snprintf(line, sizeof line, "\"%s\",%s,%s,%g,%d,%.2f,%.2f,%.2f,%.2f,%s", prop.name, size.name,
                      format.name, sigma, radius, copy_us, us[0], us[1], us[2], picked);
        csv.row(line);
      }
    }
  return 0;
}
