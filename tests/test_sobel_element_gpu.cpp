/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudasobel element tests on a GPU: negotiation (RGBA in -> GRAY8 out by default, GRAY16_LE when
 * downstream asks, unsupported input refused), every input format through system memory
 * (pageable, the pinned pool the element proposes, padded strides) and through CUDA memory (the
 * element's proposed CUDA pool, cudaupload when present), property changes between frames;
 * every output pixel compared with the double reference of common/reference_sobel.h.
 * Without a CUDA device the whole program reports a skip. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <random>
#include <string>

#include "device_memory.h"
#include "element_test_basics.h"
#include "pipeline_error.h"
#include "reference_sobel.h"

namespace cg = cudagaussian;
using cgt::caps_string;
using cgt::is_pinned;
using cgt::new_padded_buffer;
using cgt::video_info;

static const char *kInFormats[] = { "GRAY8", "RGBA", "BGRA", "RGBx", "BGRx",
  "ARGB", "ABGR", "xRGB", "xBGR", "RGB", "BGR"
};

/* The pixel layout of a format, independently of the element's own mapping. */
static cg::SobelLayout
layout_of (const char *format)
{
  struct { const char *name; int c, r, g, b; } table[] = {
    {"GRAY8", 1, 0, 0, 0}, {"RGBA", 4, 0, 1, 2}, {"RGBx", 4, 0, 1, 2},
    {"BGRA", 4, 2, 1, 0}, {"BGRx", 4, 2, 1, 0}, {"ARGB", 4, 1, 2, 3},
    {"xRGB", 4, 1, 2, 3}, {"ABGR", 4, 3, 2, 1}, {"xBGR", 4, 3, 2, 1},
    {"RGB", 3, 0, 1, 2}, {"BGR", 3, 2, 1, 0},
  };
  for (auto & t : table)
    if (g_str_equal (t.name, format)) {
      cg::SobelLayout l;
      l.channels = t.c;
      l.r = t.r;
      l.g = t.g;
      l.b = t.b;
      return l;
    }
  fail ("no layout for %s", format);
  return cg::SobelLayout ();
}

/* Random bytes, smoothed by a gradient so that magnitudes are not all saturated. */
static void
fill (GstBuffer * buffer, unsigned seed)
{
  std::mt19937 rng (seed);
  GstMapInfo map;
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (seed & 1) ? (guint8) (rng () >> 24) :
        (guint8) ((i / 3) % 97 + (rng () % 8));
  gst_buffer_unmap (buffer, &map);
}

struct Expect
{
  cg::SobelOutput output = cg::SobelOutput::Magnitude;
  double scale = 1.0;
  int out_bytes = 1;
};

/* Largest difference between @out and the reference of @in (direction on the circle). Exact
 * matches are required for magnitude at scale 1 (see tests/test_sobel_gpu.cpp). */
static long
max_error_vs_reference (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, const Expect & e)
{
  const int w = GST_VIDEO_INFO_WIDTH (in_info), h = GST_VIDEO_INFO_HEIGHT (in_info);
  GstVideoInfo out_info = video_info (e.out_bytes == 1 ? "GRAY8" : "GRAY16_LE", w, h);
  GstVideoFrame fin, fout;
  fail_unless (gst_video_frame_map (&fin, (GstVideoInfo *) in_info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &out_info, out, GST_MAP_READ));

  cg::SobelImage img;
  img.data = GST_VIDEO_FRAME_PLANE_DATA (&fin, 0);
  img.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
  img.width = w;
  img.height = h;
  img.layout = layout_of (GST_VIDEO_INFO_NAME (in_info));
  const cg::SobelSettings s { e.output, e.scale };
  const std::vector < unsigned >ref = cg::reference_sobel (img, s, e.out_bytes);
  const long levels = e.out_bytes == 1 ? 256 : 65536;
  long worst = 0;
  for (int y = 0; y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
    for (int x = 0; x < w; x++) {
      long v = row[x * e.out_bytes];
      if (e.out_bytes == 2)
        v |= (long) row[2 * x + 1] << 8;
      long d = labs (v - (long) ref[(size_t) y * w + x]);
      if (e.output == cg::SobelOutput::Direction)
        d = MIN (d, levels - d);
      worst = MAX (worst, d);
    }
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return worst;
}

static long
tolerance (const Expect & e)
{
  return e.output == cg::SobelOutput::Magnitude && e.scale == 1.0 ? 0 : 1;
}

static void
push_and_check (GstHarness * h, const GstVideoInfo * info, GstBuffer * in,
    const Expect & e, const std::string & what)
{
  gst_buffer_ref (in);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what.c_str ());
  const long err = max_error_vs_reference (info, in, out, e);
  fail_unless (err <= tolerance (e), "%s: max error %ld", what.c_str (), err);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
check_output_caps (GstHarness * h, const char *format, int w, int hgt, bool cuda)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL, "no output caps");
  GstCaps *want = gst_caps_from_string (caps_string (format, w, hgt, cuda).c_str ());
  gchar *s = gst_caps_to_string (caps);
  fail_unless (gst_caps_is_subset (caps, want), "output caps %s, want %s", s,
      format);
  g_free (s);
  gst_caps_unref (want);
  gst_caps_unref (caps);
}

