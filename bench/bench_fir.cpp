// SPDX-License-Identifier: LGPL-2.1-or-later
// Kernel benchmark: the separable FIR on a device-resident 1080p RGBA8 frame against a
// device-to-device copy of the same frame (the floor for GPU-resident video).
//
// A 1080p RGBA frame is 8.3 MB and the H100/H200 L2 holds 50/60 MB, so timing one buffer over
// and over measures the cache. Both the blur and the copy therefore rotate among kFrames source
// and kFrames destination frames (2 x 8 x 8.3 MB = 133 MB), each operation is bracketed by its
// own pair of CUDA events, and the median over kIterations operations is reported after
// kWarmup untimed ones. The FIR's float intermediate (33 MB) is part of the algorithm and is
// not rotated.
//
// Usage: bench_fir [--csv PATH | PATH]          (prints a Markdown table; exits 0 with a skip line
//                                                without a GPU; CSV only when a path is given)
//        bench_fir --sizes [--csv PATH | PATH]
//   The FIR from SD to 4K (RGBA8, sigma 0.5 to 10: radius 2 to 40) as SeparableFir chooses it,
//   beside the fused CUDA-core kernel at each fixed tile height (to its largest radius, 16), the
//   tensor FIR in one kernel and rolling, and a copy of the same frames.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "device_memory.h"
#include "fir_taps.h"
#include "per_pixel_fir.h"
#include "separable_fir.h"
#include "texture_fir.h"

using namespace cudagaussian;

