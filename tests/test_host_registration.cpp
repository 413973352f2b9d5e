/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Two elements behind a tee see the same pageable memory at once: between them they page-lock
 * it once, and it stays page-locked until it is freed. On the CPU stand-in each registration
 * takes 20 ms (CG_STANDIN_REGISTER_DELAY_MS), so that two callers that checked before either
 * registered would both register: the second would fail and its marking would undo the first. */
#include <gst/check/gstcheck.h>
#include <gst/cuda/gstcudacontext.h>

#include <atomic>
#include <thread>

#include "device_memory.h"
#include "element_test_basics.h"
#include "host_registration.h"

GST_DEBUG_CATEGORY_STATIC (test_category);

static bool
page_locked (GstCudaContext * ctx, GstBuffer * buf)
{
  GstMapInfo map;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (gst_cuda_context_push (ctx));
  const bool pinned = cudagaussian::is_pinned (map.data);
  gst_cuda_context_pop (NULL);
  gst_buffer_unmap (buf, &map);
  return pinned;
}

GST_START_TEST (test_same_memory_from_two_threads)
{
  GST_DEBUG_CATEGORY_INIT (test_category, "host-registration-test", 0, "test");
  g_setenv ("CG_STANDIN_REGISTER_DELAY_MS", "20", TRUE);
  GstCudaContext *ctx = gst_cuda_context_new (0);
  fail_unless (ctx != NULL);
  for (int round = 0; round < 10; round++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 1 << 20, NULL);
    /* The first sighting only marks the memory; the second registers it. */
    fail_unless (gst_cuda_context_push (ctx));
    gst_cuda_filter_register_host_memory (NULL, test_category, ctx, buf);
    gst_cuda_context_pop (NULL);
    fail_if (page_locked (ctx, buf), "round %d: page-locked at its first sighting", round);

    std::atomic < int >ready (0);
    auto element = [&]() {
      gst_cuda_context_push (ctx);
      ready++;
      while (ready.load () < 2)
        std::this_thread::yield ();
      gst_cuda_filter_register_host_memory (NULL, test_category, ctx, buf);
      gst_cuda_context_pop (NULL);
    };
    std::thread a (element), b (element);
    a.join ();
    b.join ();
    fail_unless (page_locked (ctx, buf),
        "round %d: two elements registered the memory at once and it is not page-locked", round);
    gst_buffer_unref (buf);     /* unregisters */
  }
  gst_object_unref (ctx);
  g_unsetenv ("CG_STANDIN_REGISTER_DELAY_MS");
}
GST_END_TEST;

static Suite *
host_registration_suite (void)
{
  Suite *s = suite_create ("host-registration");
  TCase *tc = tcase_create ("registration");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_same_memory_from_two_threads);
  return s;
}

int
main (int argc, char **argv)
{
  return cgt::run_gpu_suite (argc, argv, host_registration_suite, NULL, NULL);
}
