// SPDX-License-Identifier: LGPL-2.1-or-later
// Every blur algorithm: speed and quality, measured on the GPU (recursive family, box, direct 2D,
// with the FIR for comparison).
//
// Speed: 1920x1080 and 720x576 RGBA8, every recursive filter x line split (and the FIR for
// comparison) at sigma 0.5 and 1 (1080p: where direct 2D stops losing to the separable FIR), 2, 5,
// 10, 30, 100: median of 100 runs after 10 warm-up, rotating 8 source
// and 8 destination frames, CUDA events; beside a device-to-device copy of the same frames
// (cudaMemcpyAsync) measured in the same run.
//
// Quality: PSNR and max error of the 8-bit output against the exact sampled Gaussian (double,
// the sampled, normalised Gaussian) for every filter x split, sigma 0.5 .. 90, on real photographs
// (tests/data/*.jpg, decoded to GRAY8 with GStreamer) mirror-tiled to SD 720x576, HD 1280x720 and
// Full HD 1920x1080; the mean over the photos (and the worst) per cell, in the shape of Table 2
// of Lee, Ko and Choe 2014.
//
// Launches: block-parallel, two-way and k-way with each pass in one launch (a block holds whole
// lines) and in several, at 1080p, CIF, SD, HD and 4K (`--only launches` for this alone).
//
// Two-way forms: Young–van Vliet's exact two-way and its warmed-up halves, each forced, at SD and
// 1080p (`--only "two-way form"`).
//
// Usage: bench_recursive [--csv PATH] [--quick] [--data DIR] [--only VARIANT-TEXT] (speed of those variants only). Without a GPU: a skip line, exit 0.

#include <gst/gst.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "device_memory.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "quality.h"
#include "bench_timing.h"
#include "box_filter.h"
#include "box_widths.h"
#include "photo.h"
#include "recursive_filter.h"

using namespace cudagaussian;

