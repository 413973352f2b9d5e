// SPDX-License-Identifier: LGPL-2.1-or-later
// The cases of the separable FIR's GPU tests (test_fir_gpu.cpp, test_fir_plans_gpu.cpp) and how
// they run: against the double-precision reference of common/ (same taps, same border rule).
//
// Each case: random / impulse / constant input in a padded (often odd) pitch at an unaligned
// base address, the output plane poisoned with two different byte patterns in two runs (the runs
// must agree on every sample and leave everything outside the samples untouched, so the whole
// plane was written and nothing else), and |out - round(reference)| <= 1 sample unit (0 where
// the result is exact: constant images and identity filters). The references run in parallel
// on the host's cores; the GPU runs one case at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "check.h"
#include "plane_helpers.h"
#include "device_memory.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "reference_blur.h"
#include "per_pixel_fir.h"
#include "separable_fir.h"

namespace fir_gpu {

using namespace cudagaussian;

enum class Input { Random, Impulse, Constant };

struct Case {
  // What to run.
  PlaneGeometry g;
  double sigma_x = 2.0, sigma_y = 2.0;
  Border border = Border::Replicate;
  Input input = Input::Random;
  uint32_t seed = 1;
  int src_pad = 0, dst_pad = 0;        // bytes after each row
  int src_offset = 0, dst_offset = 0;  // bytes from the allocation's start
  int per_pixel = -1;  // -1: SeparableFir; else the TapSource of a PerPixelFir
  int tile_rows = 0;   // SeparableFir's fused tile height; 0: its own choice
  // SeparableFir's cores: its own choice, or pinned to the CUDA cores or (where they apply) the
  // tensor cores.
  SeparableFir::Schedule::Cores cores = SeparableFir::Schedule::Cores::Measured;
  TensorFir::Layout tensor_layout = TensorFir::Layout::Measured;  // on tensor cores

  // Filled in by the run.
  size_t src_pitch = 0, dst_pitch = 0;
  std::vector<uint8_t> src;           // src_offset + src_pitch * height bytes
  std::vector<uint8_t> out_a, out_b;  // the whole destination allocation, two poisons
  bool ran_one_kernel = false;        // SeparableFir ran the tensor cores' one kernel
  bool ran_rolling = false;           // or their rolling layout
  std::string error;                  // GPU-side failure, or the verdict's first problem
  double max_diff = 0.0;

  std::vector<double> taps_x() const { return gaussian_taps(sigma_x, fir_radius(sigma_x, 4.0)); }
  std::vector<double> taps_y() const { return gaussian_taps(sigma_y, fir_radius(sigma_y, 4.0)); }
  // Results that must be bit exact rather than within 1 of the reference.
  bool exact() const { return input == Input::Constant || (sigma_x == 0.0 && sigma_y == 0.0); }
};

inline constexpr uint8_t kPoisonA = 0xA5;
inline constexpr uint8_t kPoisonB = 0x5A;

inline Case make(int w, int h, int channels, int bytes, int shift, double sx, double sy,
          Border border = Border::Replicate, Input input = Input::Random, int src_pad = 0,
          int dst_pad = 0) {
  Case c;
  c.g = cgtest::geometry(w, h, channels, bytes, shift);
  c.sigma_x = sx;
  c.sigma_y = sy;
  c.border = border;
  c.input = input;
  c.src_pad = src_pad;
  c.dst_pad = dst_pad;
  // Padded 8-bit planes also start at odd addresses; 16-bit ones at 2 mod 4.
  c.src_offset = src_pad ? (bytes == 1 ? 1 : 2) : 0;
  c.dst_offset = dst_pad ? (bytes == 1 ? 3 : 6) : 0;
  return c;
}

inline const char* input_name(Input i) {
  return i == Input::Random ? "random" : i == Input::Impulse ? "impulse" : "constant";
}

inline std::string describe(const Case& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s%s%s%s%s C%d%s %dx%d pitch+%d/+%d sigma %g/%g (R %d/%d) %s %s",
                c.per_pixel < 0 ? "" : c.per_pixel == int(TapSource::Table) ? "per-pixel table " : "per-pixel incremental ",
                c.cores == SeparableFir::Schedule::Cores::Cuda     ? "CUDA cores "
                : c.cores == SeparableFir::Schedule::Cores::Tensor ? "tensor cores "
                                                                   : "",
                c.tensor_layout == TensorFir::Layout::OneKernel   ? "one kernel "
                : c.tensor_layout == TensorFir::Layout::TwoPasses ? "two passes "
                : c.tensor_layout == TensorFir::Layout::Rolling   ? "rolling "
                                                                  : "",
                c.tile_rows ? ("tiles of " + std::to_string(c.tile_rows) + " rows ").c_str() : "",
                c.g.bytes_per_sample == 1 ? "u8" : "u16", c.g.channels,
                c.g.shift ? (" shift " + std::to_string(c.g.shift)).c_str() : "", c.g.width,
                c.g.height, c.src_pad, c.dst_pad, c.sigma_x, c.sigma_y,
                fir_radius(c.sigma_x, 4.0), fir_radius(c.sigma_y, 4.0), border_name(c.border),
                input_name(c.input));
  return buf;
}

