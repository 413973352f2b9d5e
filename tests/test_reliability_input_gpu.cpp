/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reliability of the element on a GPU: bad input and extreme sizes.
 *
 *   - properties at and beyond their bounds on a running element, frames-in-flight 1..16;
 *   - caps renegotiation mid-stream (size and format) with frames in flight;
 *   - 8192x8192 frames, sigma far larger than the frame, 1x1 frames.
 *
 * Helpers and main(): reliability_gpu.h. */
#include "reliability_gpu.h"

GST_START_TEST (test_property_bounds_while_playing)
{
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstHarness *h = new_blur_harness (1, g_ctx);
  GstBus *bus = cgt::attach_bus (h->element);
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "fir");
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48).c_str ());

  /* At the bounds, changed between frames (sigma 0 switches passthrough on and off). */
  struct Step
  {
    double sigma, sigma_y, truncate;
  } steps[] = {
    {0, -1, 4}, {250, -1, 4}, {0, -1, 4}, {250, 0, 4}, {0, 250, 4}, {0, 0, 4},
    {0.05, -1, 4}, {3, -1, 1}, {3, -1, 8}, {250, 250, 4}, {2, -1, 4},
  };
  unsigned seed = 1;
  for (const Step & s : steps) {
    g_object_set (h->element, "sigma", s.sigma, "sigma-y", s.sigma_y, "truncate", s.truncate,
        NULL);
    Blur b;
    b.sigma = s.sigma;
    b.sigma_y = s.sigma_y;
    b.truncate = s.truncate;
    char what[96];
    g_snprintf (what, sizeof what, "fir sigma %g sigma-y %g truncate %g", s.sigma, s.sigma_y,
        s.truncate);
    push_and_check (h, info, b, seed++, what);
  }

  /* Beyond the bounds: refused by GObject with a warning, the element keeps its values. */
  g_object_set (h->element, "sigma", 2.0, "sigma-y", -1.0, "truncate", 4.0, NULL);
  ASSERT_WARNING (g_object_set (h->element, "sigma", 250.5, NULL));
  ASSERT_WARNING (g_object_set (h->element, "sigma", -0.1, NULL));
  ASSERT_WARNING (g_object_set (h->element, "sigma-y", -1.5, NULL));
  ASSERT_WARNING (g_object_set (h->element, "sigma-y", 1e9, NULL));
  ASSERT_WARNING (g_object_set (h->element, "truncate", 0.99, NULL));
  ASSERT_WARNING (g_object_set (h->element, "truncate", 8.01, NULL));
  ASSERT_WARNING (g_object_set (h->element, "frames-in-flight", 17u, NULL));
  ASSERT_WARNING (g_object_set (h->element, "kappa", 100.5, NULL));
  ASSERT_WARNING (g_object_set (h->element, "segments", 4097u, NULL));
  ASSERT_WARNING (g_object_set (h->element, "cuda-device-id", -2, NULL));
  ASSERT_WARNING (g_object_set (h->element, "border", 7, NULL));
  gdouble sigma, sigma_y, truncate;
  guint fif;
  gint border;
  g_object_get (h->element, "sigma", &sigma, "sigma-y", &sigma_y, "truncate", &truncate,
      "frames-in-flight", &fif, "border", &border, NULL);
  fail_unless_equals_float (sigma, 2.0);
  fail_unless_equals_float (sigma_y, -1.0);
  fail_unless_equals_float (truncate, 4.0);
  fail_unless_equals_int (fif, 1);
  fail_unless_equals_int (border, 0);
  push_and_check (h, info, Blur (), seed++, "after refused values");

  /* In range but beyond what the FIR supports (radius 2000 > 1536): a clear error, then the
   * element recovers. */
  g_object_set (h->element, "sigma", 250.0, "truncate", 8.0, NULL);
  GstBuffer *in = new_random_frame (info, seed++);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  std::string msg = cgt::pop_error (bus);
  fail_unless (msg.find ("radius") != std::string::npos, "unclear error: '%s'", msg.c_str ());
  g_print ("fir sigma 250 truncate 8: %s\n", msg.c_str ());
  g_object_set (h->element, "truncate", 4.0, NULL);
  Blur b250;
  b250.sigma = 250;
  push_and_check (h, info, b250, seed++, "fir sigma 250 after the error");

  /* Recursive extremes: k-way with more segments than pixels, no or a huge warm-up, and sigma
   * below the 1995 coefficients' range; accepted (no crash) or refused with a message. */
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "deriche");
  gst_util_set_object_arg (G_OBJECT (h->element), "partitions", "k-way");
  g_object_set (h->element, "sigma", 2.0, "segments", 4096u, "kappa", 0.0, NULL);
  push_ok_or_clear_error (h, bus, info, seed++, "deriche k-way segments 4096 kappa 0");
  g_object_set (h->element, "kappa", 100.0, NULL);
  push_ok_or_clear_error (h, bus, info, seed++, "deriche k-way segments 4096 kappa 100");
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "young-van-vliet-1995");
  gst_util_set_object_arg (G_OBJECT (h->element), "partitions", "block-parallel");
  g_object_set (h->element, "sigma", 0.1, NULL);
  push_ok_or_clear_error (h, bus, info, seed++, "young-van-vliet-1995 sigma 0.1");

  /* Back to exact settings: deriche at sigma 250 on a 64x48 frame equals its reference. */
  gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "deriche");
  g_object_set (h->element, "sigma", 250.0, "segments", 0u, "kappa", 3.0, NULL);
  Blur d250;
  d250.sigma = 250;
  d250.algorithm = cg::Algorithm::Deriche;
  push_and_check (h, info, d250, seed++, "deriche sigma 250");

  cgt::teardown_with_bus (h, bus);
}
GST_END_TEST;

