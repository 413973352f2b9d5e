/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fault injection: each CUDA failure the element can meet (device allocation, stream or event
 * creation, a kernel launch, an asynchronous copy) is forced with the test-only switch of
 * kernels/cuda_status.h, and must end the pipeline with an ERROR message that says what failed
 * (never EOS, a hang or a crash), after which the pipeline goes to NULL cleanly and no GPU memory
 * is left behind.
 *
 * The element is registered statically from the sources linked into this program (meson runs it
 * without the plugin path), so that set_fault_for_tests() reaches the element's copy of the
 * switch. The environment variable, the user-facing switch, is checked in a child process
 * (it is read once per process). Without a CUDA device the program reports a skip. */
#include <sys/wait.h>

#include <atomic>
#include <string>

#include "device_memory.h"
#include "element_gpu_helpers.h"
#include "gstcudagaussian.h"

#include <gst/cuda/gstcudamemory.h>

namespace cg = cudagaussian;

static const char *kFaults[] = { "alloc", "stream", "launch", "copy", "pool" };
static const char *kSystemMemoryPipeline = "videotestsrc num-buffers=10 ! "
    "video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian name=blur ! "
    "fakesink name=sink signal-handoffs=true";
static const GstClockTime kTimeout = 20 * GST_SECOND;

static GstCudaContext *g_ctx;   /* shared by the pipelines, for the memory check */
static const char *g_self;      /* argv[0], for the child process */

struct Outcome
{
  bool error = false, eos = false;
  std::string message, debug, source;
  GstStateChangeReturn to_null = GST_STATE_CHANGE_FAILURE;
  GstState final_state = GST_STATE_VOID_PENDING;
  guint frames = 0;
};

struct HandoffHook
{
  std::atomic < guint > frames { 0 };
  guint fault_after = 0;        /* > 0: switch `fault` on after that many frames ... */
  const char *fault = NULL;
  double new_sigma = 0;         /* ... and, if > 0, set this sigma on the element "blur" */
  GstElement *blur = NULL;
};

static void
on_handoff (GstElement *, GstBuffer *, GstPad *, gpointer data)
{
  HandoffHook *hook = static_cast < HandoffHook * >(data);
  const guint n = ++hook->frames;
  if (hook->fault_after && n == hook->fault_after) {
    cg::set_fault_for_tests (hook->fault);
    if (hook->new_sigma > 0 && hook->blur)
      g_object_set (hook->blur, "sigma", hook->new_sigma, NULL);
  }
}

/* Runs @description until ERROR or EOS (or the timeout), then to NULL. */
static Outcome
run (const char *description, GstCudaContext * share, HandoffHook * hook = NULL)
{
  Outcome o;
  GError *perr = NULL;
  GstElement *pipeline = gst_parse_launch (description, &perr);
  if (!pipeline || perr) {
    o.message = std::string ("does not parse: ") + (perr ? perr->message : "?");
    g_clear_error (&perr);
    if (pipeline)
      gst_object_unref (pipeline);
    return o;
  }
  if (share)
    cgt::share_cuda_context (pipeline, share);
  HandoffHook local;
  if (!hook)
    hook = &local;
  hook->blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (sink) {
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), hook);
    gst_object_unref (sink);
  }

  GstBus *bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);  /* fails when start() fails */
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, kTimeout,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    o.error = true;
    o.message = err && err->message ? err->message : "";
    o.debug = dbg ? dbg : "";
    o.source = GST_MESSAGE_SRC (msg) ? GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)) : "";
    g_clear_error (&err);
    g_free (dbg);
  } else if (msg) {
    o.eos = true;
  }
  if (msg)
    gst_message_unref (msg);
  o.to_null = gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_element_get_state (pipeline, &o.final_state, NULL, 0);
  o.frames = hook->frames;
  gst_clear_object (&hook->blur);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return o;
}

static bool
mentions_gpu (const std::string & s)
{
  return s.find ("GPU") != std::string::npos || s.find ("CUDA") != std::string::npos;
}