inline void put_sample(const PlaneGeometry& g, uint8_t* row, int i, unsigned stored) {
  if (g.bytes_per_sample == 1) {
    row[i] = static_cast<uint8_t>(stored);
  } else {
    const uint16_t s = static_cast<uint16_t>(stored);
    std::memcpy(row + 2 * i, &s, 2);
  }
}

inline void make_input(Case& c) {
  const PlaneGeometry& g = c.g;
  c.src_pitch = g.row_bytes() + c.src_pad;
  c.dst_pitch = g.row_bytes() + c.dst_pad;
  std::mt19937 rng(c.seed);
  c.src.resize(c.src_offset + c.src_pitch * g.height);
  for (uint8_t& b : c.src) b = static_cast<uint8_t>(rng());  // padding stays garbage
  const unsigned max_value = static_cast<unsigned>(g.max_value());
  const unsigned low_mask = (1u << g.shift) - 1;  // P010's unused low bits: must be ignored
  const int n = g.samples_per_row();
  for (int y = 0; y < g.height; ++y) {
    uint8_t* row = c.src.data() + c.src_offset + y * c.src_pitch;
    for (int i = 0; i < n; ++i) {
      const int x = i / g.channels, ch = i % g.channels;
      unsigned v = 0;
      switch (c.input) {
        case Input::Random:
          v = static_cast<unsigned>(rng() % (max_value + 1));
          break;
        case Input::Impulse:
          // One full-scale pixel in the middle, one channel-0 pixel in the bottom-left corner
          // (its blur meets two borders).
          v = ((x == g.width / 2 && y == g.height / 2) || (x == 0 && y == g.height - 1 && ch == 0))
                  ? max_value : 0;
          break;
        case Input::Constant: {
          static const double level[4] = {0.68, 0.2, 1.0, 0.0};
          v = static_cast<unsigned>(std::lround(level[ch] * max_value));
          break;
        }
      }
      put_sample(g, row, i, (v << g.shift) | (static_cast<unsigned>(rng()) & low_mask));
    }
  }
}

#define CUDA_OR_FAIL(call)                                                                \
  do {                                                                                    \
    const cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                              \
      c.error = std::string(#call) + ": " + cudaGetErrorString(e_);                       \
      return;                                                                             \
    }                                                                                     \
  } while (0)

