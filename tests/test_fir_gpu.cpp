// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the separable FIR kernels against the double-precision reference of common/:
// sizes, tile heights, sigmas, channels, sample sizes, borders, exact cases, the radius limit,
// and the per-pixel kernels (fir_gpu_cases.h: how each case runs). Skips (exit 77) without a
// CUDA device.
#include "fir_gpu_cases.h"

using namespace cudagaussian;
using namespace fir_gpu;

namespace {

// Runs the cases on tensor cores with `layout` (OneKernel or Rolling) pinned, then checks that
// each ran it exactly where TensorFir says it runs on this GPU (the others fall back to the
// measured layout and are named) and that some ran it from compute capability 8.0 on.
void run_pinned_layout(const std::vector<Case>& these, TensorFir::Layout layout, const char* name) {
  std::vector<Case> cases;
  for (Case c : these) {
    c.cores = SeparableFir::Schedule::Cores::Tensor;
    c.tensor_layout = layout;
    cases.push_back(c);
  }
  run_cases(cases);
  int device = 0, optin = 0, major = 0;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  const bool rolling = layout == TensorFir::Layout::Rolling;
  int ran = 0;
  for (const Case& c : cases) {
    const bool runs = rolling ? TensorFir::rolling_runs(c.g, c.taps_x(), c.taps_y(), major, optin)
                              : TensorFir::one_kernel_runs(c.g, c.taps_x(), c.taps_y(), major, optin);
    const bool did = rolling ? c.ran_rolling : c.ran_one_kernel;
    CHECK_MSG(did == runs, "%s: %s %s, expected %s", describe(c).c_str(), name, did ? "ran" : "did not run",
              runs ? "to run" : "not to");
    if (!runs) std::printf("  not %s here: %s\n", name, describe(c).c_str());
    ran += did;
  }
  std::printf("  %d of %zu cases ran %s\n", ran, cases.size(), name);
  CHECK(major < 8 || ran > 0);
}

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
  // that end mid-tile and mid-column-block, on CUDA cores (8-bit planes of 1, 2 or 4 channels
  // otherwise run on tensor cores).
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
      c.cores = SeparableFir::Schedule::Cores::Cuda;
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

CG_TEST(radius_as_a_kernel_constant) {
  // Radii 1 to 4, the same both ways, run the fused kernel with the radius as a constant (exact
  // 2R + 1 taps): every channel count and depth, each border rule, frames smaller than a tile
  // and than the taps, odd sizes, padded pitches (odd for 8-bit planes; 16-bit ones need even
  // ones); radii that differ between the directions keep the padded kernel beside them.
  std::vector<Case> cases;
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int k = 0;
  for (double sigma : {0.25, 0.5, 0.75, 1.0})  // radius 1 to 4 at truncate 4
    for (int ch = 1; ch <= 4; ++ch)
      for (int bytes : {1, 2}) {
        const Border b = borders[k++ % 3];
        const bool wide = bytes == 2;
        cases.push_back(make(385, 289, ch, bytes, 0, sigma, sigma, b, Input::Random, wide ? 6 : 13, wide ? 2 : 5));
        cases.push_back(make(3, 2, ch, bytes, 0, sigma, sigma, b, Input::Random, wide ? 2 : 1, 0));
      }
  cases.push_back(make(1, 1, 4, 1, 0, 1.0, 1.0));
  cases.push_back(make(1921, 1081, 4, 1, 0, 0.75, 0.75, Border::Replicate, Input::Random, 0, 0));
  cases.push_back(make(64, 48, 4, 1, 0, 1.0, 1.0, Border::Replicate, Input::Constant));
  cases.push_back(make(65, 33, 1, 1, 0, 0.5, 0.5, Border::Mirror, Input::Impulse));
  cases.push_back(make(257, 99, 1, 2, 6, 0.5, 0.5, Border::Reflect, Input::Random, 4, 0));  // P010 luma
  cases.push_back(make(385, 289, 4, 1, 0, 0.5, 1.0, Border::Replicate, Input::Random, 13, 13));
  for (Case& c : cases) c.cores = SeparableFir::Schedule::Cores::Cuda;  // 8-bit radii from 2 would take tensor cores
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

CG_TEST(cuda_and_tensor_cores) {
  // The 8-bit planes of 1, 2 and 4 channels run on tensor cores from a radius of 2 (8 on small
  // frames) in one kernel (TensorFir::one_kernel_min_radius) and kMinRadius in two passes, to kMaxRadius. Both
  // kinds of kernel pinned, and both layouts on tensor cores, at every radius: the tensor cores
  // meet the same bound at small radii, at the tile edges (256 scalars, 16 rows), at their
  // largest radius and one beyond it (the CUDA cores then).
  std::vector<Case> these;
  for (int ch : {1, 2, 4}) {
    these.push_back(make(385, 289, ch, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 13));
    these.push_back(make(257, 17, ch, 1, 0, 5, 3, Border::Mirror, Input::Random, 1, 3));
    these.push_back(make(64, 16, ch, 1, 0, 10, 10, Border::Reflect, Input::Random, 0, 0));
    these.push_back(make(65, 33, ch, 1, 0, 0.5, 30, Border::Replicate, Input::Impulse, 2, 5));
  }
  these.push_back(make(300, 200, 4, 1, 0, 32, 32, Border::Mirror, Input::Random, 3, 1));        // R 128
  these.push_back(make(300, 200, 2, 1, 0, 32.25, 32.25, Border::Reflect, Input::Random, 0, 2));  // R 129
  these.push_back(make(1921, 1081, 4, 1, 0, 8, 8, Border::Replicate, Input::Random, 13, 7));
  // Two passes where each warp's products take the band block by block: two channels at the
  // largest radius, one channel beyond 12 band blocks.
  these.push_back(make(300, 200, 2, 1, 0, 32, 32, Border::Replicate, Input::Random, 1, 0));  // R 128
  these.push_back(make(300, 200, 1, 1, 0, 25, 25, Border::Mirror, Input::Random, 3, 3));     // R 100
  // Aligned rows over many tiles, the last cut by the right edge: the pixels beyond both sides
  // come from the copies in shared memory alone.
  these.push_back(make(1928, 541, 2, 1, 0, 10, 10, Border::Mirror, Input::Random, 0, 0));
  these.push_back(make(1936, 300, 1, 1, 0, 20, 20, Border::Reflect, Input::Random, 0, 0));
  using Layout = TensorFir::Layout;
  std::vector<Case> cases;
  for (auto cores : {SeparableFir::Schedule::Cores::Cuda, SeparableFir::Schedule::Cores::Tensor})
    for (Layout layout : {Layout::OneKernel, Layout::TwoPasses, Layout::Rolling})
      for (Case c : these) {
        if (cores == SeparableFir::Schedule::Cores::Cuda && layout == Layout::TwoPasses) continue;
        c.cores = cores;
        if (cores == SeparableFir::Schedule::Cores::Tensor) c.tensor_layout = layout;
        cases.push_back(c);
      }
  run_cases(cases);
}

CG_TEST(tensor_cores_in_one_kernel) {
  // The one-kernel layout pinned: tiles of 64 rows and 256 scalars (64, 128 or 256 pixels),
  // sizes that end mid-tile, mid-strip and mid-8-row tile, frames smaller than the halo, every
  // border, odd pitches and unaligned bases (staged pixel by pixel) beside aligned ones (16-byte
  // loads, whole-pixel stores), radii from 0 to the largest whose tile fits, different radii
  // each way.
  std::vector<Case> these;
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int k = 0;
  for (int ch : {1, 2, 4}) {
    for (double s : {0.25, 1.0, 2.0, 3.0, 5.0, 6.0}) {
      const Border b = borders[k++ % 3];
      these.push_back(make(385, 289, ch, 1, 0, s, s, b, Input::Random, 13, 13));
      these.push_back(make(257, 65, ch, 1, 0, s, s, b, Input::Random, 0, 0));
    }
    these.push_back(make(1, 1, ch, 1, 0, 2, 2));
    these.push_back(make(3, 2, ch, 1, 0, 5, 5, Border::Mirror, Input::Random, 1, 3));
    these.push_back(make(17, 9, ch, 1, 0, 3, 3, Border::Reflect, Input::Random, 0, 1));
    these.push_back(make(1921, 1081, ch, 1, 0, 2, 2, Border::Replicate, Input::Random, 13, 7));
    these.push_back(make(1920, 1080, ch, 1, 0, 5, 5, Border::Replicate, Input::Random, 0, 0));
    these.push_back(make(300, 130, ch, 1, 0, 0, 4, Border::Mirror, Input::Random, 3, 0));
    these.push_back(make(300, 130, ch, 1, 0, 4, 0, Border::Reflect, Input::Random, 0, 2));
    these.push_back(make(200, 100, ch, 1, 0, 1, 6, Border::Replicate, Input::Random, 0, 0));
    these.push_back(make(129, 71, ch, 1, 0, 10, 10, Border::Replicate, Input::Random, 1, 1));
    these.push_back(make(64, 48, ch, 1, 0, 3, 3, Border::Replicate, Input::Constant));
    these.push_back(make(65, 33, ch, 1, 0, 2, 2, Border::Mirror, Input::Impulse, 2, 5));
  }
  // Large frames with aligned rows (the 1921 x 1081 frames above have odd pitches): tiles cut by
  // the right and bottom edges, the pixels beyond the sides copied in shared memory by every
  // border rule.
  these.push_back(make(3856, 2161, 1, 1, 0, 2, 2, Border::Reflect, Input::Random, 0, 0));
  these.push_back(make(1928, 2161, 2, 1, 0, 5, 5, Border::Mirror, Input::Random, 0, 0));
  these.push_back(make(1924, 1081, 4, 1, 0, 3, 3, Border::Mirror, Input::Random, 0, 0));
  these.push_back(make(1924, 1081, 4, 1, 0, 1, 1, Border::Reflect, Input::Random, 0, 0));
  these.push_back(make(3840, 2160, 4, 1, 0, 2, 5, Border::Replicate, Input::Random, 0, 0));
  // Where its tile does not fit this GPU's shared memory (or below compute capability 8.0) a
  // case runs two passes.
  run_pinned_layout(these, TensorFir::Layout::OneKernel, "the one kernel");
}

CG_TEST(tensor_cores_rolling) {
  // The rolling layout pinned: blocks of 256 scalars (64, 128 or 256 pixels) down segments of
  // rows, sizes that end mid-block, mid-strip and mid-step, frames smaller than a step and than
  // the halo, every border, odd pitches and unaligned bases (staged and stored pixel by pixel)
  // beside aligned ones, vertical radii from 0 to 56 (its largest) and one beyond (then the
  // measured layout), different radii each way, frames of one segment and of many.
  std::vector<Case> these;
  const Border borders[] = {Border::Replicate, Border::Mirror, Border::Reflect};
  int k = 0;
  for (int ch : {1, 2, 4}) {
    for (double s : {0.25, 1.0, 2.0, 5.0, 8.0, 10.0, 12.0}) {
      const Border b = borders[k++ % 3];
      these.push_back(make(385, 289, ch, 1, 0, s, s, b, Input::Random, 13, 13));
      these.push_back(make(257, 65, ch, 1, 0, s, s, b, Input::Random, 0, 0));
    }
    these.push_back(make(1, 1, ch, 1, 0, 2, 2));
    these.push_back(make(3, 2, ch, 1, 0, 5, 5, Border::Mirror, Input::Random, 1, 3));
    these.push_back(make(17, 9, ch, 1, 0, 10, 10, Border::Reflect, Input::Random, 0, 1));
    these.push_back(make(1921, 1081, ch, 1, 0, 5, 5, Border::Replicate, Input::Random, 13, 7));
    these.push_back(make(1920, 1080, ch, 1, 0, 10, 10, Border::Replicate, Input::Random, 0, 0));
    these.push_back(make(300, 130, ch, 1, 0, 0, 10, Border::Mirror, Input::Random, 3, 0));
    these.push_back(make(300, 130, ch, 1, 0, 10, 0, Border::Reflect, Input::Random, 0, 2));
    these.push_back(make(200, 700, ch, 1, 0, 2, 12, Border::Replicate, Input::Random, 0, 0));
    these.push_back(make(129, 71, ch, 1, 0, 14, 14, Border::Replicate, Input::Random, 1, 1));       // R 56
    these.push_back(make(129, 71, ch, 1, 0, 14.25, 14.25, Border::Mirror, Input::Random, 0, 3));  // R 57
    these.push_back(make(64, 48, ch, 1, 0, 3, 3, Border::Replicate, Input::Constant));
    these.push_back(make(65, 33, ch, 1, 0, 2, 2, Border::Mirror, Input::Impulse, 2, 5));
  }
  run_pinned_layout(these, TensorFir::Layout::Rolling, "rolling");
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

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