/* frames-in-flight 1..16 (set before start; from 8 on, small frames blur in batches of depth / 4):
 * nothing is lost or reordered, EOS drains. */
GST_START_TEST (test_frames_in_flight_range)
{
  const GstVideoInfo info = video_info ("NV12", 96, 64);
  for (guint depth = 1; depth <= 16; depth++) {
    GstHarness *h = new_blur_harness (depth, g_ctx);
    g_object_set (h->element, "sigma", 2.5, NULL);
    gst_harness_set_src_caps_str (h, caps_string ("NV12", 96, 64).c_str ());
    const guint n = 2 * depth + 1;
    std::vector < GstBuffer * >inputs;
    for (guint i = 0; i < n; i++) {
      GstBuffer *in = new_random_frame (info, 1000 * depth + i, i * GST_SECOND / 30);
      inputs.push_back (in);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
      fail_unless_equals_int (gst_harness_buffers_in_queue (h),
          i + 1 < depth ? 0 : i + 2 - depth);
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), n);
    Blur b;
    b.sigma = 2.5;
    for (guint i = 0; i < n; i++) {
      GstBuffer *out = gst_harness_pull (h);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (inputs[i]));
      check_frame (info, inputs[i], out, b, "frames-in-flight " + std::to_string (depth) +
          " frame " + std::to_string (i));
      gst_buffer_unref (out);
      gst_buffer_unref (inputs[i]);
    }
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* Size and format changes with three frames in flight: each output has the size and format of
 * its input and equals its reference. */