namespace {

struct Variant {
  const char* name;
  Algorithm algorithm;
  LineSplit split;
  int box_passes = 3;
  BoxMethod box_method = BoxMethod::RunningSum;
};

const Variant kVariants[] = {
    {"fir (truncate 4)", Algorithm::Fir, LineSplit::BlockParallel},
    {"yvv2002 one-way", Algorithm::YoungVanVliet, LineSplit::OneWay},
    {"yvv2002 two-way", Algorithm::YoungVanVliet, LineSplit::TwoWay},
    {"yvv2002 k-way", Algorithm::YoungVanVliet, LineSplit::KWay},
    {"yvv2002 block-parallel", Algorithm::YoungVanVliet, LineSplit::BlockParallel},
    {"yvv1995 one-way", Algorithm::YoungVanVliet1995, LineSplit::OneWay},
    {"yvv1995 two-way", Algorithm::YoungVanVliet1995, LineSplit::TwoWay},
    {"yvv1995 block-parallel", Algorithm::YoungVanVliet1995, LineSplit::BlockParallel},
    {"deriche one-way", Algorithm::Deriche, LineSplit::OneWay},
    {"deriche two-way", Algorithm::Deriche, LineSplit::TwoWay},
    {"deriche k-way", Algorithm::Deriche, LineSplit::KWay},
    {"deriche block-parallel", Algorithm::Deriche, LineSplit::BlockParallel},
    {"direct 2D (radius <= 16)", Algorithm::Direct, LineSplit::BlockParallel},
    {"box 1 pass", Algorithm::Box, LineSplit::BlockParallel, 1},
    {"box 2 passes", Algorithm::Box, LineSplit::BlockParallel, 2},
    {"box 3 passes", Algorithm::Box, LineSplit::BlockParallel, 3},
    {"box 4 passes", Algorithm::Box, LineSplit::BlockParallel, 4},
    {"box 5 passes", Algorithm::Box, LineSplit::BlockParallel, 5},
    {"box 6 passes", Algorithm::Box, LineSplit::BlockParallel, 6},
    {"box 1 pass, integral image", Algorithm::Box, LineSplit::BlockParallel, 1, BoxMethod::Integral},
    {"box 3 passes, integral image", Algorithm::Box, LineSplit::BlockParallel, 3, BoxMethod::Integral},
};

BlurSettings settings_for(const Variant& v, double sigma) {
  BlurSettings s;
  s.algorithm = v.algorithm;
  s.sigma_x = s.sigma_y = sigma;
  s.recursive.split = v.split;
  s.box_passes = v.box_passes;
  s.box_method = v.box_method;
  return s;
}

// ---- speed -------------------------------------------------------------------------------------

bool speed_table(int width, int height, const std::vector<double>& sigmas, int runs, Csv& csv,
                 const char* device, const BenchOptions& opt) {
  constexpr int kFrames = 8;
  PlaneSpec spec;
  spec.geometry.width = width;
  spec.geometry.height = height;
  spec.geometry.channels = 4;
  const size_t row_bytes = spec.geometry.row_bytes();
  std::vector<DevicePlane> src(kFrames), dst(kFrames);
  std::vector<uint8_t> host(row_bytes * height);
  std::mt19937 rng(5);
  for (uint8_t& b : host) b = static_cast<uint8_t>(rng());
  for (int i = 0; i < kFrames; ++i) {
    REPORT_FAIL(src[i].allocate(row_bytes, height), "allocate");
    REPORT_FAIL(dst[i].allocate(row_bytes, height), "allocate");
    if (cudaMemcpy2D(src[i].get(), src[i].pitch(), host.data(), row_bytes, row_bytes, height,
                     cudaMemcpyHostToDevice) != cudaSuccess)
      return false;
  }
  CudaStream stream;
  REPORT_FAIL(stream.create(), "stream");
  double copy_us = 0;
  auto copy = [&](int f) -> Status {
    CG_CUDA_TRY(cudaMemcpyAsync(dst[f].get(), src[f].get(), src[f].pitch() * height,
                                cudaMemcpyDeviceToDevice, stream.get()));
    return Status::success();
  };
  if (!time_op(stream.get(), kFrames, 10, runs, copy, &copy_us)) return false;

  std::printf("\n### %dx%d RGBA8: µs per frame (copy of the frame: %.2f µs)\n\n", width, height, copy_us);
  std::printf("| variant |");
  for (double s : sigmas) std::printf(" σ=%g |", s);
  std::printf("\n|---|");
  for (size_t i = 0; i < sigmas.size(); ++i) std::printf("---:|");
  std::printf("\n");
  std::vector<std::pair<std::string, std::vector<double>>> timed;  // variant, µs per sigma
  for (const Variant& v : kVariants) {
    if (!opt.wanted(v.name)) continue;
    std::printf("| %s |", v.name);
    timed.push_back({v.name, {}});
    for (double sigma : sigmas) {
      FrameBlur blur;
      const Status st = blur.plan(settings_for(v, sigma), {spec});
      double us = -1;
      if (st.ok()) {
        auto op = [&](int f) {
          return blur.run({{src[f].get(), src[f].pitch()}}, {{dst[f].get(), dst[f].pitch()}},
                          stream.get());
        };
        if (!time_op(stream.get(), kFrames, 10, runs, op, &us)) us = -1;
      }
      if (us < 0) std::printf(" n/a |");
      else std::printf(" %.1f |", us);
      timed.back().second.push_back(us);
      char line[256];
      std::snprintf(line, sizeof line, "speed,\"%s\",%s,%d,%d,%g,%.3f,%.3f,,", device, v.name, width,
                    height, sigma, us, copy_us);
      csv.row(line);
    }
    std::printf("\n");
  }
  // Lee, Ko and Choe's claim (two-way about 2x one-way), as rows of the same table: one-way's
  // time over two-way's, from the timings above.
  const auto find = [&](const std::string& name) -> const std::vector<double>* {
    for (const auto& [n, us] : timed)
      if (n == name) return &us;
    return nullptr;
  };
  for (const char* filter : {"yvv2002", "yvv1995", "deriche"}) {
    const std::vector<double>* one = find(std::string(filter) + " one-way");
    const std::vector<double>* two = find(std::string(filter) + " two-way");
    if (!one || !two) continue;
    std::printf("| %s two-way speed-up over one-way |", filter);
    for (size_t i = 0; i < sigmas.size(); ++i) {
      if ((*one)[i] > 0 && (*two)[i] > 0) std::printf(" %.2fx |", (*one)[i] / (*two)[i]);
      else std::printf(" n/a |");
    }
    std::printf("\n");
  }
  return true;
}

// 8 tightly packed RGBA8 frames on the GPU, each source filled with its own constant, as many
// destinations, and a stream.
struct RgbaFrames {
  static constexpr int kFrames = 8;
  PlaneGeometry g;
  std::vector<DeviceBuffer> src{kFrames}, dst{kFrames};
  CudaStream stream;
  bool create(int width, int height) {
    g.width = width, g.height = height, g.channels = 4;
    const size_t bytes = g.row_bytes() * height;
    for (int i = 0; i < kFrames; ++i) {
      REPORT_FAIL(src[i].reserve(bytes), "allocate");
      REPORT_FAIL(dst[i].reserve(bytes), "allocate");
      if (cudaMemset(src[i].get(), 11 * i + 5, bytes) != cudaSuccess) return false;
    }
    REPORT_FAIL(stream.create(), "stream");
    return true;
  }
  // The median µs of blur.run over the frames (time_op).
  bool time(const PlaneBlur& blur, int runs, double* us) {
    auto op = [&](int i) {
      return blur.run(src[i].get(), g.row_bytes(), dst[i].get(), g.row_bytes(), stream.get());
    };
    return time_op(stream.get(), kFrames, 10, runs, op, us);
  }
};

// Box passes by kernel: shared-memory tiles (the default where they fit; strips of 4, 8 or 16
// columns), or line kernels with a window's first sum found directly (cost grows with the
// width) or from prefix sums (two more kernels per pass, then flat); their auto switches above
// 255 samples.
bool box_start_table(Csv& csv, const char* device, int runs) {
  constexpr int kWidth = 1920, kHeight = 1080;
  RgbaFrames frames;
  if (!frames.create(kWidth, kHeight)) return false;
  const double sigmas[] = {1, 5, 10, 20, 30, 50, 100};
  std::printf("\n### Box, 1920x1080 RGBA8: µs per frame by kernel\n\n");
  std::printf("| passes | kernel |");
  for (double s : sigmas) std::printf(" σ=%g |", s);
  std::printf("\n|---|---|");
  for (size_t i = 0; i < std::size(sigmas); ++i) std::printf("---:|");
  std::printf("\n");
  struct Variant {
    const char* name;
    int strip;  // tiled: columns per strip (0: planned)
    int start;  // line kernels: BoxBlur::WindowStart, -1 tiled
    int run;    // line kernels: outputs per thread (0: planned)
  };
  const Variant variants[] = {
      {"tiled (default from 2 passes)", 0, -1, 0},      {"tiled, 4-column strips", 4, -1, 0}, {"tiled, 16-column strips", 16, -1, 0},
      {"lines (default for 1 pass), auto start", 0, 0, 0},     {"lines, direct start", 0, 1, 0},     {"lines, prefix start", 0, 2, 0},
      {"lines, direct, 64 per thread", 0, 1, 64}, {"lines, direct, 256 per thread", 0, 1, 256},
      {"lines, direct, 512 per thread", 0, 1, 512}, {"lines, direct, 1024 per thread", 0, 1, 1024},
  };
  for (int passes : {1, 3})
    for (const Variant& v : variants) {
      std::printf("| %d | %s |", passes, v.name);
      for (double sigma : sigmas) {
        const std::vector<int> w = box_widths(sigma, passes);
        BoxBlur box;
        BoxBlur::Schedule schedule;
        schedule.kernels = v.start >= 0 ? BoxBlur::Kernels::Lines : BoxBlur::Kernels::Tiles;
        schedule.column_strip = v.strip;
        if (v.start >= 0) {
          schedule.window_start = static_cast<BoxBlur::WindowStart>(v.start);
          schedule.run = v.run;
        }
        REPORT_FAIL(box.plan(frames.g, w, w, Border::Replicate, schedule), "box plan");
        double us = -1;
        if (!frames.time(box, runs, &us)) return false;
        std::printf(" %.1f |", us);
        char line[512];
        std::snprintf(line, sizeof line, "box_kernel,\"%s\",box %d passes %s,%d,%d,%g,%.3f,,,,", device, passes,
                      v.name, kWidth, kHeight, sigma, us);
        csv.row(line);
      }
      std::printf("\n");
    }
  return true;
}

// A table's header: the leading columns, then a column per sigma.
template <size_t N>
void print_sigma_header(std::initializer_list<const char*> columns, const double (&sigmas)[N]) {
  std::printf("|");
  for (const char* c : columns) std::printf(" %s |", c);
  for (double s : sigmas) std::printf(" σ=%g |", s);
  std::printf("\n|");
  for (size_t i = 0; i < columns.size(); ++i) std::printf("---|");
  for (size_t i = 0; i < N; ++i) std::printf("---:|");
  std::printf("\n");
}

// Plans `blur` (its forced choices already set) for rs at sigma on both axes, times it and prints
// the table cell.
bool plan_and_time(RgbaFrames& frames, RecursiveBlur& blur, const RecursiveSettings& rs, double sigma, int runs,
                   double* us) {
  REPORT_FAIL(blur.plan(frames.g, rs, sigma, sigma), "recursive plan");
  if (!frames.time(blur, runs, us)) return false;
  std::printf(" %.1f |", *us);
  return true;
}

// Each pass in one launch (a block holds whole lines) or several (block-parallel: carries, scan,
// apply; two-way and k-way: the causal halves, then the anticausal ones), forced, and as
// RecursiveBlur picks them (auto).
bool launch_table(int width, int height, Csv& csv, const char* device, int runs) {
  RgbaFrames frames;
  if (!frames.create(width, height)) return false;
  const double sigmas[] = {2, 10, 100};
  std::printf("\n### Launches per pass, %dx%d RGBA8: µs per frame\n\n", width, height);
  print_sigma_header({"filter", "split", "launches per pass"}, sigmas);
  using Launches = LaunchForm;
  const std::pair<Launches, const char*> choices[] = {
      {Launches::One, "one"}, {Launches::Several, "several"}, {Launches::Auto, "auto"}};
  for (LineSplit split : {LineSplit::BlockParallel, LineSplit::TwoWay, LineSplit::KWay})
    for (RecursiveFilter f : {RecursiveFilter::YoungVanVliet2002, RecursiveFilter::Deriche})
      for (const auto& [launches, name] : choices) {
        std::printf("| %s | %s | %s |", recursive_filter_name(f), line_split_name(split), name);
        for (double sigma : sigmas) {
          RecursiveSettings rs;
          rs.filter = f;
          rs.split = split;
          rs.launches = launches;
          RecursiveBlur blur;
          double us = -1;
          if (!plan_and_time(frames, blur, rs, sigma, runs, &us)) return false;
          char line[512];
          std::snprintf(line, sizeof line, "launches,\"%s\",%s %s %s,%d,%d,%g,%.3f,,,,", device,
                        recursive_filter_name(f), line_split_name(split), name, width, height, sigma, us);
          csv.row(line);
        }
        std::printf("\n");
      }
  return true;
}

// Young–van Vliet's two-way in its exact parallel form and in warmed-up cascade halves, forced,
// and as RecursiveBlur picks (auto: exact from warm-ups of a 25th of the line on).
bool two_way_form_table(int width, int height, Csv& csv, const char* device, int runs) {
  RgbaFrames frames;
  if (!frames.create(width, height)) return false;
  const double sigmas[] = {2, 5, 10, 20, 30, 100};
  std::printf("\n### Young–van Vliet two-way by form, %dx%d RGBA8: µs per frame\n\n", width, height);
  print_sigma_header({"form"}, sigmas);
  using Form = TwoWayForm;
  const std::pair<Form, const char*> forms[] = {
      {Form::Exact, "exact (parallel form)"}, {Form::Warm, "warmed-up halves (kappa 4)"}, {Form::Auto, "auto"}};
  for (const auto& [form, name] : forms) {
    std::printf("| %s |", name);
    for (double sigma : sigmas) {
      RecursiveSettings rs;
      rs.filter = RecursiveFilter::YoungVanVliet2002;
      rs.split = LineSplit::TwoWay;
      rs.two_way_form = form;
      RecursiveBlur blur;
      double us = -1;
      if (!plan_and_time(frames, blur, rs, sigma, runs, &us)) return false;
      char line[512];
      std::snprintf(line, sizeof line, "two-way form,\"%s\",yvv2002 two-way %s,%d,%d,%g,%.3f,,,,", device, name, width,
                    height, sigma, us);
      csv.row(line);
    }
    std::printf("\n");
  }
  return true;
}

// ---- quality -----------------------------------------------------------------------------------

// The exact sampled, normalised Gaussian in double, on all host cores (rows, then columns).
PlaneValues exact_parallel(const std::vector<uint8_t>& img, int w, int h, double sigma) {
  const std::vector<double> taps = gaussian_taps(sigma, exact_radius(sigma));
  const int r = static_cast<int>(taps.size() / 2);
  PlaneValues tmp(img.size()), out(img.size());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  auto parallel = [&](int n, auto body) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (int i = static_cast<int>(t); i < n; i += static_cast<int>(threads)) body(i);
      });
    for (std::thread& th : pool) th.join();
  };
  parallel(h, [&](int y) {
    for (int x = 0; x < w; ++x) {
      double acc = 0;
      for (int k = -r; k <= r; ++k) acc += taps[k + r] * img[static_cast<size_t>(y) * w + std::clamp(x + k, 0, w - 1)];
      tmp[static_cast<size_t>(y) * w + x] = acc;
    }
  });
  parallel(w, [&](int x) {
    for (int y = 0; y < h; ++y) {
      double acc = 0;
      for (int k = -r; k <= r; ++k) acc += taps[k + r] * tmp[static_cast<size_t>(std::clamp(y + k, 0, h - 1)) * w + x];
      out[static_cast<size_t>(y) * w + x] = acc;
    }
  });
  return out;
}

