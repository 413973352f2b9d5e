// SPDX-License-Identifier: LGPL-2.1-or-later
// GPU test of the Sobel kernel (kernels/sobel.h) against the double reference of
// common/reference_sobel.h. Skips (exit 77) without a CUDA device.
//
// Each case: every input layout (GRAY8, RGB, BGR, RGBA/RGBx, BGRA/BGRx, ARGB-like), sizes from
// 1x1 to 1921x1081, tight and padded pitches at unaligned (odd) base addresses, random and smooth
// input, magnitude at several scales and direction, 8- and 16-bit output. The output allocation
// is poisoned with two byte patterns in two runs: both runs must agree on every sample and leave
// every byte outside the samples alone. Magnitude at scale 1 and 0.25 must match the reference
// exactly (integer gradients, correctly rounded float sqrt); other scales and the direction
// within 1 LSB (direction codes compared on the circle: 255 and 0 are neighbours).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "check.h"
#include "device_memory.h"
#include "reference_sobel.h"
#include "sobel.h"

using namespace cudagaussian;

namespace {

enum class Input { Random, Smooth, Blocks };

struct Layout {
  const char* name;
  SobelLayout layout;
};

const Layout kLayouts[] = {
    {"GRAY8", SobelLayout{1, 0, 0, 0}},      {"RGB", SobelLayout{3, 0, 1, 2}},
    {"BGR", SobelLayout{3, 2, 1, 0}},        {"RGBA/RGBx", SobelLayout{4, 0, 1, 2}},
    {"BGRA/BGRx", SobelLayout{4, 2, 1, 0}},  {"ARGB", SobelLayout{4, 1, 2, 3}},
};

struct Output {
  SobelOutput output;
  double scale;
  int bytes;
  bool exact;  // must equal the reference bit for bit
};

const Output kOutputs[] = {
    {SobelOutput::Magnitude, 1.0, 1, true},   {SobelOutput::Magnitude, 1.0, 2, true},
    {SobelOutput::Magnitude, 0.25, 1, true},  {SobelOutput::Magnitude, 0.37, 1, false},
    {SobelOutput::Magnitude, 57.0, 2, false}, {SobelOutput::Direction, 1.0, 1, false},
    {SobelOutput::Direction, 1.0, 2, false},
};

struct Case {
  int width = 0, height = 0;
  Layout layout;
  Output out;
  Input input = Input::Random;
  int src_pad = 0, dst_pad = 0;        // bytes after each row (dst_pad even for 16-bit)
  int src_offset = 0, dst_offset = 0;  // bytes from the allocation's start
  uint32_t seed = 1;
};

constexpr uint8_t kPoisonA = 0xA5;
constexpr uint8_t kPoisonB = 0x5A;

std::string describe(const Case& c) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s %dx%d pitch+%d/+%d %s %s scale %g %s-bit", c.layout.name,
                c.width, c.height, c.src_pad, c.dst_pad,
                c.input == Input::Random ? "random" : c.input == Input::Smooth ? "smooth" : "blocks",
                sobel_output_name(c.out.output), c.out.scale, c.out.bytes == 1 ? "8" : "16");
  return buf;
}

std::vector<uint8_t> make_input(const Case& c, size_t pitch) {
  std::mt19937 rng(c.seed);
  std::vector<uint8_t> src(c.src_offset + pitch * c.height);
  for (uint8_t& b : src) b = static_cast<uint8_t>(rng());  // padding stays garbage
  const int ch = c.layout.layout.channels;
  for (int y = 0; y < c.height; ++y) {
    uint8_t* row = src.data() + c.src_offset + y * pitch;
    for (int x = 0; x < c.width; ++x)
      for (int k = 0; k < ch; ++k) {
        int v = 0;
        switch (c.input) {
          case Input::Random: v = static_cast<int>(rng() & 0xff); break;
          case Input::Smooth:
            v = static_cast<int>(std::lround(128 + 100 * std::sin(x / (7.0 + k)) *
                                                       std::cos(y / (5.0 + k))));
            break;
          case Input::Blocks: v = (((x / 5) + (y / 3) + k) % 3 == 0) ? 255 : 0; break;
        }
        row[x * ch + k] = static_cast<uint8_t>(v);
      }
  }
  return src;
}