static void
check_fault_outcome (const Outcome & o, const char *fault, const char *where)
{
  fail_if (o.eos, "%s, fault %s: the pipeline reached EOS instead of an error", where, fault);
  fail_unless (o.error, "%s, fault %s: no ERROR within %u s (hang?)", where, fault,
      (unsigned) (kTimeout / GST_SECOND));
  fail_unless (o.source == "blur", "%s, fault %s: first error from %s, not the element: %s",
      where, fault, o.source.c_str (), o.message.c_str ());
  fail_if (o.message.empty (), "%s, fault %s: empty error message", where, fault);
  fail_unless (mentions_gpu (o.message), "%s, fault %s: message does not say GPU/CUDA: %s",
      where, fault, o.message.c_str ());
  fail_unless (o.debug.find ("injected") != std::string::npos,
      "%s, fault %s: the details do not name the injected failure: %s", where, fault,
      o.debug.c_str ());
  fail_unless_equals_int (o.to_null, GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (o.final_state, GST_STATE_NULL);
  g_print ("%s, fault %-6s -> \"%s\" (%s)\n", where, fault, o.message.c_str (),
      o.debug.c_str ());
}

static void
check_clean_run (const char *description, guint frames)
{
  Outcome o = run (description, g_ctx);
  fail_if (o.error, "without a fault: %s (%s)", o.message.c_str (), o.debug.c_str ());
  fail_unless (o.eos, "without a fault: no EOS");
  fail_unless_equals_int (o.frames, frames);
  fail_unless_equals_int (o.to_null, GST_STATE_CHANGE_SUCCESS);
}

/* Every fault in turn, twice each, then a clean run: errors as expected, GPU memory flat. */
GST_START_TEST (test_each_fault_gives_an_error)
{
  check_clean_run (kSystemMemoryPipeline, 10);  /* warm-up: kernels loaded, pools created */
  const size_t before = cgt::gpu_free_bytes (g_ctx);
  for (int round = 0; round < 2; round++) {
    for (const char *fault : kFaults) {
      cg::set_fault_for_tests (fault);
      Outcome o = run (kSystemMemoryPipeline, g_ctx);
      cg::set_fault_for_tests (NULL);
      check_fault_outcome (o, fault, "system memory");
    }
  }
  check_clean_run (kSystemMemoryPipeline, 10);
  const size_t after = cgt::gpu_free_bytes (g_ctx);
  const double delta = cgt::mib ((double) before - (double) after);
  g_print ("GPU memory: %.1f MiB free before the faults, %.1f after (%.2f MiB less)\n",
      cgt::mib (before), cgt::mib (after), delta);
  fail_unless (before > 0 && after > 0, "cudaMemGetInfo failed");
  fail_unless (std::fabs (delta) <= 8.0, "GPU memory not flat: %.2f MiB", delta);
}
GST_END_TEST;

/* A fault in the middle of a stream, with frames in flight: the frames before it come out, then
 * an error, and the pipeline stops. Allocations happen when the blur is (re)planned, so the
 * alloc fault comes with a sigma change. */
GST_START_TEST (test_fault_mid_stream_with_frames_in_flight)
{
  const char *description = "videotestsrc num-buffers=60 ! "
      "video/x-raw,format=NV12,width=320,height=240 ! cudagaussian name=blur "
      "frames-in-flight=3 ! fakesink name=sink signal-handoffs=true";
  for (const char *fault : { "copy", "launch", "alloc" }) {
    HandoffHook hook;
    hook.fault_after = 5;
    hook.fault = fault;
    hook.new_sigma = g_str_equal (fault, "alloc") ? 3.5 : 0.0;
    Outcome o = run (description, g_ctx, &hook);
    cg::set_fault_for_tests (NULL);
    check_fault_outcome (o, fault, "mid-stream");
    fail_unless (o.frames >= hook.fault_after && o.frames < 60,
        "fault %s after %u frames: %u frames came out", fault, hook.fault_after, o.frames);
  }
}
GST_END_TEST;

/* The CUDA memory path (no staging copies): a failed launch is an error too. */
GST_START_TEST (test_launch_fault_in_cuda_memory)
{
  if (!cgt::have_cudaupload ())
    return;
  const char *description = "videotestsrc num-buffers=10 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudagaussian name=blur ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload ! fakesink name=sink "
      "signal-handoffs=true";
  check_clean_run (description, 10);
  cg::set_fault_for_tests ("launch");
  Outcome o = run (description, g_ctx);
  cg::set_fault_for_tests (NULL);
  check_fault_outcome (o, "launch", "CUDA memory");
}
GST_END_TEST;

/* Pinned host memory refused: the element's own output pool fails with an error that says which
 * memory, and the element recovers once pinning works again. */
GST_START_TEST (test_pinned_output_pool_fault)
{
  const GstVideoInfo info = cgt::video_info ("RGBA", 64, 48);
  GstHarness *h = cgt::new_blur_harness (1, g_ctx);
  GstBus *bus = cgt::attach_bus (h->element);
  gst_harness_set_src_caps_str (h, cgt::caps_string ("RGBA", 64, 48).c_str ());
  cg::set_fault_for_tests ("pinned");
  const GstFlowReturn ret = gst_harness_push (h, cgt::new_random_frame (info, 1));
  cg::set_fault_for_tests (NULL);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  std::string debug;
  const std::string msg = cgt::pop_error (bus, &debug);
  g_print ("pinned output pool refused: \"%s\" (%s)\n", msg.c_str (), debug.c_str ());
  fail_unless (msg.find ("pinned host memory") != std::string::npos, "unclear error: '%s'",
      msg.c_str ());
  fail_unless_equals_int (gst_harness_push (h, cgt::new_random_frame (info, 2)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "no frame after the fault was switched off");
  gst_buffer_unref (out);
  cgt::teardown_with_bus (h, bus);

  /* In a pipeline the source's buffers come from the pool the element proposed, which falls
   * back to ordinary memory: the first error is still the element's. */
  cg::set_fault_for_tests ("pinned");
  Outcome o = run (kSystemMemoryPipeline, g_ctx);
  cg::set_fault_for_tests (NULL);
  fail_unless (o.error && o.source == "blur", "pinned fault in a pipeline: first error from %s: %s",
      o.source.c_str (), o.message.c_str ());
  fail_unless (o.message.find ("pinned host memory") != std::string::npos, "unclear error: '%s'",
      o.message.c_str ());
}
GST_END_TEST;

/* The user-facing switch: CUDAGAUSSIAN_FAULT in the environment of a new process. */
GST_START_TEST (test_environment_variable)
{
  for (const char *fault : { "copy", "stream" }) {
    gchar **env = g_environ_setenv (g_get_environ (), "CUDAGAUSSIAN_FAULT", fault, TRUE);
    const gchar *argv[] = { g_self, "--env-child", NULL };
    gchar *out = NULL;
    gint status = 0;
    GError *err = NULL;
    const gboolean spawned = g_spawn_sync (NULL, (gchar **) argv, env, G_SPAWN_DEFAULT, NULL,
        NULL, &out, NULL, &status, &err);
    g_strfreev (env);
    fail_unless (spawned, "could not start %s: %s", g_self, err ? err->message : "?");
    g_print ("child with CUDAGAUSSIAN_FAULT=%s: %s", fault, out ? out : "");
    fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
        "CUDAGAUSSIAN_FAULT=%s: the child did not see the expected error (status %d)", fault,
        status);
    g_free (out);
  }
}
GST_END_TEST;

/* In the child: CUDAGAUSSIAN_FAULT is set, the hook is never called. */
static int
env_child (void)
{
  Outcome o = run (kSystemMemoryPipeline, NULL);
  const bool ok = o.error && !o.eos && o.source == "blur" && mentions_gpu (o.message) &&
      o.debug.find ("injected") != std::string::npos &&
      o.to_null == GST_STATE_CHANGE_SUCCESS;
  g_print ("%s: \"%s\" (%s)\n", ok ? "error as expected" : "UNEXPECTED", o.message.c_str (),
      o.debug.c_str ());
  return ok ? 0 : 1;
}

static Suite *
cudagaussian_faults_suite (void)
{
  Suite *s = suite_create ("cudagaussian-faults");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_each_fault_gives_an_error);
  tcase_add_test (tc, test_fault_mid_stream_with_frames_in_flight);
  tcase_add_test (tc, test_launch_fault_in_cuda_memory);
  tcase_add_test (tc, test_pinned_output_pool_fault);
  tcase_add_test (tc, test_environment_variable);
  return s;
}

