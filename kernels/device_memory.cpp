// SPDX-License-Identifier: LGPL-2.1-or-later
#include "device_memory.h"

#include <utility>

namespace cudagaussian {

// A test-only failure point (CUDAGAUSSIAN_FAULT, see cuda_status.h): fails like `code` would.
#define CG_FAULT_POINT(what, code, call)                                                    \
  do {                                                                                      \
    if (fault_injected(what))                                                               \
      return cuda_failure(code, call " (fault injected by CUDAGAUSSIAN_FAULT=" what ")",    \
                          __FILE__, __LINE__);                                              \
  } while (0)

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error for later callers
    return 0;
  }
  return n;
}

Status DeviceBuffer::reserve(size_t bytes) {
  if (bytes <= bytes_ && ptr_) return Status::success();
  release();
  CG_FAULT_POINT("alloc", cudaErrorMemoryAllocation, "cudaMalloc");
  CG_CUDA_TRY(cudaMalloc(&ptr_, bytes));
  bytes_ = bytes;
  return Status::success();
}

void DeviceBuffer::release() {
  if (ptr_) cudaFree(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

DevicePlane& DevicePlane::operator=(DevicePlane&& o) noexcept {
  if (this != &o) {
    release();
    std::swap(ptr_, o.ptr_);
    std::swap(pitch_, o.pitch_);
  }
  return *this;
}

Status DevicePlane::allocate(size_t row_bytes, int rows) {
  release();
  CG_FAULT_POINT("alloc", cudaErrorMemoryAllocation, "cudaMallocPitch");
  CG_CUDA_TRY(cudaMallocPitch(&ptr_, &pitch_, row_bytes, static_cast<size_t>(rows)));
  return Status::success();
}

void DevicePlane::release() {
  if (ptr_) cudaFree(ptr_);
  ptr_ = nullptr;
  pitch_ = 0;
}

Status CudaStream::create() {
  release();
  CG_FAULT_POINT("stream", cudaErrorMemoryAllocation, "cudaStreamCreateWithFlags");
  CG_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  return Status::success();
}

void CudaStream::release() {
  if (stream_) cudaStreamDestroy(stream_);
  stream_ = nullptr;
}

Status CudaStream::synchronize() const {
  CG_CUDA_TRY(cudaStreamSynchronize(stream_));
  return Status::success();
}

Status CudaEvent::create() {
  release();
  CG_FAULT_POINT("stream", cudaErrorMemoryAllocation, "cudaEventCreateWithFlags");
  CG_CUDA_TRY(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming));
  return Status::success();
}

void CudaEvent::release() {
  if (event_) cudaEventDestroy(event_);
  event_ = nullptr;
}

Status CudaEvent::record(cudaStream_t stream) const {
  CG_CUDA_TRY(cudaEventRecord(event_, stream));
  return Status::success();
}

Status CudaEvent::make_wait(cudaStream_t stream) const {
  CG_CUDA_TRY(cudaStreamWaitEvent(stream, event_, 0));
  return Status::success();
}

Status CudaEvent::synchronize() const {
  CG_CUDA_TRY(cudaEventSynchronize(event_));
  return Status::success();
}

Status pinned_alloc(size_t bytes, void** out) {
  *out = nullptr;
  CG_FAULT_POINT("pinned", cudaErrorMemoryAllocation, "cudaHostAlloc");
  CG_CUDA_TRY(cudaHostAlloc(out, bytes, cudaHostAllocPortable));
  return Status::success();
}

void pinned_free(void* ptr) {
  if (ptr) cudaFreeHost(ptr);
}

Status host_register(void* ptr, size_t bytes) {
  const cudaError_t err = cudaHostRegister(ptr, bytes, cudaHostRegisterPortable);
  if (err != cudaSuccess) {
    // Callers may go on without the registration: do not leave the error for the next
    // cudaGetLastError() (a kernel's launch check) to report as its own.
    cudaGetLastError();
    return cuda_failure(err, "cudaHostRegister(ptr, bytes, cudaHostRegisterPortable)", __FILE__,
                        __LINE__);
  }
  return Status::success();
}

void host_unregister(void* ptr) {
  if (cudaHostUnregister(ptr) != cudaSuccess) cudaGetLastError();
}

bool is_pinned(const void* ptr) {
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

Status copy_2d_async(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                     size_t row_bytes, int rows, cudaStream_t stream) {
  CG_FAULT_POINT("copy", cudaErrorInvalidValue, "cudaMemcpy2DAsync");
  CG_CUDA_TRY(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes,
                                static_cast<size_t>(rows), cudaMemcpyDefault, stream));
  return Status::success();
}

}  // namespace cudagaussian
