/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cuda-device-id on a machine with two GPUs: each element works on the GPU it names.
 *
 *   - cudagaussian cuda-device-id=1 on system memory and on CUDA memory (GPU 1's, made directly
 *     and through cudaupload cuda-device-id=1): output equal to the CPU reference, the element's
 *     context on GPU 1, output CUDA memory of a GPU 1 context, its pointer on device 1
 *     (cuPointerGetAttribute, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL);
 *   - an explicit id refuses a context of the other GPU (set on the element, or left from
 *     before the id was set); -1 takes a neighbour's, whatever its GPU;
 *   - CUDA memory of GPU 0 into cudagaussian cuda-device-id=1 (a mismatch): output correct
 *     (peer copy, or through host memory without peer access) and on GPU 1, no error;
 *   - two pipelines, one per GPU, streaming at the same time in one process: both correct.
 *
 * With fewer than two CUDA devices the program reports a skip (exit 77). The stand-in run has
 * two fake devices, and its driver fails memory, stream and kernel work of one device done with
 * the other's context current (CG_STANDIN_STRICT); it covers the mismatch without and with peer
 * access (CG_STANDIN_PEER). */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudamemory.h>

#include <dlfcn.h>

#include "element_gpu_helpers.h"

namespace cg = cudagaussian;
using cgt::Blur;
using cgt::caps_string;
using cgt::video_info;

static GstCudaContext *g_ctx[2];

/* ---------------------------------------------------------------- where things are */

static guint
context_device (GstCudaContext * ctx)
{
  guint device = G_MAXUINT;
  g_object_get (ctx, "cuda-device-id", &device, NULL);
  return device;
}

/* The GPU of the context @element answers a context query with; fails without one. */
static guint
element_device (GstElement * element)
{
  GstCudaContext *ctx = cgt::element_cuda_context (element);
  fail_unless (ctx != NULL, "%s has no CUDA context", GST_ELEMENT_NAME (element));
  const guint device = context_device (ctx);
  gst_object_unref (ctx);
  return device;
}

/* The device ordinal the driver gives a device pointer (CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
 * cuda.h's 9), through the libcuda.so.1 that gst-cuda loaded; -1 when it cannot tell. */
static int
pointer_device (const void *ptr)
{
  typedef int (*PointerGetAttribute) (void *data, int attribute, unsigned long long ptr);
  static PointerGetAttribute get_attribute = [] {
    void *lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return lib ? (PointerGetAttribute) dlsym (lib, "cuPointerGetAttribute") : nullptr;
  }();
  int device = -1;
  if (!get_attribute || get_attribute (&device, 9, (unsigned long long) (uintptr_t) ptr) != 0)
    return -1;
  return device;
}

/* @out is one CUDA memory of a context on @device, and the driver puts its pointer there. */
static void
check_cuda_output_on (GstBuffer * out, guint device, const char *what)
{
  fail_unless (gst_buffer_n_memory (out) == 1, "%s: %u memories", what,
      gst_buffer_n_memory (out));
  GstMemory *mem = gst_buffer_peek_memory (out, 0);
  fail_unless (gst_is_cuda_memory (mem), "%s: output not in CUDA memory", what);
  const guint ctx_device = context_device (GST_CUDA_MEMORY_CAST (mem)->context);
  fail_unless_equals_int (ctx_device, device);
  GstMapInfo map;
  fail_unless (gst_memory_map (mem, &map, (GstMapFlags) (GST_MAP_READ | GST_MAP_CUDA)));
  const int ptr_device = pointer_device (map.data);
  gst_memory_unmap (mem, &map);
  fail_unless (ptr_device == (int) device, "%s: output pointer on device %d, not %u", what,
      ptr_device, device);
}