// Runs the case on the GPU twice (two poisons), with the filter planned here unless `preplanned`.
inline void run_gpu(Case& c, SeparableFir* preplanned = nullptr) {
  make_input(c);
  SeparableFir own;
  PerPixelFir per_pixel;
  PlaneBlur& fir = preplanned ? static_cast<PlaneBlur&>(*preplanned)
                              : c.per_pixel < 0 ? static_cast<PlaneBlur&>(own) : per_pixel;
  if (!preplanned) {
    SeparableFir::Schedule schedule;
    schedule.tile_rows = c.tile_rows;
    schedule.cores = c.cores;
    schedule.tensor_layout = c.tensor_layout;
    const Status st = c.per_pixel < 0
                          ? own.plan(c.g, c.taps_x(), c.taps_y(), c.border, schedule)
                          : per_pixel.plan(c.g, c.sigma_x, fir_radius(c.sigma_x, 4.0), c.sigma_y,
                                           fir_radius(c.sigma_y, 4.0), c.border, TapSource(c.per_pixel));
    if (!st.ok()) {
      c.error = "plan: " + st.message;
      return;
    }
    c.ran_one_kernel = c.per_pixel < 0 && own.runs_tensor_one_kernel();
    c.ran_rolling = c.per_pixel < 0 && own.runs_tensor_rolling();
  }
  CudaStream stream;
  if (!stream.create().ok()) {
    c.error = "stream creation failed";
    return;
  }
  const size_t src_bytes = c.src.size();
  const size_t dst_bytes = c.dst_offset + c.dst_pitch * c.g.height;
  DeviceBuffer d_src, d_dst;
  if (!d_src.reserve(src_bytes).ok() || !d_dst.reserve(dst_bytes).ok()) {
    c.error = "device allocation failed";
    return;
  }
  CUDA_OR_FAIL(cudaMemcpyAsync(d_src.get(), c.src.data(), src_bytes, cudaMemcpyHostToDevice,
                               stream.get()));
  const void* src = static_cast<const uint8_t*>(d_src.get()) + c.src_offset;
  void* dst = static_cast<uint8_t*>(d_dst.get()) + c.dst_offset;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<uint8_t>& out = pass == 0 ? c.out_a : c.out_b;
    CUDA_OR_FAIL(cudaMemsetAsync(d_dst.get(), pass == 0 ? kPoisonA : kPoisonB, dst_bytes,
                                 stream.get()));
    const Status st = fir.run(src, c.src_pitch, dst, c.dst_pitch, stream.get());
    if (!st.ok()) {
      c.error = "run: " + st.message;
      return;
    }
    out.resize(dst_bytes);
    CUDA_OR_FAIL(cudaMemcpyAsync(out.data(), d_dst.get(), dst_bytes, cudaMemcpyDeviceToHost,
                                 stream.get()));
    CUDA_OR_FAIL(cudaStreamSynchronize(stream.get()));
  }
}

// Runs `cases` (one geometry, taps and border; pads and offsets may differ) as the frames of
// one run_batch() call on `fir`, twice with two poisons, as run_gpu does for one.
inline void run_gpu_batch(std::vector<Case>& cases, const SeparableFir& fir) {
  auto fail_all = [&](const std::string& why) {
    for (Case& c : cases) c.error = why;
  };
  CudaStream stream;
  if (!stream.create().ok()) return fail_all("stream creation failed");
  const size_t n = cases.size();
  std::vector<DeviceBuffer> d_src(n), d_dst(n);
  std::vector<PlanePair> frames;
  for (size_t i = 0; i < n; ++i) {
    Case& c = cases[i];
    make_input(c);
    const size_t dst_bytes = c.dst_offset + c.dst_pitch * c.g.height;
    if (!d_src[i].reserve(c.src.size()).ok() || !d_dst[i].reserve(dst_bytes).ok())
      return fail_all("device allocation failed");
    if (cudaMemcpyAsync(d_src[i].get(), c.src.data(), c.src.size(), cudaMemcpyHostToDevice,
                        stream.get()) != cudaSuccess)
      return fail_all("upload failed");
    frames.push_back({static_cast<const uint8_t*>(d_src[i].get()) + c.src_offset, c.src_pitch,
                      static_cast<uint8_t*>(d_dst[i].get()) + c.dst_offset, c.dst_pitch});
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i)
      if (cudaMemsetAsync(d_dst[i].get(), pass == 0 ? kPoisonA : kPoisonB,
                          cases[i].dst_offset + cases[i].dst_pitch * cases[i].g.height,
                          stream.get()) != cudaSuccess)
        return fail_all("poisoning failed");
    const Status st = fir.run_batch(frames.data(), static_cast<int>(n), stream.get());
    if (!st.ok()) return fail_all("run_batch: " + st.message);
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint8_t>& out = pass == 0 ? cases[i].out_a : cases[i].out_b;
      out.resize(cases[i].dst_offset + cases[i].dst_pitch * cases[i].g.height);
      if (cudaMemcpyAsync(out.data(), d_dst[i].get(), out.size(), cudaMemcpyDeviceToHost,
                          stream.get()) != cudaSuccess)
        return fail_all("download failed");
    }
    if (cudaStreamSynchronize(stream.get()) != cudaSuccess) return fail_all("run failed");
  }
}

