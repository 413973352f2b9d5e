// SPDX-License-Identifier: LGPL-2.1-or-later
// The CPU vs GPU tables of Afif, Said and Atri (2018) (Sobel of 2048² in ~0.1 ms on a
// GT 620 against 786 ms on the CPU), for its Gaussian 5x5/273 blur and for Sobel edge
// detection, reproduced with this project's code:
//
//   CPU        common/reference_sobel (the exact double-precision reference: luma plane, integer
//              gradients, sqrt in double, round, store), one thread, wall clock, median of runs;
//   GPU kernel kernels/sobel.h on device-resident frames, CUDA events, median of kIterations
//              launches after kWarmup;
//   GPU total  upload from pinned host memory + kernel + download to pinned host memory, on one
//              stream, CUDA events, median.
//
// Square GRAY8 images 64² to 4096², output=magnitude, scale 1, GRAY8 out. Each GPU result is
// checked against the CPU one (they must be identical at scale 1).
//
// Blur table: the paper's 5x5 integer kernel / 273 (common/reference_box.h), replicate border.
// CPU common/reference_direct (double, one thread, then rounded), GPU kernels/direct_conv.h (the
// same 2D kernel) and, for comparison, our separable FIR at sigma 1 (kernels/separable_fir.h,
// radius 4); kernel times with CUDA events as above. The 2D result must be within 1 of the CPU's.
//
// Usage: bench_sobel [--csv PATH] [--quick]   (Markdown on stdout; a skip line without a GPU)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "bench_options.h"
#include "bench_timing.h"
#include "device_memory.h"
#include "direct_conv.h"
#include "fir_taps.h"
#include "reference_box.h"
#include "reference_sobel.h"
#include "separable_fir.h"
#include "sobel.h"

using namespace cudagaussian;