/* A buffer of one CUDA memory of @ctx, random bytes, with a video meta of its layout. */
static GstBuffer *
cuda_frame (GstCudaContext * ctx, const GstVideoInfo & info, unsigned seed)
{
  GstAllocator *allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  fail_unless (allocator != NULL);
  GstMemory *mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), ctx, &info);
  gst_object_unref (allocator);
  fail_unless (mem != NULL);
  const GstVideoInfo & layout = GST_CUDA_MEMORY_CAST (mem)->info;
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  fail_unless (cgt::fill_random (buf, seed));
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
      GST_VIDEO_INFO_N_PLANES (&info), (gsize *) layout.offset, (gint *) layout.stride);
  return buf;
}

static GstElement *
new_blur (gint device_id, guint frames_in_flight, GstCudaContext * share)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  fail_unless (e != NULL, "cudagaussian is not registered");
  g_object_set (e, "cuda-device-id", device_id, "frames-in-flight", frames_in_flight, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "algorithm", "fir");
  if (share) {
    GstContext *c = gst_context_new_cuda_context (share);
    gst_element_set_context (e, c);
    gst_context_unref (c);
  }
  return e;
}

/* Pushes @frames of @make (seeds from @seed) through @h and compares every output with the
 * reference; @check_output (may be NULL) looks at each output buffer too. */
template < typename Make, typename Check >
static void
run_frames (GstHarness * h, GstBus * bus, const GstVideoInfo & info, guint frames, unsigned seed,
    Make make, Check check_output, const std::string & what)
{
  std::vector < GstBuffer * >inputs;
  for (guint i = 0; i < frames; i++) {
    GstBuffer *in = make (seed + i);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    inputs.push_back (in);
    const GstFlowReturn ret = gst_harness_push (h, gst_buffer_ref (in));
    fail_unless (ret == GST_FLOW_OK, "%s: push %u returned %s (bus: %s)", what.c_str (), i,
        gst_flow_get_name (ret), cgt::pop_error (bus).c_str ());
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (guint i = 0; i < frames; i++) {
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "%s: only %u of %u frames came out (bus: %s)", what.c_str (), i,
        frames, cgt::pop_error (bus).c_str ());
    cgt::check_frame (info, inputs[i], out, Blur (), what + " frame " + std::to_string (i));
    check_output (out);
    gst_buffer_unref (out);
    gst_buffer_unref (inputs[i]);
  }
  const std::string err = cgt::pop_error (bus);
  fail_unless (err.empty (), "%s: error on the bus: %s", what.c_str (), err.c_str ());
}

/* ---------------------------------------------------------------- one element on GPU 1 */

GST_START_TEST (test_system_memory_on_gpu1)
{
  for (const GstVideoInfo & info : { video_info ("RGBA", 385, 289), video_info ("I420", 64, 48) }) {
    GstElement *e = new_blur (1, 3, NULL);
    GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
    GstBus *bus = cgt::attach_bus (e);
    const char *format = gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info));
    gst_harness_set_src_caps_str (h, caps_string (format, GST_VIDEO_INFO_WIDTH (&info),
            GST_VIDEO_INFO_HEIGHT (&info)).c_str ());
    const std::string what = std::string ("system memory on GPU 1, ") + format;
    run_frames (h, bus, info, 7, 100,[&](unsigned s) {
          return cgt::new_random_frame (info, s);}, [&](GstBuffer * out) {
          fail_unless (cgt::is_pinned (out), "%s: output not in pinned memory", what.c_str ());
        }, what);
    fail_unless_equals_int (element_device (e), 1);
    g_print ("%s: 7 frames correct, element on GPU %u\n", what.c_str (), element_device (e));
    gst_object_unref (e);
    cgt::teardown_with_bus (h, bus);
  }
}
GST_END_TEST;

/* CUDA memory of GPU 1's context in and out: read in place, written to the element's pool. */
GST_START_TEST (test_cuda_memory_on_gpu1)
{
  const GstVideoInfo info = video_info ("RGBA", 385, 289);
  GstElement *e = new_blur (1, 3, g_ctx[1]);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstBus *bus = cgt::attach_bus (e);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 385, 289, true).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 385, 289, true).c_str ());
  run_frames (h, bus, info, 7, 200,[&](unsigned s) {
        return cuda_frame (g_ctx[1], info, s);}, [&](GstBuffer * out) {
        check_cuda_output_on (out, 1, "CUDA memory on GPU 1");}, "CUDA memory on GPU 1");
  fail_unless_equals_int (element_device (e), 1);
  g_print ("CUDA memory on GPU 1: 7 frames correct, outputs on device 1\n");
  gst_object_unref (e);
  cgt::teardown_with_bus (h, bus);
}
GST_END_TEST;

