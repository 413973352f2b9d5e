// SPDX-License-Identifier: LGPL-2.1-or-later
// Copies from global to shared memory that run in the background (cp.async, compute capability
// 8.0 and later): a kernel issues them early, computes, and waits only when it needs the data,
// without holding the values in registers meanwhile. On older GPUs the copies are plain loads
// and stores, done at once.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cudagaussian {

// Copies kBytes (4: through L1, or 16: past it), both addresses aligned to kBytes.
template <int kBytes>
__device__ __forceinline__ void copy_async(void* shared, const void* global) {
  static_assert(kBytes == 4 || kBytes == 16, "cp.async pieces of 4 or 16 bytes");
  using Piece = std::conditional_t<kBytes == 4, uint32_t, uint4>;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  if constexpr (kBytes == 4)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(to), "l"(global) : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(global) : "memory");
#else
  *static_cast<Piece*>(shared) = *static_cast<const Piece*>(global);
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
