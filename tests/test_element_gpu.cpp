/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Element tests on a GPU: every format through system memory (pageable and pinned buffers,
 * padded strides) and CUDA memory, compared plane by plane with the double reference.
 * Without a CUDA device the whole program reports a skip. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <random>
#include <string>
#include <vector>

#include "default_planes.h"
#include "device_memory.h"
#include "element_test_basics.h"
#include "fir_taps.h"
#include "pipeline_error.h"
#include "reference_blur.h"
#include "reference_edge_aware.h"
#include "reference_recursive.h"
#include "video_planes.h"

namespace cg = cudagaussian;
using cgt::caps_string;
using cgt::is_pinned;
using cgt::new_padded_buffer;
using cgt::video_info;

/* Random bytes over the whole buffer, padding included: any value is a valid sample. */
static void
fill_random (GstBuffer * buffer, unsigned seed)
{
  fail_unless (cgt::fill_random (buffer, seed));
}

static const char *kFormats[] = { "RGBA", "BGRA", "RGBx", "BGRx", "ARGB",
  "ABGR", "xRGB", "xBGR", "RGB", "BGR", "GRAY8", "GRAY16_LE", "I420", "YV12",
  "NV12", "NV21", "Y42B", "Y444", "P010_10LE", "P016_LE"
};

/* A harness around one cudagaussian that hands each frame back before the next is pushed. */
static GstHarness *
new_blur_harness (guint frames_in_flight = 1)
{
  GstHarness *h = gst_harness_new ("cudagaussian");
  g_object_set (h->element, "frames-in-flight", frames_in_flight, NULL);
  return h;
}

/* Compares every plane of @out with the reference blur of @in; returns the max error. */
static double
max_error_vs_reference (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    double sigma, double sigma_y, double truncate, cg::Border border)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (info, &specs));
  GstVideoFrame fin, fout;
  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  double worst = 0.0;
  for (size_t p = 0; p < specs.size (); p++) {
    const cg::PlaneSpec & s = specs[p];
    const double sx = sigma / s.subsample_x, sy = sigma_y / s.subsample_y;
    cg::PlaneValues src = cg::read_plane (s.geometry,
        GST_VIDEO_FRAME_PLANE_DATA (&fin, p), GST_VIDEO_FRAME_PLANE_STRIDE (&fin, p));
    cg::PlaneValues ref = cgt::with_default_planes (s, src, cg::reference_fir (s.geometry, src,
        cg::gaussian_taps (sx, cg::fir_radius (sx, truncate)),
        cg::gaussian_taps (sy, cg::fir_radius (sy, truncate)), border));
    cg::PlaneValues got = cg::read_plane (s.geometry,
        GST_VIDEO_FRAME_PLANE_DATA (&fout, p), GST_VIDEO_FRAME_PLANE_STRIDE (&fout, p));
    for (size_t i = 0; i < ref.size (); i++)
      worst = std::max (worst, std::fabs (got[i] - ref[i]));
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return worst;
}

static void
push_and_check (GstHarness * h, const GstVideoInfo * info, GstBuffer * in,
    double sigma, double sigma_y, cg::Border border, const char *what)
{
  gst_buffer_ref (in);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);
  const double err = max_error_vs_reference (info, in, out, sigma, sigma_y,
      4.0, border);
  fail_unless (err <= 1.0, "%s: max error %.3f > 1 LSB", what, err);
  GST_INFO ("%s: max error %.3f", what, err);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