/* cudaupload cuda-device-id=1 ! cudagaussian cuda-device-id=1 [! cudadownload]: the context
 * comes through the context query, not from the test. */
GST_START_TEST (test_cudaupload_on_gpu1)
{
  if (!cgt::have_cudaupload ())
    return;
  const GstVideoInfo info = video_info ("RGBA", 385, 289);
  for (bool download : { false, true }) {
    std::string line = "cudaupload cuda-device-id=1 ! cudagaussian name=blur cuda-device-id=1 "
        "algorithm=fir frames-in-flight=3";
    if (download)
      line += " ! cudadownload";
    GstHarness *h = gst_harness_new_parse (line.c_str ());
    GstElement *blur = gst_bin_get_by_name (GST_BIN (h->element), "blur");
    GstBus *bus = cgt::attach_bus (blur);
    gst_harness_set_src_caps_str (h, caps_string ("RGBA", 385, 289).c_str ());
    gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 385, 289, !download).c_str ());
    run_frames (h, bus, info, 7, 300,[&](unsigned s) {
          return cgt::new_random_frame (info, s);}, [&](GstBuffer * out) {
          if (!download)
            check_cuda_output_on (out, 1, "cudaupload on GPU 1");}, line);
    fail_unless_equals_int (element_device (blur), 1);
    g_print ("%s: 7 frames correct, blur on GPU 1\n", line.c_str ());
    gst_object_unref (blur);
    cgt::teardown_with_bus (h, bus);
  }
}
GST_END_TEST;

/* ---------------------------------------------------------------- contexts of the other GPU */

/* Starts a lone element (PAUSED, no data) and returns the GPU of its context. */
static guint
started_device (GstElement * e)
{
  GstBus *bus = cgt::attach_bus (e);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE,
      "could not start: %s", cgt::pop_error (bus).c_str ());
  const guint device = element_device (e);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
  return device;
}

GST_START_TEST (test_explicit_id_wins_over_other_gpu_context)
{
  /* A neighbour's context of GPU 0 set on an element that asks for GPU 1. */
  GstElement *e = new_blur (1, 1, g_ctx[0]);
  fail_unless_equals_int (started_device (e), 1);
  gst_object_unref (e);

  /* -1 takes the context it is given, on either GPU. */
  for (guint d : { 0u, 1u }) {
    e = new_blur (-1, 1, g_ctx[d]);
    fail_unless_equals_int (started_device (e), d);
    gst_object_unref (e);
  }

  /* A context taken while the id was -1, then the id set to the other GPU before starting. */
  e = new_blur (-1, 1, g_ctx[0]);
  g_object_set (e, "cuda-device-id", 1, NULL);
  fail_unless_equals_int (started_device (e), 1);
  gst_object_unref (e);
  g_print ("explicit cuda-device-id=1 never took GPU 0's context; -1 took either\n");
}
GST_END_TEST;

/* CUDA memory of GPU 0 into an element on GPU 1 (@ctx0, @ctx1: the two contexts, which have
 * peer access between them or not). */
static void
mismatch_case (GstCudaContext * ctx0, GstCudaContext * ctx1)
{
  const GstVideoInfo info = video_info ("RGBA", 385, 289);
  const bool peer = gst_cuda_context_can_access_peer (ctx1, ctx0);
  GstElement *e = new_blur (1, 3, ctx1);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstBus *bus = cgt::attach_bus (e);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 385, 289, true).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 385, 289, true).c_str ());
  const std::string what = std::string ("GPU 0 memory into GPU 1 (") +
      (peer ? "peer access" : "no peer access") + ")";
  run_frames (h, bus, info, 7, 400,[&](unsigned s) {
        return cuda_frame (ctx0, info, s);}, [&](GstBuffer * out) {
        check_cuda_output_on (out, 1, what.c_str ());}, what);
  fail_unless_equals_int (element_device (e), 1);
  g_print ("%s: 7 frames correct, outputs on device 1\n", what.c_str ());
  gst_object_unref (e);
  cgt::teardown_with_bus (h, bus);
}