// Host side of a case: coverage of the output, then the pixels against the reference.
inline void verify(Case& c) {
  if (!c.error.empty()) return;
  const PlaneGeometry& g = c.g;
  const size_t row_bytes = g.row_bytes();
  for (size_t i = 0; i < c.out_a.size(); ++i) {
    const bool inside = i >= size_t(c.dst_offset) && (i - c.dst_offset) % c.dst_pitch < row_bytes;
    const bool ok = inside ? c.out_a[i] == c.out_b[i]
                           : (c.out_a[i] == kPoisonA && c.out_b[i] == kPoisonB);
    if (!ok) {
      const size_t r = (i - std::min(i, size_t(c.dst_offset))) / c.dst_pitch;
      c.error = std::string(inside ? "a sample was not written" : "a byte outside the plane was written") +
                " (allocation byte " + std::to_string(i) + ", row " + std::to_string(r) + ")";
      return;
    }
  }

  const PlaneValues in = read_plane(g, c.src.data() + c.src_offset, c.src_pitch);
  const PlaneValues out = read_plane(g, c.out_a.data() + c.dst_offset, c.dst_pitch);
  // Constant images must come back unchanged, which is also what the reference gives.
  const PlaneValues ref = c.input == Input::Constant
                              ? in : reference_fir(g, in, c.taps_x(), c.taps_y(), c.border);
  const double tol = c.exact() ? 0.0 : 1.0;
  const double max_value = g.max_value();
  const int n = g.samples_per_row();
  long bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double expected = std::clamp(std::floor(ref[i] + 0.5), 0.0, max_value);
    const double d = std::fabs(out[i] - expected);
    c.max_diff = std::max(c.max_diff, d);
    if (d > tol && bad++ == 0) {
      const int y = static_cast<int>(i / n), s = static_cast<int>(i % n);
      char buf[160];
      std::snprintf(buf, sizeof buf, "at x %d y %d ch %d: got %g, reference %.4f", s / g.channels,
                    y, s % g.channels, out[i], ref[i]);
      c.error = buf;
    }
  }
  if (bad) c.error = std::to_string(bad) + " samples off by more than " + std::to_string(int(tol)) +
                     ", first " + c.error;
  if (g.shift && c.error.empty()) {
    const unsigned low_mask = (1u << g.shift) - 1;
    for (int y = 0; y < g.height && c.error.empty(); ++y)
      for (int i = 0; i < n; ++i) {
        uint16_t s;
        std::memcpy(&s, c.out_a.data() + c.dst_offset + y * c.dst_pitch + 2 * i, 2);
        if (s & low_mask) {
          c.error = "unused low bits set in row " + std::to_string(y);
          break;
        }
      }
  }
}

// Runs every case on the GPU, verifies them on all host cores, prints one line per case.
inline void run_cases(std::vector<Case>& cases) {
  uint32_t seed = 1000;
  for (Case& c : cases) {
    c.seed += seed;
    seed += 7919;
  }
  for (Case& c : cases) run_gpu(c);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < cases.size();) verify(cases[i]);
  };
  const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  for (const Case& c : cases) {
    std::printf("  %s %s, max diff %g\n", c.error.empty() ? "ok  " : "FAIL", describe(c).c_str(),
                c.max_diff);
    CHECK_MSG(c.error.empty(), "%s: %s", describe(c).c_str(), c.error.c_str());
    std::fflush(stdout);
  }
}

inline constexpr Border kBorders[] = {Border::Replicate, Border::Mirror, Border::Reflect};

}  // namespace fir_gpu
