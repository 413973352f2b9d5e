// SPDX-License-Identifier: LGPL-2.1-or-later
// Error reporting for the CUDA layer: every CUDA call is checked and turned into a Status that
// carries a readable message with file and line. Nothing here exits or aborts.
#pragma once

#include <string>

#include <cuda_runtime_api.h>

namespace cudagaussian {

struct Status {
  cudaError_t cuda = cudaSuccess;  // the failing CUDA code, cudaSuccess for argument errors
  std::string message;             // empty when ok

  bool ok() const { return message.empty(); }
  static Status success() { return {}; }
  static Status invalid(std::string why) { return {cudaSuccess, std::move(why)}; }
};

Status cuda_failure(cudaError_t code, const char* call, const char* file, int line);

// ---- Fault injection: for tests only, never set it in production.
// CUDAGAUSSIAN_FAULT=alloc|stream|launch|copy|pinned|pool (a comma-separated list is allowed)
// makes the matching operation fail as if CUDA had refused it, so that tests can check that every
// failure becomes a clear error, never a crash, a hang or a leak:
//   alloc   device allocations (DeviceBuffer::reserve, DevicePlane::allocate)
//   stream  stream and event creation (CudaStream::create, CudaEvent::create)
//   launch  launch_check(), which callers run right after launching kernels
//   copy    asynchronous copies (copy_2d_async)
//   pinned  pinned host allocations (pinned_alloc)
//   pool    nothing here: the element checks it when it acquires an output buffer
// The variable is read once per process, on first use; unknown names are ignored.

// Whether the fault `what` (one of the names above) is switched on.
bool fault_injected(const char* what);

// Test hook: replaces the faults switched on (same syntax as CUDAGAUSSIAN_FAULT; nullptr or ""
// switches all off), taking precedence over the environment. Thread-safe; takes effect at the
// next operation. Note that it only affects the copy of this library it is linked with (a test
// that loads the plugin from a .so must register the element statically to use it).
void set_fault_for_tests(const char* faults);

// The check to run after launching kernels: the launch error, if any (cudaGetLastError), or the
// injected "launch" fault.
Status launch_check();

}  // namespace cudagaussian

// Returns a failed Status from the enclosing function when a CUDA call fails.
#define CG_CUDA_TRY(...)                                                               \
  do {                                                                                 \
    const cudaError_t cg_err_ = (__VA_ARGS__);                                         \
    if (cg_err_ != cudaSuccess)                                                        \
      return ::cudagaussian::cuda_failure(cg_err_, #__VA_ARGS__, __FILE__, __LINE__);  \
  } while (0)

// Propagates a failed Status.
#define CG_TRY(expr)                                   \
  do {                                                 \
    ::cudagaussian::Status cg_st_ = (expr);            \
    if (!cg_st_.ok()) return cg_st_;                   \
  } while (0)
