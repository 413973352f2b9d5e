// SPDX-License-Identifier: LGPL-2.1-or-later
// Helpers shared by the kernel benchmarks: options, the device check, CUDA-event timing (warm-up
// first, the median reported) and CSV output.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
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