GST_START_TEST (test_caps_renegotiation_mid_stream)
{
  struct Caps
  {
    const char *format;
    int w, h;
  } sequence[] = {
    {"RGBA", 64, 48}, {"RGBA", 96, 80}, {"NV12", 96, 80}, {"GRAY16_LE", 33, 17},
    {"I420", 64, 48}, {"RGBA", 64, 48},
  };
  GstHarness *h = new_blur_harness (3, g_ctx);
  g_object_set (h->element, "sigma", 2.5, NULL);
  struct Input
  {
    GstVideoInfo info;
    GstBuffer *buf;
  };
  std::vector < Input > inputs;
  guint frame = 0;
  for (const Caps & c : sequence) {
    gst_harness_set_src_caps_str (h, caps_string (c.format, c.w, c.h).c_str ());
    const GstVideoInfo info = video_info (c.format, c.w, c.h);
    for (int i = 0; i < 4; i++, frame++) {
      GstBuffer *in = new_random_frame (info, 2000 + frame, frame * GST_SECOND / 30);
      inputs.push_back ({info, in});
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    }
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), inputs.size ());
  Blur b;
  b.sigma = 2.5;
  for (size_t i = 0; i < inputs.size (); i++) {
    const GstVideoInfo & info = inputs[i].info;
    GstBuffer *out = gst_harness_pull (h);
    const std::string what = std::string ("frame ") + std::to_string (i) + " (" +
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)) + " " +
        std::to_string (GST_VIDEO_INFO_WIDTH (&info)) + "x" +
        std::to_string (GST_VIDEO_INFO_HEIGHT (&info)) + ")";
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (inputs[i].buf));
    fail_unless (gst_buffer_get_size (out) == GST_VIDEO_INFO_SIZE (&info),
        "%s: output of %zu bytes", what.c_str (), gst_buffer_get_size (out));
    if (GstVideoMeta * m = gst_buffer_get_video_meta (out)) {
      fail_unless (m->format == GST_VIDEO_INFO_FORMAT (&info), "%s: format %s", what.c_str (),
          gst_video_format_to_string (m->format));
      fail_unless (m->width == (guint) GST_VIDEO_INFO_WIDTH (&info) &&
          m->height == (guint) GST_VIDEO_INFO_HEIGHT (&info), "%s: meta says %ux%u",
          what.c_str (), m->width, m->height);
    }
    check_frame (info, inputs[i].buf, out, b, what);
    gst_buffer_unref (out);
    gst_buffer_unref (inputs[i].buf);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Compares rows @rows of @out with the separable FIR reference computed on a band of the input
 * (rows y-R..y+R hold everything row y needs), for frames too large for a full reference. */
static void
check_sampled_rows (const GstVideoInfo & info, GstBuffer * in, GstBuffer * out, double sigma,
    const std::vector < int >&rows, const char *what)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (&info, &specs) && specs.size () == 1);
  const cg::PlaneGeometry g = specs[0].geometry;
  const int r = cg::fir_radius (sigma, 4.0);
  const std::vector < double >taps = cg::gaussian_taps (sigma, r);
  GstVideoFrame fin, fout;
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  const guint8 *src = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, 0);
  const guint8 *dst = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0);
  const size_t in_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
  const size_t out_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
  double worst = 0;
  for (int y : rows) {
    const int y0 = std::max (0, y - r), y1 = std::min (g.height - 1, y + r);
    cg::PlaneGeometry band = g;
    band.height = y1 - y0 + 1;
    const cg::PlaneValues band_src = cg::read_plane (band, src + y0 * in_stride, in_stride);
    cg::PlaneValues ref = cgt::with_default_planes (specs[0], band_src, cg::reference_fir (band,
            band_src, taps, taps, cg::Border::Replicate));
    cg::PlaneGeometry row = g;
    row.height = 1;
    cg::PlaneValues got = cg::read_plane (row, dst + (size_t) y * out_stride, out_stride);
    const size_t n = g.samples_per_row ();
    for (size_t i = 0; i < n; i++)
      worst = std::max (worst, std::fabs (got[i] - ref[(size_t) (y - y0) * n + i]));
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  fail_unless (worst <= 1.0, "%s: max error %.3f over %zu sampled rows", what, worst,
      rows.size ());
  g_print ("%s: max error %.3f over %zu sampled rows\n", what, worst, rows.size ());
}