static gboolean
register_static_element (void)
{
  gst_cuda_memory_init_once ();
  return GST_ELEMENT_REGISTER (cudagaussian, NULL);
}

int
main (int argc, char **argv)
{
  /* Only the statically registered element: the plugin's copy would not see the hook. */
  g_unsetenv ("GST_PLUGIN_PATH");
  g_unsetenv ("GST_PLUGIN_PATH_1_0");
  g_setenv ("CUDA_MODULE_LOADING", "EAGER", FALSE);     /* kernels loaded up front: steady memory */
  g_self = argv[0];

  if (argc > 1 && g_str_equal (argv[1], "--env-child")) {
    gst_init (NULL, NULL);
    if (!gst_cuda_load_library () || cg::cuda_device_count () == 0)
      return 77;
    if (!register_static_element ())
      return 1;
    return env_child ();
  }

  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library () || cg::cuda_device_count () == 0) {
    return cgt::skip_program ("no CUDA device");
  }
  /* No fail_unless here: check's assertions need a running test case. */
  if (!register_static_element ()) {
    g_print ("could not register the element statically\n");
    return 1;
  }
  g_ctx = gst_cuda_context_new (0);
  if (!g_ctx) {
    g_print ("could not create a CUDA context on device 0\n");
    return 1;
  }
  const int ret = cgt::run_suite (cudagaussian_faults_suite ());
  gst_object_unref (g_ctx);
  return ret;
}