GST_START_TEST (test_negotiation)
{
  /* Downstream takes anything: RGBA in -> GRAY8 out, same size and rate. */
  GstHarness *h = gst_harness_new ("cudasobel");
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 320, 240, false).c_str ());
  GstVideoInfo info = video_info ("RGBA", 320, 240);
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill (in, 1);
  push_and_check (h, &info, in, Expect (), "RGBA -> default");
  check_output_caps (h, "GRAY8", 320, 240, false);
  gst_harness_teardown (h);

  /* Downstream that wants GRAY16_LE gets it. */
  h = gst_harness_new ("cudasobel");
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY16_LE");
  gst_harness_set_src_caps_str (h, caps_string ("BGR", 33, 17, false).c_str ());
  info = video_info ("BGR", 33, 17);
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill (in, 2);
  Expect e;
  e.out_bytes = 2;
  push_and_check (h, &info, in, e, "BGR -> GRAY16_LE");
  check_output_caps (h, "GRAY16_LE", 33, 17, false);
  gst_harness_teardown (h);

  /* An unsupported input is refused. */
  h = gst_harness_new ("cudasobel");
  gst_harness_set_src_caps_str (h, caps_string ("I420", 64, 48, false).c_str ());
  info = video_info ("I420", 64, 48);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              GST_VIDEO_INFO_SIZE (&info), NULL)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_system_memory_every_format)
{
  const int sizes[][2] = { {1, 1}, {3, 2}, {67, 45}, {385, 289} };
  Expect expects[3];
  expects[1].scale = 57.0;
  expects[1].out_bytes = 2;
  expects[2].output = cg::SobelOutput::Direction;
  unsigned seed = 10;
  for (const char *format : kInFormats) {
    for (auto & wh : sizes) {
      for (const Expect & e : expects) {
        GstVideoInfo info = video_info (format, wh[0], wh[1]);
        GstHarness *h = gst_harness_new ("cudasobel");
        g_object_set (h->element, "scale", e.scale, "output", (gint) e.output, NULL);
        gst_harness_set_sink_caps_str (h, e.out_bytes == 1 ?
            "video/x-raw,format=GRAY8" : "video/x-raw,format=GRAY16_LE");
        gst_harness_set_src_caps_str (h, caps_string (format, wh[0], wh[1],
                false).c_str ());
        char what[128];
        g_snprintf (what, sizeof what, "%s %dx%d %s scale %g %d-bit", format, wh[0], wh[1],
            cg::sobel_output_name (e.output), e.scale, 8 * e.out_bytes);

        GstBuffer *plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
        fill (plain, seed++);
        push_and_check (h, &info, plain, e, std::string (what) + " pageable");
        GstBuffer *pinned = gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (&info));
        fill (pinned, seed++);
        push_and_check (h, &info, pinned, e, std::string (what) + " proposed pool");
        GstBuffer *padded = new_padded_buffer (&info, 37);
        fill (padded, seed++);
        push_and_check (h, &info, padded, e, std::string (what) + " padded");
        gst_harness_teardown (h);
      }
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_pinned_buffers_both_ways)
{
  GstVideoInfo info = video_info ("RGBx", 320, 240);
  GstHarness *h = gst_harness_new ("cudasobel");
  gst_harness_set_src_caps_str (h, caps_string ("RGBx", 320, 240, false).c_str ());

  cgt::ProposedPool proposed = cgt::acquire_from_proposed_pool (h, info,
      caps_string ("RGBx", 320, 240, false));
  GstBuffer *buf = proposed.buffer;
  fill (buf, 5);
  push_and_check (h, &info, buf, Expect (), "pinned input");

  /* Any content, but defined (valgrind follows uninitialised bytes through the filter). */
  GstBuffer *plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill (plain, 6);
  fail_unless_equals_int (gst_harness_push (h, plain), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (is_pinned (out), "output buffer is not pinned");
  gst_buffer_unref (out);

  cgt::release_proposed_pool (proposed);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_settings_change_between_frames)
{
  GstVideoInfo info = video_info ("BGRA", 385, 289);
  GstHarness *h = gst_harness_new ("cudasobel");
  gst_harness_set_src_caps_str (h, caps_string ("BGRA", 385, 289, false).c_str ());
  struct { cg::SobelOutput output; double scale; } steps[] = {
    {cg::SobelOutput::Magnitude, 1.0}, {cg::SobelOutput::Magnitude, 0.3},
    {cg::SobelOutput::Direction, 0.3}, {cg::SobelOutput::Magnitude, 4.0},
    {cg::SobelOutput::Magnitude, 0.0},
  };
  unsigned seed = 70;
  for (auto & s : steps) {
    g_object_set (h->element, "output", (gint) s.output, "scale", s.scale, NULL);
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill (in, seed++);
    Expect e;
    e.output = s.output;
    e.scale = s.scale;
    push_and_check (h, &info, in, e, "settings step");
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Input in CUDA memory from the pool the element proposes (the kernel reads device memory in
 * place); output in system memory, as 1.22's CUDA allocator has no GRAY formats. */
GST_START_TEST (test_cuda_memory_proposed_pool)
{
  for (const char *format : { "RGBA", "BGR", "BGRx", "ARGB" }) {
    for (int out_bytes : { 1, 2 }) {
      const int w = 385, hgt = 289;
      GstVideoInfo info = video_info (format, w, hgt);
      GstHarness *h = gst_harness_new ("cudasobel");
      gst_harness_set_sink_caps_str (h, out_bytes == 1 ?
          "video/x-raw,format=GRAY8" : "video/x-raw,format=GRAY16_LE");
      const std::string in_caps = caps_string (format, w, hgt, true);
      gst_harness_set_src_caps_str (h, in_caps.c_str ());

      GstCaps *caps = gst_caps_from_string (in_caps.c_str ());
      GstQuery *query = gst_query_new_allocation (caps, TRUE);
      fail_unless (gst_pad_peer_query (h->srcpad, query));
      fail_unless (gst_query_get_n_allocation_pools (query) > 0);
      GstBufferPool *pool = NULL;
      gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
      fail_unless (pool != NULL);
      fail_unless (gst_buffer_pool_set_active (pool, TRUE));
      GstBuffer *in = NULL;
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in, NULL), GST_FLOW_OK);
      fail_unless (gst_is_cuda_memory (gst_buffer_peek_memory (in, 0)),
          "proposed pool does not give CUDA memory");

      /* Fill through a host mapping (uploaded when the element maps it for CUDA). */
      GstVideoFrame frame;
      fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_WRITE));
      std::mt19937 rng (out_bytes * 100 + w);
      for (int y = 0; y < hgt; y++) {
        guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
        for (int i = 0; i < w * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0); i++)
          row[i] = (guint8) (rng () >> 24);
      }
      gst_video_frame_unmap (&frame);

      gst_buffer_ref (in);
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      GstBuffer *out = gst_harness_pull (h);
      fail_if (gst_is_cuda_memory (gst_buffer_peek_memory (out, 0)),
          "%s: output should be in system memory", format);
      check_output_caps (h, out_bytes == 1 ? "GRAY8" : "GRAY16_LE", w, hgt, false);
      Expect e;
      e.out_bytes = out_bytes;
      const long err = max_error_vs_reference (&info, in, out, e);
      fail_unless (err == 0, "%s CUDA memory %d-bit: max error %ld", format,
          8 * out_bytes, err);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_buffer_pool_set_active (pool, FALSE);
      gst_object_unref (pool);
      gst_query_unref (query);
      gst_caps_unref (caps);
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

/* cudaupload ! cudasobel: CUDA memory made by another element, sharing its context. Then the
 * full `cudaupload ! cudasobel ! cudadownload`, which GStreamer 1.22's cudadownload may refuse
 * (its format list has no GRAY formats): noted, not failed. */
GST_START_TEST (test_cuda_memory_via_cudaupload)
{
  if (!cgt::have_cudaupload ())
    return;

  unsigned seed = 300;
  for (const char *format : { "RGBA", "BGRx", "RGB", "BGR" }) {
    const int w = 385, hgt = 288;
    GstVideoInfo info = video_info (format, w, hgt);
    GstHarness *h = gst_harness_new_parse ("cudaupload ! "
        "video/x-raw(memory:CUDAMemory) ! cudasobel name=sobel");
    gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
    gst_harness_set_src_caps_str (h, caps_string (format, w, hgt, false).c_str ());
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill (in, seed++);
    gst_buffer_ref (in);
    const GstFlowReturn ret = gst_harness_push (h, in);
    if (ret != GST_FLOW_OK) {
      g_print ("note: %s does not negotiate through cudaupload (%s)\n", format,
          gst_flow_get_name (ret));
      fail_if (g_str_equal (format, "RGBA"), "RGBA must work in CUDA memory");
      gst_buffer_unref (in);
      gst_harness_teardown (h);
      continue;
    }
    GstElement *sobel = gst_bin_get_by_name (GST_BIN (h->element), "sobel");
    GstPad *pad = gst_element_get_static_pad (sobel, "sink");
    GstCaps *caps = gst_pad_get_current_caps (pad);
    fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
            GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY), "%s: not in CUDA memory", format);
    gst_caps_unref (caps);
    gst_object_unref (pad);
    gst_object_unref (sobel);

    GstBuffer *out = gst_harness_pull (h);
    const long err = max_error_vs_reference (&info, in, out, Expect ());
    fail_unless (err == 0, "%s via cudaupload: max error %ld", format, err);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }

}
GST_END_TEST;