// Runs one case; returns an empty string when it passes, else what went wrong.
std::string run_case(const Case& c, int* max_diff, long* off_by_one) {
  const int ch = c.layout.layout.channels, ob = c.out.bytes;
  const size_t src_pitch = static_cast<size_t>(c.width) * ch + c.src_pad;
  const size_t dst_pitch = static_cast<size_t>(c.width) * ob + c.dst_pad;
  const std::vector<uint8_t> src = make_input(c, src_pitch);
  const size_t dst_bytes = c.dst_offset + dst_pitch * c.height;

  DeviceBuffer d_src, d_dst;
  CudaStream stream;
  if (!stream.create().ok() || !d_src.reserve(src.size()).ok() || !d_dst.reserve(dst_bytes).ok())
    return "allocation failed";
  // On the kernel's stream: a plain cudaMemcpy from pageable memory may return before its DMA
  // has finished, and a non-blocking stream would not wait for it.
  if (cudaMemcpyAsync(d_src.get(), src.data(), src.size(), cudaMemcpyHostToDevice, stream.get()) !=
      cudaSuccess)
    return "upload failed";

  SobelPlane in;
  in.data = static_cast<const uint8_t*>(d_src.get()) + c.src_offset;
  in.pitch = src_pitch;
  in.width = c.width;
  in.height = c.height;
  in.layout = c.layout.layout;
  SobelTarget out;
  out.data = static_cast<uint8_t*>(d_dst.get()) + c.dst_offset;
  out.pitch = dst_pitch;
  out.bytes_per_sample = ob;
  const SobelSettings settings{c.out.output, c.out.scale};

  std::vector<uint8_t> got[2];
  for (int pass = 0; pass < 2; ++pass) {
    // On the kernel's stream: it is non-blocking, so a legacy-stream memset would race it.
    if (cudaMemsetAsync(d_dst.get(), pass == 0 ? kPoisonA : kPoisonB, dst_bytes, stream.get()) != cudaSuccess)
      return "memset failed";
    const Status st = sobel(in, out, settings, stream.get());
    if (!st.ok()) return "sobel: " + st.message;
    if (!stream.synchronize().ok()) return "kernel failed";
    got[pass].resize(dst_bytes);
    if (cudaMemcpy(got[pass].data(), d_dst.get(), dst_bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
      return "download failed";
  }

  const size_t row_bytes = static_cast<size_t>(c.width) * ob;
  for (size_t i = 0; i < dst_bytes; ++i) {
    const bool inside = i >= size_t(c.dst_offset) && (i - c.dst_offset) % dst_pitch < row_bytes;
    const bool ok = inside ? got[0][i] == got[1][i]
                           : (got[0][i] == kPoisonA && got[1][i] == kPoisonB);
    if (!ok)
      return std::string(inside ? "a sample was not written" : "a byte outside the plane was written") +
             " (byte " + std::to_string(i) + ")";
  }

  SobelImage img;
  img.data = src.data() + c.src_offset;
  img.pitch = src_pitch;
  img.width = c.width;
  img.height = c.height;
  img.layout = c.layout.layout;
  const std::vector<double> values = reference_sobel_values(img, settings, ob);
  const long levels = ob == 1 ? 256 : 65536;
  long bad = 0;
  std::string first;
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      const uint8_t* p = got[0].data() + c.dst_offset + y * dst_pitch + x * ob;
      long v = p[0];
      if (ob == 2) v |= static_cast<long>(p[1]) << 8;
      const double value = values[static_cast<size_t>(y) * c.width + x];
      const long want = sobel_store_value(value, c.out.output, ob);
      long d = std::labs(v - want);
      if (c.out.output == SobelOutput::Direction) d = std::min(d, levels - d);
      *max_diff = std::max(*max_diff, static_cast<int>(d));
      if (d == 1) ++*off_by_one;
      const long tol = c.out.exact ? 0 : 1;
      if (d > tol && bad++ == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "at x %d y %d: got %ld, reference %ld (%.6f)", x, y, v,
                      want, value);
        first = buf;
      }
    }
  if (bad) return std::to_string(bad) + " samples off, first " + first;
  return "";
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  const int sizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {33, 9}, {385, 289}, {1921, 1081}};
  uint32_t seed = 1;
  for (auto& wh : sizes)
    for (const Layout& l : kLayouts)
      for (const Output& o : kOutputs)
        for (int padded = 0; padded < 2; ++padded) {
          Case c;
          c.width = wh[0];
          c.height = wh[1];
          c.layout = l;
          c.out = o;
          c.seed = seed++;
          c.input = static_cast<Input>(seed % 3);
          if (padded) {
            c.src_pad = 13;
            c.src_offset = 1;                   // odd base address
            c.dst_pad = o.bytes == 1 ? 7 : 10;  // 16-bit: even (2-byte aligned) pitch
            c.dst_offset = o.bytes == 1 ? 3 : 2;
          }
          cases.push_back(c);
        }
  return cases;
}

void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    int max_diff = 0;
    long ones = 0;
    const std::string err = run_case(c, &max_diff, &ones);
    CHECK_MSG(err.empty(), "%s: %s", describe(c).c_str(), err.c_str());
    if (c.width * c.height > 100000 && err.empty())
      std::printf("  %s: max diff %d, %ld samples 1 LSB off\n", describe(c).c_str(), max_diff, ones);
  }
}

}  // namespace

CG_TEST(small_sizes_every_layout_and_output) {
  std::vector<Case> cases;
  for (const Case& c : all_cases())
    if (c.width * c.height < 1000) cases.push_back(c);
  check_cases(cases);
}

