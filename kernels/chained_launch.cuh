// SPDX-License-Identifier: LGPL-2.1-or-later
// Programmatic dependent launch (Hopper, sm_90+): a kernel of a chain on one stream is launched
// while the kernel before it is still running its last blocks, runs up to
// begin_chained_kernel() and waits there until that kernel has finished and its writes are
// visible. The launch and the blocks' start then overlap the previous kernel's tail instead of
// following it. On older GPUs the launches are plain ones and the wait compiles to nothing.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace cudagaussian {

// First thing in a kernel launched by launch_chained, before it touches global memory: lets the
// next kernel of the chain be launched (its blocks are placed only once every block of this one
// has started, so they never take an SM slot this one still needs) and waits for the previous
// kernel to complete. Waiting before any write also keeps the previous kernel's reads safe.
__device__ inline void begin_chained_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether the current device runs launches chained (compute capability 9.0 or later); false
// where it cannot be asked (the launch then reports what is wrong).
inline bool chaining_supported() {
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) return false;
  return major >= 9;
}

// Launches kernel<<<grid, block, shared, stream>>>(args...), overlapped with the kernel before it
// on the stream where `chained` (the device supports it: compute capability 9.0 or later). Every
// kernel launched this way must call begin_chained_kernel() before it reads or writes global
// memory.
template <typename... Params, typename... Args>
cudaError_t launch_chained(bool chained, void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared,
                           cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  cudaLaunchAttribute attribute[1] = {};
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = chained ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace cudagaussian
