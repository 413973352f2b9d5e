// SPDX-License-Identifier: LGPL-2.1-or-later
// The stand-in driver's streams and events (handles whose work is already done) and what it
// cannot do (modules, kernels, textures, graphics interop: NOT_SUPPORTED).
#include "fake_driver.h"

// ---- streams and events: handles only, their work is done when it is queued

static CUresult new_handle(void** out, size_t size, enum Kind kind, const char* call) {
  CUresult r = need_context(call);
  if (r != CUDA_SUCCESS) return r;
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  void* h = calloc(1, size);
  if (!h) return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&g_lock);
  const int added = add_entry(h, 0, kind);
  pthread_mutex_unlock(&g_lock);
  if (!added) {
    free(h);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *out = h;
  return CUDA_SUCCESS;
}

static CUresult drop_handle(void* h, enum Kind kind) {
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(h, kind);
  if (i >= 0) remove_entry(i);
  pthread_mutex_unlock(&g_lock);
  if (i < 0) return CUDA_ERROR_INVALID_HANDLE;
  free(h);
  return CUDA_SUCCESS;
}

// NULL is the legacy default stream; any other handle must be alive (and, strict, of the
// current context's device).
static CUresult check_stream(CUstream s, const char* call) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!s) return CUDA_SUCCESS;
  if (!known(s, KIND_STREAM)) return CUDA_ERROR_INVALID_HANDLE;
  return need_device(device_of(s, KIND_STREAM), call, "a stream");
}

static CUresult check_event(CUevent e, const char* call) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!known(e, KIND_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
  return need_device(device_of(e, KIND_EVENT), call, "an event");
}

EXPORT CUresult cuStreamCreate(CUstream* stream, unsigned int flags) {
  (void) flags;
  return new_handle((void**) stream, sizeof(struct CUstream_st), KIND_STREAM, "cuStreamCreate");
}

EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
  const CUresult r = need_device(device_of(stream, KIND_STREAM), "cuStreamDestroy", "a stream");
  return r != CUDA_SUCCESS ? r : drop_handle(stream, KIND_STREAM);
}
EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  return check_stream(stream, "cuStreamSynchronize");
}

// A stream may wait for an event of another device (the driver allows it); the stream must be
// the current device's.
EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  (void) flags;
  CUresult r = check_stream(stream, "cuStreamWaitEvent");
  if (r != CUDA_SUCCESS) return r;
  return known(event, KIND_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuEventCreate(CUevent* event, unsigned int flags) {
  (void) flags;
  return new_handle((void**) event, sizeof(struct CUevent_st), KIND_EVENT, "cuEventCreate");
}

EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  const CUresult r = need_device(device_of(event, KIND_EVENT), "cuEventDestroy", "an event");
  return r != CUDA_SUCCESS ? r : drop_handle(event, KIND_EVENT);
}

EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  CUresult r = check_stream(stream, "cuEventRecord");
  return r != CUDA_SUCCESS ? r : check_event(event, "cuEventRecord");
}

// Waiting for an event needs no context (any thread may wait).
EXPORT CUresult cuEventSynchronize(CUevent event) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  return known(event, KIND_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

// ---- what the stand-in cannot do: run GPU code, textures, graphics interop

EXPORT CUresult cuModuleLoadData(void** module, const void* image) {
  (void) module;
  (void) image;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuModuleUnload(void* module) {
  (void) module;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  (void) function;
  (void) module;
  (void) name;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuLaunchKernel(void* f, unsigned int gx, unsigned int gy, unsigned int gz,
                               unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                               CUstream stream, void** params, void** extra) {
  (void) f, (void) gx, (void) gy, (void) gz, (void) bx, (void) by, (void) bz, (void) shared;
  (void) stream, (void) params, (void) extra;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuTexObjectCreate(unsigned long long* tex, const void* res, const void* desc,
                                  const void* view) {
  (void) tex, (void) res, (void) desc, (void) view;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuTexObjectDestroy(unsigned long long tex) {
  (void) tex;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsMapResources(unsigned int count, void** resources, CUstream stream) {
  (void) count, (void) resources, (void) stream;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsUnmapResources(unsigned int count, void** resources, CUstream stream) {
  (void) count, (void) resources, (void) stream;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsResourceSetMapFlags_v2(void* resource, unsigned int flags) {
  (void) resource, (void) flags;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsSubResourceGetMappedArray(void** array, void* resource, unsigned int index,
                                                    unsigned int level) {
  (void) array, (void) resource, (void) index, (void) level;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr* ptr, size_t* size, void* resource) {
  (void) ptr, (void) size, (void) resource;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsUnregisterResource(void* resource) {
  (void) resource;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsGLRegisterImage(void** resource, unsigned int image, unsigned int target,
                                          unsigned int flags) {
  (void) resource, (void) image, (void) target, (void) flags;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGraphicsGLRegisterBuffer(void** resource, unsigned int buffer, unsigned int flags) {
  (void) resource, (void) buffer, (void) flags;
  return CUDA_ERROR_NOT_SUPPORTED;
}
EXPORT CUresult cuGLGetDevices_v2(unsigned int* count, CUdevice* devices, unsigned int size, int list) {
  (void) devices, (void) size, (void) list;
  if (count) *count = 0;
  return CUDA_ERROR_NOT_SUPPORTED;
}

ALIAS(cuStreamDestroy, cuStreamDestroy_v2)
ALIAS(cuEventDestroy, cuEventDestroy_v2)
ALIAS(cuGraphicsResourceSetMapFlags, cuGraphicsResourceSetMapFlags_v2)
ALIAS(cuGraphicsResourceGetMappedPointer, cuGraphicsResourceGetMappedPointer_v2)
ALIAS(cuGLGetDevices, cuGLGetDevices_v2)