GST_START_TEST (test_cuda_memory_of_other_gpu)
{
  mismatch_case (g_ctx[0], g_ctx[1]);
#ifdef CG_STANDIN
  /* The stand-in's devices have no peer access unless asked: a pair with it too. */
  g_setenv ("CG_STANDIN_PEER", "1", TRUE);
  GstCudaContext *p0 = gst_cuda_context_new (0), *p1 = gst_cuda_context_new (1);
  fail_unless (p0 && p1 && gst_cuda_context_can_access_peer (p1, p0));
  mismatch_case (p0, p1);
  gst_object_unref (p1);
  gst_object_unref (p0);
  g_unsetenv ("CG_STANDIN_PEER");
#endif
}
GST_END_TEST;

/* cudaupload cuda-device-id=0 ! cudagaussian cuda-device-id=1 ! cudadownload. */
GST_START_TEST (test_cudaupload_on_other_gpu)
{
  if (!cgt::have_cudaupload ())
    return;
  const GstVideoInfo info = video_info ("RGBA", 385, 289);
  const char *line = "cudaupload cuda-device-id=0 ! cudagaussian name=blur cuda-device-id=1 "
      "algorithm=fir frames-in-flight=3 ! cudadownload";
  GstHarness *h = gst_harness_new_parse (line);
  GstElement *blur = gst_bin_get_by_name (GST_BIN (h->element), "blur");
  GstBus *bus = cgt::attach_bus (blur);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 385, 289).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 385, 289).c_str ());
  run_frames (h, bus, info, 7, 500,[&](unsigned s) {
        return cgt::new_random_frame (info, s);}, [](GstBuffer *) {
      }, line);
  fail_unless_equals_int (element_device (blur), 1);
  g_print ("%s: 7 frames correct, blur on GPU 1\n", line);
  gst_object_unref (blur);
  cgt::teardown_with_bus (h, bus);
}
GST_END_TEST;

/* ---------------------------------------------------------------- one pipeline per GPU */

/* appsrc ! [cudaupload cuda-device-id=D !] cudagaussian cuda-device-id=D ! appsink, for GPU 0
 * and GPU 1 in one process, fed in turns so that both stream at once. */