struct Photo {
  std::string name;
  int w = 0, h = 0;
  std::vector<uint8_t> pixels;
};

bool quality_table(const std::vector<Photo>& photos, const std::vector<double>& sigmas, int tw, int th,
                   const char* size_name, Csv& csv, const char* device) {
  PlaneSpec spec;
  spec.geometry.width = tw;
  spec.geometry.height = th;
  spec.geometry.channels = 1;
  DevicePlane d_src, d_dst;
  REPORT_FAIL(d_src.allocate(tw, th), "allocate");
  REPORT_FAIL(d_dst.allocate(tw, th), "allocate");
  CudaStream stream;
  REPORT_FAIL(stream.create(), "stream");
  const size_t nv = sizeof kVariants / sizeof kVariants[0];
  // psnr[variant][sigma] summed over photos, and the worst.
  std::vector<std::vector<double>> sum(nv, std::vector<double>(sigmas.size())),
      worst(nv, std::vector<double>(sigmas.size(), 1e9)), maxerr(nv, std::vector<double>(sigmas.size()));
  for (const Photo& p : photos) {
    const std::vector<uint8_t> img = tile_photo(p.pixels, p.w, p.h, 1, tw, th);
    // On the blur's stream: a plain copy from pageable memory may return before its DMA ends.
    if (cudaMemcpy2DAsync(d_src.get(), d_src.pitch(), img.data(), tw, tw, th, cudaMemcpyHostToDevice,
                          stream.get()) != cudaSuccess)
      return false;
    for (size_t si = 0; si < sigmas.size(); ++si) {
      const PlaneValues ref = exact_parallel(img, tw, th, sigmas[si]);
      for (size_t vi = 0; vi < nv; ++vi) {
        FrameBlur blur;
        Status st = blur.plan(settings_for(kVariants[vi], sigmas[si]), {spec});
        if (st.ok()) st = blur.run({{d_src.get(), d_src.pitch()}}, {{d_dst.get(), d_dst.pitch()}}, stream.get());
        if (st.ok()) st = stream.synchronize();
        double psnr = -1, err = -1;
        if (st.ok()) {
          std::vector<uint8_t> out(static_cast<size_t>(tw) * th);
          cudaMemcpy2D(out.data(), tw, d_dst.get(), d_dst.pitch(), tw, th, cudaMemcpyDeviceToHost);
          const ErrorStats e = compare_planes(spec.geometry, read_plane(spec.geometry, out.data(), tw), ref);
          psnr = e.psnr, err = e.max_abs;
        }
        sum[vi][si] += psnr;
        worst[vi][si] = std::min(worst[vi][si], psnr);
        maxerr[vi][si] = std::max(maxerr[vi][si], err);
        char line[256];
        std::snprintf(line, sizeof line, "quality,\"%s\",%s,%d,%d,%g,,,%s,%.3f,%.3f", device,
                      kVariants[vi].name, tw, th, sigmas[si], p.name.c_str(), psnr, err);
        csv.row(line);
      }
    }
  }
  std::printf("\n### %s %dx%d GRAY8: PSNR in dB against the exact Gaussian, mean over %zu photos "
              "(worst photo; max abs error in 8-bit units)\n\n| variant |", size_name, tw, th, photos.size());
  for (double s : sigmas) std::printf(" σ=%g |", s);
  std::printf("\n|---|");
  for (size_t i = 0; i < sigmas.size(); ++i) std::printf("---:|");
  std::printf("\n");
  for (size_t vi = 0; vi < nv; ++vi) {
    std::printf("| %s |", kVariants[vi].name);
    for (size_t si = 0; si < sigmas.size(); ++si)
      std::printf(" %.1f (%.1f; %.1f) |", sum[vi][si] / photos.size(), worst[vi][si], maxerr[vi][si]);
    std::printf("\n");
  }
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const BenchOptions opt = parse_bench_options(
      &argc, &argv, "bench_recursive.csv",
      "Speed and quality (PSNR against the exact Gaussian on photographs) of every recursive\n"
      "filter and line split, with box, direct 2D and the FIR for comparison. Prints Markdown;\n"
      "without a CUDA device a skip line (exit 0).",
      gst_init_get_option_group());
  const std::string& data = opt.data;
  const bool quick = opt.quick;
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  gst_init(&argc, &argv);
  Csv csv;
  csv.open(opt.csv_path, "table,device,variant,width,height,sigma,us,copy_us,photo,psnr,max_abs");

  std::printf("Recursive Gaussians on %s.\n", prop.name);
  const int runs = quick ? 20 : 100;
  bool ok = speed_table(1920, 1080, {0.5, 1, 2, 5, 10, 30, 100}, runs, csv, prop.name, opt);
  ok = speed_table(720, 576, {2, 5, 10, 30}, runs, csv, prop.name, opt) && ok;
  if (opt.wanted("box")) ok = box_start_table(csv, prop.name, runs) && ok;
  if (opt.wanted("launches"))
    for (const auto& size : {std::pair{1920, 1080}, std::pair{352, 288}, std::pair{720, 576}, std::pair{1280, 720},
                             std::pair{3840, 2160}})
      ok = launch_table(size.first, size.second, csv, prop.name, runs) && ok;
  if (opt.wanted("two-way form"))
    for (const auto& size : {std::pair{720, 576}, std::pair{1920, 1080}})
      ok = two_way_form_table(size.first, size.second, csv, prop.name, runs) && ok;

  if (!opt.only.empty()) return ok ? 0 : 1;  // --only: the speed tables alone
  std::vector<Photo> photos;
  for (const char* name : {"fruits.jpg", "baboon.jpg", "building.jpg"}) {
    Photo p;
    p.name = name;
    if (load_photo(data + "/" + name, "GRAY8", 1, &p.w, &p.h, &p.pixels)) photos.push_back(std::move(p));
  }
  if (photos.empty()) {
    std::printf("\nquality: no photos found in %s\n", data.c_str());
  } else {
    const std::vector<double> sigmas = quick ? std::vector<double>{1, 5, 30}
                                             : std::vector<double>{0.5, 1, 2, 5, 10, 30, 90};
    ok = quality_table(photos, sigmas, 720, 576, "SD", csv, prop.name) && ok;
    if (!quick) {
      ok = quality_table(photos, sigmas, 1280, 720, "HD", csv, prop.name) && ok;
      ok = quality_table(photos, sigmas, 1920, 1080, "Full HD", csv, prop.name) && ok;
    }
  }
  return ok ? 0 : 1;
}
