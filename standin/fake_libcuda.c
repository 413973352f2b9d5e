// SPDX-License-Identifier: LGPL-2.1-or-later
// A stand-in NVIDIA driver (libcuda.so.1) for machines without a GPU: enough of the driver API
// for GStreamer's gst-cuda (GstCudaContext, GstCudaMemory, GstCudaBufferPool) and for the
// stand-in runtime of cuda_runtime.cpp, on host memory.
//   - devices: CG_STANDIN_DEVICES of them (default 1; 0 makes cuInit report no device); device
//     memory, streams and events belong to the device of the context current when they were
//     made; with CG_STANDIN_PEER=1 two devices can access each other (cuDeviceCanAccessPeer);
//   - "device" memory: aligned host allocations (pitch rounded up to kPitchAlign) counted
//     against CG_STANDIN_MEMORY_MIB (default 16384), so cuMemGetInfo sees leaks and an
//     allocation beyond it fails with CUDA_ERROR_OUT_OF_MEMORY;
//   - copies are memcpy, checked against the bounds of the device allocation they touch;
//   - streams and events are handles whose work is already done (everything is synchronous);
//   - contexts are handles on a per-thread stack; with CG_STANDIN_STRICT=1, memory, stream and
//     copy calls without a current context fail (a real driver would use another context), and
//     so do frees of device memory, and uses of streams and events, of another device than the
//     current context's (the work would run on the wrong GPU);
//   - modules, kernels, textures and graphics interop return NOT_SUPPORTED.
// The handle registry stores addresses XOR-ed with a constant, so that valgrind, which looks
// for pointers to find leaks, still reports device memory, streams and contexts never freed.
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

#define EXPORT __attribute__((visibility("default")))

enum { kPitchAlign = 256, kAlign = 256, kMaxStack = 64 };
static const uintptr_t kHide = (uintptr_t) 0x5a5a5a5a5a5a5a5aull;

enum Kind { KIND_DEVICE, KIND_HOST_ALLOC, KIND_HOST_REGISTERED, KIND_CONTEXT, KIND_STREAM, KIND_EVENT };

typedef struct {
  uintptr_t hidden;  // address ^ kHide
  size_t size;
  enum Kind kind;
  int device;  // device memory, streams, events: the device they belong to; else -1
} Entry;

struct CUctx_st { CUdevice device; };
struct CUstream_st { int unused; };
struct CUevent_st { int unused; };

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static Entry* g_entries;
static size_t g_count, g_capacity;
static size_t g_device_bytes;
static int g_initialized;

static __thread CUcontext t_stack[kMaxStack];
static __thread int t_depth;

// ---- configuration

static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}

static int device_count(void) { return env_int("CG_STANDIN_DEVICES", 1); }

static size_t total_bytes(void) { return (size_t) env_int("CG_STANDIN_MEMORY_MIB", 16384) << 20; }

// ---- registry (callers hold g_lock)

static int current_device(void);

static int add_entry(const void* p, size_t size, enum Kind kind) {
  if (g_count == g_capacity) {
    size_t cap = g_capacity ? 2 * g_capacity : 64;
    Entry* grown = realloc(g_entries, cap * sizeof *grown);
    if (!grown) return 0;
    g_entries = grown;
    g_capacity = cap;
  }
  const int owned = kind == KIND_DEVICE || kind == KIND_STREAM || kind == KIND_EVENT;
  g_entries[g_count++] = (Entry){(uintptr_t) p ^ kHide, size, kind, owned ? current_device() : -1};
  return 1;
}

// The entry of `kind` starting at p, or -1.
static long find_exact(const void* p, enum Kind kind) {
  for (size_t i = 0; i < g_count; i++)
    if ((g_entries[i].hidden ^ kHide) == (uintptr_t) p && g_entries[i].kind == kind) return (long) i;
  return -1;
}

