// The seed paper's CPU vs GPU table for Sobel edge detection (Afif et al.; REFERENCE.md §7: 2048²
// in ~0.1 ms on a GT 620 against 786 ms on the CPU), reproduced with this project's code:
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
// Usage: bench_sobel [--csv PATH] [--quick]   (Markdown on stdout; a skip line without a GPU)

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "device_memory.h"
#include "reference_sobel.h"
#include "sobel.h"

using namespace cudagaussian;

namespace {

constexpr int kWarmup = 10;

#define BENCH_CHECK(expr)                                                        \
  do {                                                                           \
    const Status st_ = (expr);                                                   \
    if (!st_.ok()) {                                                             \
      std::fprintf(stderr, "%s failed: %s\n", #expr, st_.message.c_str());       \
      return 1;                                                                  \
    }                                                                            \
  } while (0)
#define BENCH_CUDA(call) BENCH_CHECK(([&]() -> Status { CG_CUDA_TRY(call); return Status::success(); })())

template <typename T>
double median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
  int n;
  int cpu_runs;
  double cpu_ms, kernel_ms, total_ms;
};

}  // namespace

int main(int argc, char** argv) {
  const char* csv = nullptr;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
      csv = argv[++i];
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: %s [--csv PATH] [--quick]\n", argv[0]);
      return 2;
    }
  }
  if (cuda_device_count() == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
  const int iterations = quick ? 20 : 100;
  const double cpu_budget_s = quick ? 0.2 : 1.0;  // per size, at least 3 runs
  const SobelSettings settings{SobelOutput::Magnitude, 1.0};

  CudaStream stream;
  BENCH_CHECK(stream.create());
  std::vector<cudaEvent_t> start(iterations), stop(iterations);
  for (int i = 0; i < iterations; ++i) {
    BENCH_CUDA(cudaEventCreate(&start[i]));
    BENCH_CUDA(cudaEventCreate(&stop[i]));
  }

  std::vector<Row> rows;
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
    std::vector<double> cpu_ms;
    const auto budget_start = std::chrono::steady_clock::now();
    while (cpu_ms.size() < 3 ||
           (std::chrono::duration<double>(std::chrono::steady_clock::now() - budget_start).count() <
                cpu_budget_s &&
            cpu_ms.size() < 101)) {
      const auto t0 = std::chrono::steady_clock::now();
      reference_sobel(img, settings, 1, cpu_out.data(), n);
      const auto t1 = std::chrono::steady_clock::now();
      cpu_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }

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
      for (int i = 0; i < kWarmup; ++i) CG_TRY(op());
      for (int i = 0; i < iterations; ++i) {
        CG_CUDA_TRY(cudaEventRecord(start[i], stream.get()));
        CG_TRY(op());
        CG_CUDA_TRY(cudaEventRecord(stop[i], stream.get()));
      }
      CG_TRY(stream.synchronize());
      std::vector<float> ms(iterations);
      for (int i = 0; i < iterations; ++i)
        CG_CUDA_TRY(cudaEventElapsedTime(&ms[i], start[i], stop[i]));
      *ms_out = median(ms);
      return Status::success();
    };

    Row r{n, static_cast<int>(cpu_ms.size()), median(cpu_ms), 0.0, 0.0};
    BENCH_CHECK(time_op(kernel, &r.kernel_ms));
    BENCH_CHECK(time_op(round_trip, &r.total_ms));
    BENCH_CHECK(stream.synchronize());
    if (std::memcmp(h_out, cpu_out.data(), bytes) != 0) {
      std::fprintf(stderr, "%dx%d: the GPU result differs from the CPU reference\n", n, n);
      return 1;
    }
    pinned_free(h_in);
    pinned_free(h_out);
    rows.push_back(r);
  }

  std::printf("Sobel magnitude, GRAY8 in and out, scale 1, replicate border, on %s.\n"
              "CPU: common/reference_sobel (double precision, one thread), wall clock, median of\n"
              "the runs shown. GPU kernel: device-resident frames, CUDA events, median of %d after\n"
              "%d warm-up. GPU total: pinned upload + kernel + pinned download on one stream.\n"
              "Every GPU output equals the CPU reference. Seed (Afif et al., GT 620): 2048² in\n"
              "~0.1 ms on the GPU vs 786 ms on the CPU.\n\n",
              prop.name, iterations, kWarmup);
  std::printf("| size | CPU ms (runs) | GPU kernel ms | GPU total ms | kernel speed-up | total speed-up | kernel Mpixel/s |\n");
  std::printf("|-----:|--------------:|--------------:|-------------:|----------------:|---------------:|----------------:|\n");
  for (const Row& r : rows)
    std::printf("| %d² | %.3f (%d) | %.4f | %.4f | %.0f× | %.1f× | %.0f |\n", r.n, r.cpu_ms,
                r.cpu_runs, r.kernel_ms, r.total_ms, r.cpu_ms / r.kernel_ms, r.cpu_ms / r.total_ms,
                static_cast<double>(r.n) * r.n / (r.kernel_ms * 1e3));

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
    std::fclose(f);
  }
  for (int i = 0; i < iterations; ++i) {
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  return 0;
}