/* 8192x8192 frames: blurred right, or refused with a clear error where memory is short. */
GST_START_TEST (test_very_large_frames)
{
  const int size = 8192;
  for (const char *format : { "GRAY8", "RGBA" }) {
    const GstVideoInfo info = video_info (format, size, size);
    const double sigma = g_str_equal (format, "GRAY8") ? 1.0 : 1.5;
    GstHarness *h = new_blur_harness (1, g_ctx);
    GstBus *bus = cgt::attach_bus (h->element);
    gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "fir");
    g_object_set (h->element, "sigma", sigma, NULL);
    gst_harness_set_src_caps_str (h, caps_string (format, size, size).c_str ());
    GstBuffer *in = new_random_frame (info, 77);
    const GstFlowReturn ret = gst_harness_push (h, gst_buffer_ref (in));
    std::string what = std::string (format) + " 8192x8192";
    if (ret != GST_FLOW_OK) {
      std::string dbg, msg = cgt::pop_error (bus, &dbg);
      fail_if (msg.empty (), "%s: push returned %s without an error message", what.c_str (),
          gst_flow_get_name (ret));
      g_print ("%s: refused with an error: %s (%s)\n", what.c_str (), msg.c_str (),
          dbg.c_str ());
    } else {
      GstBuffer *out = gst_harness_pull (h);
      fail_unless (out != NULL, "%s: no output", what.c_str ());
      if (g_str_equal (format, "GRAY8")) {
        Blur b;
        b.sigma = sigma;
        check_frame (info, in, out, b, what);   /* every sample: 67 M */
        g_print ("%s: every sample within 1 LSB\n", what.c_str ());
      } else {
        std::vector < int >rows = { 0, 1, 2, 3, 4, 4095, 4096, 8187, 8188, 8189, 8190, 8191 };
        std::mt19937 rng (5);
        for (int i = 0; i < 8; i++)
          rows.push_back ((int) (rng () % size));
        check_sampled_rows (info, in, out, sigma, rows, what.c_str ());
      }
      gst_buffer_unref (out);
    }
    gst_buffer_unref (in);
    cgt::teardown_with_bus (h, bus);
  }
}
GST_END_TEST;

/* Sigma 250 on 16x16, 5x3 and 1x1 frames: the kernels reach far beyond the frame, through the
 * border rule, and still equal the reference (FIR with every border, auto = Deriche). */
GST_START_TEST (test_sigma_far_larger_than_frame)
{
  struct Algo
  {
    const char *name;
    cg::Algorithm algorithm;
    cg::Border border;
  } algos[] = {
    {"fir", cg::Algorithm::Fir, cg::Border::Replicate},
    {"fir", cg::Algorithm::Fir, cg::Border::Mirror},
    {"fir", cg::Algorithm::Fir, cg::Border::Reflect},
    {"auto", cg::Algorithm::Auto, cg::Border::Replicate},
  };
  const int sizes[][2] = { {16, 16}, {5, 3}, {1, 1} };
  unsigned seed = 3000;
  GstHarness *h = new_blur_harness (1, g_ctx);
  for (const Algo & a : algos) {
    gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", a.name);
    g_object_set (h->element, "sigma", 250.0, "truncate", 4.0, "border", (gint) a.border, NULL);
    for (auto & wh : sizes) {
      for (const char *format : { "RGBA", "NV12", "GRAY16_LE" }) {
        gst_harness_set_src_caps_str (h, caps_string (format, wh[0], wh[1]).c_str ());
        Blur b;
        b.sigma = 250;
        b.algorithm = a.algorithm;
        b.border = a.border;
        const std::string what = std::string (a.name) + " " + cg::border_name (a.border) +
            " sigma 250, " + format + " " + std::to_string (wh[0]) + "x" +
            std::to_string (wh[1]);
        push_and_check (h, video_info (format, wh[0], wh[1]), b, seed++, what);
      }
    }
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

static void
add_tests (TCase * tc)
{
  tcase_add_test (tc, test_property_bounds_while_playing);
  tcase_add_test (tc, test_frames_in_flight_range);
  tcase_add_test (tc, test_caps_renegotiation_mid_stream);
  tcase_add_test (tc, test_very_large_frames);
  tcase_add_test (tc, test_sigma_far_larger_than_frame);
}

int
main (int argc, char **argv)
{
  return reliability_main (argc, argv, add_tests, __FILE__);
}
