// SPDX-License-Identifier: LGPL-2.1-or-later
#include "cuda_status.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace cudagaussian {

Status cuda_failure(cudaError_t code, const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  Status s;
  s.cuda = code;
  s.message = std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ") from " +
              call + " at " + (base ? base + 1 : file) + ":" + std::to_string(line);
  return s;
}

// ---- fault injection (test-only; see cuda_status.h)

namespace {

const char* const kFaultNames[] = {"alloc", "stream", "launch", "copy", "pinned", "pool"};
constexpr int kNotRead = -1;
std::atomic<int> g_faults{kNotRead};  // bit i: kFaultNames[i]

int fault_bit(const char* name, size_t len) {
  for (int i = 0; i < static_cast<int>(sizeof kFaultNames / sizeof kFaultNames[0]); ++i)
    if (std::strlen(kFaultNames[i]) == len && std::strncmp(kFaultNames[i], name, len) == 0)
      return 1 << i;
  return 0;
}

int parse_faults(const char* list) {
  int mask = 0;
  for (const char* p = list; p && *p;) {
    const char* end = std::strchr(p, ',');
    const size_t len = end ? static_cast<size_t>(end - p) : std::strlen(p);
    mask |= fault_bit(p, len);
    p = end ? end + 1 : nullptr;
  }
  return mask;
}

int faults() {
  int mask = g_faults.load(std::memory_order_acquire);
  if (mask == kNotRead) {
    int expected = kNotRead;
    g_faults.compare_exchange_strong(expected, parse_faults(std::getenv("CUDAGAUSSIAN_FAULT")),
                                     std::memory_order_acq_rel);
    mask = g_faults.load(std::memory_order_acquire);
  }
  return mask;
}

}  // namespace

bool fault_injected(const char* what) {
  const int mask = faults();
  return mask != 0 && (mask & fault_bit(what, std::strlen(what))) != 0;
}

void set_fault_for_tests(const char* list) {
  g_faults.store(parse_faults(list), std::memory_order_release);
}

Status launch_check() {
  if (fault_injected("launch"))
    return cuda_failure(cudaErrorLaunchFailure,
                        "kernel launch (fault injected by CUDAGAUSSIAN_FAULT=launch)", __FILE__,
                        __LINE__);
  CG_CUDA_TRY(cudaGetLastError());
  return Status::success();
}

}  // namespace cudagaussian
