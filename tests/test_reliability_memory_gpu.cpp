/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reliability of the element on a GPU: unusual memory.
 *
 *   - unusual strides and plane offsets (GstVideoMeta, one memory per plane, read-only memory);
 *   - input buffers smaller than the caps or the video meta say: an error, no read past the end.
 *
 * Helpers and main(): reliability_gpu.h. */
#include "reliability_gpu.h"

/* The height in rows of plane @p. */
static int
plane_rows (const GstVideoInfo & info, guint p)
{
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++)
    if (GST_VIDEO_INFO_COMP_PLANE (&info, c) == p)
      return GST_VIDEO_INFO_COMP_HEIGHT (&info, c);
  return 0;
}

/* Planes in reverse order behind a 7-byte lead, odd strides (+13 bytes), 3 bytes between
 * planes, described by a GstVideoMeta; in one memory or one memory per plane. */
static GstBuffer *
new_unusual_buffer (const GstVideoInfo & info, bool memory_per_plane, unsigned seed)
{
  const guint n = GST_VIDEO_INFO_N_PLANES (&info);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  std::vector < gsize > ends;   /* where each memory ends, in plane order of the layout */
  gsize pos = 7;
  for (gint p = (gint) n - 1; p >= 0; p--) {
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p) + 13;
    offsets[p] = pos;
    pos += (gsize) strides[p] * plane_rows (info, p) + 3;
    ends.push_back (pos);
  }
  GstBuffer *buf = gst_buffer_new ();
  gsize start = 0;
  for (size_t k = 0; k < ends.size (); k++) {
    if (!memory_per_plane && k + 1 < ends.size ())
      continue;
    GstMemory *mem = gst_allocator_alloc (NULL, ends[k] - start, NULL);
    GstMapInfo map;
    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    cgt::fill_bytes (map.data, map.size, seed + k);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (buf, mem);
    start = ends[k];
  }
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info), n, offsets, strides);
  return buf;
}

GST_START_TEST (test_unusual_strides_offsets_and_memory)
{
  unsigned seed = 4000;
  GstHarness *h = new_blur_harness (1, g_ctx);
  g_object_set (h->element, "sigma", 3.0, NULL);
  Blur b;
  b.sigma = 3.0;
  for (const char *format : { "I420", "NV12", "RGBA", "RGB", "GRAY16_LE", "P010_10LE" }) {
    const GstVideoInfo info = video_info (format, 67, 45);
    gst_harness_set_src_caps_str (h, caps_string (format, 67, 45).c_str ());
    for (bool per_plane : { false, true }) {
      GstBuffer *in = new_unusual_buffer (info, per_plane, seed);
      seed += 10;
      GstBuffer *out = push_pull (h, in);
      check_frame (info, in, out, b, std::string (format) + (per_plane ?
              " one memory per plane" : " reversed planes, odd strides"));
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
  }

  /* Read-only memory that comes back (the element tries to page-lock it on its second visit;
   * whether that works or not, the frames stay right). */
  const GstVideoInfo info = video_info ("RGBA", 320, 240);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 320, 240).c_str ());
  GstBuffer *ro = guarded_buffer (GST_VIDEO_INFO_SIZE (&info), seed++, true);
  for (int i = 0; i < 3; i++) {
    GstBuffer *out = push_pull (h, ro);
    check_frame (info, ro, out, b, "read-only input, visit " + std::to_string (i + 1));
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  gst_buffer_unref (ro);
}
GST_END_TEST;

/* A buffer smaller than its caps (no meta) or its video meta say: an error that says so, and no
 * byte read past the end (the buffer ends at an inaccessible page). */
GST_START_TEST (test_input_smaller_than_caps)
{
  GstVideoInfo info = video_info ("RGBA", 64, 48);
  const gsize full = GST_VIDEO_INFO_SIZE (&info);
  GstHarness *h = new_blur_harness (1, g_ctx);
  GstBus *bus = cgt::attach_bus (h->element);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());

  GstBuffer *half = guarded_buffer (full / 2, 1);
  fail_unless_equals_int (gst_harness_push (h, half), GST_FLOW_ERROR);
  std::string msg = cgt::pop_error (bus);
  fail_unless (msg.find ("smaller") != std::string::npos, "without meta: '%s'", msg.c_str ());

  /* The meta describes a whole frame, the memory lacks its last 10 rows. */
  GstBuffer *short_meta = guarded_buffer (full - 10 * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0), 2);
  gst_buffer_add_video_meta_full (short_meta, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_RGBA,
      64, 48, 1, info.offset, info.stride);
  fail_unless_equals_int (gst_harness_push (h, short_meta), GST_FLOW_ERROR);
  msg = cgt::pop_error (bus);
  fail_unless (msg.find ("smaller") != std::string::npos, "with a meta: '%s'", msg.c_str ());

  /* Planar: the meta puts the V plane beyond the end. */
  GstVideoInfo i420 = video_info ("I420", 64, 48);
  gst_harness_set_src_caps_str (h, caps_string ("I420", 64, 48).c_str ());
  GstBuffer *no_v = guarded_buffer (GST_VIDEO_INFO_PLANE_OFFSET (&i420, 2) + 100, 3);
  gst_buffer_add_video_meta_full (no_v, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420, 64, 48,
      3, i420.offset, i420.stride);
  fail_unless_equals_int (gst_harness_push (h, no_v), GST_FLOW_ERROR);
  msg = cgt::pop_error (bus);
  fail_if (msg.empty (), "I420 without its V plane: no error message");
  g_print ("short I420: %s\n", msg.c_str ());

  /* The element still works after the errors. */
  Blur b;
  push_and_check (h, i420, b, 5, "a whole frame after the errors");
  cgt::teardown_with_bus (h, bus);

  /* In a pipeline: the error stops it, and it goes to NULL cleanly. */
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudagaussian name=blur ! fakesink", NULL);
  fail_unless (pipeline != NULL);
  cgt::share_cuda_context (pipeline, g_ctx);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstCaps *caps = gst_caps_from_string (caps_string ("RGBA", 64, 48).c_str ());
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), new_random_frame (info, 6,
              0)), GST_FLOW_OK);
  GstBuffer *shorter = guarded_buffer (full - 1, 7);
  GST_BUFFER_PTS (shorter) = GST_SECOND / 30;
  gst_app_src_push_buffer (GST_APP_SRC (src), shorter);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  GstBus *pbus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (pbus, 20 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  fail_unless (m != NULL, "the pipeline neither failed nor ended");
  fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR, "EOS instead of an error");
  fail_unless (g_str_equal (GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), "blur"),
      "the first error came from %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (m)));
  gst_message_unref (m);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pbus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static void
add_tests (TCase * tc)
{
  tcase_add_test (tc, test_unusual_strides_offsets_and_memory);
  tcase_add_test (tc, test_input_smaller_than_caps);
}

int
main (int argc, char **argv)
{
  return reliability_main (argc, argv, add_tests, __FILE__);
}