CG_TEST(sd_every_layout_and_output) {
  std::vector<Case> cases;
  for (const Case& c : all_cases())
    if (c.width == 385) cases.push_back(c);
  check_cases(cases);
}

CG_TEST(full_hd_odd_every_layout_and_output) {
  std::vector<Case> cases;
  for (const Case& c : all_cases())
    if (c.width == 1921) cases.push_back(c);
  check_cases(cases);
}

CG_TEST(tall_and_wide_strips) {
  // Many blocks in one direction, one in the other.
  std::vector<Case> cases;
  for (auto wh : {std::pair<int, int>{5000, 1}, {1, 3000}, {31, 4097}}) {
    Case c;
    c.width = wh.first;
    c.height = wh.second;
    c.layout = kLayouts[3];
    c.out = kOutputs[1];
    c.input = Input::Random;
    cases.push_back(c);
    c.out = kOutputs[5];
    c.layout = kLayouts[2];
    c.input = Input::Smooth;
    cases.push_back(c);
  }
  check_cases(cases);
}

CG_TEST(constant_image_is_zero_and_flat) {
  for (int bytes : {1, 2}) {
    const int w = 70, h = 40;
    std::vector<uint8_t> host(static_cast<size_t>(w) * h * 4, 200);
    DeviceBuffer src, dst;
    CHECK(src.reserve(host.size()).ok());
    CHECK(dst.reserve(static_cast<size_t>(w) * h * bytes).ok());
    CHECK(cudaMemcpy(src.get(), host.data(), host.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    SobelPlane in;
    in.data = src.get();
    in.pitch = static_cast<size_t>(w) * 4;
    in.width = w;
    in.height = h;
    in.layout = SobelLayout{4, 0, 1, 2};
    SobelTarget out;
    out.data = dst.get();
    out.pitch = static_cast<size_t>(w) * bytes;
    out.bytes_per_sample = bytes;
    for (SobelOutput o : {SobelOutput::Magnitude, SobelOutput::Direction}) {
      CHECK(sobel(in, out, SobelSettings{o, 9.0}, nullptr).ok());
      std::vector<uint8_t> got(static_cast<size_t>(w) * h * bytes);
      CHECK(cudaMemcpy(got.data(), dst.get(), got.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
      const unsigned want = o == SobelOutput::Magnitude ? 0u : (bytes == 1 ? 128u : 32768u);
      for (int i = 0; i < w * h; ++i) {
        unsigned v = got[i * bytes];
        if (bytes == 2) v |= static_cast<unsigned>(got[i * 2 + 1]) << 8;
        if (v != want) {
          CHECK_MSG(v == want, "%s %d-bit pixel %d: %u", sobel_output_name(o), 8 * bytes, i, v);
          break;
        }
      }
    }
  }
}

CG_TEST(invalid_arguments_are_refused) {
  DeviceBuffer buf;
  CHECK(buf.reserve(4096).ok());
  SobelPlane in;
  in.data = buf.get();
  in.pitch = 64;
  in.width = 16;
  in.height = 8;
  SobelTarget out;
  out.data = static_cast<uint8_t*>(buf.get()) + 2048;
  out.pitch = 64;
  const SobelSettings ok{};
  CHECK(sobel(in, out, ok, nullptr).ok());
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  auto refused = [&](SobelPlane i, SobelTarget o, SobelSettings s) {
    const Status st = sobel(i, o, s, nullptr);
    return !st.ok() && st.cuda == cudaSuccess;
  };
  SobelPlane bad = in;
  bad.width = 0;
  CHECK(refused(bad, out, ok));
  bad = in;
  bad.layout = SobelLayout{2, 0, 1, 0};
  CHECK(refused(bad, out, ok));
  bad = in;
  bad.pitch = 15;
  CHECK(refused(bad, out, ok));
  bad = in;
  bad.data = nullptr;
  CHECK(refused(bad, out, ok));
  SobelTarget bad_out = out;
  bad_out.bytes_per_sample = 3;
  CHECK(refused(in, bad_out, ok));
  bad_out = out;
  bad_out.bytes_per_sample = 2;
  bad_out.pitch = 31;  // smaller than a row
  CHECK(refused(in, bad_out, ok));
  bad_out.pitch = 33;  // odd: 16-bit rows must stay aligned
  CHECK(refused(in, bad_out, ok));
  bad_out.pitch = 64;
  bad_out.data = static_cast<uint8_t*>(buf.get()) + 2049;
  CHECK(refused(in, bad_out, ok));
  CHECK(refused(in, out, SobelSettings{SobelOutput::Magnitude, -1.0}));
  CHECK(refused(in, out, SobelSettings{SobelOutput::Magnitude, NAN}));
}

int main() {
  if (cuda_device_count() == 0) cgtest::skip("no CUDA device");
  return cgtest::run_all();
}
