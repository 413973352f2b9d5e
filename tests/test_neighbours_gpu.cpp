/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What real neighbours and applications do to the elements, and what must hold then:
 *
 *   - sigma switched between 0 and non-zero from an application thread while frames stream, at
 *     1, 3 and 8 frames in flight, system and CUDA memory: every frame exactly once, in order,
 *     either untouched or blurred with one setting;
 *   - sigma 0 at start, then a blur: the output still comes from the element's pinned pool
 *     (system memory) or in CUDA memory (CUDA caps);
 *   - an upstream pool sized from the ALLOCATION answer's min_buffers never runs dry;
 *   - a DRAIN query returns once every held frame is out and every input buffer released;
 *   - buffers before caps: a not-negotiated error from the element (both elements);
 *   - inputs shorter than their video meta, in system memory (cudasobel) and in CUDA memory
 *     (both elements): refused before a kernel touches them, and the context stays usable;
 *   - interlaced caps: interleaved and mixed refused, alternate fields blurred one by one;
 *   - cuda-device-id naming a GPU that does not exist: an error that says so;
 *   - two elements behind a tee registering the same host memory for DMA.
 *
 * Without a CUDA device the program reports a skip. */
#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudamemory.h>

#include <atomic>
#include <random>
#include <thread>

#include "element_gpu_helpers.h"
#include "guarded_buffer.h"

namespace cg = cudagaussian;
using cgt::Blur;
using cgt::caps_string;
using cgt::video_info;

static GstCudaContext *g_ctx;

/* The planes of @in as they are: what an untouched frame must equal. */
static cgt::FrameValues
frame_values (const GstVideoInfo & info, GstBuffer * in)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (&info, &specs));
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_READ));
  cgt::FrameValues values;
  for (size_t p = 0; p < specs.size (); p++)
    values.push_back (cg::read_plane (specs[p].geometry, GST_VIDEO_FRAME_PLANE_DATA (&f, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (&f, p)));
  gst_video_frame_unmap (&f);
  return values;
}

static GstHarness *
new_cuda_harness (const char *element_line)
{
  GstHarness *h = gst_harness_new_parse (element_line);
  cgt::share_cuda_context (h->element, g_ctx);
  return h;
}

static GstElement *
harness_child (GstHarness * h, const char *name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (h->element), name);
  fail_unless (e != NULL, "no element %s", name);
  return e;
}

/* ---------------------------------------------------------------- passthrough switches */

/* Pushes @frames frames while another thread switches sigma between 0 and 2 at random moments;
 * every output must be its input untouched or its FIR blur at sigma 2, once each, in order. */
static void
toggle_while_streaming (guint depth, bool cuda, guint frames)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h;
  GstElement *blur;
  if (cuda) {
    gchar *line = g_strdup_printf ("cudaupload ! cudagaussian name=blur frames-in-flight=%u "
        "algorithm=fir ! cudadownload", depth);
    h = new_cuda_harness (line);
    g_free (line);
    blur = harness_child (h, "blur");
  } else {
    h = cgt::new_blur_harness (depth, g_ctx);
    blur = GST_ELEMENT (gst_object_ref (h->element));
    gst_util_set_object_arg (G_OBJECT (blur), "algorithm", "fir");
  }
  GstBus *bus = cgt::attach_bus (blur);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());

  std::atomic < bool > stop { false };
  std::thread toggler ([&] {
    std::mt19937 rng (depth * 7 + (cuda ? 1 : 0));
    while (!stop) {
      g_object_set (blur, "sigma", (rng () & 1) ? 2.0 : 0.0, NULL);
      g_usleep (rng () % 300);
    }
  });
  std::vector < GstBuffer * >inputs;
  for (guint i = 0; i < frames; i++) {
    GstBuffer *in = cgt::new_random_frame (info, 100000 * depth + i, i * GST_SECOND / 30);
    inputs.push_back (in);
    const GstFlowReturn ret = gst_harness_push (h, gst_buffer_ref (in));
    if (ret != GST_FLOW_OK) {
      stop = true;
      toggler.join ();
      fail ("depth %u %s: push %u returned %s (bus: %s)", depth, cuda ? "CUDA" : "system", i,
          gst_flow_get_name (ret), cgt::pop_error (bus).c_str ());
    }
  }
  stop = true;
  toggler.join ();
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  Blur b;
  guint untouched = 0, blurred = 0;
  for (guint i = 0; i < frames; i++) {
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "depth %u %s: only %u of %u frames came out", depth,
        cuda ? "CUDA" : "system", i, frames);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (inputs[i]));
    if (cgt::max_error (info, out, frame_values (info, inputs[i])) == 0.0) {
      untouched++;
    } else {
      std::string what = "depth " + std::to_string (depth) + (cuda ? " CUDA" : " system") +
          " frame " + std::to_string (i) + ": neither untouched nor blurred at sigma 2";
      cgt::check_frame (info, inputs[i], out, b, what);
      blurred++;
    }
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL, "more frames out than in");
  std::string err = cgt::pop_error (bus);
  fail_unless (err.empty (), "error on the bus: %s", err.c_str ());
  g_print ("depth %u, %s memory: %u frames, %u untouched, %u blurred\n", depth,
      cuda ? "CUDA" : "system", frames, untouched, blurred);
  fail_unless (untouched > 0 && blurred > 0, "the switches never changed a frame");
  for (GstBuffer * in : inputs)
    gst_buffer_unref (in);
  gst_object_unref (bus);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

