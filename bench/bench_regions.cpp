// SPDX-License-Identifier: LGPL-2.1-or-later
// Kernel benchmark of the region effects (RegionFilter::apply and restore) on device-resident
// 1080p frames, RGBA8 and NV12, against the whole-frame blur at the same sigma (FrameBlur with
// algorithm auto, and the FIR) and a device-to-device copy of the frame measured in the same run.
//
// Frames rotate among enough source and destination frames to exceed the L2 cache (> 60 MB of
// frames, at least 8 of each). Two times per operation, medians after warm-up runs:
//   call    each operation bracketed by its own pair of CUDA events (bench_timing.h): when the
//           GPU work is shorter than the host's work to enqueue it, this is the host's time;
//   GPU     kQueued operations queued behind a host function that holds the stream for 2 ms,
//           bracketed together: the GPU's time per operation, the host far ahead.
// apply() into another frame includes its copy of the frame, so its floor is the copy; apply()
// in place (source and destination the same frame) writes the regions alone.
//
// Usage: bench_regions [--csv PATH] [--quick] [--only TEXT]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "rotating_frames.h"
#include "device_memory.h"
#include "frame_blur.h"
#include "region_filter.h"

using namespace cudagaussian;

namespace {

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr double kSigma = 5.0;
constexpr double kMinRotatedBytes = 128e6;  // source and destination frames together

struct Format {
  const char* name;
  std::vector<PlaneSpec> planes;
};

PlaneSpec spec(int w, int h, int channels, int ss) {
  PlaneSpec s;
  s.geometry.width = w;
  s.geometry.height = h;
  s.geometry.channels = channels;
  s.subsample_x = s.subsample_y = ss;
  return s;
}

Region box(int x0, int y0, int side, double sigma, RegionShape shape, int feather) {
  Region r;
  r.box = RegionBox{x0, y0, x0 + side, y0 + side, shape, feather};
  r.sigma_x = r.sigma_y = sigma;
  return r;
}

// n boxes of side 200 (n <= 10) or 100 (n <= 100), apart from each other, spread over the frame.
std::vector<Region> boxes(int n, RegionShape shape, int feather, bool scaled) {
  std::vector<Region> r;
  for (int i = 0; i < n; ++i) {
    const double sigma = scaled ? 2.0 + 2.0 * (i % 10) : kSigma;  // 2 .. 20
    if (n <= 10)
      r.push_back(box(40 + (i % 5) * 376, 140 + (i / 5) * 440, 200, sigma, shape, feather));
    else
      r.push_back(box(20 + (i % 10) * 190, 3 + (i / 10) * 107, 100, sigma, shape, feather));
  }
  return r;
}

struct Variant {
  std::string name;
  std::vector<Region> regions;
  RegionEffectSettings settings;
  bool restore = false;
};

std::vector<Variant> variants(const std::vector<PlaneSpec>& planes) {
  auto settings = [&](RegionEffect e) {
    RegionEffectSettings s;
    s.effect = e;
    s.pixel_size = 16;
    for (const PlaneSpec& p : planes) s.fill.push_back({p.geometry.max_value() / 2, 0, 0, 0});
    return s;
  };
  const RegionEffect blur = RegionEffect::Blur;
  return {
      {"blur 1 box 200x200", boxes(1, RegionShape::Rectangle, 0, false), settings(blur)},
      {"blur 10 boxes 200x200", boxes(10, RegionShape::Rectangle, 0, false), settings(blur)},
      {"blur 10 ellipses 200x200 feather 16", boxes(10, RegionShape::Ellipse, 16, false), settings(blur)},
      {"blur 10 boxes sigma 2..20", boxes(10, RegionShape::Rectangle, 0, true), settings(blur)},
      {"blur 100 boxes 100x100", boxes(100, RegionShape::Rectangle, 0, false), settings(blur)},
      {"blur 100 ellipses 100x100 feather 8", boxes(100, RegionShape::Ellipse, 8, false), settings(blur)},
      {"pixelate 10 boxes 200x200 (16 px)", boxes(10, RegionShape::Rectangle, 0, false), settings(RegionEffect::Pixelate)},
      {"fill 10 boxes 200x200", boxes(10, RegionShape::Rectangle, 0, false), settings(RegionEffect::Fill)},
      {"restore 10 boxes 200x200", boxes(10, RegionShape::Rectangle, 0, false), settings(blur), true},
      {"restore 100 ellipses 100x100 feather 8", boxes(100, RegionShape::Ellipse, 8, false), settings(blur), true},
  };
}

}  // namespace

