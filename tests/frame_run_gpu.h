// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs FrameBlur on host planes through the GPU for the kernel tests: random test planes in padded
// pitches, outputs poisoned first and padding checked. Needs a CUDA device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "device_memory.h"
#include "frame_blur.h"

namespace cgtest {

using cudagaussian::BlurSettings;
using cudagaussian::CudaStream;
using cudagaussian::DeviceBuffer;
using cudagaussian::DevicePlaneRef;
using cudagaussian::FrameBlur;
using cudagaussian::MutableDevicePlaneRef;
using cudagaussian::PlaneGeometry;
using cudagaussian::PlaneSpec;
using cudagaussian::Status;

constexpr uint8_t kPoison = 0xA5;

// Host copy of one plane: random blocks of colour plus noise (edges between calm regions), or
// given 8-bit pixels.
struct HostPlane {
  PlaneGeometry g;
  size_t pitch = 0;
  std::vector<uint8_t> bytes;
};

inline HostPlane make_plane(const PlaneGeometry& g, int pad, uint32_t seed, const std::vector<uint8_t>* pixels = nullptr) {
  HostPlane p{g, g.row_bytes() + pad, {}};
  p.bytes.resize(p.pitch * g.height);
  std::mt19937 rng(seed);
  for (uint8_t& b : p.bytes) b = static_cast<uint8_t>(rng());
  const unsigned max_value = g.max_value();
  std::vector<unsigned> colour(64 * g.channels);
  for (unsigned& c : colour) c = rng() % (max_value + 1);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      for (int c = 0; c < g.channels; ++c) {
        const size_t i = static_cast<size_t>(x) * g.channels + c;
        unsigned v;
        if (pixels) {
          v = (*pixels)[static_cast<size_t>(y) * g.samples_per_row() + i];
        } else {
          const int block = (y / 11 % 8) * 8 + x / 13 % 8;
          const int noise = static_cast<int>(rng() % 9) - 4;
          v = static_cast<unsigned>(std::clamp(static_cast<int>(colour[block * g.channels + c]) +
                                                   noise * static_cast<int>(max_value) / 255,
                                               0, static_cast<int>(max_value)));
        }
        const unsigned stored = (v << g.shift) | (rng() & ((1u << g.shift) - 1));
        if (g.bytes_per_sample == 1) {
          p.bytes[y * p.pitch + i] = static_cast<uint8_t>(stored);
        } else {
          const uint16_t s16 = static_cast<uint16_t>(stored);
          std::memcpy(&p.bytes[y * p.pitch + 2 * i], &s16, 2);
        }
      }
  return p;
}

// Runs FrameBlur on the planes; returns false with `error` set on failure. `out` gets the result
// bytes (same pitches).
inline bool run_gpu(const BlurSettings& s, const std::vector<PlaneSpec>& specs, const std::vector<HostPlane>& in,
             std::vector<std::vector<uint8_t>>& out, std::string& error) {
  FrameBlur blur;
  Status st = blur.plan(s, specs);
  if (!st.ok()) { error = "plan: " + st.message; return false; }
  CudaStream stream;
  if (!stream.create().ok()) { error = "stream"; return false; }
  std::vector<DeviceBuffer> d_src(in.size()), d_dst(in.size());
  std::vector<DevicePlaneRef> src;
  std::vector<MutableDevicePlaneRef> dst;
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t bytes = in[i].bytes.size();
    if (!d_src[i].reserve(bytes).ok() || !d_dst[i].reserve(bytes).ok() ||
        cudaMemcpyAsync(d_src[i].get(), in[i].bytes.data(), bytes, cudaMemcpyHostToDevice, stream.get()) != cudaSuccess ||
        cudaMemsetAsync(d_dst[i].get(), kPoison, bytes, stream.get()) != cudaSuccess) {
      error = "setup";
      return false;
    }
    src.push_back({d_src[i].get(), in[i].pitch});
    dst.push_back({d_dst[i].get(), in[i].pitch});
  }
  st = blur.run(src, dst, stream.get());
  if (st.ok()) st = stream.synchronize();
  if (!st.ok()) { error = "run: " + st.message; return false; }
  out.assign(in.size(), {});
  for (size_t i = 0; i < in.size(); ++i) {
    out[i].resize(in[i].bytes.size());
    if (cudaMemcpyAsync(out[i].data(), d_dst[i].get(), out[i].size(), cudaMemcpyDeviceToHost, stream.get()) != cudaSuccess) {
      error = "download";
      return false;
    }
  }
  if (cudaStreamSynchronize(stream.get()) != cudaSuccess) { error = "download sync"; return false; }
  for (size_t i = 0; i < in.size(); ++i)
    for (int y = 0; y < in[i].g.height; ++y)
      for (size_t b = in[i].g.row_bytes(); b < in[i].pitch; ++b)
        if (out[i][y * in[i].pitch + b] != kPoison) { error = "padding was written"; return false; }
  return true;
}

}  // namespace cgtest