GST_START_TEST (test_system_memory_every_format)
{
  const int sizes[][2] = { {1, 1}, {3, 2}, {67, 45}, {385, 289} };
  unsigned seed = 1;
  for (const char *format : kFormats) {
    for (auto & wh : sizes) {
      GstVideoInfo info = video_info (format, wh[0], wh[1]);
      GstHarness *h = new_blur_harness ();
      g_object_set (h->element, "sigma", 2.5, "border", 1, NULL);  /* mirror */
      gst_harness_set_src_caps_str (h, caps_string (format, wh[0], wh[1], false).c_str ());

      std::string what = std::string (format) + " " + std::to_string (wh[0]) + "x" +
          std::to_string (wh[1]);
      /* pageable memory */
      GstBuffer *plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fill_random (plain, seed++);
      push_and_check (h, &info, plain, 2.5, 2.5, cg::Border::Mirror,
          (what + " pageable").c_str ());
      /* the pinned pool the element proposed upstream */
      GstBuffer *pinned = gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (&info));
      fill_random (pinned, seed++);
      push_and_check (h, &info, pinned, 2.5, 2.5, cg::Border::Mirror,
          (what + " pinned").c_str ());
      /* padded strides described by a video meta */
      GstBuffer *padded = new_padded_buffer (&info, 37);
      fill_random (padded, seed++);
      push_and_check (h, &info, padded, 2.5, 2.5, cg::Border::Mirror,
          (what + " padded").c_str ());
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_upstream_gets_pinned_buffers)
{
  GstVideoInfo info = video_info ("RGBA", 320, 240);
  GstHarness *h = new_blur_harness ();
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 320, 240, false).c_str ());

  /* What the element proposes to upstream in the ALLOCATION query. */
  cgt::ProposedPool proposed = cgt::acquire_from_proposed_pool (h, info,
      caps_string ("RGBA", 320, 240, false));
  GstBuffer *buf = proposed.buffer;

  /* Its buffers go through, and the output comes from a pinned pool too. */
  fill_random (buf, 99);
  push_and_check (h, &info, gst_buffer_ref (buf), 2.0, 2.0, cg::Border::Replicate,
      "pinned pool buffer");
  gst_buffer_unref (buf);
  /* Any content, but defined (valgrind follows uninitialised bytes through the blur). */
  GstBuffer *plain = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill_random (plain, 98);
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
  GstVideoInfo info = video_info ("NV12", 385, 289);
  GstHarness *h = new_blur_harness ();
  gst_harness_set_src_caps_str (h, caps_string ("NV12", 385, 289, false).c_str ());
  struct { double sigma, sigma_y; int border; } steps[] = {
    {2.0, -1, 0}, {5.0, -1, 0}, {5.0, 0.0, 2}, {0.7, 9.0, 1}, {30.0, -1, 0},
  };
  unsigned seed = 7;
  for (auto & s : steps) {
    g_object_set (h->element, "sigma", s.sigma, "sigma-y", s.sigma_y, "border",
        s.border, NULL);
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_random (in, seed++);
    push_and_check (h, &info, in, s.sigma, s.sigma_y < 0 ? s.sigma : s.sigma_y,
        (cg::Border) s.border, "settings step");
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_passthrough_keeps_buffer)
{
  /* sigma 0, or planes the format does not have: the same buffer comes out. */
  struct Case
  {
    const char *format;
    double sigma;
    const char *planes;
  };
  const Case cases[] = {
    {"I420", 0.0, "luma+chroma+color"},
    {"I420", 3.0, "alpha"},
    {"NV12", 3.0, "color+alpha"},
    {"GRAY8", 3.0, "chroma"},
  };
  for (const Case & c : cases) {
    GstVideoInfo info = video_info (c.format, 64, 48);
    GstHarness *h = new_blur_harness ();
    g_object_set (h->element, "sigma", c.sigma, NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "planes", c.planes);
    gst_harness_set_src_caps_str (h, caps_string (c.format, 64, 48, false).c_str ());
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_random (in, 3);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out == in, "%s sigma %g planes %s should pass the same buffer through", c.format,
        c.sigma, c.planes);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

/* cudaupload ! cudagaussian ! cudadownload: the element works on device pointers in place. */
GST_START_TEST (test_cuda_memory_every_format)
{
  if (!cgt::have_cudaupload ())
    return;

  int negotiated = 0;
  unsigned seed = 11;
  for (const char *format : kFormats) {
    /* Even height: GStreamer 1.22's CUDA allocator overlaps the U and V planes of I420/YV12
     * when the height is odd (the element warns about it). */
    const int w = 385, hgt = 288;
    GstVideoInfo info = video_info (format, w, hgt);
    GstHarness *h = gst_harness_new_parse ("cudaupload ! "
        "video/x-raw(memory:CUDAMemory) ! cudagaussian name=blur sigma=3 sigma-y=1.5 "
        "frames-in-flight=1 ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload");
    gst_harness_set_src_caps_str (h, caps_string (format, w, hgt, false).c_str ());
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_random (in, seed++);
    gst_buffer_ref (in);
    GstFlowReturn ret = gst_harness_push (h, in);
    if (ret != GST_FLOW_OK) {
      g_print ("note: %s does not negotiate through cudaupload (%s)\n", format,
          gst_flow_get_name (ret));
      fail_if (g_str_equal (format, "RGBA") || g_str_equal (format, "NV12") ||
          g_str_equal (format, "I420"), "%s must work in CUDA memory", format);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
      continue;
    }
    GstElement *blur = gst_bin_get_by_name (GST_BIN (h->element), "blur");
    GstPad *pad = gst_element_get_static_pad (blur, "sink");
    GstCaps *caps = gst_pad_get_current_caps (pad);
    fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
            GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY), "%s: not in CUDA memory", format);
    gst_caps_unref (caps);
    gst_object_unref (pad);
    gst_object_unref (blur);

    GstBuffer *out = gst_harness_pull (h);
    const double err = max_error_vs_reference (&info, in, out, 3.0, 1.5, 4.0,
        cg::Border::Replicate);
    fail_unless (err <= 1.0, "%s CUDA memory: max error %.3f", format, err);
    negotiated++;
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
  g_print ("CUDA memory: %d of %d formats negotiated and matched the reference\n",
      negotiated, (int) G_N_ELEMENTS (kFormats));
}
GST_END_TEST;

