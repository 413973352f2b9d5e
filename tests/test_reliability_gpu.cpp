/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reliability of the element on a GPU: bad input, lifecycle, sharing and threads.
 *
 *   - properties at and beyond their bounds on a running element, frames-in-flight 1..16;
 *   - caps renegotiation mid-stream (size and format) with frames in flight;
 *   - 8192x8192 frames, sigma far larger than the frame, 1x1 frames;
 *   - unusual strides and plane offsets (GstVideoMeta, one memory per plane, read-only memory);
 *   - input buffers smaller than the caps or the video meta say: an error, no read past the end;
 *   - NULL <-> PLAYING 500 times with GPU memory flat; EOS with frames in flight; a flushing
 *     seek mid-stream;
 *   - two elements sharing one CUDA context; two pipelines in parallel threads; properties
 *     changed from another thread on every frame (no torn frames).
 *
 * Every output is compared with the double references of common/ (at most 1 LSB off). Runs
 * alone (meson: is_parallel false) because it measures the GPU's free memory. Without a CUDA
 * device the program reports a skip. */
#include <sys/mman.h>
#include <unistd.h>

#include <gst/app/gstappsrc.h>
#include <gst/cuda/gstcudamemory.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

#include "device_memory.h"
#include "element_gpu_helpers.h"
#include "guarded_buffer.h"

namespace cg = cudagaussian;
using cgt::Blur;
using cgt::caps_string;
using cgt::guarded_buffer;
using cgt::check_frame;
using cgt::new_blur_harness;
using cgt::new_random_frame;
using cgt::video_info;

static GstCudaContext *g_ctx;   /* shared by most harnesses and pipelines: one context, fast */

/* Pushes @in (a reference is kept by the caller) and pulls the output (frames-in-flight 1). */
static GstBuffer *
push_pull (GstHarness * h, GstBuffer * in)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (out != NULL, "no output frame");
  return out;
}

static void
push_and_check (GstHarness * h, const GstVideoInfo & info, const Blur & b, unsigned seed,
    const std::string & what)
{
  GstBuffer *in = new_random_frame (info, seed);
  GstBuffer *out = push_pull (h, in);
  if (b.sigma == 0 && b.sy () == 0)
    fail_unless (out == in, "%s: sigma 0 should pass the buffer through", what.c_str ());
  else
    check_frame (info, in, out, b, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Pushes one frame that may be refused: OK with an output, or ERROR with a message. */
static void
push_ok_or_clear_error (GstHarness * h, GstBus * bus, const GstVideoInfo & info,
    unsigned seed, const char *what)
{
  GstBuffer *in = new_random_frame (info, seed);
  const GstFlowReturn ret = gst_harness_push (h, in);
  if (ret == GST_FLOW_OK) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL, "%s: accepted but no output", what);
    gst_buffer_unref (out);
    g_print ("%s: accepted\n", what);
  } else {
    std::string msg = cgt::pop_error (bus);
    fail_unless_equals_int (ret, GST_FLOW_ERROR);
    fail_if (msg.empty (), "%s: refused without an error message", what);
    g_print ("%s: refused: %s\n", what, msg.c_str ());
  }
}

/* ---------------------------------------------------------------- bad input */

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
    cg::PlaneValues ref = cg::reference_fir (band, cg::read_plane (band, src + y0 * in_stride,
            in_stride), taps, taps, cg::Border::Replicate);
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

/* ---------------------------------------------------------------- unusual memory */

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

/* ---------------------------------------------------------------- lifecycle */

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

/* ---------------------------------------------------------------- sharing and threads */

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

static Suite *
cudagaussian_reliability_suite (void)
{
  Suite *s = suite_create ("cudagaussian-reliability");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_property_bounds_while_playing);
  tcase_add_test (tc, test_frames_in_flight_range);
  tcase_add_test (tc, test_caps_renegotiation_mid_stream);
  tcase_add_test (tc, test_very_large_frames);
  tcase_add_test (tc, test_sigma_far_larger_than_frame);
  tcase_add_test (tc, test_unusual_strides_offsets_and_memory);
  tcase_add_test (tc, test_input_smaller_than_caps);
  tcase_add_test (tc, test_state_cycles_memory_flat);
  tcase_add_test (tc, test_eos_with_frames_in_flight);
  tcase_add_test (tc, test_auto_frames_in_flight);
  tcase_add_test (tc, test_flushing_seek_mid_stream);
  tcase_add_test (tc, test_two_elements_share_a_context);
  tcase_add_test (tc, test_two_pipelines_in_parallel_threads);
  tcase_add_test (tc, test_properties_changed_from_another_thread);
  return s;
}

int
main (int argc, char **argv)
{
  g_setenv ("CUDA_MODULE_LOADING", "EAGER", FALSE);     /* kernels loaded up front: steady memory */
  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library () || cg::cuda_device_count () == 0) {
    return cgt::skip_program ("no CUDA device");
  }
  g_ctx = gst_cuda_context_new (0);
  if (!g_ctx) {
    g_print ("could not create a CUDA context on device 0\n");
    return 1;
  }
  const int ret = cgt::run_suite (cudagaussian_reliability_suite ());
  gst_object_unref (g_ctx);
  return ret;
}