namespace {

constexpr int kWarmup = 10;

struct Row {
  int n;
  int cpu_runs;
  double cpu_ms, kernel_ms, total_ms;
};

struct BlurRow {
  int n;
  int cpu_runs;
  double cpu_ms, direct_ms, fir_ms;
};

// Median wall-clock milliseconds of op() on the CPU: at least 3 runs, more within budget_s.
template <typename Op>
double cpu_median_ms(Op op, double budget_s, int* runs) {
  std::vector<double> ms;
  const auto budget_start = std::chrono::steady_clock::now();
  while (ms.size() < 3 ||
         (std::chrono::duration<double>(std::chrono::steady_clock::now() - budget_start).count() < budget_s &&
          ms.size() < 101)) {
    const auto t0 = std::chrono::steady_clock::now();
    op();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  *runs = static_cast<int>(ms.size());
  return median(ms);
}

}  // namespace

int main(int argc, char** argv) {
  const CsvQuickOptions options = parse_csv_quick_options(
      &argc, &argv, "",
      "The Sobel and 5x5/273 blur tables of Afif et al.: the CPU reference against the\n"
      "GPU kernels, 64x64 to 4096x4096 GRAY8. Prints Markdown; without a CUDA device a\n"
      "skip line (exit 0).",
      "", "Fewer runs, for a smoke test");
  allow_positional_or_exit(argc, argv, 0);
  const char* csv = options.csv_path.empty() ? nullptr : options.csv_path.c_str();
  const bool quick = options.quick;
  cudaDeviceProp prop;
  if (!gpu_for_bench(&prop)) return 0;
  const int iterations = quick ? 20 : 100;
  const double cpu_budget_s = quick ? 0.2 : 1.0;  // per size, at least 3 runs
  const SobelSettings settings{SobelOutput::Magnitude, 1.0};

  CudaStream stream;
  BENCH_CHECK(stream.create());

  std::vector<Row> rows;
  std::vector<BlurRow> blur_rows;
  for (int n : {64, 128, 256, 512, 1024, 2048, 4096}) {
    const size_t bytes = static_cast<size_t>(n) * n;
    // A photograph-like mix: smooth shading, edges and noise.
    std::vector<uint8_t> host(bytes);
    std::mt19937 rng(n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        host[static_cast<size_t>(y) * n + x] = static_cast<uint8_t>(
            ((x * 255) / n + (((x / 37) + (y / 23)) % 2) * 60 + (rng() % 16)) & 0xff);

    SobelImage img;
    img.data = host.data();
    img.pitch = n;
    img.width = n;
    img.height = n;
    std::vector<uint8_t> cpu_out(bytes);

    // CPU: the reference, single thread.
    Row r{n, 0, 0.0, 0.0, 0.0};
    r.cpu_ms = cpu_median_ms([&] { reference_sobel(img, settings, 1, cpu_out.data(), n); }, cpu_budget_s,
                             &r.cpu_runs);

    // GPU buffers: device frames and pinned host staging.
    DevicePlane d_in, d_out;
    BENCH_CHECK(d_in.allocate(n, n));
    BENCH_CHECK(d_out.allocate(n, n));
    void* h_in = nullptr;
    void* h_out = nullptr;
    BENCH_CHECK(pinned_alloc(bytes, &h_in));
    BENCH_CHECK(pinned_alloc(bytes, &h_out));
    std::memcpy(h_in, host.data(), bytes);
    BENCH_CHECK(copy_2d_async(d_in.get(), d_in.pitch(), h_in, n, n, n, stream.get()));

    SobelPlane in;
    in.data = d_in.get();
    in.pitch = d_in.pitch();
    in.width = n;
    in.height = n;
    SobelTarget out;
    out.data = d_out.get();
    out.pitch = d_out.pitch();
    out.bytes_per_sample = 1;

    auto kernel = [&]() { return sobel(in, out, settings, stream.get()); };
    auto round_trip = [&]() -> Status {
      CG_TRY(copy_2d_async(d_in.get(), d_in.pitch(), h_in, n, n, n, stream.get()));
      CG_TRY(sobel(in, out, settings, stream.get()));
      return copy_2d_async(h_out, n, d_out.get(), d_out.pitch(), n, n, stream.get());
    };
    auto time_op = [&](auto&& op, double* ms_out) -> Status {
      std::vector<float> ms;
      CG_TRY(event_times_ms(stream.get(), kWarmup, iterations, [&](int) { return op(); }, &ms));
      *ms_out = median(ms);
      return Status::success();
    };

    BENCH_CHECK(time_op(kernel, &r.kernel_ms));
    BENCH_CHECK(time_op(round_trip, &r.total_ms));
    BENCH_CHECK(stream.synchronize());
    if (std::memcmp(h_out, cpu_out.data(), bytes) != 0) {
      std::fprintf(stderr, "%dx%d: the GPU result differs from the CPU reference\n", n, n);
      return 1;
    }
    rows.push_back(r);

    // The paper's blur: 5x5/273 on the CPU (double reference) and on the GPU (2D and our FIR).
    PlaneGeometry g;
    g.width = g.height = n;
    const PlaneValues values(host.begin(), host.end());
    const std::vector<double> afif = afif_5x5_kernel();
    BlurRow b{n, 0, 0.0, 0.0, 0.0};
    PlaneValues blurred;
    b.cpu_ms = cpu_median_ms([&] { blurred = reference_direct(g, values, afif, 5, Border::Replicate); },
                             cpu_budget_s, &b.cpu_runs);
    DirectConvolution direct;
    BENCH_CHECK(direct.plan(g, afif, 5, Border::Replicate));
    SeparableFir fir;
    const std::vector<double> taps = gaussian_taps(1.0, fir_radius(1.0, 4.0));
    BENCH_CHECK(fir.plan(g, taps, taps, Border::Replicate));
    auto direct_op = [&]() { return direct.run(d_in.get(), d_in.pitch(), d_out.get(), d_out.pitch(), stream.get()); };
    auto fir_op = [&]() { return fir.run(d_in.get(), d_in.pitch(), d_out.get(), d_out.pitch(), stream.get()); };
    BENCH_CHECK(time_op(fir_op, &b.fir_ms));
    BENCH_CHECK(time_op(direct_op, &b.direct_ms));  // last: d_out keeps the 2D result
    BENCH_CHECK(copy_2d_async(h_out, n, d_out.get(), d_out.pitch(), n, n, stream.get()));
    BENCH_CHECK(stream.synchronize());
    const PlaneValues gpu = read_plane(g, h_out, n);
    double worst = 0;
    for (size_t i = 0; i < gpu.size(); ++i)
      worst = std::max(worst, std::fabs(gpu[i] - std::clamp(std::floor(blurred[i] + 0.5), 0.0, 255.0)));
    if (worst > 1.0) {
      std::fprintf(stderr, "%dx%d: the GPU 5x5/273 blur is %g from the CPU reference\n", n, n, worst);
      return 1;
    }
    blur_rows.push_back(b);
    pinned_free(h_in);
    pinned_free(h_out);
  }

  std::printf("Sobel magnitude, GRAY8 in and out, scale 1, replicate border, on %s.\n"
              "CPU: common/reference_sobel (double precision, one thread), wall clock, median of\n"
              "the runs shown. GPU kernel: device-resident frames, CUDA events, median of %d after\n"
              "%d warm-up. GPU total: pinned upload + kernel + pinned download on one stream.\n"
              "Every GPU output equals the CPU reference. Afif et al. (GT 620): 2048² in\n"
              "~0.1 ms on the GPU vs 786 ms on the CPU.\n\n",
              prop.name, iterations, kWarmup);
  std::printf("| size | CPU ms (runs) | GPU kernel ms | GPU total ms | kernel speed-up | total speed-up | kernel Mpixel/s |\n");
  std::printf("|-----:|--------------:|--------------:|-------------:|----------------:|---------------:|----------------:|\n");
  for (const Row& r : rows)
    std::printf("| %d² | %.3f (%d) | %.4f | %.4f | %.0f× | %.1f× | %.0f |\n", r.n, r.cpu_ms,
                r.cpu_runs, r.kernel_ms, r.total_ms, r.cpu_ms / r.kernel_ms, r.cpu_ms / r.total_ms,
                static_cast<double>(r.n) * r.n / (r.kernel_ms * 1e3));

  std::printf("\nAfif et al.'s Gaussian 5x5/273, GRAY8, replicate border, on %s. CPU:\n"
              "common/reference_direct (double, one thread). GPU: kernels/direct_conv (the same 2D\n"
              "kernel; every output within 1 of the CPU's) and our separable FIR at sigma 1 (radius 4),\n"
              "device-resident frames, CUDA events, median of %d after %d warm-up.\n\n",
              prop.name, iterations, kWarmup);
  std::printf("| size | CPU ms (runs) | GPU 2D kernel ms | GPU FIR σ=1 ms | 2D speed-up | FIR speed-up |\n");
  std::printf("|-----:|--------------:|-----------------:|---------------:|------------:|-------------:|\n");
  for (const BlurRow& b : blur_rows)
    std::printf("| %d² | %.3f (%d) | %.4f | %.4f | %.0f× | %.0f× |\n", b.n, b.cpu_ms, b.cpu_runs, b.direct_ms,
                b.fir_ms, b.cpu_ms / b.direct_ms, b.cpu_ms / b.fir_ms);

  if (csv) {
    FILE* f = std::fopen(csv, "w");
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", csv);
      return 1;
    }
    std::fprintf(f, "device,size,cpu_ms,cpu_runs,gpu_kernel_ms,gpu_total_ms,speedup_kernel,"
                    "speedup_total\n");
    for (const Row& r : rows)
      std::fprintf(f, "\"%s\",%d,%.4f,%d,%.5f,%.5f,%.2f,%.2f\n", prop.name, r.n, r.cpu_ms,
                   r.cpu_runs, r.kernel_ms, r.total_ms, r.cpu_ms / r.kernel_ms,
                   r.cpu_ms / r.total_ms);
    std::fprintf(f, "\ndevice,size,blur_cpu_ms,cpu_runs,gpu_direct_5x5_ms,gpu_fir_sigma1_ms\n");
    for (const BlurRow& b : blur_rows)
      std::fprintf(f, "\"%s\",%d,%.4f,%d,%.5f,%.5f\n", prop.name, b.n, b.cpu_ms, b.cpu_runs, b.direct_ms, b.fir_ms);
    std::fclose(f);
  }
  return 0;
}
