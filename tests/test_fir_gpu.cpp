// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the separable FIR kernels against the double-precision reference of common/
// (same taps, same border rule). Skips (exit 77) without a CUDA device.
//
// Each case: random / impulse / constant input in a padded (often odd) pitch at an unaligned
// base address, the output plane poisoned with two different byte patterns in two runs (the runs
// must agree on every sample and leave everything outside the samples untouched, so the whole
// plane was written and nothing else), and |out - round(reference)| <= 1 sample unit (0 where
// the result is exact: constant images and identity filters). The references run in parallel
// on the host's cores; the GPU runs one case at a time.

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
#include "device_memory.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "reference_blur.h"
#include "per_pixel_fir.h"
#include "separable_fir.h"

using namespace cudagaussian;

namespace {

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

  // Filled in by the run.
  size_t src_pitch = 0, dst_pitch = 0;
  std::vector<uint8_t> src;           // src_offset + src_pitch * height bytes
  std::vector<uint8_t> out_a, out_b;  // the whole destination allocation, two poisons
  std::string error;                  // GPU-side failure, or the verdict's first problem
  double max_diff = 0.0;

  std::vector<double> taps_x() const { return gaussian_taps(sigma_x, fir_radius(sigma_x, 4.0)); }
  std::vector<double> taps_y() const { return gaussian_taps(sigma_y, fir_radius(sigma_y, 4.0)); }
  // Results that must be bit exact rather than within 1 of the reference.
  bool exact() const { return input == Input::Constant || (sigma_x == 0.0 && sigma_y == 0.0); }
};

constexpr uint8_t kPoisonA = 0xA5;
constexpr uint8_t kPoisonB = 0x5A;

Case make(int w, int h, int channels, int bytes, int shift, double sx, double sy,
          Border border = Border::Replicate, Input input = Input::Random, int src_pad = 0,
          int dst_pad = 0) {
  Case c;
  c.g.width = w;
  c.g.height = h;
  c.g.channels = channels;
  c.g.bytes_per_sample = bytes;
  c.g.shift = shift;
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

const char* input_name(Input i) {
  return i == Input::Random ? "random" : i == Input::Impulse ? "impulse" : "constant";
}

std::string describe(const Case& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s%s%s C%d%s %dx%d pitch+%d/+%d sigma %g/%g (R %d/%d) %s %s",
                c.per_pixel < 0 ? "" : c.per_pixel == int(TapSource::Table) ? "per-pixel table " : "per-pixel incremental ",
                c.tile_rows ? ("tiles of " + std::to_string(c.tile_rows) + " rows ").c_str() : "",
                c.g.bytes_per_sample == 1 ? "u8" : "u16", c.g.channels,
                c.g.shift ? (" shift " + std::to_string(c.g.shift)).c_str() : "", c.g.width,
                c.g.height, c.src_pad, c.dst_pad, c.sigma_x, c.sigma_y,
                fir_radius(c.sigma_x, 4.0), fir_radius(c.sigma_y, 4.0), border_name(c.border),
                input_name(c.input));
  return buf;
}

void put_sample(const PlaneGeometry& g, uint8_t* row, int i, unsigned stored) {
  if (g.bytes_per_sample == 1) {
    row[i] = static_cast<uint8_t>(stored);
  } else {
    const uint16_t s = static_cast<uint16_t>(stored);
    std::memcpy(row + 2 * i, &s, 2);
  }
}