/* CG_SOAK_FRAMES=N spreads at least N frames over the six runs (a soak); 400 each by default. */
GST_START_TEST (test_passthrough_switched_from_another_thread)
{
  const char *soak = g_getenv ("CG_SOAK_FRAMES");
  const guint frames = soak ? MAX (((guint) g_ascii_strtoull (soak, NULL, 10) + 5) / 6, 1u) : 400;
  for (guint depth : { 1u, 3u, 8u })
    toggle_while_streaming (depth, false, frames);
  if (cgt::have_cudaupload ())
    for (guint depth : { 1u, 3u, 8u })
      toggle_while_streaming (depth, true, frames);
}
GST_END_TEST;

/* sigma 0 when the caps come, then a blur: the outputs come from the element's pinned pool. */
GST_START_TEST (test_blur_after_passthrough_system_memory)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h = cgt::new_blur_harness (1, g_ctx);
  g_object_set (h->element, "sigma", 0.0, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "fir");
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  for (unsigned i = 0; i < 2; i++) {
    GstBuffer *in = cgt::new_random_frame (info, 10 + i);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out == in, "sigma 0: the buffer itself should pass");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_object_set (h->element, "sigma", 2.0, NULL);
  Blur b;
  for (unsigned i = 0; i < 4; i++) {
    GstBuffer *in = cgt::new_random_frame (info, 20 + i);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "frame %u after the switch did not come out", i);
    fail_unless (cgt::is_pinned (out), "frame %u after the switch is not in pinned memory", i);
    cgt::check_frame (info, in, out, b, "blur after passthrough");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* The same on CUDA caps: the blurred frames come out, in CUDA memory. */
GST_START_TEST (test_blur_after_passthrough_cuda_memory)
{
  if (!cgt::have_cudaupload ())
    return;
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h = new_cuda_harness ("cudaupload ! cudagaussian name=blur sigma=0 algorithm=fir");
  GstElement *blur = harness_child (h, "blur");
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("RGBA", 64, 48, true).c_str ());
  for (unsigned i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_harness_push (h, cgt::new_random_frame (info, 30 + i)),
        GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "sigma 0: frame %u did not come out", i);
    gst_buffer_unref (out);
  }
  g_object_set (blur, "sigma", 2.0, NULL);
  Blur b;
  for (unsigned i = 0; i < 4; i++) {
    GstBuffer *in = cgt::new_random_frame (info, 40 + i);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "frame %u of 4 after the switch did not come out", i);
    fail_unless (gst_is_cuda_memory (gst_buffer_peek_memory (out, 0)),
        "frame %u after the switch is not in CUDA memory", i);
    cgt::check_frame (info, in, out, b, "CUDA blur after passthrough");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_object_unref (blur);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* ---------------------------------------------------------------- allocation and drain */

/* An upstream that sizes its own bounded pool from the element's min_buffers (plus the one
 * buffer it fills) and never waits for a buffer: it must never find the pool empty. */
