// SPDX-License-Identifier: LGPL-2.1-or-later
// The test-only fault switch of kernels/cuda_status.h, without a GPU: parsing, the environment
// variable (meson runs this program with CUDAGAUSSIAN_FAULT=stream), the test hook, and that the
// injected failures come back as CUDA-like Status values before any CUDA call is made.
#include <cstdlib>
#include <cstring>

#include "check.h"
#include "device_memory.h"

namespace cg = cudagaussian;

static bool mentions(const cg::Status& st, const char* text) {
  return st.message.find(text) != std::string::npos;
}

// Must run first: the variable is read on the first query.
CG_TEST(environment_variable_is_read) {
  const char* env = std::getenv("CUDAGAUSSIAN_FAULT");
  if (!env || std::strcmp(env, "stream") != 0) {
    std::printf("  (CUDAGAUSSIAN_FAULT is not 'stream' here; nothing to check)\n");
    return;
  }
  CHECK(cg::fault_injected("stream"));
  CHECK(!cg::fault_injected("alloc"));
  cg::CudaStream s;
  cg::Status st = s.create();
  CHECK(!st.ok());
  CHECK(st.cuda == cudaErrorMemoryAllocation);
  CHECK_MSG(mentions(st, "injected"), "%s", st.message.c_str());
  CHECK(s.get() == nullptr);
}

CG_TEST(hook_overrides_and_parses_lists) {
  cg::set_fault_for_tests(nullptr);
  for (const char* f : {"alloc", "stream", "launch", "copy"}) CHECK(!cg::fault_injected(f));
  cg::set_fault_for_tests("alloc,copy");
  CHECK(cg::fault_injected("alloc"));
  CHECK(cg::fault_injected("copy"));
  CHECK(!cg::fault_injected("stream"));
  CHECK(!cg::fault_injected("launch"));
  cg::set_fault_for_tests("launc,bogus,,allocx");  // unknown names are ignored
  for (const char* f : {"alloc", "stream", "launch", "copy"}) CHECK(!cg::fault_injected(f));
  cg::set_fault_for_tests("");
  CHECK(!cg::fault_injected("alloc"));
}

CG_TEST(each_fault_fails_its_operation) {
  cg::set_fault_for_tests("alloc");
  cg::DeviceBuffer b;
  cg::Status st = b.reserve(1024);
  CHECK(!st.ok() && st.cuda == cudaErrorMemoryAllocation && mentions(st, "injected"));
  CHECK(b.get() == nullptr && b.size() == 0);
  cg::DevicePlane p;
  st = p.allocate(64, 8);
  CHECK(!st.ok() && st.cuda == cudaErrorMemoryAllocation && mentions(st, "cudaMallocPitch"));
  CHECK(p.get() == nullptr);

  cg::set_fault_for_tests("stream");
  cg::CudaEvent e;
  st = e.create();
  CHECK(!st.ok() && mentions(st, "cudaEventCreateWithFlags"));

  cg::set_fault_for_tests("launch");
  st = cg::launch_check();
  CHECK(!st.ok() && st.cuda == cudaErrorLaunchFailure && mentions(st, "injected"));

  cg::set_fault_for_tests("copy");
  unsigned char src[16] = {0}, dst[16];
  st = cg::copy_2d_async(dst, 16, src, 16, 16, 1, nullptr);
  CHECK(!st.ok() && st.cuda == cudaErrorInvalidValue && mentions(st, "cudaMemcpy2DAsync"));

  cg::set_fault_for_tests("pinned");
  void* pinned = &dst;
  st = cg::pinned_alloc(64, &pinned);
  CHECK(!st.ok() && st.cuda == cudaErrorMemoryAllocation && mentions(st, "cudaHostAlloc"));
  CHECK(pinned == nullptr);

  cg::set_fault_for_tests(nullptr);
}

// "pool" is checked by the element; here only that the name is known.
CG_TEST(pinned_and_pool_names) {
  cg::set_fault_for_tests("pinned,pool");
  CHECK(cg::fault_injected("pinned"));
  CHECK(cg::fault_injected("pool"));
  CHECK(!cg::fault_injected("alloc"));
  cg::set_fault_for_tests(nullptr);
  CHECK(!cg::fault_injected("pool"));
}

CG_TEST_MAIN()