void make_input(Case& c) {
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
void run_gpu(Case& c, SeparableFir* preplanned = nullptr) {
  make_input(c);
  SeparableFir own;
  PerPixelFir per_pixel;
  PlaneBlur& fir = preplanned ? static_cast<PlaneBlur&>(*preplanned)
                              : c.per_pixel < 0 ? static_cast<PlaneBlur&>(own) : per_pixel;
  if (!preplanned) {
    own.force_tile_rows(c.tile_rows);
    const Status st = c.per_pixel < 0
                          ? own.plan(c.g, c.taps_x(), c.taps_y(), c.border)
                          : per_pixel.plan(c.g, c.sigma_x, fir_radius(c.sigma_x, 4.0), c.sigma_y,
                                           fir_radius(c.sigma_y, 4.0), c.border, TapSource(c.per_pixel));
    if (!st.ok()) {
      c.error = "plan: " + st.message;
      return;
    }
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
void run_gpu_batch(std::vector<Case>& cases, const SeparableFir& fir) {
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
void verify(Case& c) {
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
void run_cases(std::vector<Case>& cases) {
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

constexpr Border kBorders[] = {Border::Replicate, Border::Mirror, Border::Reflect};

}  // namespace

CG_TEST(per_pixel_table_and_incremental) {
  // The usual per-pixel formulation (algorithm=fir coefficients=incremental, and its table
  // twin): the same tolerance as the register-blocked kernel.
  std::vector<Case> cases;
  for (TapSource source : {TapSource::Table, TapSource::Incremental}) {
    const std::vector<Case> these = {
        make(1, 1, 4, 1, 0, 2, 2),
        make(3, 2, 4, 1, 0, 1, 1, Border::Mirror, Input::Random, 13, 5),
        make(385, 289, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13),
        make(385, 289, 3, 1, 0, 10, 0, Border::Reflect, Input::Random, 3, 1),
        make(385, 289, 1, 1, 0, 100, 100, Border::Replicate, Input::Random, 13, 0),
        make(1921, 1081, 4, 1, 0, 5, 5, Border::Mirror, Input::Random, 13, 7),
        make(333, 201, 2, 2, 0, 30, 30, Border::Replicate, Input::Random, 6, 2),
        make(333, 201, 1, 2, 0, 250, 250),
        make(257, 99, 1, 2, 6, 3, 7, Border::Reflect, Input::Random, 4, 0),
        make(64, 48, 4, 1, 0, 3, 3, Border::Replicate, Input::Constant),
        make(64, 48, 1, 1, 0, 3, 3, Border::Replicate, Input::Impulse),
        make(65, 33, 3, 1, 0, 0, 0, Border::Replicate, Input::Random, 5, 3),
        make(65, 33, 4, 2, 0, 0, 4, Border::Reflect, Input::Random, 2, 0),
    };
    for (Case c : these) {
      c.per_pixel = int(source);
      cases.push_back(c);
    }
  }
  run_cases(cases);
}

CG_TEST(sizes_rgba8) {
  std::vector<Case> cases = {
      make(1, 1, 4, 1, 0, 2, 2),           make(2, 3, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 5),
      make(3, 2, 4, 1, 0, 1, 1),           make(385, 289, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13),
      make(1920, 1080, 4, 1, 0, 2, 2),     make(1921, 1081, 4, 1, 0, 2, 2, Border::Mirror, Input::Random, 13, 7),
      make(1921, 1081, 4, 1, 0, 0.5, 0.5, Border::Replicate, Input::Random, 3, 0),
  };
  run_cases(cases);
}

CG_TEST(fused_tile_heights) {
  // Every fused tile height (the kernel uses 8; 16 and 32 stay for bench_fir --sizes) on sizes
  // that end mid-tile and mid-column-block.
  std::vector<Case> cases;
  for (int rows : {32, 16, 8}) {
    const std::vector<Case> these = {
        make(1, 1, 4, 1, 0, 2, 2),
        make(3, 2, 3, 1, 0, 1, 1, Border::Mirror, Input::Random, 13, 5),
        make(385, 289, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13),
        make(385, 289, 4, 1, 0, 4, 4, Border::Reflect, Input::Random, 1, 0),
        make(721, 577, 2, 1, 0, 1, 3, Border::Mirror, Input::Random, 0, 3),
        make(1921, 1081, 1, 2, 0, 3, 3, Border::Replicate, Input::Random, 6, 2),
    };
    for (Case c : these) {
      c.tile_rows = rows;
      cases.push_back(c);
    }
  }
  run_cases(cases);
}

CG_TEST(sigmas) {
  std::vector<Case> cases;
  for (double s : {0.5, 1.0, 2.0, 5.0, 10.0, 30.0})
    cases.push_back(make(385, 289, 3, 1, 0, s, s, Border::Replicate, Input::Random, 13, 1));
  cases.push_back(make(385, 289, 1, 1, 0, 100, 100, Border::Replicate, Input::Random, 13, 0));
  cases.push_back(make(1920, 1080, 1, 1, 0, 10, 10));
  cases.push_back(make(1921, 1081, 1, 1, 0, 5, 5, Border::Reflect, Input::Random, 13, 13));
  cases.push_back(make(640, 360, 4, 1, 0, 30, 30, Border::Mirror, Input::Random, 13, 2));
  run_cases(cases);
}

CG_TEST(channels_u8) {
  std::vector<Case> cases;
  for (int ch = 1; ch <= 4; ++ch) {
    cases.push_back(make(385, 289, ch, 1, 0, 1, 1, Border::Replicate, Input::Random, 13, 13));
    cases.push_back(make(385, 289, ch, 1, 0, 5, 5, Border::Mirror, Input::Random, 0, 1));
    cases.push_back(make(300, 7, ch, 1, 0, 10, 0.5, Border::Reflect, Input::Random, 1, 0));
  }
  run_cases(cases);
}

CG_TEST(u16) {
  std::vector<Case> cases;
  for (int ch = 1; ch <= 2; ++ch) {
    cases.push_back(make(385, 289, ch, 2, 0, 2, 2, Border::Replicate, Input::Random, 6, 26));
    cases.push_back(make(385, 289, ch, 2, 0, 10, 10, Border::Reflect));
    cases.push_back(make(3, 2, ch, 2, 0, 5, 5, Border::Mirror, Input::Random, 2, 2));
  }
  cases.push_back(make(1921, 1081, 1, 2, 0, 2, 2, Border::Replicate, Input::Random, 6, 2));
  cases.push_back(make(385, 289, 4, 2, 0, 1, 3));  // 16-bit RGBA: not a format yet, but allowed
  run_cases(cases);
}

CG_TEST(p010) {
  // P010: luma C=1 and interleaved chroma C=2, 10 bits in the high bits (shift 6).
  std::vector<Case> cases = {
      make(1920, 1080, 1, 2, 6, 2, 2, Border::Replicate, Input::Random, 0, 0),
      make(960, 540, 2, 2, 6, 1, 1, Border::Replicate, Input::Random, 0, 0),
      make(193, 145, 2, 2, 6, 2.5, 2.5, Border::Mirror, Input::Random, 6, 10),
      make(385, 289, 2, 2, 6, 5, 5, Border::Reflect, Input::Random, 2, 6),
      make(17, 9, 2, 2, 6, 30, 30, Border::Mirror, Input::Random, 2, 2),
  };
  run_cases(cases);
}

CG_TEST(anisotropic) {
  std::vector<Case> cases = {
      make(385, 289, 4, 1, 0, 5, 1, Border::Replicate, Input::Random, 13, 0),
      make(385, 289, 4, 1, 0, 1, 10, Border::Mirror, Input::Random, 0, 13),
      make(385, 289, 3, 1, 0, 3, 0, Border::Reflect, Input::Random, 13, 13),
      make(385, 289, 1, 1, 0, 0, 4, Border::Replicate, Input::Random, 1, 1),
      make(385, 289, 2, 2, 6, 7, 0, Border::Mirror, Input::Random, 2, 2),
      make(385, 289, 4, 1, 0, 0, 0, Border::Replicate, Input::Random, 13, 1),  // identity: exact
      make(97, 61, 2, 2, 0, 0, 0, Border::Reflect, Input::Random, 2, 0),       // identity: exact
  };
  run_cases(cases);
}

CG_TEST(borders_radius_beyond_size) {
  std::vector<Case> cases;
  int ch = 1;
  for (Border b : kBorders) {
    for (auto wh : {std::pair<int, int>{1, 1}, {2, 3}, {3, 2}, {5, 4}, {17, 9}}) {
      for (double s : {2.0, 5.0, 30.0}) {
        cases.push_back(make(wh.first, wh.second, ch, 1, 0, s, s, b, Input::Random, ch, 0));
        ch = ch % 4 + 1;
      }
    }
    cases.push_back(make(385, 289, 2, 1, 0, 10, 10, b, Input::Random, 13, 13));
    cases.push_back(make(2, 400, 1, 2, 0, 3, 50, b, Input::Random, 2, 0));
    cases.push_back(make(400, 2, 3, 1, 0, 50, 3, b, Input::Random, 1, 0));
  }
  run_cases(cases);
}

CG_TEST(impulse) {
  std::vector<Case> cases;
  for (Border b : kBorders) {
    for (double s : {1.0, 5.0, 30.0}) {
      cases.push_back(make(101, 77, 1, 1, 0, s, s, b, Input::Impulse, 13, 0));
      cases.push_back(make(101, 77, 2, 2, 6, s, s, b, Input::Impulse, 2, 2));
    }
    cases.push_back(make(64, 48, 4, 1, 0, 2, 7, b, Input::Impulse, 0, 13));
  }
  run_cases(cases);
}

CG_TEST(constant_exact) {
  std::vector<Case> cases;
  for (Border b : kBorders) {
    cases.push_back(make(385, 289, 4, 1, 0, 2, 2, b, Input::Constant, 13, 13));
    cases.push_back(make(385, 289, 3, 1, 0, 30, 30, b, Input::Constant, 0, 1));
    cases.push_back(make(385, 289, 1, 2, 0, 10, 10, b, Input::Constant, 2, 0));
    cases.push_back(make(200, 150, 1, 2, 0, 100, 100, b, Input::Constant, 0, 2));
    cases.push_back(make(385, 289, 2, 2, 6, 5, 5, b, Input::Constant, 2, 2));
    cases.push_back(make(3, 2, 4, 1, 0, 30, 1, b, Input::Constant, 1, 1));
  }
  cases.push_back(make(1921, 1081, 3, 1, 0, 5, 5, Border::Replicate, Input::Constant, 13, 13));
  run_cases(cases);
}

CG_TEST(max_radius) {
  // sigma 384 x truncate 4 = kMaxRadius: the largest horizontal tile (52 KB of shared memory).
  const double s = SeparableFir::kMaxRadius / 4.0;
  std::vector<Case> cases = {
      make(40, 30, 4, 1, 0, s, s, Border::Replicate, Input::Random, 13, 0),
      make(300, 20, 4, 2, 0, s, 2, Border::Mirror, Input::Random, 2, 2),
      make(20, 300, 2, 2, 6, 2, s, Border::Reflect, Input::Random, 0, 0),
      make(7, 5, 3, 1, 0, s, s, Border::Mirror, Input::Impulse, 1, 1),
      make(64, 64, 4, 1, 0, s, s, Border::Reflect, Input::Constant, 13, 13),
  };
  run_cases(cases);
}

CG_TEST(tall_and_wide) {
  std::vector<Case> cases = {
      make(3, 70000, 1, 1, 0, 1, 1, Border::Replicate, Input::Random, 13, 0),  // > 65535 rows
      make(7680, 4, 2, 1, 0, 5, 1, Border::Mirror, Input::Random, 1, 1),        // 8K wide
      make(4096, 3, 4, 2, 0, 2, 2, Border::Reflect, Input::Random, 2, 0),
  };
  run_cases(cases);
}

CG_TEST(plans_do_not_interfere) {
  // A small-radius plan made after a large one must not lower the large one's shared-memory
  // allowance, and two instances must be able to run back to back on different streams.
  std::vector<Case> cases = {
      make(50, 40, 4, 1, 0, SeparableFir::kMaxRadius / 4.0, 3, Border::Replicate, Input::Random, 13, 0),
      make(385, 289, 4, 1, 0, 1, 1, Border::Mirror, Input::Random, 0, 13),
  };
  SeparableFir big, small;
  CHECK(big.plan(cases[0].g, cases[0].taps_x(), cases[0].taps_y(), cases[0].border).ok());
  CHECK(small.plan(cases[1].g, cases[1].taps_x(), cases[1].taps_y(), cases[1].border).ok());
  run_gpu(cases[0], &big);
  run_gpu(cases[1], &small);
  for (Case& c : cases) verify(c);
  for (const Case& c : cases) CHECK_MSG(c.error.empty(), "%s: %s", describe(c).c_str(), c.error.c_str());
}

CG_TEST(batched_frames) {
  // Several frames per call, as the element's batches run: fused launches of up to
  // kMaxBatchFrames frames (11 frames: two launches), frames whose pitch differs from the first
  // one's (launched apart), destinations of different alignments in one launch, and the
  // two-pass schedule (radius > 16), one frame after another. Each frame has its own content.
  struct Batch {
    Case base;
    int frames;
    bool mixed_pitches;
  };
  const Batch batches[] = {
      {make(385, 289, 4, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13), 11, false},
      {make(720, 576, 4, 1, 0, 2, 2), 4, false},
      {make(721, 577, 1, 1, 0, 3, 1, Border::Mirror, Input::Random, 1, 3), 5, true},
      {make(1, 1, 4, 1, 0, 2, 2), 3, false},
      {make(3, 2, 2, 2, 0, 1, 1, Border::Reflect, Input::Random, 2, 2), 8, true},
      {make(257, 99, 1, 2, 6, 3, 3, Border::Replicate, Input::Random, 4, 2), 3, false},
      {make(385, 289, 3, 1, 0, 10, 10, Border::Replicate, Input::Random, 13, 1), 3, true},
      {make(1921, 1081, 4, 1, 0, 1, 1, Border::Replicate, Input::Random, 0, 7), 2, false},
  };
  uint32_t seed = 5000;
  for (const Batch& b : batches) {
    std::vector<Case> cases;
    for (int f = 0; f < b.frames; ++f) {
      Case c = b.base;
      c.seed = seed += 7919;
      if (b.mixed_pitches && f % 2) c.dst_pad += 4;
      if (c.g.bytes_per_sample == 1) c.dst_offset = f % 4;  // 4-, 1- and 2-byte aligned rows
      cases.push_back(c);
    }
    SeparableFir fir;
    const Case& c0 = cases[0];
    CHECK(fir.plan(c0.g, c0.taps_x(), c0.taps_y(), c0.border).ok());
    run_gpu_batch(cases, fir);
    for (Case& c : cases) verify(c);
    for (size_t f = 0; f < cases.size(); ++f) {
      const Case& c = cases[f];
      std::printf("  %s frame %zu of %d: %s, dst offset %d, max diff %g\n",
                  c.error.empty() ? "ok  " : "FAIL", f, b.frames, describe(c).c_str(),
                  c.dst_offset, c.max_diff);
      CHECK_MSG(c.error.empty(), "batch frame %zu, %s: %s", f, describe(c).c_str(), c.error.c_str());
    }
    std::fflush(stdout);
  }
}

CG_TEST(refuses_invalid_arguments) {
  PlaneGeometry g;
  g.width = 64;
  g.height = 32;
  g.channels = 4;
  const std::vector<double> t = gaussian_taps(2.0, 8);
  SeparableFir fir;

  PlaneGeometry bad = g;
  bad.width = 0;
  CHECK(!fir.plan(bad, t, t, Border::Replicate).ok());
  bad = g;
  bad.channels = 5;
  CHECK(!fir.plan(bad, t, t, Border::Replicate).ok());
  CHECK(!fir.plan(g, {}, t, Border::Replicate).ok());
  CHECK(!fir.plan(g, t, {0.5, 0.5}, Border::Replicate).ok());
  const std::vector<double> too_long(2 * SeparableFir::kMaxRadius + 3, 1.0 / (2 * SeparableFir::kMaxRadius + 3));
  const Status st = fir.plan(g, too_long, t, Border::Replicate);
  CHECK(!st.ok() && st.cuda == cudaSuccess);
  std::printf("  radius %d refused: %s\n", SeparableFir::kMaxRadius + 1, st.message.c_str());

  DeviceBuffer a, b;
  CHECK(a.reserve(g.row_bytes() * g.height).ok() && b.reserve(g.row_bytes() * g.height).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());  // not planned
  fir.force_tile_rows(12);
  CHECK(!fir.plan(g, t, t, Border::Replicate).ok());
  fir.force_tile_rows(0);
  CHECK(fir.plan(g, t, t, Border::Replicate).ok());
  CHECK(!fir.run(nullptr, g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), nullptr, g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes() - 1, b.get(), g.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes() - 4, nullptr).ok());
  CHECK(!fir.run(a.get(), g.row_bytes(), a.get(), g.row_bytes(), nullptr).ok());  // in place
  CHECK(fir.run(a.get(), g.row_bytes(), b.get(), g.row_bytes(), nullptr).ok());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  PlaneGeometry g16 = g;
  g16.bytes_per_sample = 2;
  CHECK(fir.plan(g16, t, t, Border::Replicate).ok());
  CHECK(!fir.run(static_cast<uint8_t*>(a.get()) + 1, g16.row_bytes(), b.get(), g16.row_bytes(), nullptr).ok());
  CHECK(!fir.run(a.get(), g16.row_bytes() + 1, b.get(), g16.row_bytes() + 1, nullptr).ok());

  // FrameBlur refuses an FIR radius above the limit before touching the GPU.
  BlurSettings s;
  s.algorithm = Algorithm::Fir;
  s.sigma_x = s.sigma_y = 400.0;  // R = 1600
  PlaneSpec p;
  p.geometry = g;
  FrameBlur blur;
  const Status fb = blur.plan(s, {p});
  CHECK(!fb.ok() && !blur.planned());
  std::printf("  FrameBlur sigma 400: %s\n", fb.message.c_str());
  s.sigma_x = s.sigma_y = SeparableFir::kMaxRadius / 4.0;
  CHECK(blur.plan(s, {p}).ok());

  // algorithm=auto: the FIR up to radius 32 and with non-replicate borders, Deriche beyond.
  s.algorithm = Algorithm::Auto;
  s.sigma_x = s.sigma_y = 8.0;  // R = 32
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Fir);
  s.sigma_x = 8.25;
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Deriche);
  s.sigma_x = s.sigma_y = 400.0;
  CHECK(blur.plan(s, {p}).ok() && blur.chosen() == Algorithm::Deriche);
  s.border = Border::Mirror;
  CHECK(FrameBlur::resolve(s, {p}) == Algorithm::Fir);
  CHECK(!blur.plan(s, {p}).ok());  // FIR radius 1600: refused, with the advice to use replicate
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