/* Pulls one output per input, in order: each has its input's PTS and is within 1 of the
 * reference blur at @sigma (replicate border, truncate 4). Takes the inputs' references. */
static void
pull_in_order_and_check (GstHarness * h, const GstVideoInfo * info,
    std::vector < GstBuffer * >&inputs, double sigma)
{
  for (size_t i = 0; i < inputs.size (); i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL, "frame %zu did not come out", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (inputs[i]));
    const double err = max_error_vs_reference (info, inputs[i], out, sigma, sigma, 4.0,
        cg::Border::Replicate);
    fail_unless (err <= 1.0, "frame %zu: max error %.3f", i, err);
    gst_buffer_unref (out);
    gst_buffer_unref (inputs[i]);
  }
  inputs.clear ();
}

/* Several frames in flight: nothing comes out until the queue is full, then one frame per
 * frame in, in order, each equal to the reference; EOS drains the rest; latency grows by
 * (depth - 1) frames. */
GST_START_TEST (test_frames_in_flight)
{
  const guint depth = 3, frames = 10;
  GstVideoInfo info = video_info ("NV12", 385, 288);
  GstHarness *h = new_blur_harness (depth);
  g_object_set (h->element, "sigma", 3.0, NULL);
  gst_harness_set_src_caps_str (h, caps_string ("NV12", 385, 288, false).c_str ());
  gst_harness_set_upstream_latency (h, 0);

  std::vector < GstBuffer * >inputs;
  for (guint i = 0; i < frames; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_random (in, 100 + i);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    inputs.push_back (in);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), i + 1 < depth ? 0 : i + 2 - depth);
  }
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 2 * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), frames);
  pull_in_order_and_check (h, &info, inputs, 3.0);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* CUDA memory with 16 frames in flight: SD-sized frames blur 4 to a launch (batches). Every
 * frame comes out once, in order, equal to the reference, EOS included (a partial batch). */
GST_START_TEST (test_cuda_memory_batches)
{
  if (!cgt::have_cudaupload ())
    return;
  const int w = 721, hgt = 576, frames = 23;
  GstVideoInfo info = video_info ("RGBA", w, hgt);
  GstHarness *h = gst_harness_new_parse ("cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudagaussian sigma=2 frames-in-flight=16 ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload");
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", w, hgt, false).c_str ());
  std::vector < GstBuffer * >inputs;
  for (int i = 0; i < frames; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_random (in, 600 + i);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    inputs.push_back (in);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), frames);
  pull_in_order_and_check (h, &info, inputs, 2.0);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A flush throws away the frames in flight; a caps change first lets them out. */
