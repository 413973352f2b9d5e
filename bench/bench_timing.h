// Helpers shared by the kernel benchmarks: options, the device check, CUDA-event timing (warm-up
// first, the median reported) and CSV output.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

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

template <typename T>
double median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Median microseconds of op(frame) over `runs` runs on rotating frames, after `warmup` runs,
// timed with events on `stream`. op returns a cudagaussian::Status.
template <typename Op>
bool time_op(cudaStream_t stream, int frames, int warmup, int runs, Op op, double* us) {
  for (int i = 0; i < warmup; ++i) REPORT_FAIL(op(i % frames), "warm-up");
  std::vector<cudaEvent_t> ev(2 * runs);
  bool ok = true;
  for (cudaEvent_t& e : ev) ok = cudaEventCreate(&e) == cudaSuccess && ok;
  for (int i = 0; ok && i < runs; ++i) {
    ok = cudaEventRecord(ev[2 * i], stream) == cudaSuccess;
    const cudagaussian::Status st = op(i % frames);
    if (!st.ok()) std::fprintf(stderr, "run: %s\n", st.message.c_str());
    ok = ok && st.ok() && cudaEventRecord(ev[2 * i + 1], stream) == cudaSuccess;
  }
  ok = ok && cudaStreamSynchronize(stream) == cudaSuccess;
  std::vector<float> ms(runs);
  for (int i = 0; ok && i < runs; ++i) ok = cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]) == cudaSuccess;
  for (cudaEvent_t& e : ev) cudaEventDestroy(e);
  if (ok) *us = median(ms) * 1000.0;
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

// [--csv PATH] [--quick] [--data DIR]
struct BenchOptions {
  std::string csv_path;
  std::string data = "tests/data";
  bool quick = false;
  std::string only;  // --only TEXT: speed tables time only the variants whose name contains it
  bool wanted(const char* variant) const { return only.empty() || std::string(variant).find(only) != std::string::npos; }
};
inline BenchOptions parse_bench_options(int argc, char** argv, const char* default_csv) {
  BenchOptions o;
  o.csv_path = default_csv;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) o.csv_path = argv[++i];
    else if (a == "--data" && i + 1 < argc) o.data = argv[++i];
    else if (a == "--quick") o.quick = true;
    else if (a == "--only" && i + 1 < argc) o.only = argv[++i];
  }
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
