// SPDX-License-Identifier: LGPL-2.1-or-later
// Small RAII owners of device memory, pinned host memory and streams, plus the few runtime
// calls the element needs. Create, use and destroy them with the owning CUDA context current.
#pragma once

#include <cstddef>
#include <utility>

#include <cuda_runtime_api.h>

#include "cuda_status.h"

// Test-only fault injection (CUDAGAUSSIAN_FAULT, set_fault_for_tests, launch_check) is declared
// in cuda_status.h: allocations, stream/event creation and copies below can be made to fail.

namespace cudagaussian {

// Number of CUDA devices visible to the runtime; 0 (not an error) without a driver or GPU.
int cuda_device_count();

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // Keeps the current allocation when it is already large enough.
  Status reserve(size_t bytes);
  void release();
  void* get() const { return ptr_; }
  size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// A pitched 2D device allocation (cudaMallocPitch), e.g. one plane of a staged frame.
class DevicePlane {
 public:
  DevicePlane() = default;
  ~DevicePlane() { release(); }
  DevicePlane(const DevicePlane&) = delete;
  DevicePlane& operator=(const DevicePlane&) = delete;
  DevicePlane(DevicePlane&& o) noexcept { *this = std::move(o); }
  DevicePlane& operator=(DevicePlane&& o) noexcept;

  Status allocate(size_t row_bytes, int rows);
  void release();
  void* get() const { return ptr_; }
  size_t pitch() const { return pitch_; }

 private:
  void* ptr_ = nullptr;
  size_t pitch_ = 0;
};

class CudaStream {
 public:
  CudaStream() = default;
  ~CudaStream() { release(); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  Status create();  // non-blocking with respect to the legacy default stream
  void release();
  cudaStream_t get() const { return stream_; }
  Status synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

// An event for ordering work between streams and waiting for it; timing disabled (cheaper).
class CudaEvent {
 public:
  CudaEvent() = default;
  ~CudaEvent() { release(); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& o) noexcept { std::swap(event_, o.event_); }

  Status create();
  bool created() const { return event_ != nullptr; }
  void release();
  Status record(cudaStream_t stream) const;
  Status make_wait(cudaStream_t stream) const;  // later work on `stream` waits for the event
  Status synchronize() const;

 private:
  cudaEvent_t event_ = nullptr;
};

// Page-locked host memory, portable across contexts, for DMA transfers without staging.
Status pinned_alloc(size_t bytes, void** out);
void pinned_free(void* ptr);

// Page-locks memory someone else allocated, so that copies from it are DMA (cudaHostRegister);
// undo with host_unregister before the memory is freed.
Status host_register(void* ptr, size_t bytes);
void host_unregister(void* ptr);
// Whether the CUDA driver knows `ptr` as page-locked host memory.
bool is_pinned(const void* ptr);

// Asynchronous 2D copy of `rows` rows of `row_bytes` in any direction (cudaMemcpyDefault).
Status copy_2d_async(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                     size_t row_bytes, int rows, cudaStream_t stream);

}  // namespace cudagaussian