GST_START_TEST (test_flush_and_caps_change_with_frames_in_flight)
{
  GstVideoInfo small = video_info ("RGBA", 64, 48), big = video_info ("RGBA", 96, 80);
  GstHarness *h = new_blur_harness (3);
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 64, 48, false).c_str ());
  for (int i = 0; i < 2; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&small), NULL);
    fill_random (in, 200 + i);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  GstSegment segment;
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

  /* Two frames in flight, then new caps: both come out first, at the old size. */
  for (int i = 0; i < 2; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&small), NULL);
    fill_random (in, 300 + i);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 96, 80, false).c_str ());
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (int i = 0; i < 2; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless_equals_int (gst_buffer_get_size (out), GST_VIDEO_INFO_SIZE (&small));
    gst_buffer_unref (out);
  }
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&big), NULL);
  fill_random (in, 400);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  GstBuffer *out = gst_harness_pull (h);
  fail_unless_equals_int (gst_buffer_get_size (out), GST_VIDEO_INFO_SIZE (&big));
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Every plane of @out against @reference (plane index, its spec, the input plane's values) →
 * the double result; at most 1 apart. */
template <typename Reference>
static void
check_planes (const GstVideoInfo & info, GstBuffer * in, GstBuffer * out,
    const std::string & label, Reference reference)
{
  std::vector < cg::PlaneSpec > specs;
  fail_unless (gst_cuda_gaussian_plane_specs (&info, &specs));
  GstVideoFrame fin, fout;
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  for (size_t p = 0; p < specs.size (); p++) {
    const cg::PlaneGeometry & g = specs[p].geometry;
    const cg::PlaneValues src = cg::read_plane (g, GST_VIDEO_FRAME_PLANE_DATA (&fin, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fin, p));
    const cg::PlaneValues ref = cgt::with_default_planes (specs[p], src, reference (p, specs[p],
            src));
    const cg::PlaneValues got = cg::read_plane (g, GST_VIDEO_FRAME_PLANE_DATA (&fout, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fout, p));
    double worst = 0;
    for (size_t i = 0; i < ref.size (); i++)
      worst = std::max (worst, std::fabs (got[i] - ref[i]));
    fail_unless (worst <= 1.0, "%s plane %zu: max error %.3f", label.c_str (), p, worst);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
}

/* The recursive algorithms through the element: every plane of NV12 and RGBA against the double
 * reference of the same algorithm; a non-replicate border is refused with a clear error. */
GST_START_TEST (test_recursive_algorithms)
{
  struct { const char *algorithm; cg::RecursiveFilter filter; const char *partitions; } runs[] = {
    {"young-van-vliet", cg::RecursiveFilter::YoungVanVliet2002, "block-parallel"},
    {"deriche", cg::RecursiveFilter::Deriche, "block-parallel"},
    {"deriche", cg::RecursiveFilter::Deriche, "one-way"},
    {"young-van-vliet-1995", cg::RecursiveFilter::YoungVanVliet1995, "two-way"},
  };
  unsigned seed = 500;
  for (auto & r : runs) {
    for (const char *format : { "NV12", "RGBA" }) {
      GstVideoInfo info = video_info (format, 385, 288);
      GstHarness *h = new_blur_harness ();
      gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", r.algorithm);
      gst_util_set_object_arg (G_OBJECT (h->element), "partitions", r.partitions);
      g_object_set (h->element, "sigma", 6.0, "kappa", 8.0, NULL);
      gst_harness_set_src_caps_str (h, caps_string (format, 385, 288, false).c_str ());
      GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fill_random (in, seed++);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
      GstBuffer *out = gst_harness_pull (h);
      check_planes (info, in, out, std::string (r.algorithm) + " " + r.partitions + " " + format,
          [&](size_t, const cg::PlaneSpec & ps, const cg::PlaneValues & src) {
            return cg::reference_recursive (ps.geometry, src, r.filter, 6.0 / ps.subsample_x,
                6.0 / ps.subsample_y, cg::StartUp::Exact);
          });
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
    }
  }

  /* Mirror borders are FIR-only: a clear error, not a wrong frame. */
  GError *err = pipeline_error ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian algorithm=deriche "
      "border=mirror ! fakesink", 10 * GST_SECOND);
  fail_unless (err != NULL, "no error for a mirror border with deriche");
  fail_unless (strstr (err->message, "replicate") != NULL, "%s", err->message);
  g_error_free (err);
}
GST_END_TEST;

/* algorithm=edge-aware through the element: every plane against the reference under the frame
 * rule (edges from the colour channels of RGB, not alpha or padding; from luma for YUV, resampled
 * to the chroma planes); a non-replicate border is refused with a clear error. */
GST_START_TEST (test_edge_aware_algorithm)
{
  unsigned seed = 700;
  for (const char *format : { "RGBA", "xRGB", "I420", "NV12", "P010_10LE", "GRAY16_LE" }) {
    for (const char *filter : { "gaussian", "rf" }) {
      GstVideoInfo info = video_info (format, 385, 288);
      GstHarness *h = new_blur_harness ();
      gst_util_set_object_arg (G_OBJECT (h->element), "algorithm", "edge-aware");
      gst_util_set_object_arg (G_OBJECT (h->element), "edge-filter", filter);
      /* exact, so that every sample can be held to the reference (the default, Algorithm C,
       * warms up over kappa sigmas: tested against A in edge_aware_gpu) */
      gst_util_set_object_arg (G_OBJECT (h->element), "partitions", "block-parallel");
      g_object_set (h->element, "sigma", 7.0, "sigma-r", 40.0, "iterations", 2u, NULL);
      gst_harness_set_src_caps_str (h, caps_string (format, 385, 288, false).c_str ());
      GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      fill_random (in, seed++);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
      GstBuffer *out = gst_harness_pull (h);
      const cg::EdgeFilter f = strcmp (filter, "rf") == 0 ? cg::EdgeFilter::Rf :
          cg::EdgeFilter::Gaussian;
      cg::EdgeSpacing luma;
      check_planes (info, in, out, std::string ("edge-aware ") + filter + " " + format,
          [&](size_t p, const cg::PlaneSpec & ps, const cg::PlaneValues & src) {
            const cg::PlaneGeometry & g = ps.geometry;
            if (p == 0) {       /* plane 0 guides every plane */
              const double sigma_r = 40.0 * g.max_value () / 255.0;
              luma = cg::reference_edge_spacing (g, src, f, 7.0 / sigma_r, 7.0 / sigma_r,
                  ps.edge_channels);
            }
            const cg::EdgeSpacing spacing = p == 0 ? luma :
                cg::resample_edge_spacing (luma, g.width, g.height, ps.subsample_x,
                ps.subsample_y);
            return cg::reference_edge_aware (g, src, spacing, f, 7.0 / ps.subsample_x,
                7.0 / ps.subsample_y, 2);
          });
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
    }
  }

  GError *err = pipeline_error ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian algorithm=edge-aware "
      "border=mirror ! fakesink", 10 * GST_SECOND);
  fail_unless (err != NULL, "no error for a mirror border with edge-aware");
  fail_unless (strstr (err->message, "replicate") != NULL, "%s", err->message);
  g_error_free (err);
}
GST_END_TEST;

