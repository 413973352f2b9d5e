/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reliability of the element on a GPU: sharing and threads.
 *
 *   - two elements sharing one CUDA context; two pipelines in parallel threads; properties
 *     changed from another thread on every frame (no torn frames).
 *
 * Helpers and main(): reliability_gpu.h. */
#include "reliability_gpu.h"

/* The rounded, clamped values a frame would hold: the reference stored and read back. */
static GstBuffer *
store_frame (const GstVideoInfo & info, const cgt::FrameValues & values)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (&info, &specs));
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
  for (size_t p = 0; p < specs.size (); p++)
    cg::store_plane (specs[p].geometry, values[p], GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p));
  gst_video_frame_unmap (&f);
  return buf;
}

/* cudaupload ! cudagaussian ! cudagaussian ! cudadownload: both blurs run in the one context
 * of the pipeline and their result is the reference applied twice. */
GST_START_TEST (test_two_elements_share_a_context)
{
  if (!cgt::have_cudaupload ())
    return;
  unsigned seed = 5000;
  for (const char *format : { "RGBA", "NV12" }) {
    const GstVideoInfo info = video_info (format, 385, 288);
    GstHarness *h = gst_harness_new_parse ("cudaupload name=up ! "
        "video/x-raw(memory:CUDAMemory) ! cudagaussian name=a sigma=2 frames-in-flight=1 ! "
        "video/x-raw(memory:CUDAMemory) ! cudagaussian name=b sigma=3 frames-in-flight=1 ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload");
    gst_harness_set_src_caps_str (h, caps_string (format, 385, 288).c_str ());
    GstBuffer *in = new_random_frame (info, seed++);
    GstBuffer *out = push_pull (h, in);

    GstElement *a = gst_bin_get_by_name (GST_BIN (h->element), "a");
    GstElement *b = gst_bin_get_by_name (GST_BIN (h->element), "b");
    GstElement *upload = gst_bin_get_by_name (GST_BIN (h->element), "up");
    GstCudaContext *ca = cgt::element_cuda_context (a);
    GstCudaContext *cb = cgt::element_cuda_context (b);
    GstCudaContext *cu = cgt::element_cuda_context (upload);
    fail_unless (ca != NULL && cb != NULL, "%s: an element has no CUDA context", format);
    fail_unless (ca == cb, "%s: the two cudagaussian elements use different contexts", format);
    fail_unless (cu == NULL || cu == ca, "%s: cudaupload uses another context", format);
    gst_clear_object (&ca);
    gst_clear_object (&cb);
    gst_clear_object (&cu);
    gst_object_unref (a);
    gst_object_unref (b);
    gst_object_unref (upload);

    Blur b2, b3;
    b2.sigma = 2;
    b3.sigma = 3;
    std::string why;
    cgt::FrameValues once = cgt::reference_frame (info, in, b2, &why);
    fail_if (once.empty (), "%s", why.c_str ());
    GstBuffer *mid = store_frame (info, once);
    check_frame (info, mid, out, b3, std::string (format) + " blurred twice", 2.0);
    gst_buffer_unref (mid);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* One pipeline's worth of work for a thread: no GstCheck assertions here, errors come back. */
static std::string
stream_frames (GstHarness * h, const GstVideoInfo & info, const Blur & b, int frames,
    unsigned seed)
{
  std::deque < GstBuffer * >pending;
  std::string errors;
  int out_count = 0;
  auto take = [&](GstBuffer * out) {
    GstBuffer *in = pending.front ();
    pending.pop_front ();
    if (!out) {
      errors += "missing output; ";
    } else {
      if (GST_BUFFER_PTS (out) != GST_BUFFER_PTS (in))
        errors += "frame " + std::to_string (out_count) + " out of order; ";
      if (out_count % 10 == 0) {
        std::string why;
        cgt::FrameValues ref = cgt::reference_frame (info, in, b, &why);
        const double err = ref.empty ()? -1.0 : cgt::max_error (info, out, ref);
        if (err < 0 || err > 1.0)
          errors += "frame " + std::to_string (out_count) + ": max error " +
              std::to_string (err) + " " + why + "; ";
      }
      gst_buffer_unref (out);
    }
    gst_buffer_unref (in);
    out_count++;
  };
  for (int i = 0; i < frames && errors.empty (); i++) {
    GstBuffer *in = new_random_frame (info, seed + i, i * GST_SECOND / 30);
    pending.push_back (gst_buffer_ref (in));
    if (gst_harness_push (h, in) != GST_FLOW_OK) {
      errors += "push of frame " + std::to_string (i) + " failed; ";
      break;
    }
    while (gst_harness_buffers_in_queue (h) > 0)
      take (gst_harness_pull (h));
  }
  if (!gst_harness_push_event (h, gst_event_new_eos ()))
    errors += "EOS refused; ";
  while (!pending.empty ())
    take (gst_harness_pull (h));
  if (out_count != frames)
    errors += std::to_string (out_count) + " of " + std::to_string (frames) + " frames out; ";
  return errors;
}

/* Two pipelines (each element with its own context) on one GPU, streaming in parallel. */
GST_START_TEST (test_two_pipelines_in_parallel_threads)
{
  const int frames = 200;
  const GstVideoInfo rgba = video_info ("RGBA", 320, 240), nv12 = video_info ("NV12", 320, 240);
  GstHarness *h1 = new_blur_harness (3);
  GstHarness *h2 = new_blur_harness (1);
  g_object_set (h1->element, "sigma", 2.0, NULL);
  g_object_set (h2->element, "sigma", 5.0, NULL);
  gst_harness_set_src_caps_str (h1, caps_string ("RGBA", 320, 240).c_str ());
  gst_harness_set_src_caps_str (h2, caps_string ("NV12", 320, 240).c_str ());
  Blur b1, b2;
  b1.sigma = 2.0;
  b1.algorithm = b2.algorithm = cg::Algorithm::Auto;
  b2.sigma = 5.0;
  std::string e1, e2;
  std::thread t1 ([&] {
        e1 = stream_frames (h1, rgba, b1, frames, 6000);
      });
  std::thread t2 ([&] {
        e2 = stream_frames (h2, nv12, b2, frames, 7000);
      });
  t1.join ();
  t2.join ();
  fail_unless (e1.empty (), "RGBA pipeline: %s", e1.c_str ());
  fail_unless (e2.empty (), "NV12 pipeline: %s", e2.c_str ());
  gst_harness_teardown (h1);
  gst_harness_teardown (h2);
}
GST_END_TEST;

/* Another thread sets sigma 2 and 5 in turn as fast as it can while 100 frames go through:
 * every output is entirely the sigma-2 or entirely the sigma-5 blur of its input. */
GST_START_TEST (test_properties_changed_from_another_thread)
{
  /* Depth 12: batches of 3 frames, which a changed sigma splits. */
  for (guint depth : { 1u, 3u, 12u }) {
    const char *format = depth == 3 ? "NV12" : "RGBA";
    const GstVideoInfo info = video_info (format, 128, 96);
    GstHarness *h = new_blur_harness (depth, g_ctx);
    gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "fir");
    gst_harness_set_src_caps_str (h, caps_string (format, 128, 96).c_str ());
    std::atomic < bool > stop { false };
    std::atomic < long > toggles { 0 };
    GstElement *e = h->element;
    std::thread toggler ([&] {
          while (!stop) {
            g_object_set (e, "sigma", 2.0, NULL);
            g_object_set (e, "sigma", 5.0, NULL);
            toggles++;
          }
        });
    const int frames = 100;
    std::deque < GstBuffer * >pending;
    int out_count = 0, as2 = 0, as5 = 0;
    std::string torn;
    Blur b2, b5;
    b2.sigma = 2.0;
    b5.sigma = 5.0;
    auto take = [&](GstBuffer * out) {
      GstBuffer *in = pending.front ();
      pending.pop_front ();
      std::string why;
      const double err2 = cgt::max_error (info, out, cgt::reference_frame (info, in, b2, &why));
      const double err5 = cgt::max_error (info, out, cgt::reference_frame (info, in, b5, &why));
      if (err2 >= 0 && err2 <= 1.0)
        as2++;
      else if (err5 >= 0 && err5 <= 1.0)
        as5++;
      else if (torn.empty ())
        torn = "frame " + std::to_string (out_count) + ": max error " + std::to_string (err2) +
            " vs sigma 2, " + std::to_string (err5) + " vs sigma 5";
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      out_count++;
    };
    for (int i = 0; i < frames; i++) {
      GstBuffer *in = new_random_frame (info, 8000 + i, i * GST_SECOND / 30);
      pending.push_back (gst_buffer_ref (in));
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      while (gst_harness_buffers_in_queue (h) > 0)
        take (gst_harness_pull (h));
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    while (!pending.empty ())
      take (gst_harness_pull (h));
    stop = true;
    toggler.join ();
    g_print ("frames-in-flight %u: %d frames at sigma 2, %d at sigma 5, %ld toggles\n", depth,
        as2, as5, toggles.load ());
    fail_unless (torn.empty (), "frames-in-flight %u: torn frame: %s", depth, torn.c_str ());
    fail_unless_equals_int (as2 + as5, frames);
    fail_unless (as2 > 0 && as5 > 0, "the toggling thread never changed a frame's sigma");
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static void
add_tests (TCase * tc)
{
  tcase_add_test (tc, test_two_elements_share_a_context);
  tcase_add_test (tc, test_two_pipelines_in_parallel_threads);
  tcase_add_test (tc, test_properties_changed_from_another_thread);
}

int
main (int argc, char **argv)
{
  return reliability_main (argc, argv, add_tests, __FILE__);
}
