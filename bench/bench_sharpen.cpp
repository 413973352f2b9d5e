// SPDX-License-Identifier: LGPL-2.1-or-later
// Kernel benchmark of the finishing step at 1080p RGBA8: the whole-frame blur (FrameBlur,
// algorithm auto) alone, with the unsharp mask (sharpen 0.8, with and without a threshold), and
// with alpha kept (the element's default planes), against a device-to-device copy of the frame
// measured in the same run. Frames rotate beyond the L2 cache (rotating_frames.h); GPU times
// are medians of operations queued behind a held stream, after warm-up (bench_timing.h).
//
// Usage: bench_sharpen [--csv PATH] [--quick] [--only TEXT]

#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "frame_blur_timing.h"

using namespace cudagaussian;

namespace {

constexpr double kMinRotatedBytes = 128e6;

struct Variant {
  const char* name;
  double sharpen, threshold;
  unsigned parts;
};

const Variant kVariants[] = {
    {"blur", 0.0, 0.0, kAllParts},
    {"blur, alpha kept", 0.0, 0.0, kPartColor},
    {"sharpen 0.8", 0.8, 0.0, kAllParts},
    {"sharpen 0.8, threshold 4", 0.8, 4.0, kAllParts},
    {"sharpen 0.8, alpha kept", 0.8, 0.0, kPartColor},
};

}  // namespace

int main(int argc, char** argv) {
  const BenchOptions opt = parse_bench_options(
      &argc, &argv, "bench_sharpen.csv",
      "The blur's finishing step (unsharp mask, channels kept) at 1080p RGBA8 against the blur\n"
      "alone and a device-to-device copy. Prints Markdown; without a CUDA device prints a skip line.",
      nullptr);
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  const int warmup = opt.quick ? 5 : 20, reps = opt.quick ? 9 : 31;
  Csv csv;
  csv.open(opt.csv_path, "device,sigma,algorithm,variant,gpu_us,blur_gpu_us,copy_gpu_us,ratio_blur,ratio_copy");
  CudaStream stream;
  BENCH_CHECK(stream.create());
  PlaneSpec rgba;
  rgba.geometry.width = 1920;
  rgba.geometry.height = 1080;
  rgba.geometry.channels = 4;
  rgba.channel_parts[3] = kPartAlpha;
  const std::vector<PlaneSpec> planes{rgba};
  Frames frames;
  BENCH_CHECK(make_frames(planes, kMinRotatedBytes, &frames));
  auto gpu_us = [&](auto&& op, double* us) { return time_queued(stream.get(), frames.count, reps, op, us, warmup); };
  double copy_us = 0;
  if (!gpu_us([&](int f) { return copy_frame(planes, frames, f, stream.get()); }, &copy_us)) return 1;
  std::printf("Finishing step at 1080p RGBA8 on %s (%d SMs), %d frames rotated (> %.0f MB); GPU time per\n"
              "frame, median of %d groups of %d queued runs after %d warm-up. Copy of the frame: %.1f µs.\n\n",
              prop.name, prop.multiProcessorCount, frames.count, kMinRotatedBytes / 1e6, reps, kQueued, warmup,
              copy_us);
  std::printf("| sigma | auto runs | variant | GPU µs | / blur | / copy |\n|---:|---|---|---:|---:|---:|\n");
  const double sigmas_full[] = {1.0, 1.5, 2.0, 5.0, 10.0, 30.0}, sigmas_quick[] = {1.5, 10.0};
  const std::vector<double> sigmas = opt.quick ? std::vector<double>(std::begin(sigmas_quick), std::end(sigmas_quick))
                                               : std::vector<double>(std::begin(sigmas_full), std::end(sigmas_full));
  for (double sigma : sigmas) {
    double blur_us = 0;
    for (const Variant& v : kVariants) {
      if (!opt.wanted(v.name)) continue;
      BlurSettings s;
      s.sigma_x = s.sigma_y = sigma;
      s.sharpen = v.sharpen;
      s.sharpen_threshold = v.threshold;
      s.parts = v.parts;
      double us = 0;
      Algorithm chosen = Algorithm::Auto;
      if (!time_frame_blur(s, planes, frames, stream.get(), reps, warmup, &us, &chosen)) return 1;
      if (v.sharpen == 0.0 && v.parts == kAllParts) blur_us = us;
      const double ratio = blur_us > 0 ? us / blur_us : 0.0;
      std::printf("| %g | %s | %s | %.1f | %.3f | %.1f |\n", sigma, algorithm_name(chosen), v.name, us, ratio,
                  us / copy_us);
      char line[512];
      std::snprintf(line, sizeof line, "%s,%g,%s,%s,%.2f,%.2f,%.2f,%.4f,%.2f", prop.name, sigma,
                    algorithm_name(chosen), v.name, us, blur_us, copy_us, ratio, us / copy_us);
      csv.row(line);
    }
  }
  return 0;
}