// The memory entry holding address p (device, pinned or registered host memory), or -1.
static long find_containing(uintptr_t p) {
  for (size_t i = 0; i < g_count; i++) {
    const Entry* e = &g_entries[i];
    const uintptr_t base = e->hidden ^ kHide;
    if (e->kind <= KIND_HOST_REGISTERED && p >= base && p < base + e->size) return (long) i;
  }
  return -1;
}

static void remove_entry(long i) { g_entries[i] = g_entries[--g_count]; }

// The device of the handle or memory `p` of `kind` (-1: unknown).
static int device_of(const void* p, enum Kind kind) {
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(p, kind);
  const int device = i >= 0 ? g_entries[i].device : -1;
  pthread_mutex_unlock(&g_lock);
  return device;
}

static int known(const void* p, enum Kind kind) {
  pthread_mutex_lock(&g_lock);
  const int found = find_exact(p, kind) >= 0;
  pthread_mutex_unlock(&g_lock);
  return found;
}

// ---- checks shared by the calls

static int strict(void) { return env_int("CG_STANDIN_STRICT", 0); }

// The device of the current context; 0 when none is current (what a runtime call would create).
static int current_device(void) { return t_depth > 0 ? t_stack[t_depth - 1]->device : 0; }

// Strict: `what` (memory, a stream or an event of `device`) used while another device's context
// is current fails, as work on the wrong GPU would.
static CUresult need_device(int device, const char* call, const char* what) {
  if (device < 0 || device == current_device() || !strict()) return CUDA_SUCCESS;
  fprintf(stderr, "cudagaussian stand-in driver: %s on %s of device %d with a context of device %d "
          "current\n", call, what, device, current_device());
  return CUDA_ERROR_INVALID_CONTEXT;
}

static CUresult need_context(const char* call) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (t_depth > 0 || !strict()) return CUDA_SUCCESS;
  fprintf(stderr, "cudagaussian stand-in driver: %s without a current CUDA context\n", call);
  return CUDA_ERROR_INVALID_CONTEXT;
}

// ---- initialisation, errors, devices

EXPORT CUresult cuInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (device_count() <= 0) return CUDA_ERROR_NO_DEVICE;
  g_initialized = 1;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;
  return CUDA_SUCCESS;
}