static void
bounded_upstream_pool (const char *element, guint depth)
{
  const bool sobel = g_str_equal (element, "cudasobel");
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstElement *e = gst_element_factory_make (element, NULL);
  g_object_set (e, "frames-in-flight", depth, NULL);
  GstContext *c = gst_context_new_cuda_context (g_ctx);
  gst_element_set_context (e, c);
  gst_context_unref (c);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  if (sobel)
    gst_harness_set_sink_caps_str (h, caps_string ("GRAY8", 64, 48).c_str ());

  GstCaps *caps = gst_caps_from_string (caps_string ("RGBA", 64, 48).c_str ());
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  guint min = 0;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, NULL);
  gst_query_unref (query);
  g_print ("%s, %u frame(s) in flight: min_buffers %u\n", element, depth, min);
  fail_unless (min >= depth, "%s holds %u input buffers but asks for %u", element, depth, min);

  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min + 1,
      min + 1);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  GstBufferPoolAcquireParams params = { };
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  for (guint i = 0; i < 4 * depth + 4; i++) {
    GstBuffer *in = NULL;
    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in, &params), GST_FLOW_OK);
    cgt::fill_random (in, i);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    while (GstBuffer * out = gst_harness_try_pull (h))
      gst_buffer_unref (out);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  gst_harness_teardown (h);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
}

GST_START_TEST (test_bounded_upstream_pool_never_runs_dry)
{
  for (const char *element : { "cudagaussian", "cudasobel" })
    for (guint depth : { 1u, 3u, 8u })
      bounded_upstream_pool (element, depth);
}
GST_END_TEST;

GST_START_TEST (test_drain_query_releases_every_frame)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h = cgt::new_blur_harness (3, g_ctx);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  GstBuffer *in[2];
  for (unsigned i = 0; i < 2; i++) {
    in[i] = cgt::new_random_frame (info, 50 + i, i * GST_SECOND / 30);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[i])), GST_FLOW_OK);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  GstQuery *drain = gst_query_new_drain ();
  gst_pad_peer_query (h->srcpad, drain);
  gst_query_unref (drain);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (unsigned i = 0; i < 2; i++) {
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (in[i]), 1);
    gst_buffer_unref (in[i]);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* ---------------------------------------------------------------- bad input */

/* appsrc without caps: the element says not-negotiated, first. */
GST_START_TEST (test_buffer_before_caps)
{
  for (const char *element : { "cudagaussian", "cudasobel" }) {
    gchar *line = g_strdup_printf ("appsrc name=src ! %s name=filter ! fakesink", element);
    GstElement *pipeline = gst_parse_launch (line, NULL);
    g_free (line);
    cgt::share_cuda_context (pipeline, g_ctx);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
    gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_new_allocate (NULL, 64 * 48 * 4,
            NULL));
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    fail_unless (m != NULL, "%s: neither an error nor EOS", element);
    fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR, "%s: EOS without an error",
        element);
    GError *err = NULL;
    gst_message_parse_error (m, &err, NULL);
    g_print ("%s, buffer before caps: %s: %s\n", element, GST_OBJECT_NAME (GST_MESSAGE_SRC (m)),
        err->message);
    fail_unless (g_str_equal (GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), "filter"),
        "%s: the first error came from %s", element, GST_OBJECT_NAME (GST_MESSAGE_SRC (m)));
    fail_unless (g_error_matches (err, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION),
        "%s: not a negotiation error", element);
    g_clear_error (&err);
    gst_message_unref (m);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (src);
    gst_object_unref (pipeline);
  }
}
GST_END_TEST;

