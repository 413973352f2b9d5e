/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reliability of the element on a GPU: lifecycle.
 *
 *   - NULL <-> PLAYING 500 times with GPU memory flat; EOS with frames in flight; frames-in-flight
 *     0 (auto); a flushing seek mid-stream.
 *
 * Helpers and main(): reliability_gpu.h. */
#include "reliability_gpu.h"

struct Handoffs
{
  std::mutex lock;
  std::vector < GstClockTime > pts;
};

static void
record_handoff (GstElement *, GstBuffer * buf, GstPad *, gpointer data)
{
  Handoffs *h = static_cast < Handoffs * >(data);
  std::lock_guard < std::mutex > g (h->lock);
  h->pts.push_back (GST_BUFFER_PTS (buf));
}

static size_t
handoff_count (Handoffs & h)
{
  std::lock_guard < std::mutex > g (h.lock);
  return h.pts.size ();
}

/* A pipeline with a fakesink named "sink" whose handoffs go to @handoffs; with @share, every
 * CUDA element uses that context. */
static GstElement *
new_pipeline (const std::string & description, Handoffs * handoffs, GstCudaContext * share)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description.c_str (), &err);
  fail_unless (pipeline != NULL && err == NULL, "%s: %s", description.c_str (),
      err ? err->message : "");
  if (share)
    cgt::share_cuda_context (pipeline, share);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  fail_unless (sink != NULL);
  g_object_set (sink, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (record_handoff), handoffs);
  gst_object_unref (sink);
  return pipeline;
}

/* PLAYING until EOS (failing on an ERROR or a timeout), then NULL. */
static void
play_to_eos (GstElement * pipeline, const char *what, GstClockTime timeout = 20 * GST_SECOND)
{
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE,
      "%s: could not start", what);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, timeout,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  fail_unless (m != NULL, "%s: no EOS within the timeout", what);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gst_message_parse_error (m, &err, NULL);
    fail ("%s: error: %s", what, err ? err->message : "?");
  }
  gst_message_unref (m);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
}

/* NULL <-> PLAYING 500 times: every cycle delivers its frames and GPU memory stays flat. */
GST_START_TEST (test_state_cycles_memory_flat)
{
  const int warmup = 5, cycles = 500;
  const std::string description = "videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=320,height=240 ! cudagaussian ! fakesink name=sink "
      "sync=false";
  Handoffs handoffs;
  GstElement *pipeline = new_pipeline (description, &handoffs, g_ctx);
  for (int i = 0; i < warmup; i++)
    play_to_eos (pipeline, "warm-up cycle");
  const size_t before = cgt::gpu_free_bytes (g_ctx);
  for (int i = 0; i < cycles; i++) {
    play_to_eos (pipeline, "state cycle");
    if (handoff_count (handoffs) != (size_t) (2 * (warmup + i + 1)))
      fail ("cycle %d: %zu frames out, expected %d", i, handoff_count (handoffs),
          2 * (warmup + i + 1));
  }
  const size_t after = cgt::gpu_free_bytes (g_ctx);
  gst_object_unref (pipeline);
  const double delta = cgt::mib ((double) before - (double) after);
  g_print ("%d NULL<->PLAYING cycles: GPU free %.1f MiB before, %.1f after (%.2f MiB less)\n",
      cycles, cgt::mib (before), cgt::mib (after), delta);
  fail_unless (before > 0 && after > 0, "cudaMemGetInfo failed");
  fail_unless (std::fabs (delta) <= 8.0, "GPU memory not flat over %d cycles: %.2f MiB", cycles,
      delta);

  /* Without a shared context: a new pipeline each time, whose element creates its own CUDA
   * context, destroyed with the pipeline. Flat too. */
  const int own = 12;
  Handoffs h2;
  size_t before2 = 0;
  for (int i = 0; i <= own; i++) {
    if (i == 1)
      before2 = cgt::gpu_free_bytes (g_ctx);    /* after one warm-up pipeline */
    GstElement *p2 = new_pipeline (description, &h2, NULL);
    play_to_eos (p2, "own-context cycle");
    gst_object_unref (p2);
  }
  const size_t after2 = cgt::gpu_free_bytes (g_ctx);
  const double delta2 = cgt::mib ((double) before2 - (double) after2);
  g_print ("%d pipelines with a context each: %.2f MiB less free\n", own, delta2);
  fail_unless_equals_int (handoff_count (h2), 2 * (own + 1));
  fail_unless (std::fabs (delta2) <= 8.0, "GPU memory not flat over %d own contexts: %.2f MiB",
      own, delta2);
}
GST_END_TEST;

/* EOS with frames in flight through a real pipeline: as many frames out as in, in order. */
GST_START_TEST (test_eos_with_frames_in_flight)
{
  const guint runs[][2] = { {4, 37}, {8, 5}, {3, 1}, {1, 10}, {16, 37}, {12, 7} };  /* depth, frames */
  for (auto & r : runs) {
    Handoffs handoffs;
    const std::string description = "videotestsrc num-buffers=" + std::to_string (r[1]) +
        " ! video/x-raw,format=RGBA,width=128,height=96 ! cudagaussian frames-in-flight=" +
        std::to_string (r[0]) + " ! fakesink name=sink sync=false";
    GstElement *pipeline = new_pipeline (description, &handoffs, g_ctx);
    play_to_eos (pipeline, description.c_str ());
    gst_object_unref (pipeline);
    fail_unless_equals_int (handoffs.pts.size (), r[1]);
    for (size_t i = 1; i < handoffs.pts.size (); i++)
      fail_unless (handoffs.pts[i] > handoffs.pts[i - 1], "%s: frame %zu out of order",
          description.c_str (), i);
  }
}
GST_END_TEST;

