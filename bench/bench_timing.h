// SPDX-License-Identifier: LGPL-2.1-or-later
// Helpers shared by the benchmarks: options, the device check, CUDA-event timing (warm-up first,
// the median reported), statistics and CSV output.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_options.h"
#include "cuda_status.h"
#include "device_memory.h"

#define REPORT_FAIL(st, what)                                                    \
  do {                                                                           \
    if (!(st).ok()) {                                                            \
      std::fprintf(stderr, "%s: %s\n", what, (st).message.c_str());             \
      return false;                                                              \
    }                                                                            \
  } while (0)

// In a main(): reports a failed Status and returns 1.
#define BENCH_CHECK(expr)                                                        \
  do {                                                                           \
    const cudagaussian::Status st_ = (expr);                                     \
    if (!st_.ok()) {                                                             \
      std::fprintf(stderr, "%s failed: %s\n", #expr, st_.message.c_str());       \
      return 1;                                                                  \
    }                                                                            \
  } while (0)
#define BENCH_CUDA(call)                                                                     \
  BENCH_CHECK(([&]() -> cudagaussian::Status {                                               \
    CG_CUDA_TRY(call);                                                                       \
    return cudagaussian::Status::success();                                                  \
  })())

// The median of @v (NaN when empty).
template <typename T>
double median(std::vector<T> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// The 95th percentile of @v, the smallest sample at or above 95 % of them (NaN when empty).
template <typename T>
double p95(std::vector<T> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const size_t idx = static_cast<size_t>(std::ceil(0.95 * v.size()));
  return v[std::min(v.size() - 1, idx > 0 ? idx - 1 : 0)];
}

// CUDA events, destroyed with the object.
class CudaEvents {
 public:
  CudaEvents() = default;
  CudaEvents(const CudaEvents&) = delete;
  CudaEvents& operator=(const CudaEvents&) = delete;
  ~CudaEvents() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  cudagaussian::Status create(int n) {
    for (int i = 0; i < n; ++i) {
      cudaEvent_t e = nullptr;
      CG_CUDA_TRY(cudaEventCreate(&e));
      events_.push_back(e);
    }
    return cudagaussian::Status::success();
  }
  cudaEvent_t operator[](size_t i) const { return events_[i]; }

 private:
  std::vector<cudaEvent_t> events_;
};

// Milliseconds between two events recorded earlier (waits for @stop).
inline cudagaussian::Status event_elapsed_ms(cudaEvent_t start, cudaEvent_t stop, double* ms) {
  CG_CUDA_TRY(cudaEventSynchronize(stop));
  float elapsed = 0.0f;
  CG_CUDA_TRY(cudaEventElapsedTime(&elapsed, start, stop));
  *ms = elapsed;
  return cudagaussian::Status::success();
}

// The benchmarks' timing: @warmup untimed calls op(i), then @runs calls op(i) (i from 0), each
// between its own pair of CUDA events on @stream; @ms gets each run's milliseconds. op returns a
// cudagaussian::Status.
template <typename Op>
cudagaussian::Status event_times_ms(cudaStream_t stream, int warmup, int runs, Op op, std::vector<float>* ms) {
  CudaEvents ev;
  CG_TRY(ev.create(2 * runs));
  for (int i = 0; i < warmup; ++i) CG_TRY(op(i));
  for (int i = 0; i < runs; ++i) {
    CG_CUDA_TRY(cudaEventRecord(ev[2 * i], stream));
    CG_TRY(op(i));
    CG_CUDA_TRY(cudaEventRecord(ev[2 * i + 1], stream));
  }
  CG_CUDA_TRY(cudaStreamSynchronize(stream));
  ms->assign(runs, 0.0f);
  for (int i = 0; i < runs; ++i) CG_CUDA_TRY(cudaEventElapsedTime(&(*ms)[i], ev[2 * i], ev[2 * i + 1]));
  return cudagaussian::Status::success();
}

// Median microseconds of op(frame) over @runs runs on @frames rotating frames, after @warmup runs.
template <typename Op>
cudagaussian::Status median_event_us(cudaStream_t stream, int frames, int warmup, int runs, Op op, double* us) {
  std::vector<float> ms;
  CG_TRY(event_times_ms(stream, warmup, runs, [&](int i) { return op(i % frames); }, &ms));
  *us = median(ms) * 1000.0;
  return cudagaussian::Status::success();
}

// median_event_us that prints a failure and returns false.
template <typename Op>
bool time_op(cudaStream_t stream, int frames, int warmup, int runs, Op op, double* us) {
  const cudagaussian::Status st = median_event_us(stream, frames, warmup, runs, op, us);
  if (!st.ok()) std::fprintf(stderr, "timing: %s\n", st.message.c_str());
  return st.ok();
}

constexpr int kQueued = 8;

// The GPU time of op(frame): `reps` groups of kQueued operations, each group queued behind a host
// function that holds the stream for 2 ms and bracketed by one pair of events, so that the host
// is far ahead of the GPU; the median over the groups, per operation, after `warmup` runs.
template <typename Op>
bool time_queued(cudaStream_t stream, int frames, int reps, Op op, double* us, int warmup = 0) {
  for (int i = 0; i < warmup; ++i) {
    const cudagaussian::Status st = op(i % frames);
    if (!st.ok()) {
      std::fprintf(stderr, "warm-up run: %s\n", st.message.c_str());
      return false;
    }
  }
  cudaEvent_t start, stop;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) return false;
  std::vector<float> per_op;
  bool ok = true;
  for (int r = 0; ok && r < reps; ++r) {
    ok = cudaLaunchHostFunc(stream, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(2)); },
                            nullptr) == cudaSuccess;
    ok = ok && cudaEventRecord(start, stream) == cudaSuccess;
    for (int k = 0; ok && k < kQueued; ++k) {
      const cudagaussian::Status st = op((r * kQueued + k) % frames);
      if (!st.ok()) std::fprintf(stderr, "run: %s\n", st.message.c_str());
      ok = st.ok();
    }
    float ms = 0;
    ok = ok && cudaEventRecord(stop, stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess &&
         cudaEventElapsedTime(&ms, start, stop) == cudaSuccess;
    per_op.push_back(ms * 1000.0f / kQueued);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (ok) *us = median(per_op);
  return ok;
}

struct Csv {
  FILE* f = nullptr;
  Csv() = default;
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;
  // Opens `path` (no file, only a warning, when it cannot) and writes the header line.
  void open(const std::string& path, const char* header) {
    f = std::fopen(path.c_str(), "w");
    if (!f) std::fprintf(stderr, "cannot write %s\n", path.c_str());
    row(header);
  }
  void row(const std::string& line) {
    if (f) std::fprintf(f, "%s\n", line.c_str());
  }
  ~Csv() {
    if (f) std::fclose(f);
  }
};

// Options of bench_recursive and bench_edge_aware: [--csv PATH] [--quick] [--data DIR] [--only TEXT]
struct BenchOptions {
  std::string csv_path;
  std::string data = "tests/data";
  bool quick = false;
  std::string only;  // --only TEXT: speed tables time only the variants whose name contains it
  bool wanted(const char* variant) const { return only.empty() || std::string(variant).find(only) != std::string::npos; }
};
// Parses those options (and @group's, e.g. GStreamer's); --help prints the usage and exits 0, an
// unknown option or an extra argument exits 2.
inline BenchOptions parse_bench_options(int* argc, char*** argv, const char* default_csv, const char* summary,
                                        GOptionGroup* group) {
  gchar* csv = nullptr;
  gchar* data = nullptr;
  gchar* only = nullptr;
  gboolean quick = FALSE;
  const std::string csv_help = std::string("CSV output (default ") + default_csv + ")";
  const GOptionEntry entries[] = {
      {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, csv_help.c_str(), "PATH"},
      {"quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer runs and sizes, for a smoke test", nullptr},
      {"data", 0, 0, G_OPTION_ARG_FILENAME, &data, "Directory of the test photographs (default tests/data)", "DIR"},
      {"only", 0, 0, G_OPTION_ARG_STRING, &only,
       "Time only the variants whose name contains TEXT, and only the speed tables", "TEXT"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  parse_options_or_exit(argc, argv, "", summary, entries, group);
  allow_positional_or_exit(*argc, *argv, 0);
  BenchOptions o;
  o.csv_path = take_option_string(csv, default_csv);
  o.data = take_option_string(data, o.data);
  o.only = take_option_string(only, "");
  o.quick = quick;
  return o;
}

// False, after printing a skip line, without a CUDA device (or when its properties cannot be
// read); else fills @prop (device 0).
inline bool gpu_for_bench(cudaDeviceProp* prop) {
  *prop = cudaDeviceProp{};
  if (cudagaussian::cuda_device_count() == 0 || cudaGetDeviceProperties(prop, 0) != cudaSuccess) {
    std::printf("skipped: no CUDA device\n");
    return false;
  }
  return true;
}
