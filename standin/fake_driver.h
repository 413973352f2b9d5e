// SPDX-License-Identifier: LGPL-2.1-or-later
// What the stand-in driver's files share (fake_libcuda.c: state, devices and contexts;
// fake_memory.c; fake_streams.c): the handle registry and the checks of every call. Not
// exported: the library is built with hidden visibility, and only EXPORT names are the driver.
#pragma once

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_cuda.h"

#define EXPORT __attribute__((visibility("default")))
// The name without the _v2 suffix, for loaders that ask for that (in v2's own file).
#define ALIAS(old, v2) EXPORT __typeof__(v2) old __attribute__((alias(#v2)));

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

extern pthread_mutex_t g_lock;
extern Entry* g_entries;
extern size_t g_count, g_capacity;
extern size_t g_device_bytes;
extern int g_initialized;
extern __thread CUcontext t_stack[kMaxStack];
extern __thread int t_depth;

// Configuration from the environment.
int env_int(const char* name, int fallback);
int device_count(void);
size_t total_bytes(void);
int peer_access(void);
int strict(void);

// The registry (callers hold g_lock, but for device_of and known, which take it).
int add_entry(const void* p, size_t size, enum Kind kind);
long find_exact(const void* p, enum Kind kind);
long find_containing(uintptr_t p);
void remove_entry(long i);
int device_of(const void* p, enum Kind kind);
int known(const void* p, enum Kind kind);

// Checks shared by the calls.
int current_device(void);
CUresult need_device(int device, const char* call, const char* what);
CUresult need_context(const char* call);