/* A real pipeline, start to EOS, with a converter after the element. */
GST_START_TEST (test_pipeline_runs)
{
  GError *err = pipeline_error ("videotestsrc num-buffers=5 pattern=ball ! "
      "video/x-raw,format=BGRx,width=320,height=240 ! cudasobel scale=2 ! "
      "videoconvert ! fakesink", 20 * GST_SECOND);
  fail_unless (err == NULL, "%s", err ? err->message : "");
  err = pipeline_error ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=99,height=31 ! cudasobel output=direction ! "
      "video/x-raw,format=GRAY16_LE ! fakesink", 20 * GST_SECOND);
  fail_unless (err == NULL, "%s", err ? err->message : "");
}
GST_END_TEST;

static Suite *
cudasobel_gpu_suite (void)
{
  Suite *s = suite_create ("cudasobel-element-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_negotiation);
  tcase_add_test (tc, test_system_memory_every_format);
  tcase_add_test (tc, test_pinned_buffers_both_ways);
  tcase_add_test (tc, test_settings_change_between_frames);
  tcase_add_test (tc, test_cuda_memory_proposed_pool);
  tcase_add_test (tc, test_cuda_memory_via_cudaupload);
  tcase_add_test (tc, test_pipeline_runs);
  return s;
}

int
main (int argc, char **argv)
{
  return cgt::run_gpu_suite (argc, argv, cudasobel_gpu_suite, "cudasobel_gpu", __FILE__);
}
