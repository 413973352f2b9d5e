// SPDX-License-Identifier: LGPL-2.1-or-later
// The stand-in driver's memory: "device" memory as aligned host allocations counted against
// CG_STANDIN_MEMORY_MIB, pinned and registered host memory, pointer queries, and 2D copies
// checked against the bounds of the allocations they touch.
#include "fake_driver.h"

// ---- memory

static CUresult allocate(void** out, size_t bytes, enum Kind kind, const char* call) {
  CUresult r = need_context(call);
  if (r != CUDA_SUCCESS) return r;
  if (!out || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&g_lock);
  if (kind == KIND_DEVICE && bytes > total_bytes() - g_device_bytes) {
    pthread_mutex_unlock(&g_lock);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  void* p = NULL;
  if (posix_memalign(&p, kAlign, bytes) != 0 || !add_entry(p, bytes, kind)) {
    pthread_mutex_unlock(&g_lock);
    free(p);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  if (kind == KIND_DEVICE) g_device_bytes += bytes;
  pthread_mutex_unlock(&g_lock);
  *out = p;
  return CUDA_SUCCESS;
}

static CUresult release(void* p, enum Kind kind, const char* call) {
  CUresult r = need_context(call);
  if (r == CUDA_SUCCESS && kind == KIND_DEVICE) r = need_device(device_of(p, kind), call, "memory");
  if (r != CUDA_SUCCESS) return r;
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(p, kind);
  if (i >= 0) {
    if (kind == KIND_DEVICE) g_device_bytes -= g_entries[i].size;
    remove_entry(i);
  }
  pthread_mutex_unlock(&g_lock);
  if (i < 0) return CUDA_ERROR_INVALID_VALUE;
  free(p);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes) {
  void* p = NULL;
  CUresult r = allocate(&p, bytes, KIND_DEVICE, "cuMemAlloc");
  if (r == CUDA_SUCCESS) *ptr = (CUdeviceptr) (uintptr_t) p;
  return r;
}

EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr* ptr, size_t* pitch, size_t width_bytes,
                                   size_t height, unsigned int element_bytes) {
  if (!ptr || !pitch || width_bytes == 0 || height == 0 ||
      (element_bytes != 4 && element_bytes != 8 && element_bytes != 16))
    return CUDA_ERROR_INVALID_VALUE;
  const size_t p = (width_bytes + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
  if (height > SIZE_MAX / p) return CUDA_ERROR_OUT_OF_MEMORY;
  void* data = NULL;
  CUresult r = allocate(&data, p * height, KIND_DEVICE, "cuMemAllocPitch");
  if (r != CUDA_SUCCESS) return r;
  *ptr = (CUdeviceptr) (uintptr_t) data;
  *pitch = p;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  if (ptr == 0) return CUDA_SUCCESS;
  return release((void*) (uintptr_t) ptr, KIND_DEVICE, "cuMemFree");
}

EXPORT CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  CUresult r = need_context("cuMemGetInfo");
  if (r != CUDA_SUCCESS) return r;
  if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&g_lock);
  *total = total_bytes();
  *free_bytes = *total - g_device_bytes;
  pthread_mutex_unlock(&g_lock);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuMemHostAlloc(void** ptr, size_t bytes, unsigned int flags) {
  (void) flags;
  return allocate(ptr, bytes, KIND_HOST_ALLOC, "cuMemHostAlloc");
}

EXPORT CUresult cuMemAllocHost_v2(void** ptr, size_t bytes) {
  return allocate(ptr, bytes, KIND_HOST_ALLOC, "cuMemAllocHost");
}

EXPORT CUresult cuMemFreeHost(void* ptr) { return release(ptr, KIND_HOST_ALLOC, "cuMemFreeHost"); }

EXPORT CUresult cuMemHostRegister_v2(void* ptr, size_t bytes, unsigned int flags) {
  (void) flags;
  CUresult r = need_context("cuMemHostRegister");
  if (r != CUDA_SUCCESS) return r;
  if (!ptr || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  /* Tests widen the window between a caller's check and its registration. */
  const char* delay = getenv("CG_STANDIN_REGISTER_DELAY_MS");
  if (delay && atoi(delay) > 0) usleep((useconds_t) atoi(delay) * 1000);
  const uintptr_t a = (uintptr_t) ptr;
  pthread_mutex_lock(&g_lock);
  r = CUDA_SUCCESS;
  for (size_t i = 0; i < g_count && r == CUDA_SUCCESS; i++) {
    const Entry* e = &g_entries[i];
    const uintptr_t base = e->hidden ^ kHide;
    if (e->kind <= KIND_HOST_REGISTERED && a < base + e->size && base < a + bytes)
      r = e->kind == KIND_DEVICE ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  if (r == CUDA_SUCCESS && !add_entry(ptr, bytes, KIND_HOST_REGISTERED)) r = CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_unlock(&g_lock);
  return r;
}

EXPORT CUresult cuMemHostUnregister(void* ptr) {
  CUresult r = need_context("cuMemHostUnregister");
  if (r != CUDA_SUCCESS) return r;
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(ptr, KIND_HOST_REGISTERED);
  if (i >= 0) remove_entry(i);
  pthread_mutex_unlock(&g_lock);
  return i >= 0 ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

// The memory type, and the device ordinal of device memory.
EXPORT CUresult cuPointerGetAttribute(void* data, int attribute, CUdeviceptr ptr) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!data || (attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE &&
                attribute != CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL))
    return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&g_lock);
  const long i = find_containing((uintptr_t) ptr);
  const int type = i < 0 ? 0 : g_entries[i].kind == KIND_DEVICE ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  const int device = i < 0 ? -1 : g_entries[i].device;
  pthread_mutex_unlock(&g_lock);
  if (i < 0) return CUDA_ERROR_INVALID_VALUE;  // memory the driver does not know
  if (attribute == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) {
    if (device < 0) return CUDA_ERROR_INVALID_VALUE;
    *(int*) data = device;
  } else {
    *(unsigned int*) data = (unsigned int) type;
  }
  return CUDA_SUCCESS;
}

EXPORT int cg_standin_pointer_device(const void* ptr) {
  pthread_mutex_lock(&g_lock);
  const long i = find_containing((uintptr_t) ptr);
  const int device = i < 0 ? -1 : g_entries[i].device;
  pthread_mutex_unlock(&g_lock);
  return device;
}

EXPORT int cg_standin_current_device(void) { return t_depth > 0 ? t_stack[t_depth - 1]->device : -1; }

EXPORT int cg_standin_peer_access(void) { return peer_access(); }

// One side of a 2D copy: its first byte, after checking that the rows it touches lie inside the
// device allocation it names (device memory) or that it starts in (unified addressing).
static CUresult copy_side(int type, const void* host, CUdeviceptr device, size_t x, size_t y,
                          size_t pitch, size_t width, size_t height, uint8_t** out) {
  uintptr_t start;
  if (type == CU_MEMORYTYPE_HOST) start = (uintptr_t) host;
  else if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED) start = (uintptr_t) device;
  else return CUDA_ERROR_NOT_SUPPORTED;  // arrays
  if (!start) return CUDA_ERROR_INVALID_VALUE;
  start += x + y * pitch;
  if (type != CU_MEMORYTYPE_HOST) {
    const size_t span = (height - 1) * pitch + width;
    pthread_mutex_lock(&g_lock);
    const long i = find_containing(start);
    const int in_device = i >= 0 && g_entries[i].kind == KIND_DEVICE;
    const uintptr_t end = i >= 0 ? (g_entries[i].hidden ^ kHide) + g_entries[i].size : 0;
    pthread_mutex_unlock(&g_lock);
    if ((type == CU_MEMORYTYPE_DEVICE && !in_device) || (in_device && start + span > end)) {
      fprintf(stderr, "cudagaussian stand-in driver: 2D copy of %zu x %zu bytes (pitch %zu) at %p "
              "is outside device memory\n", width, height, pitch, (void*) start);
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  *out = (uint8_t*) start;
  return CUDA_SUCCESS;
}

static CUresult copy_2d(const CUDA_MEMCPY2D* c, const char* call) {
  CUresult r = need_context(call);
  if (r != CUDA_SUCCESS) return r;
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  if (c->WidthInBytes == 0 || c->Height == 0) return CUDA_SUCCESS;
  if (c->Height > 1 && (c->srcPitch < c->WidthInBytes || c->dstPitch < c->WidthInBytes))
    return CUDA_ERROR_INVALID_VALUE;
  uint8_t *src, *dst;
  r = copy_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch,
                c->WidthInBytes, c->Height, &src);
  if (r == CUDA_SUCCESS)
    r = copy_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch,
                  c->WidthInBytes, c->Height, &dst);
  if (r != CUDA_SUCCESS) return r;
  for (size_t row = 0; row < c->Height; row++)
    memmove(dst + row * c->dstPitch, src + row * c->srcPitch, c->WidthInBytes);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* copy) { return copy_2d(copy, "cuMemcpy2D"); }

EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* copy, CUstream stream) {
  if (stream && !known(stream, KIND_STREAM)) return CUDA_ERROR_INVALID_HANDLE;
  if (stream) {
    const CUresult r = need_device(device_of(stream, KIND_STREAM), "cuMemcpy2DAsync", "a stream");
    if (r != CUDA_SUCCESS) return r;
  }
  return copy_2d(copy, "cuMemcpy2DAsync");
}

EXPORT size_t cg_standin_device_bytes(void) {
  pthread_mutex_lock(&g_lock);
  const size_t bytes = g_device_bytes;
  pthread_mutex_unlock(&g_lock);
  return bytes;
}

ALIAS(cuMemAlloc, cuMemAlloc_v2)
ALIAS(cuMemAllocPitch, cuMemAllocPitch_v2)
ALIAS(cuMemAllocHost, cuMemAllocHost_v2)
ALIAS(cuMemFree, cuMemFree_v2)
ALIAS(cuMemGetInfo, cuMemGetInfo_v2)
ALIAS(cuMemHostRegister, cuMemHostRegister_v2)
ALIAS(cuMemcpy2D, cuMemcpy2D_v2)
ALIAS(cuMemcpy2DAsync, cuMemcpy2DAsync_v2)
