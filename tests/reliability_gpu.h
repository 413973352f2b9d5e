/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the element's reliability tests on a GPU share (test_reliability_*_gpu.cpp): one CUDA
 * context for most harnesses and pipelines, pushing and checking frames, and main(). Every
 * output is compared with the double references of common/ (at most 1 LSB off). The programs run
 * alone (meson: is_parallel false) because some measure the GPU's free memory. Without a CUDA
 * device a program reports a skip. */
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudamemory.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

#include "device_memory.h"
#include "element_gpu_helpers.h"
#include "guarded_buffer.h"

namespace cg = cudagaussian;
using cgt::Blur;
using cgt::caps_string;
using cgt::guarded_buffer;
using cgt::check_frame;
using cgt::new_blur_harness;
using cgt::new_random_frame;
using cgt::push_pull;
using cgt::video_info;

static GstCudaContext *g_ctx;   /* shared by most harnesses and pipelines: one context, fast */

static inline void
push_and_check (GstHarness * h, const GstVideoInfo & info, const Blur & b, unsigned seed,
    const std::string & what)
{
  GstBuffer *in = new_random_frame (info, seed);
  GstBuffer *out = push_pull (h, in);
  if (b.sigma == 0 && b.sy () == 0)
    fail_unless (out == in, "%s: sigma 0 should pass the buffer through", what.c_str ());
  else
    check_frame (info, in, out, b, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Pushes one frame that may be refused: OK with an output, or ERROR with a message. */
static inline void
push_ok_or_clear_error (GstHarness * h, GstBus * bus, const GstVideoInfo & info,
    unsigned seed, const char *what)
{
  GstBuffer *in = new_random_frame (info, seed);
  const GstFlowReturn ret = gst_harness_push (h, in);
  if (ret == GST_FLOW_OK) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL, "%s: accepted but no output", what);
    gst_buffer_unref (out);
    g_print ("%s: accepted\n", what);
  } else {
    std::string msg = cgt::pop_error (bus);
    fail_unless_equals_int (ret, GST_FLOW_ERROR);
    fail_if (msg.empty (), "%s: refused without an error message", what);
    g_print ("%s: refused: %s\n", what, msg.c_str ());
  }
}

/* main() of a reliability program: skips without a device, creates g_ctx, runs the test cases
 * that @add_tests adds (300 s each at most). */
static inline int
reliability_main (int argc, char **argv, void (*add_tests) (TCase *), const char * /* file */)
{
  g_setenv ("CUDA_MODULE_LOADING", "EAGER", FALSE);     /* kernels loaded up front: steady memory */
  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library () || cg::cuda_device_count () == 0) {
    return cgt::skip_program ("no CUDA device");
  }
  g_ctx = gst_cuda_context_new (0);
  if (!g_ctx) {
    g_print ("could not create a CUDA context on device 0\n");
    return 1;
  }
  Suite *s = suite_create ("cudagaussian-reliability");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  add_tests (tc);
  const int ret = cgt::run_suite (s);
  gst_object_unref (g_ctx);
  return ret;
}