/* A pageable buffer that comes back is page-locked on its second visit: the results stay right,
 * and it is pinned while it lives. */
GST_START_TEST (test_reused_pageable_memory_gets_registered)
{
  GstVideoInfo info = video_info ("RGBA", 320, 240);
  GstHarness *h = new_blur_harness ();
  gst_harness_set_src_caps_str (h, caps_string ("RGBA", 320, 240, false).c_str ());
  GstBuffer *in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill_random (in, 900);
  fail_if (is_pinned (in));
  for (int i = 0; i < 3; i++)
    push_and_check (h, &info, gst_buffer_ref (in), 2.0, 2.0, cg::Border::Replicate,
        "reused pageable buffer");
  fail_unless (is_pinned (in), "a reused pageable buffer should be page-locked");
  gst_harness_teardown (h);
  gst_buffer_unref (in);        /* unregisters as the memory is freed */
}
GST_END_TEST;

static Suite *
cudagaussian_gpu_suite (void)
{
  Suite *s = suite_create ("cudagaussian-element-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_system_memory_every_format);
  tcase_add_test (tc, test_upstream_gets_pinned_buffers);
  tcase_add_test (tc, test_settings_change_between_frames);
  tcase_add_test (tc, test_passthrough_keeps_buffer);
  tcase_add_test (tc, test_cuda_memory_every_format);
  tcase_add_test (tc, test_cuda_memory_batches);
  tcase_add_test (tc, test_frames_in_flight);
  tcase_add_test (tc, test_recursive_algorithms);
  tcase_add_test (tc, test_edge_aware_algorithm);
  tcase_add_test (tc, test_reused_pageable_memory_gets_registered);
  tcase_add_test (tc, test_flush_and_caps_change_with_frames_in_flight);
  return s;
}

int
main (int argc, char **argv)
{
  return cgt::run_gpu_suite (argc, argv, cudagaussian_gpu_suite, "cudagaussian_gpu", __FILE__);
}
