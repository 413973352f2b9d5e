// SPDX-License-Identifier: LGPL-2.1-or-later
// The few CUDA runtime calls that kernels/cuda_status.cpp, kernels/device_memory.cpp and the
// element tests make, implemented over the stand-in driver (fake_cuda.h) the way libcudart does
// over the real one: the runtime keeps a sticky per-thread last error, initialises the driver on
// first use and uses whatever context is current. Error codes need no mapping: the runtime's
// values equal the driver's for every code the stand-in driver returns.
#include <cuda_runtime_api.h>

#include <mutex>

#include "fake_cuda.h"

namespace {

thread_local cudaError_t t_last_error = cudaSuccess;

cudaError_t init_driver() {
  static std::once_flag once;
  static CUresult result = CUDA_SUCCESS;
  std::call_once(once, [] { result = cuInit(0); });
  return static_cast<cudaError_t>(result);
}

// The runtime's answer to a driver result: the error, remembered for cudaGetLastError.
cudaError_t check(CUresult r) {
  const cudaError_t e = static_cast<cudaError_t>(r);
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

// Initialises the driver, then runs `call` (a driver call returning CUresult).
template <typename F>
cudaError_t run(F call) {
  const cudaError_t e = init_driver();
  if (e != cudaSuccess) {
    t_last_error = e;
    return e;
  }
  return check(call());
}

int memory_type(cudaMemcpyKind kind, bool source) {
  switch (kind) {
    case cudaMemcpyHostToHost: return CU_MEMORYTYPE_HOST;
    case cudaMemcpyHostToDevice: return source ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    case cudaMemcpyDeviceToHost: return source ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    case cudaMemcpyDeviceToDevice: return CU_MEMORYTYPE_DEVICE;
    default: return CU_MEMORYTYPE_UNIFIED;
  }
}

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};

const ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized", "invalid device context"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

extern "C" {

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->name : "cudaErrorUnknown";
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  const ErrorText* t = find_error(error);
  return t ? t->text : "unrecognized error code";
}

cudaError_t CUDARTAPI cudaGetLastError(void) {
  const cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return t_last_error; }

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  return run([&] { return cuDeviceGetCount(count); });
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  return run([&] { return cuMemGetInfo_v2(free_bytes, total); });
}

cudaError_t CUDARTAPI cudaMalloc(void** ptr, size_t size) {
  return run([&] {
    CUdeviceptr p = 0;
    const CUresult r = cuMemAlloc_v2(&p, size);
    *ptr = reinterpret_cast<void*>(p);
    return r;
  });
}

cudaError_t CUDARTAPI cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return run([&] {
    CUdeviceptr p = 0;
    const CUresult r = cuMemAllocPitch_v2(&p, pitch, width, height, 4);
    *ptr = reinterpret_cast<void*>(p);
    return r;
  });
}

cudaError_t CUDARTAPI cudaFree(void* ptr) {
  return run([&] { return cuMemFree_v2(reinterpret_cast<CUdeviceptr>(ptr)); });
}

cudaError_t CUDARTAPI cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return run([&] { return cuMemHostAlloc(ptr, size, flags); });
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) {
  return run([&] { return cuMemFreeHost(ptr); });
}

cudaError_t CUDARTAPI cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return run([&] { return cuMemHostRegister_v2(ptr, size, flags); });
}

cudaError_t CUDARTAPI cudaHostUnregister(void* ptr) {
  return run([&] { return cuMemHostUnregister(ptr); });
}

// Like CUDA 11 and later: memory the driver does not know is "unregistered", not an error.
cudaError_t CUDARTAPI cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  return run([&] {
    if (!attributes) return static_cast<CUresult>(CUDA_ERROR_INVALID_VALUE);
    unsigned int type = 0;
    const CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                             reinterpret_cast<CUdeviceptr>(ptr));
    *attributes = cudaPointerAttributes{};
    attributes->type = r != CUDA_SUCCESS      ? cudaMemoryTypeUnregistered
                       : type == CU_MEMORYTYPE_DEVICE ? cudaMemoryTypeDevice
                                                      : cudaMemoryTypeHost;
    if (attributes->type == cudaMemoryTypeDevice) {
      int device = 0;
      if (cuPointerGetAttribute(&device, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                reinterpret_cast<CUdeviceptr>(ptr)) == CUDA_SUCCESS)
        attributes->device = device;
    }
    if (attributes->type != cudaMemoryTypeUnregistered) {
      attributes->devicePointer = const_cast<void*>(ptr);
      attributes->hostPointer = attributes->type == cudaMemoryTypeHost ? const_cast<void*>(ptr) : nullptr;
    }
    return static_cast<CUresult>(CUDA_SUCCESS);
  });
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return run([&] { return cuStreamCreate(stream, flags); });
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  return run([&] { return cuStreamDestroy_v2(stream); });
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return run([&] { return cuStreamSynchronize(stream); });
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return run([&] { return cuStreamWaitEvent(stream, event, flags); });
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return run([&] { return cuEventCreate(event, flags); });
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  return run([&] { return cuEventDestroy_v2(event); });
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return run([&] { return cuEventRecord(event, stream); });
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  return run([&] { return cuEventSynchronize(event); });
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return run([&] {
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = memory_type(kind, true);
    c.srcHost = src;
    c.srcDevice = reinterpret_cast<CUdeviceptr>(src);
    c.srcPitch = spitch;
    c.dstMemoryType = memory_type(kind, false);
    c.dstHost = dst;
    c.dstDevice = reinterpret_cast<CUdeviceptr>(dst);
    c.dstPitch = dpitch;
    c.WidthInBytes = width;
    c.Height = height;
    return cuMemcpy2DAsync_v2(&c, stream);
  });
}

}  // extern "C"
