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

}  // namespace cudagaussian

// Returns a failed Status from the enclosing function when a CUDA call fails.
#define CG_CUDA_TRY(call)                                                          \
  do {                                                                             \
    const cudaError_t cg_err_ = (call);                                            \
    if (cg_err_ != cudaSuccess)                                                    \
      return ::cudagaussian::cuda_failure(cg_err_, #call, __FILE__, __LINE__);     \
  } while (0)

// Propagates a failed Status.
#define CG_TRY(expr)                                   \
  do {                                                 \
    ::cudagaussian::Status cg_st_ = (expr);            \
    if (!cg_st_.ok()) return cg_st_;                   \
  } while (0)
