// SPDX-License-Identifier: LGPL-2.1-or-later
#include "cuda_floors.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "bench_timing.h"
#include "device_memory.h"
#include "frame_blur.h"
#include "video_planes.h"

namespace pipeline_bench {

namespace {

struct DeviceFrames {
  std::vector<std::vector<cg::DevicePlane>> planes;  // [frame][plane]
};

struct PlaneLayout {
  std::vector<size_t> offset, stride, row_bytes;
  std::vector<int> rows;
};

PlaneLayout layout_of(const GstVideoInfo& info, const std::vector<cg::PlaneSpec>& specs) {
  PlaneLayout l;
  for (size_t p = 0; p < specs.size(); ++p) {
    l.offset.push_back(GST_VIDEO_INFO_PLANE_OFFSET(&info, p));
    l.stride.push_back(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    l.row_bytes.push_back(specs[p].geometry.row_bytes());
    l.rows.push_back(specs[p].geometry.height);
  }
  return l;
}

cg::Status alloc_device_frames(const PlaneLayout& l, DeviceFrames* f) {
  f->planes.resize(kFrames);
  for (auto& frame : f->planes) {
    frame.resize(l.rows.size());
    for (size_t p = 0; p < l.rows.size(); ++p) CG_TRY(frame[p].allocate(l.row_bytes[p], l.rows[p]));
  }
  return cg::Status::success();
}

// Median and p95 (µs) of single operations op(frame), rotating frames, each between events.
cg::Status time_ops(cudaStream_t s, const std::function<cg::Status(int)>& op, double* med_us,
                    double* p95_us) {
  std::vector<float> ms;
  CG_TRY(event_times_ms(s, 10, kOpSamples, [&](int i) { return op(i % kFrames); }, &ms));
  std::vector<double> us(kOpSamples);
  for (int i = 0; i < kOpSamples; ++i) us[i] = ms[i] * 1000.0;
  *med_us = median(us);
  *p95_us = p95(us);
  return cg::Status::success();
}

}  // namespace

cg::Status measure_pcie(const std::vector<void*>& host_src, const std::vector<void*>& host_dst,
                        size_t bytes, int n, PcieFloor* out) {
  std::vector<void*> dev(kFrames, nullptr);
  cudaStream_t up = nullptr, down = nullptr;
  CudaEvents ev;  // start, up_done, stop
  auto cleanup = [&] {
    for (void* p : dev) cudaFree(p);
    if (up) cudaStreamDestroy(up);
    if (down) cudaStreamDestroy(down);
  };
  auto body = [&]() -> cg::Status {
    for (void*& p : dev) CG_CUDA_TRY(cudaMalloc(&p, bytes));
    CG_CUDA_TRY(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking));
    CG_CUDA_TRY(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking));
    CG_TRY(ev.create(3));
    const cudaEvent_t start = ev[0], up_done = ev[1], stop = ev[2];

    // mode 0: both directions overlapped; 1: H2D alone; 2: D2H alone.
    auto run = [&](int mode, int count, double* seconds) -> cg::Status {
      CG_CUDA_TRY(cudaEventRecord(start, up));
      CG_CUDA_TRY(cudaStreamWaitEvent(down, start, 0));
      for (int i = 0; i < count; ++i) {
        if (mode != 2)
          CG_CUDA_TRY(cudaMemcpyAsync(dev[i % kFrames], host_src[i % kFrames], bytes,
                                      cudaMemcpyHostToDevice, up));
        if (mode != 1)
          CG_CUDA_TRY(cudaMemcpyAsync(host_dst[i % kFrames], dev[(i + kFrames / 2) % kFrames],
                                      bytes, cudaMemcpyDeviceToHost, down));
      }
      CG_CUDA_TRY(cudaEventRecord(up_done, up));
      CG_CUDA_TRY(cudaStreamWaitEvent(down, up_done, 0));
      CG_CUDA_TRY(cudaEventRecord(stop, down));
      double ms = 0;
      CG_TRY(event_elapsed_ms(start, stop, &ms));
      *seconds = ms * 1e-3;
      return cg::Status::success();
    };
    double s = 0;
    CG_TRY(run(0, 2 * kFrames, &s));  // warm-up
    CG_TRY(run(0, n, &s));
    out->fps = n / s;
    out->gbps = bytes * out->fps / 1e9;
    CG_TRY(run(1, n, &s));
    out->h2d_gbps = bytes * (n / s) / 1e9;
    CG_TRY(run(2, n, &s));
    out->d2h_gbps = bytes * (n / s) / 1e9;
    return cg::Status::success();
  };
  cg::Status st = body();
  cleanup();
  return st;
}

cg::Status measure_budget(const GstVideoInfo& info, const std::vector<void*>& host_src,
                          const std::vector<void*>& host_dst, double sigma, bool copies,
                          Budget* out) {
  std::vector<cg::PlaneSpec> specs;
  if (!gst_cuda_gaussian_plane_specs(&info, &specs))
    return cg::Status::invalid("format not supported by the kernels");
  const PlaneLayout l = layout_of(info, specs);
  DeviceFrames in, outf;
  CG_TRY(alloc_device_frames(l, &in));
  CG_TRY(alloc_device_frames(l, &outf));
  cg::CudaStream stream;
  CG_TRY(stream.create());
  const size_t n_planes = specs.size();

  // The device frames get content before the kernel is timed.
  for (int f = 0; f < kFrames; ++f)
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(in.planes[f][p].get(), in.planes[f][p].pitch(),
                               static_cast<uint8_t*>(host_src[f]) + l.offset[p], l.stride[p],
                               l.row_bytes[p], l.rows[p], stream.get()));

  cg::BlurSettings settings;
  settings.sigma_x = settings.sigma_y = sigma;
  cg::FrameBlur blur;
  CG_TRY(blur.plan(settings, specs));
  auto kernel = [&](int f) -> cg::Status {
    std::vector<cg::DevicePlaneRef> src(n_planes);
    std::vector<cg::MutableDevicePlaneRef> dst(n_planes);
    for (size_t p = 0; p < n_planes; ++p) {
      src[p] = {in.planes[f][p].get(), in.planes[f][p].pitch()};
      dst[p] = {outf.planes[f][p].get(), outf.planes[f][p].pitch()};
    }
    return blur.run(src, dst, stream.get());
  };
  CG_TRY(time_ops(stream.get(), kernel, &out->kernel_us, &out->kernel_p95));
  if (!copies) return cg::Status::success();

  auto h2d = [&](int f) -> cg::Status {
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(in.planes[f][p].get(), in.planes[f][p].pitch(),
                               static_cast<uint8_t*>(host_src[f]) + l.offset[p], l.stride[p],
                               l.row_bytes[p], l.rows[p], stream.get()));
    return cg::Status::success();
  };
  auto d2h = [&](int f) -> cg::Status {
    for (size_t p = 0; p < n_planes; ++p)
      CG_TRY(cg::copy_2d_async(static_cast<uint8_t*>(host_dst[f]) + l.offset[p], l.stride[p],
                               outf.planes[f][p].get(), outf.planes[f][p].pitch(),
                               l.row_bytes[p], l.rows[p], stream.get()));
    return cg::Status::success();
  };
  CG_TRY(time_ops(stream.get(), h2d, &out->h2d_us, &out->h2d_p95));
  CG_TRY(time_ops(stream.get(), d2h, &out->d2h_us, &out->d2h_p95));
  return cg::Status::success();
}

}  // namespace pipeline_bench