static void
two_pipelines (bool cuda)
{
  const GstVideoInfo info = video_info ("RGBA", 640, 360);
  const guint frames = 60;
  GstElement *pipeline[2], *src[2], *sink[2], *blur[2];
  for (guint d = 0; d < 2; d++) {
    gchar *line = cuda ?
        g_strdup_printf ("appsrc name=src format=time ! cudaupload cuda-device-id=%u ! "
        "cudagaussian name=blur cuda-device-id=%u algorithm=fir frames-in-flight=3 ! "
        "cudadownload ! appsink name=sink sync=false", d, d) :
        g_strdup_printf ("appsrc name=src format=time ! cudagaussian name=blur "
        "cuda-device-id=%u algorithm=fir frames-in-flight=3 ! appsink name=sink sync=false", d);
    pipeline[d] = gst_parse_launch (line, NULL);
    fail_unless (pipeline[d] != NULL, "could not build: %s", line);
    g_free (line);
    src[d] = gst_bin_get_by_name (GST_BIN (pipeline[d]), "src");
    sink[d] = gst_bin_get_by_name (GST_BIN (pipeline[d]), "sink");
    blur[d] = gst_bin_get_by_name (GST_BIN (pipeline[d]), "blur");
    GstCaps *caps = gst_caps_from_string (caps_string ("RGBA", 640, 360).c_str ());
    gst_app_src_set_caps (GST_APP_SRC (src[d]), caps);
    gst_caps_unref (caps);
    fail_if (gst_element_set_state (pipeline[d], GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
  }
  std::vector < GstBuffer * >inputs[2];
  for (guint i = 0; i < frames; i++)
    for (guint d = 0; d < 2; d++) {
      GstBuffer *in = cgt::new_random_frame (info, 1000 * (d + 1) + i, i * GST_SECOND / 30);
      inputs[d].push_back (in);
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src[d]),
              gst_buffer_ref (in)), GST_FLOW_OK);
    }
  for (guint d = 0; d < 2; d++)
    gst_app_src_end_of_stream (GST_APP_SRC (src[d]));
  const char *memory = cuda ? "CUDA" : "system";
  for (guint d = 0; d < 2; d++) {
    for (guint i = 0; i < frames; i++) {
      GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink[d]), 60 * GST_SECOND);
      if (!sample) {
        GstBus *bus = gst_element_get_bus (pipeline[d]);
        GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
        GError *err = NULL;
        if (m)
          gst_message_parse_error (m, &err, NULL);
        fail ("GPU %u, %s memory: only %u of %u frames came out (%s)", d, memory, i, frames,
            err ? err->message : "no error");
      }
      const std::string what = std::string ("GPU ") + std::to_string (d) + ", " + memory +
          " memory, frame " + std::to_string (i);
      cgt::check_frame (info, inputs[d][i], gst_sample_get_buffer (sample), Blur (), what);
      gst_sample_unref (sample);
    }
    fail_unless_equals_int (element_device (blur[d]), d);
  }
  for (guint d = 0; d < 2; d++) {
    gst_element_set_state (pipeline[d], GST_STATE_NULL);
    for (GstBuffer * in : inputs[d])
      gst_buffer_unref (in);
    gst_object_unref (blur[d]);
    gst_object_unref (sink[d]);
    gst_object_unref (src[d]);
    gst_object_unref (pipeline[d]);
  }
  g_print ("two pipelines at once, %s memory: %u frames correct on each GPU\n", memory, frames);
}

GST_START_TEST (test_two_pipelines_at_once)
{
  two_pipelines (false);
  if (cgt::have_cudaupload ())
    two_pipelines (true);
}
GST_END_TEST;

static Suite *
two_gpus_suite (void)
{
  Suite *s = suite_create ("cudafilter-two-gpus");
  TCase *tc = tcase_create ("gpu");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_system_memory_on_gpu1);
  tcase_add_test (tc, test_cuda_memory_on_gpu1);
  tcase_add_test (tc, test_cudaupload_on_gpu1);
  tcase_add_test (tc, test_explicit_id_wins_over_other_gpu_context);
  tcase_add_test (tc, test_cuda_memory_of_other_gpu);
  tcase_add_test (tc, test_cudaupload_on_other_gpu);
  tcase_add_test (tc, test_two_pipelines_at_once);
  return s;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IONBF, 0);
#ifdef CG_STANDIN
  g_setenv ("CG_STANDIN_DEVICES", "2", FALSE);
#endif
  gst_check_init (&argc, &argv);
  const int devices = gst_cuda_load_library () ? cg::cuda_device_count () : 0;
  if (devices < 2) {
    return cgt::skip_program (devices == 1 ? "needs two CUDA devices (1 found)" :
        "needs two CUDA devices (none found)");
  }
  for (guint d = 0; d < 2; d++) {
    g_ctx[d] = gst_cuda_context_new (d);
    if (!g_ctx[d]) {
      g_print ("could not create a CUDA context on device %u\n", d);
      return 1;
    }
  }
  g_print ("%d CUDA devices; peer access 1 -> 0: %s\n", devices,
      gst_cuda_context_can_access_peer (g_ctx[1], g_ctx[0]) ? "yes" : "no");
  const int ret = cgt::run_suite (two_gpus_suite ());
  gst_object_unref (g_ctx[1]);
  gst_object_unref (g_ctx[0]);
  return ret;
}