/* cudasobel: an input whose meta describes more rows than its memory holds. */
GST_START_TEST (test_sobel_input_shorter_than_meta)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  GstContext *c = gst_context_new_cuda_context (g_ctx);
  gst_element_set_context (e, c);
  gst_context_unref (c);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstBus *bus = cgt::attach_bus (e);
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());
  gst_harness_set_sink_caps_str (h, caps_string ("GRAY8", 64, 48).c_str ());

  const gsize full = GST_VIDEO_INFO_SIZE (&info);
  GstBuffer *in = cgt::guarded_buffer (full - 10 * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0), 1);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_RGBA, 64, 48,
      1, (gsize *) info.offset, (gint *) info.stride);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  std::string msg = cgt::pop_error (bus);
  g_print ("cudasobel, input shorter than its meta: %s\n", msg.c_str ());
  fail_unless (msg.find ("smaller") != std::string::npos, "unclear error: '%s'", msg.c_str ());

  fail_unless_equals_int (gst_harness_push (h, cgt::new_random_frame (info, 2)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "no output after the refused frame");
  gst_buffer_unref (out);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A CUDA memory of @alloc_info's layout, random bytes, with a video meta that describes
 * @meta_info's size with the memory's own strides. */
static GstBuffer *
cuda_buffer (const GstVideoInfo & alloc_info, const GstVideoInfo & meta_info, unsigned seed)
{
  GstAllocator *allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  fail_unless (allocator != NULL);
  GstMemory *mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), g_ctx,
      &alloc_info);
  gst_object_unref (allocator);
  fail_unless (mem != NULL);
  const GstVideoInfo & layout = GST_CUDA_MEMORY_CAST (mem)->info;
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  cgt::fill_random (buf, seed);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&meta_info), GST_VIDEO_INFO_WIDTH (&meta_info),
      GST_VIDEO_INFO_HEIGHT (&meta_info), GST_VIDEO_INFO_N_PLANES (&meta_info),
      (gsize *) layout.offset, (gint *) layout.stride);
  return buf;
}

/* CUDA memory holding 8 rows under a meta of 48: refused before any kernel reads it; the shared
 * context still works afterwards (a fault would have poisoned it). */