namespace {

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr int kChannels = 4;
constexpr int kFrames = 8;  // 8 x (src + dst) x 8.3 MB = 133 MB, over twice the largest L2
constexpr int kWarmup = 20;
constexpr int kIterations = 200;
constexpr double kTruncate = 4.0;
static_assert(kIterations >= 50, "medians need enough samples");
static_assert(kFrames >= 8, "fewer frames would let the L2 cache hold the working set");

struct Row {
  double sigma;
  int radius;
  double fir_us, copy_us, copy1d_us;
  double cuda_cores_us;             // SeparableFir on CUDA cores (fused or two-pass)
  double tensor_us;                 // SeparableFir on tensor cores, one kernel where it runs (0: they do not apply)
  double tensor_two_us;             // SeparableFir on tensor cores, two passes
  double tensor_rolling_us;         // SeparableFir on tensor cores, rolling (0: it does not run)
  double table_us, incremental_us;  // the per-pixel kernel, taps from a table / incremental
  double texture_us;                // the per-pixel kernel reading through textures
  int texture_diff;                 // max |texture - per-pixel table| over one frame
  double floor_us() const { return std::min(copy_us, copy1d_us); }
};

// A time with one decimal, or nothing for a kernel that was not run (0).
std::string us_or_blank(double us) {
  char text[32] = "";
  if (us > 0) std::snprintf(text, sizeof text, "%.1f", us);
  return text;
}

// The --sizes table (see the top of the file).
int size_table(const cudaDeviceProp& prop, const char* csv_path) {
  struct Size {
    const char* name;
    int width, height;
  };
  const Size sizes[] = {{"SD", 720, 576}, {"HD", 1280, 720}, {"Full HD", 1920, 1080}, {"4K", 3840, 2160}};
  // SeparableFir's own choice, the fused CUDA-core kernel with tiles of 32, 16 and 8 rows, and the
  // tensor FIR in one kernel and rolling.
  struct Variant {
    const char* label;
    int tile_rows;
    SeparableFir::Schedule::Cores cores;
    TensorFir::Layout layout;
  };
  using Cores = SeparableFir::Schedule::Cores;
  const Variant variants[] = {{"chosen", 0, Cores::Measured, TensorFir::Layout::Measured},
                              {"cuda-32", 32, Cores::Cuda, TensorFir::Layout::Measured},
                              {"cuda-16", 16, Cores::Cuda, TensorFir::Layout::Measured},
                              {"cuda-8", 8, Cores::Cuda, TensorFir::Layout::Measured},
                              {"tensor-one-kernel", 0, Cores::Tensor, TensorFir::Layout::OneKernel},
                              {"tensor-rolling", 0, Cores::Tensor, TensorFir::Layout::Rolling}};
  constexpr int kVariants = sizeof variants / sizeof variants[0];
  CudaStream stream;
  BENCH_CHECK(stream.create());
  Csv csv;
  if (csv_path)
    csv.open(csv_path, "device,size,width,height,sigma,radius,kernel,fir_us,copy_us,gpixel_per_s");
  std::printf("Separable FIR by frame size, RGBA8, truncate %.0f, replicate border, on %s (%d SMs).\n"
              "Median of %d runs after %d warm-up, %d rotating frames; copy = cudaMemcpyAsync of the\n"
              "same frames. Gpix/s = pixels / FIR time; 'chosen' is the kernel SeparableFir picks, the\n"
              "'rows' columns the fused CUDA-core kernel with tiles of that height (to radius %d), the\n"
              "last columns the tensor-core FIR in one kernel where it runs (else in two passes) and\n"
              "rolling down the frame (to vertical radius 56).\n\n",
              kTruncate, prop.name, prop.multiProcessorCount, kIterations, kWarmup, kFrames,
              SeparableFir::kMaxFusedRadius);
  std::printf("| size | sigma | copy µs | chosen µs (Gpix/s) | 32 rows µs | 16 rows µs | 8 rows µs | tensor one kernel µs | tensor rolling µs |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Size& size : sizes) {
    PlaneGeometry g;
    g.width = size.width;
    g.height = size.height;
    g.channels = kChannels;
    const size_t bytes = g.row_bytes() * size.height;
    std::vector<DeviceBuffer> src(kFrames), dst(kFrames);
    for (int i = 0; i < kFrames; ++i) {
      BENCH_CHECK(src[i].reserve(bytes));
      BENCH_CHECK(dst[i].reserve(bytes));
      BENCH_CUDA(cudaMemset(src[i].get(), 17 * i + 3, bytes));
    }
    for (double sigma : {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0}) {
      const int radius = fir_radius(sigma, kTruncate);
      const std::vector<double> taps = gaussian_taps(sigma, radius);
      double copy_us = 0.0, us[kVariants] = {};
      auto copy = [&](int f) -> Status {
        CG_CUDA_TRY(cudaMemcpyAsync(dst[f].get(), src[f].get(), bytes, cudaMemcpyDeviceToDevice,
                                    stream.get()));
        return Status::success();
      };
      if (!time_op(stream.get(), kFrames, kWarmup, kIterations, copy, &copy_us)) return 1;
      for (int v = 0; v < kVariants; ++v) {
        if (variants[v].tile_rows != 0 && radius > SeparableFir::kMaxFusedRadius) continue;  // two passes
        SeparableFir fir;
        SeparableFir::Schedule schedule;
        schedule.tile_rows = variants[v].tile_rows;
        schedule.cores = variants[v].cores;
        schedule.tensor_layout = variants[v].layout;
        BENCH_CHECK(fir.plan(g, taps, taps, Border::Replicate, schedule));
        if (variants[v].layout == TensorFir::Layout::Rolling && !fir.runs_tensor_rolling()) continue;  // blank
        auto blur = [&](int f) {
          return fir.run(src[f].get(), g.row_bytes(), dst[f].get(), g.row_bytes(), stream.get());
        };
        if (!time_op(stream.get(), kFrames, kWarmup, kIterations, blur, &us[v])) return 1;
        const double gpix = static_cast<double>(size.width) * size.height / (us[v] * 1e3);
        csv.row("\"" + std::string(prop.name) + "\"," + size.name + "," + std::to_string(size.width) +
                "," + std::to_string(size.height) + "," + std::to_string(sigma) + "," +
                std::to_string(radius) + "," + variants[v].label + "," + std::to_string(us[v]) + "," +
                std::to_string(copy_us) + "," + std::to_string(gpix));
      }
      std::printf("| %s %dx%d | %g | %.1f | %.1f (%.1f) | %s | %s | %s | %.1f | %s |\n", size.name, size.width,
                  size.height, sigma, copy_us, us[0], static_cast<double>(size.width) * size.height / (us[0] * 1e3),
                  us_or_blank(us[1]).c_str(), us_or_blank(us[2]).c_str(), us_or_blank(us[3]).c_str(), us[4],
                  us_or_blank(us[5]).c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gchar* csv_option = nullptr;
  gboolean sizes = FALSE;
  const GOptionEntry entries[] = {
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_option, "CSV output (also as a bare PATH; none by default)", "PATH"},
      {"sizes", 0, 0, G_OPTION_ARG_NONE, &sizes,
       "The fused FIR's tile heights from SD to 4K instead of the sigma table", nullptr},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(&argc, &argv, "[PATH]",
                        "The separable FIR (and the per-pixel variants) on device-resident 1080p RGBA8\n"
                        "frames against a device-to-device copy. Prints Markdown; without a CUDA\n"
                        "device a skip line (exit 0).",
                        entries);
  allow_positional_or_exit(argc, argv, 1);
  const std::string csv = take_option_string(csv_option, argc > 1 ? argv[1] : "");
  const char* csv_path = csv.empty() ? nullptr : csv.c_str();

  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  if (sizes) return size_table(prop, csv_path);

  PlaneGeometry g;
  g.width = kWidth;
  g.height = kHeight;
  g.channels = kChannels;
  const size_t row_bytes = g.row_bytes();
  const double frame_bytes = static_cast<double>(row_bytes) * kHeight;

  std::vector<DevicePlane> src(kFrames), dst(kFrames);
  std::vector<uint8_t> host(row_bytes * kHeight);
  std::mt19937 rng(42);
  for (uint8_t& b : host) b = static_cast<uint8_t>(rng());
  for (int i = 0; i < kFrames; ++i) {
    BENCH_CHECK(src[i].allocate(row_bytes, kHeight));
    BENCH_CHECK(dst[i].allocate(row_bytes, kHeight));
    BENCH_CUDA(cudaMemcpy2D(src[i].get(), src[i].pitch(), host.data(), row_bytes, row_bytes,
                            kHeight, cudaMemcpyHostToDevice));
  }
  CudaStream stream;
  BENCH_CHECK(stream.create());
  // Times kIterations calls of op(frame) with rotating frames; the median in microseconds.
  auto time_op = [&](auto&& op, double* us) -> Status {
    return median_event_us(stream.get(), kFrames, kWarmup, kIterations, op, us);
  };
  auto copy = [&](int f) {
    return copy_2d_async(dst[f].get(), dst[f].pitch(), src[f].get(), src[f].pitch(), row_bytes,
                         kHeight, stream.get());
  };

  // The same frame as one contiguous block (pitch x height): the fastest device copy there is.
  auto copy1d = [&](int f) -> Status {
    CG_CUDA_TRY(cudaMemcpyAsync(dst[f].get(), src[f].get(), src[f].pitch() * kHeight,
                                cudaMemcpyDeviceToDevice, stream.get()));
    return Status::success();
  };

  std::vector<Row> rows;
  for (double sigma : {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 30.0, 100.0}) {
    const int radius = fir_radius(sigma, kTruncate);
    const std::vector<double> taps = gaussian_taps(sigma, radius);
    SeparableFir fir;
    BENCH_CHECK(fir.plan(g, taps, taps, Border::Replicate));
    auto blur = [&](int f) {
      return fir.run(src[f].get(), src[f].pitch(), dst[f].get(), dst[f].pitch(), stream.get());
    };
    Row r{sigma, radius, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0};
    BENCH_CHECK(time_op(blur, &r.fir_us));
    const bool tensor_applies = TensorFir::applies(g, taps, taps, prop.major);
    using Cores = SeparableFir::Schedule::Cores;
    using Layout = TensorFir::Layout;
    const struct {
      Cores cores;
      Layout layout;
      double* us;
    } pins[] = {{Cores::Cuda, Layout::Measured, &r.cuda_cores_us},
                {Cores::Tensor, Layout::OneKernel, &r.tensor_us},
                {Cores::Tensor, Layout::TwoPasses, &r.tensor_two_us},
                {Cores::Tensor, Layout::Rolling, &r.tensor_rolling_us}};
    for (const auto& pin : pins) {
      if (pin.cores == Cores::Tensor && !tensor_applies) continue;  // left blank
      SeparableFir::Schedule pinned;
      pinned.cores = pin.cores;
      pinned.tensor_layout = pin.layout;
      SeparableFir other;
      BENCH_CHECK(other.plan(g, taps, taps, Border::Replicate, pinned));
      if (pin.layout == Layout::Rolling && !other.runs_tensor_rolling()) continue;  // left blank
      auto op = [&](int f) {
        return other.run(src[f].get(), src[f].pitch(), dst[f].get(), dst[f].pitch(), stream.get());
      };
      BENCH_CHECK(time_op(op, pin.us));
    }
    for (TapSource source : {TapSource::Table, TapSource::Incremental}) {
      PerPixelFir per_pixel;
      BENCH_CHECK(per_pixel.plan(g, sigma, radius, sigma, radius, Border::Replicate, source));
      auto op = [&](int f) {
        return per_pixel.run(src[f].get(), src[f].pitch(), dst[f].get(), dst[f].pitch(), stream.get());
      };
      BENCH_CHECK(time_op(op, source == TapSource::Table ? &r.table_us : &r.incremental_us));
    }
    {
      // Texture reads: timed, then one frame compared with the per-pixel table kernel's.
      TextureFir texture;
      BENCH_CHECK(texture.plan(kWidth, kHeight, sigma, radius));
      auto op = [&](int f) {
        return texture.run(src[f].get(), src[f].pitch(), dst[f].get(), dst[f].pitch(), stream.get());
      };
      BENCH_CHECK(time_op(op, &r.texture_us));
      PerPixelFir table;
      BENCH_CHECK(table.plan(g, sigma, radius, sigma, radius, Border::Replicate, TapSource::Table));
      BENCH_CHECK(table.run(src[0].get(), src[0].pitch(), dst[1].get(), dst[1].pitch(), stream.get()));
      std::vector<uint8_t> a(row_bytes * kHeight), b(row_bytes * kHeight);
      BENCH_CHECK(copy_2d_async(a.data(), row_bytes, dst[0].get(), dst[0].pitch(), row_bytes, kHeight, stream.get()));
      BENCH_CHECK(copy_2d_async(b.data(), row_bytes, dst[1].get(), dst[1].pitch(), row_bytes, kHeight, stream.get()));
      BENCH_CHECK(stream.synchronize());
      for (size_t i = 0; i < a.size(); ++i) r.texture_diff = std::max(r.texture_diff, std::abs(int(a[i]) - int(b[i])));
    }
    // Re-measured per row: clocks drift over a run.
    BENCH_CHECK(time_op(copy, &r.copy_us));
    BENCH_CHECK(time_op(copy1d, &r.copy1d_us));
    rows.push_back(r);
  }

  std::printf("Separable FIR, %dx%d RGBA8 (%.1f MB), truncate %.0f, replicate border, on %s.\n",
              kWidth, kHeight, frame_bytes / 1e6, kTruncate, prop.name);
  std::printf("Median of %d runs after %d warm-up, rotating %d source and %d destination frames;\n"
              "copy 2D = cudaMemcpy2DAsync, copy 1D = cudaMemcpyAsync of the same frames, device to\n"
              "device; the ratio is to the faster copy. GB/s-equivalent = (frame read + frame\n"
              "written) / FIR time. FIR: SeparableFir as it chooses; CUDA cores: its kernels fused\n"
              "(one kernel) up to radius 16, two passes beyond; tensor cores: TensorFir (fp16\n"
              "operands, up to radius %d) in one kernel where its tile fits shared memory, in two\n"
              "passes, and rolling down the frame (to vertical radius 56). SeparableFir takes the\n"
              "tensor cores from radius %d in one kernel (up to radius %d; at this frame size), from\n"
              "radius %d in two passes, and never rolling.\n"
              "Per-pixel: the usual formulation (a thread per output, symmetric tap pairs), taps\n"
              "from a table or generated incrementally (Turkowski; GPU Gems 3 ch. 40 claims >= 15 %%),\n"
              "or read through texture objects (replicate border by clamp addressing; in brackets the\n"
              "largest difference from the per-pixel table kernel over one frame).\n\n",
              kIterations, kWarmup, kFrames, kFrames, TensorFir::kMaxRadius, TensorFir::kOneKernelMinRadius,
              TensorFir::kOneKernelMaxRadius, TensorFir::kMinRadius);
  std::printf("| sigma | radius | FIR µs | CUDA cores µs | tensor cores µs | tensor two passes µs | tensor rolling µs | copy 2D µs | copy 1D µs | FIR / copy | GB/s-equivalent | per-pixel table µs | per-pixel incremental µs | incremental gain | per-pixel texture µs (max diff) |\n");
  std::printf("|------:|-------:|-------:|---:|---:|---:|---:|-----------:|-----------:|-----------:|----------------:|---:|---:|---:|---:|\n");
  for (const Row& r : rows)
    std::printf("| %g | %d | %.1f | %.1f | %s | %s | %s | %.2f | %.2f | %.1f | %.0f | %.1f | %.1f | %+.0f %% | %.1f (%d) |\n", r.sigma,
                r.radius, r.fir_us, r.cuda_cores_us, us_or_blank(r.tensor_us).c_str(),
                us_or_blank(r.tensor_two_us).c_str(), us_or_blank(r.tensor_rolling_us).c_str(), r.copy_us, r.copy1d_us, r.fir_us / r.floor_us(), 2.0 * frame_bytes / (r.fir_us * 1e3),
                r.table_us, r.incremental_us, 100.0 * (r.table_us / r.incremental_us - 1.0), r.texture_us,
                r.texture_diff);

  if (csv_path) {
    FILE* f = std::fopen(csv_path, "w");
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", csv_path);
      return 1;
    }
    std::fprintf(f, "device,width,height,channels,sigma,radius,fir_us,cuda_cores_us,tensor_cores_us,tensor_two_passes_us,copy2d_us,copy1d_us,ratio,"
                    "gbps_equivalent,per_pixel_table_us,per_pixel_incremental_us,per_pixel_texture_us,tensor_rolling_us\n");
    for (const Row& r : rows)
      std::fprintf(f, "\"%s\",%d,%d,%d,%g,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.3f,%.3f,%.3f,%.3f\n", prop.name, kWidth,
                   kHeight, kChannels, r.sigma, r.radius, r.fir_us, r.cuda_cores_us, r.tensor_us, r.tensor_two_us, r.copy_us, r.copy1d_us,
                   r.fir_us / r.floor_us(), 2.0 * frame_bytes / (r.fir_us * 1e3), r.table_us, r.incremental_us,
                   r.texture_us, r.tensor_rolling_us);
    std::fclose(f);
  }

  return 0;
}
