// SPDX-License-Identifier: LGPL-2.1-or-later
// The driver API of the stand-in libcuda.so.1 (fake_libcuda.c, fake_memory.c, fake_streams.c):
// the subset of NVIDIA's driver API that GStreamer's gst-cuda loader and the stand-in runtime
// (cuda_runtime.cpp) call, with the types and values of cuda.h, declared here so that nothing
// needs the toolkit's cuda.h (its macros rename the entry points per toolkit version). "Device"
// memory is host memory.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;  // the runtime's cudaStream_t
typedef struct CUevent_st* CUevent;    // the runtime's cudaEvent_t

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };
enum { CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9 };

// cuda.h's CUDA_MEMCPY2D (the same layout since CUDA 3.2).
typedef struct {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;

CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int* version);
CUresult cuGetErrorName(CUresult error, const char** str);
CUresult cuGetErrorString(CUresult error, const char** str);
CUresult cuDeviceGetCount(int* count);
CUresult cuDeviceGet(CUdevice* device, int ordinal);

CUresult cuCtxCreate_v2(CUcontext* ctx, unsigned int flags, CUdevice device);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext* ctx);
CUresult cuCtxGetCurrent(CUcontext* ctx);

CUresult cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes);
CUresult cuMemAllocPitch_v2(CUdeviceptr* ptr, size_t* pitch, size_t width_bytes, size_t height,
                            unsigned int element_bytes);
CUresult cuMemFree_v2(CUdeviceptr ptr);
CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total_bytes);
CUresult cuMemHostAlloc(void** ptr, size_t bytes, unsigned int flags);
CUresult cuMemFreeHost(void* ptr);
CUresult cuMemHostRegister_v2(void* ptr, size_t bytes, unsigned int flags);
CUresult cuMemHostUnregister(void* ptr);
CUresult cuPointerGetAttribute(void* data, int attribute, CUdeviceptr ptr);
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* copy, CUstream stream);

CUresult cuStreamCreate(CUstream* stream, unsigned int flags);
CUresult cuStreamDestroy_v2(CUstream stream);
CUresult cuStreamSynchronize(CUstream stream);
CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags);
CUresult cuEventCreate(CUevent* event, unsigned int flags);
CUresult cuEventDestroy_v2(CUevent event);
CUresult cuEventRecord(CUevent event, CUstream stream);
CUresult cuEventSynchronize(CUevent event);

// Stand-in only: "device" bytes allocated now (cuMemAlloc*, pitch included).
size_t cg_standin_device_bytes(void);
// The device of the device memory holding `ptr` (-1: not device memory).
int cg_standin_pointer_device(const void* ptr);
// The device of the current context (-1: none is current).
int cg_standin_current_device(void);
// Whether different devices can access each other's memory (CG_STANDIN_PEER=1).
int cg_standin_peer_access(void);

#ifdef __cplusplus
}
#endif