/* frames-in-flight=0 with a source that is not live: 8 frames in flight for frames in CUDA
 * memory of at most half a Full HD frame's pixels (so that they blur in batches), 3 for larger
 * ones and for system memory; the element adds (depth - 1) frames to upstream's latency; every
 * frame comes out. */
GST_START_TEST (test_auto_frames_in_flight)
{
  if (!cgt::have_cudaupload ())
    return;
  const struct
  {
    int width, height;
    bool cuda;
    guint depth;
  } cases[] = { {720, 576, true, 8}, {1280, 720, true, 8}, {1280, 818, true, 3},
  {1920, 1080, true, 3}, {720, 576, false, 3}
  };
  for (const auto & c : cases) {
    const std::string description = "videotestsrc num-buffers=12 ! video/x-raw,format=RGBA,width=" +
        std::to_string (c.width) + ",height=" + std::to_string (c.height) + ",framerate=25/1 ! " +
        (c.cuda ? "cudaupload ! video/x-raw(memory:CUDAMemory) ! " : "") +
        "cudagaussian name=blur ! " + (c.cuda ? "cudadownload ! " : "") +
        "fakesink name=sink sync=false";
    Handoffs handoffs;
    GstElement *pipeline = new_pipeline (description, &handoffs, g_ctx);
    fail_if (gst_element_set_state (pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL, 20 * GST_SECOND),
        GST_STATE_CHANGE_SUCCESS);
    GstElement *blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
    GstPad *src = gst_element_get_static_pad (blur, "src");
    GstPad *sink = gst_element_get_static_pad (blur, "sink");
    GstClockTime upstream = 0, min = 0;
    GstQuery *query = gst_query_new_latency ();
    const gboolean answered = gst_pad_peer_query (sink, query);
    gst_query_parse_latency (query, NULL, &upstream, NULL);
    gst_query_unref (query);
    query = gst_query_new_latency ();
    const gboolean answered_here = gst_pad_query (src, query);
    gst_query_parse_latency (query, NULL, &min, NULL);
    gst_query_unref (query);
    gst_object_unref (sink);
    gst_object_unref (src);
    gst_object_unref (blur);
    if (!answered || !answered_here || min != upstream + gst_util_uint64_scale (GST_SECOND,
            c.depth - 1, 25)) {
      gst_element_set_state (pipeline, GST_STATE_NULL);  /* nothing left running on failure */
      gst_object_unref (pipeline);
      fail ("%s: latency %" G_GUINT64_FORMAT " ns over upstream's %" G_GUINT64_FORMAT
          ", expected %u frames in flight", description.c_str (), min, upstream, c.depth);
    }
    play_to_eos (pipeline, description.c_str ());
    fail_unless_equals_int (handoff_count (handoffs), 12);
    gst_object_unref (pipeline);
  }
}
GST_END_TEST;

/* A flushing seek while frames are in flight: it completes, the frames of the new segment come
 * out, all of them and in order, then EOS. Real time (sync=true) so that the seek lands while
 * the stream runs. */
GST_START_TEST (test_flushing_seek_mid_stream)
{
  Handoffs handoffs;
  GstElement *pipeline = new_pipeline ("videotestsrc ! "
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! "
      "cudagaussian frames-in-flight=3 ! fakesink name=sink sync=true", &handoffs, g_ctx);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  for (int i = 0; i < 1000 && handoff_count (handoffs) < 10; i++)
    g_usleep (10000);
  fail_unless (handoff_count (handoffs) >= 10, "the stream did not start");

  const GstClockTime start = 5 * GST_SECOND, stop = 6 * GST_SECOND;
  fail_unless (gst_element_seek (pipeline, 1.0, GST_FORMAT_TIME,
          (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), GST_SEEK_TYPE_SET, start,
          GST_SEEK_TYPE_SET, stop), "the seek was refused");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  fail_unless (m != NULL, "no EOS after the seek");
  fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "error after the seek");
  gst_message_unref (m);
  gst_object_unref (bus);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);

  /* Before the seek: PTS < 5 s. After: 5 s, 5 s + 1/30, ... up to the stop, then nothing. */
  const std::vector < GstClockTime > &pts = handoffs.pts;
  size_t first = 0;
  while (first < pts.size () && pts[first] < start)
    first++;
  fail_unless (first < pts.size (), "no frame after the seek");
  const size_t after = pts.size () - first;
  g_print ("flushing seek: %zu frames before, %zu after\n", first, after);
  for (size_t k = 0; k < after; k++) {
    const GstClockTime expected = start + gst_util_uint64_scale (k, GST_SECOND, 30);
    fail_unless (pts[first + k] == expected, "frame %zu after the seek: PTS %" GST_TIME_FORMAT
        ", expected %" GST_TIME_FORMAT, k, GST_TIME_ARGS (pts[first + k]),
        GST_TIME_ARGS (expected));
  }
  fail_unless_equals_int (after, 30);
}
GST_END_TEST;

static void
add_tests (TCase * tc)
{
  tcase_add_test (tc, test_state_cycles_memory_flat);
  tcase_add_test (tc, test_eos_with_frames_in_flight);
  tcase_add_test (tc, test_auto_frames_in_flight);
  tcase_add_test (tc, test_flushing_seek_mid_stream);
}

int
main (int argc, char **argv)
{
  return reliability_main (argc, argv, add_tests, __FILE__);
}
