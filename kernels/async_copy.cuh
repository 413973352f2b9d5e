// SPDX-License-Identifier: LGPL-2.1-or-later
// Copies from global to shared memory that run in the background (cp.async, compute capability
// 8.0 and later): a kernel issues them early, computes, and waits only when it needs the data,
// without holding the values in registers meanwhile. On older GPUs the copies are plain loads
// and stores, done at once.
#pragma once

#include <cstdint>

namespace cudagaussian {

// Copies 4 bytes (both addresses 4-byte aligned) or 16 bytes (both 16-byte aligned).
__device__ __forceinline__ void copy_async_4(void* shared, const void* global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(to), "l"(global) : "memory");
#else
  *static_cast<uint32_t*>(shared) = *static_cast<const uint32_t*>(global);
#endif
}
__device__ __forceinline__ void copy_async_16(void* shared, const void* global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(global) : "memory");
#else
  *static_cast<uint4*>(shared) = *static_cast<const uint4*>(global);
#endif
}

// Waits for this thread's copies; a __syncwarp() or __syncthreads() after it shows every
// thread's copies to the others.
__device__ __forceinline__ void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

}  // namespace cudagaussian
