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
#include "fake_driver.h"

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
Entry* g_entries;
size_t g_count, g_capacity;
size_t g_device_bytes;
int g_initialized;

__thread CUcontext t_stack[kMaxStack];
__thread int t_depth;

// ---- configuration

int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}

int device_count(void) { return env_int("CG_STANDIN_DEVICES", 1); }

size_t total_bytes(void) { return (size_t) env_int("CG_STANDIN_MEMORY_MIB", 16384) << 20; }

// ---- registry (callers hold g_lock)

int current_device(void);

int add_entry(const void* p, size_t size, enum Kind kind) {
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
long find_exact(const void* p, enum Kind kind) {
  for (size_t i = 0; i < g_count; i++)
    if ((g_entries[i].hidden ^ kHide) == (uintptr_t) p && g_entries[i].kind == kind) return (long) i;
  return -1;
}

// The memory entry holding address p (device, pinned or registered host memory), or -1.
long find_containing(uintptr_t p) {
  for (size_t i = 0; i < g_count; i++) {
    const Entry* e = &g_entries[i];
    const uintptr_t base = e->hidden ^ kHide;
    if (e->kind <= KIND_HOST_REGISTERED && p >= base && p < base + e->size) return (long) i;
  }
  return -1;
}

void remove_entry(long i) { g_entries[i] = g_entries[--g_count]; }

// The device of the handle or memory `p` of `kind` (-1: unknown).
int device_of(const void* p, enum Kind kind) {
  pthread_mutex_lock(&g_lock);
  const long i = find_exact(p, kind);
  const int device = i >= 0 ? g_entries[i].device : -1;
  pthread_mutex_unlock(&g_lock);
  return device;
}

int known(const void* p, enum Kind kind) {
  pthread_mutex_lock(&g_lock);
  const int found = find_exact(p, kind) >= 0;
  pthread_mutex_unlock(&g_lock);
  return found;
}

// ---- checks shared by the calls

int strict(void) { return env_int("CG_STANDIN_STRICT", 0); }

// The device of the current context; 0 when none is current (what a runtime call would create).
int current_device(void) { return t_depth > 0 ? t_stack[t_depth - 1]->device : 0; }

// Strict: `what` (memory, a stream or an event of `device`) used while another device's context
// is current fails, as work on the wrong GPU would.
CUresult need_device(int device, const char* call, const char* what) {
  if (device < 0 || device == current_device() || !strict()) return CUDA_SUCCESS;
  fprintf(stderr, "cudagaussian stand-in driver: %s on %s of device %d with a context of device %d "
          "current\n", call, what, device, current_device());
  return CUDA_ERROR_INVALID_CONTEXT;
}

CUresult need_context(const char* call) {
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

int peer_access(void) { return env_int("CG_STANDIN_PEER", 0); }

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

ALIAS(cuCtxCreate, cuCtxCreate_v2)
ALIAS(cuCtxDestroy, cuCtxDestroy_v2)
ALIAS(cuCtxPushCurrent, cuCtxPushCurrent_v2)
ALIAS(cuCtxPopCurrent, cuCtxPopCurrent_v2)