int main(int argc, char** argv) {
  const BenchOptions opt = parse_bench_options(
      &argc, &argv, "bench_regions.csv",
      "Region effects (RegionFilter) on 1080p RGBA8 and NV12 frames against the whole-frame blur\n"
      "(FrameBlur auto and FIR, sigma 5) and a device-to-device copy. Prints Markdown; without a\n"
      "CUDA device prints a skip line.",
      nullptr);
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  const int warmup = opt.quick ? 5 : 20, runs = opt.quick ? 51 : 201, reps = opt.quick ? 9 : 25;
  Csv csv;
  csv.open(opt.csv_path,
           "device,format,variant,regions,call_us,gpu_us,copy_gpu_us,whole_auto_gpu_us,whole_fir_gpu_us,"
           "ratio_whole,ratio_copy,in_place_call_us,in_place_gpu_us,in_place_ratio_whole");
  CudaStream stream;
  BENCH_CHECK(stream.create());

  const Format formats[] = {
      {"RGBA8", {spec(kWidth, kHeight, 4, 1)}},
      {"NV12", {spec(kWidth, kHeight, 1, 1), spec(kWidth / 2, kHeight / 2, 2, 2)}},
  };
  std::printf("Region effects at 1080p, sigma %g (truncate 4), on %s (%d SMs), rotating frames (> %.0f MB).\n"
              "call: median of %d operations, each between its own events, after %d warm-up; GPU: median of\n"
              "%d groups of %d operations queued behind a held stream. apply() into another frame includes\n"
              "its copy of the frame; 'in place' is apply() with the same frame as source and destination.\n"
              "'whole-frame blur' is FrameBlur with algorithm auto at the same sigma.\n\n",
              kSigma, prop.name, prop.multiProcessorCount, kMinRotatedBytes / 1e6, runs, warmup, reps, kQueued);
  for (const Format& fmt : formats) {
    Frames frames;
    BENCH_CHECK(make_frames(fmt.planes, kMinRotatedBytes, &frames));
    auto copy = [&](int f) { return copy_frame(fmt.planes, frames, f, stream.get()); };
    // [0]: call (events around each), [1]: GPU (queued).
    double copy_us[2] = {0, 0}, auto_us[2] = {0, 0}, fir_us[2] = {0, 0};
    auto measure = [&](auto&& op, double (&us)[2]) {
      return time_op(stream.get(), frames.count, warmup, runs, op, &us[0]) &&
             time_queued(stream.get(), frames.count, reps, op, &us[1]);
    };
    if (!measure(copy, copy_us)) return 1;
    for (int a = 0; a < 2; ++a) {
      BlurSettings s;
      s.algorithm = a == 0 ? Algorithm::Auto : Algorithm::Fir;
      s.sigma_x = s.sigma_y = kSigma;
      FrameBlur blur;
      BENCH_CHECK(blur.plan(s, fmt.planes));
      auto op = [&](int f) { return blur.run(frames.src_refs(f), frames.dst_refs(f), stream.get()); };
      if (!measure(op, a == 0 ? auto_us : fir_us)) return 1;
    }
    std::printf("### %s (%d frames rotated)\n\n", fmt.name, frames.count);
    std::printf("| operation | call µs | GPU µs | GPU / whole-frame blur | GPU / copy | in place: call µs | GPU µs "
                "| GPU / whole-frame blur |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    auto row = [&](const std::string& name, const double (&us)[2], const double* in_place) {
      std::printf("| %s | %.1f | %.1f | %.3f | %.2f |", name.c_str(), us[0], us[1], us[1] / auto_us[1],
                  us[1] / copy_us[1]);
      if (in_place)
        std::printf(" %.1f | %.1f | %.3f |\n", in_place[0], in_place[1], in_place[1] / auto_us[1]);
      else
        std::printf(" | | |\n");
    };
    row("copy (cudaMemcpy2DAsync)", copy_us, nullptr);
    row("whole frame, FrameBlur auto", auto_us, nullptr);
    row("whole frame, FrameBlur fir", fir_us, nullptr);
    for (const Variant& v : variants(fmt.planes)) {
      if (!opt.wanted(v.name.c_str())) continue;
      RegionFilter filter;
      BENCH_CHECK(RegionFilter::validate(fmt.planes, v.regions, v.settings));
      auto op = [&](int f) {
        return v.restore ? filter.restore(fmt.planes, frames.src_refs(f), frames.dst_refs(f), v.regions, {}, stream.get())
                         : filter.apply(fmt.planes, frames.src_refs(f), frames.dst_refs(f), v.regions, v.settings,
                                        stream.get());
      };
      double us[2] = {0, 0}, in_place_us[2] = {0, 0};
      if (!measure(op, us)) return 1;
      if (!v.restore) {
        auto op_in_place = [&](int f) {
          return filter.apply(fmt.planes, frames.dst_as_src_refs(f), frames.dst_refs(f), v.regions, v.settings,
                              stream.get());
        };
        if (!measure(op_in_place, in_place_us)) return 1;
      }
      row(v.name, us, v.restore ? nullptr : in_place_us);
      char line[512];
      std::snprintf(line, sizeof line, "%s,%s,%s,%zu,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.3f,%.2f,%.2f,%.4f", prop.name,
                    fmt.name, v.name.c_str(), v.regions.size(), us[0], us[1], copy_us[1], auto_us[1], fir_us[1],
                    us[1] / auto_us[1], us[1] / copy_us[1], in_place_us[0], in_place_us[1],
                    in_place_us[1] / auto_us[1]);
      csv.row(line);
    }
    std::printf("\n");
  }
  return 0;
}