static const struct { CUresult code; const char* name; const char* text; } kErrors[] = {
  {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
  {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
  {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
  {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
  {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
  {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
  {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
  {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
  {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
  {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
   "part or all of the requested memory range is already mapped"},
  {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
   "pointer does not correspond to a registered memory region"},
  {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported (stand-in driver)"},
  {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static CUresult describe(CUresult error, const char** str, int text) {
  if (!str) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof kErrors / sizeof kErrors[0]; i++)
    if (kErrors[i].code == error) {
      *str = text ? kErrors[i].text : kErrors[i].name;
      return CUDA_SUCCESS;
    }
  *str = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char** str) { return describe(error, str, 0); }
EXPORT CUresult cuGetErrorString(CUresult error, const char** str) { return describe(error, str, 1); }

EXPORT CUresult cuDeviceGetCount(int* count) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = device_count();
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal < 0 || ordinal >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char* name, int len, CUdevice device) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, (size_t) len, "cudagaussian CPU stand-in %d", device);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  switch (attribute) {
    case 14: *value = 512; break;  // CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT
    case 16: *value = 8; break;    // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    case 41: *value = 1; break;    // CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING
    case 51: *value = 32; break;   // CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT
    case 75: *value = 9; break;    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    case 76: *value = 0; break;    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
    default: *value = 0; break;
  }
  return CUDA_SUCCESS;
}

static int peer_access(void) { return env_int("CG_STANDIN_PEER", 0); }

EXPORT CUresult cuDeviceCanAccessPeer(int* can, CUdevice device, CUdevice peer) {
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= device_count() || peer < 0 || peer >= device_count())
    return CUDA_ERROR_INVALID_DEVICE;
  *can = peer_access() && device != peer;
  return CUDA_SUCCESS;
}

// ---- contexts: a per-thread stack of handles

EXPORT CUresult cuCtxCreate_v2(CUcontext* ctx, unsigned int flags, CUdevice device) {
  (void) flags;
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  if (t_depth == kMaxStack) return CUDA_ERROR_UNKNOWN;
  CUcontext c = malloc(sizeof *c);
  if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
  c->device = device;
  pthread_mutex_lock(&g_lock);
  const int added = add_entry(c, 0, KIND_CONTEXT);
  pthread_mutex_unlock(&g_lock);
  if (!added) {
    free(c);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  t_stack[t_depth++] = c;  // a new context is current on the creating thread
  *ctx = c;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(ctx, KIND_CONTEXT);
  if (i >= 0) remove_entry(i);
  pthread_mutex_unlock(&g_lock);
  if (i < 0) return CUDA_ERROR_INVALID_CONTEXT;
  // Like the driver: no longer current on this thread.
  int kept = 0;
  for (int k = 0; k < t_depth; k++)
    if (t_stack[k] != ctx) t_stack[kept++] = t_stack[k];
  t_depth = kept;
  free(ctx);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!known(ctx, KIND_CONTEXT)) return CUDA_ERROR_INVALID_CONTEXT;
  if (t_depth == kMaxStack) return CUDA_ERROR_UNKNOWN;
  t_stack[t_depth++] = ctx;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPopCurrent_v2(CUcontext* ctx) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (t_depth == 0) return CUDA_ERROR_INVALID_CONTEXT;
  CUcontext top = t_stack[--t_depth];
  if (ctx) *ctx = top;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext* ctx) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  *ctx = t_depth ? t_stack[t_depth - 1] : NULL;
  return CUDA_SUCCESS;
}

// Peer access is a property of the two devices here (CG_STANDIN_PEER), not of the contexts.
EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (t_depth == 0 || !known(peer, KIND_CONTEXT)) return CUDA_ERROR_INVALID_CONTEXT;
  return peer_access() && peer->device != current_device() ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer) {
  if (t_depth == 0 || !known(peer, KIND_CONTEXT)) return CUDA_ERROR_INVALID_CONTEXT;
  return peer_access() ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

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

// ---- the names without the _v2 suffix, for loaders that ask for those

#define ALIAS(old, v2) EXPORT __typeof__(v2) old __attribute__((alias(#v2)));
ALIAS(cuCtxCreate, cuCtxCreate_v2)
ALIAS(cuCtxDestroy, cuCtxDestroy_v2)
ALIAS(cuCtxPushCurrent, cuCtxPushCurrent_v2)
ALIAS(cuCtxPopCurrent, cuCtxPopCurrent_v2)
ALIAS(cuMemAlloc, cuMemAlloc_v2)
ALIAS(cuMemAllocPitch, cuMemAllocPitch_v2)
ALIAS(cuMemAllocHost, cuMemAllocHost_v2)
ALIAS(cuMemFree, cuMemFree_v2)
ALIAS(cuMemGetInfo, cuMemGetInfo_v2)
ALIAS(cuMemHostRegister, cuMemHostRegister_v2)
ALIAS(cuMemcpy2D, cuMemcpy2D_v2)
ALIAS(cuMemcpy2DAsync, cuMemcpy2DAsync_v2)
ALIAS(cuStreamDestroy, cuStreamDestroy_v2)
ALIAS(cuEventDestroy, cuEventDestroy_v2)
ALIAS(cuGraphicsResourceSetMapFlags, cuGraphicsResourceSetMapFlags_v2)
ALIAS(cuGraphicsResourceGetMappedPointer, cuGraphicsResourceGetMappedPointer_v2)
ALIAS(cuGLGetDevices, cuGLGetDevices_v2)

EXPORT size_t cg_standin_device_bytes(void) {
  pthread_mutex_lock(&g_lock);
  const size_t bytes = g_device_bytes;
  pthread_mutex_unlock(&g_lock);
  return bytes;
}