GST_START_TEST (test_cuda_input_shorter_than_meta)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  const GstVideoInfo small = video_info ("RGBA", 64, 8);
  for (const char *element : { "cudagaussian", "cudasobel" }) {
    const bool sobel = g_str_equal (element, "cudasobel");
    GstElement *e = gst_element_factory_make (element, NULL);
    GstContext *c = gst_context_new_cuda_context (g_ctx);
    gst_element_set_context (e, c);
    gst_context_unref (c);
    GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
    GstBus *bus = cgt::attach_bus (e);
    gst_object_unref (e);
    gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48, true).c_str ());
    gst_harness_set_sink_caps_str (h, sobel ? caps_string ("GRAY8", 64, 48).c_str () :
        caps_string ("RGBA", 64, 48, true).c_str ());

    fail_unless_equals_int (gst_harness_push (h, cuda_buffer (small, info, 1)), GST_FLOW_ERROR);
    std::string msg = cgt::pop_error (bus);
    g_print ("%s, CUDA memory shorter than its meta: %s\n", element, msg.c_str ());
    fail_unless (msg.find ("smaller") != std::string::npos, "unclear error: '%s'",
        msg.c_str ());

    GstBuffer *in = cuda_buffer (info, info, 2);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "%s: no output after the refused frame", element);
    if (!sobel)
      cgt::check_frame (info, in, out, Blur (), "CUDA frame after the refused one");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* Interleaved and mixed interlacing are refused when the caps come; alternate (one field per
 * buffer) is blurred field by field, with the vertical sigma in field rows (half the frame's). */
GST_START_TEST (test_interlaced_caps)
{
  for (const char *mode : { "interleaved", "mixed" }) {
    GstHarness *h = cgt::new_blur_harness (1, g_ctx);
    GstBus *bus = cgt::attach_bus (h->element);
    std::string caps = caps_string ("RGBA", 64, 48) + ",interlace-mode=" + mode;
    gst_harness_push_event (h, gst_event_new_caps (gst_caps_from_string (caps.c_str ())));
    GstSegment segment;
    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_harness_push_event (h, gst_event_new_segment (&segment));
    const GstVideoInfo info = video_info ("RGBA", 64, 48);
    fail_unless_equals_int (gst_harness_push (h, cgt::new_random_frame (info, 1)),
        GST_FLOW_NOT_NEGOTIATED);
    std::string msg = cgt::pop_error (bus);
    g_print ("interlace-mode=%s: %s\n", mode, msg.c_str ());
    fail_unless (msg.find ("nterlace") != std::string::npos, "%s: unclear error '%s'", mode,
        msg.c_str ());
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }

  GstHarness *h = cgt::new_blur_harness (1, g_ctx);
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "fir");
  g_object_set (h->element, "sigma", 3.0, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw(format:Interlaced),format=RGBA,width=64,"
      "height=48,framerate=30/1,interlace-mode=alternate");
  const GstVideoInfo field = video_info ("RGBA", 64, 24);
  Blur b;
  b.sigma = 3.0;
  b.sigma_y = 1.5;
  for (unsigned i = 0; i < 4; i++) {
    GstBuffer *in = cgt::new_random_frame (field, 60 + i);
    GST_BUFFER_FLAG_SET (in, i % 2 ? GST_VIDEO_BUFFER_FLAG_BOTTOM_FIELD :
        GST_VIDEO_BUFFER_FLAG_TOP_FIELD);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    cgt::check_frame (field, in, out, b, "alternate field");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* ---------------------------------------------------------------- devices and sharing */

GST_START_TEST (test_missing_device_id_is_named)
{
  for (const char *element : { "cudagaussian", "cudasobel" }) {
    GstElement *e = gst_element_factory_make (element, NULL);
    g_object_set (e, "cuda-device-id", 7, NULL);
    GstBus *bus = cgt::attach_bus (e);
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    std::string msg = cgt::pop_error (bus);
    g_print ("%s cuda-device-id=7: %s\n", element, msg.c_str ());
    fail_unless (msg.find ("id 7") != std::string::npos && msg.find ("this machine has")
        != std::string::npos, "%s: unclear error '%s'", element, msg.c_str ());
    gst_element_set_state (e, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}
GST_END_TEST;

/* tee ! two blurs, the same few host buffers over and over: each memory is registered for DMA
 * once, stays registered, and no error comes. */
GST_START_TEST (test_tee_shares_host_memory)
{
  const GstVideoInfo info = video_info ("RGBA", 320, 240);
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! tee name=t "
      "t. ! queue ! cudagaussian frames-in-flight=3 ! fakesink "
      "t. ! queue ! cudagaussian frames-in-flight=3 ! fakesink", NULL);
  cgt::share_cuda_context (pipeline, g_ctx);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstCaps *caps = gst_caps_from_string (caps_string ("RGBA", 320, 240).c_str ());
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  GstBuffer *frames[4];
  for (unsigned k = 0; k < 4; k++)
    frames[k] = cgt::new_random_frame (info, 70 + k);
  for (unsigned i = 0; i < 400; i++) {
    GstBuffer *b = gst_buffer_copy (frames[i % 4]);     /* shares the memory */
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), b), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "no EOS");
  gst_message_unref (m);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (unsigned k = 0; k < 4; k++) {
    fail_unless (cgt::is_pinned (frames[k]), "frame memory %u is not registered", k);
    gst_buffer_unref (frames[k]);
  }
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static Suite *
neighbours_suite (void)
{
  Suite *s = suite_create ("cudafilter-neighbours");
  TCase *tc = tcase_create ("gpu");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_passthrough_switched_from_another_thread);
  tcase_add_test (tc, test_blur_after_passthrough_system_memory);
  tcase_add_test (tc, test_blur_after_passthrough_cuda_memory);
  tcase_add_test (tc, test_bounded_upstream_pool_never_runs_dry);
  tcase_add_test (tc, test_drain_query_releases_every_frame);
  tcase_add_test (tc, test_buffer_before_caps);
  tcase_add_test (tc, test_sobel_input_shorter_than_meta);
  tcase_add_test (tc, test_cuda_input_shorter_than_meta);
  tcase_add_test (tc, test_interlaced_caps);
  tcase_add_test (tc, test_missing_device_id_is_named);
  tcase_add_test (tc, test_tee_shares_host_memory);
  return s;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library () || cg::cuda_device_count () == 0) {
    return cgt::skip_program ("no CUDA device");
  }
  g_ctx = gst_cuda_context_new (0);
  if (!g_ctx) {
    g_print ("could not create a CUDA context on device 0\n");
    return 1;
  }
  const int ret = cgt::run_suite (neighbours_suite ());
  gst_object_unref (g_ctx);
  return ret;
}
