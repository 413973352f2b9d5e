/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers for the GPU element tests that run pipelines and harnesses and compare frames with the
 * double references of common/ (test_faults_gpu, test_reliability_gpu).
 *
 * Functions named check_* or *_checked use GstCheck assertions and belong on the test's own
 * thread; the others return errors as values and may run on any thread. */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "default_planes.h"
#include "element_test_basics.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "reference_blur.h"
#include "reference_multirate.h"
#include "reference_recursive.h"
#include "video_planes.h"

namespace cgt {

namespace cg = cudagaussian;

inline GstBuffer *
new_random_frame (const GstVideoInfo & info, unsigned seed, GstClockTime pts = GST_CLOCK_TIME_NONE)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fill_random (buf, seed);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_CLOCK_TIME_IS_VALID (pts) ? GST_SECOND / 30 : GST_CLOCK_TIME_NONE;
  return buf;
}

/* ---------------------------------------------------------------- references */

/* What the element is asked to compute; algorithm auto is resolved like the element does. */
struct Blur
{
  double sigma = 2.0;
  double sigma_y = -1.0;        /* -1: follows sigma */
  double truncate = 4.0;
  cg::Border border = cg::Border::Replicate;
  cg::Algorithm algorithm = cg::Algorithm::Fir;
  /* The finishing step: unsharp mask (threshold in 8-bit levels) and the parts filtered. */
  double sharpen = 0.0;
  double sharpen_threshold = 0.0;
  unsigned parts = kDefaultPlanes;

  double sy () const { return sigma_y < 0 ? sigma : sigma_y; }
};

using FrameValues = std::vector < cg::PlaneValues >;

/* The reference planes of @in (FIR, multirate or recursive reference, as the element resolves the
 * algorithm, finished as @b says: sharpened, parts not filtered kept), or an empty vector with
 * @why set. Thread-safe. */
inline FrameValues
reference_frame (const GstVideoInfo & info, GstBuffer * in, const Blur & b, std::string * why)
{
  std::vector < cg::PlaneSpec > specs;
  if (!gst_cuda_gaussian_plane_specs (&info, &specs)) {
    *why = "unsupported format";
    return {};
  }
  cg::BlurSettings s;
  s.algorithm = b.algorithm;
  s.sigma_x = b.sigma;
  s.sigma_y = b.sy ();
  s.truncate = b.truncate;
  s.border = b.border;
  s.sharpen = b.sharpen;
  s.sharpen_threshold = b.sharpen_threshold;
  s.parts = b.parts;
  const std::vector < cg::SampleFinish > finishes = cg::FrameBlur::plane_finishes (s, specs);
  const cg::Algorithm alg = cg::FrameBlur::resolve (s, specs);
  if (alg != cg::Algorithm::Fir && alg != cg::Algorithm::Multirate && !cg::is_recursive (alg)) {
    *why = std::string ("no reference here for algorithm ") + cg::algorithm_name (alg);
    return {};
  }
  GstVideoFrame f;
  if (!gst_video_frame_map (&f, &info, in, GST_MAP_READ)) {
    *why = "could not map the input frame";
    return {};
  }
  FrameValues out;
  for (size_t p = 0; p < specs.size (); p++) {
    const cg::PlaneSpec & ps = specs[p];
    const double sx = b.sigma / ps.subsample_x, sy = b.sy () / ps.subsample_y;
    cg::PlaneValues src = cg::read_plane (ps.geometry, GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p));
    cg::PlaneValues blurred;
    if (alg == cg::Algorithm::Fir)
      blurred = cg::reference_fir (ps.geometry, src,
          cg::gaussian_taps (sx, cg::fir_radius (sx, b.truncate)),
          cg::gaussian_taps (sy, cg::fir_radius (sy, b.truncate)), b.border);
    else if (alg == cg::Algorithm::Multirate)
      blurred = cg::reference_multirate (ps.geometry, src,
          cg::plan_multirate_axis (ps.geometry.width, sx),
          cg::plan_multirate_axis (ps.geometry.height, sy), b.border);
    else
      blurred = cg::reference_recursive (ps.geometry, src, cg::recursive_filter_of (alg), sx, sy,
          cg::StartUp::Exact);
    cg::PlaneValues finished = cg::finish_values (ps.geometry, src, blurred, finishes[p]);
    for (double &v : finished)  /* a sharpened value beyond the range is stored clamped */
      v = std::clamp (v, 0.0, (double) ps.geometry.max_value ());
    out.push_back (std::move (finished));
  }
  gst_video_frame_unmap (&f);
  return out;
}

/* Largest difference between the planes of @out and @ref (sample units); -1 when @out cannot
 * be mapped as @info or does not have the planes. Thread-safe. */
inline double
max_error (const GstVideoInfo & info, GstBuffer * out, const FrameValues & ref)
{
  std::vector < cg::PlaneSpec > specs;
  if (!gst_cuda_gaussian_plane_specs (&info, &specs) || specs.size () != ref.size ())
    return -1.0;
  GstVideoFrame f;
  if (!gst_video_frame_map (&f, &info, out, GST_MAP_READ))
    return -1.0;
  double worst = 0.0;
  for (size_t p = 0; p < specs.size (); p++) {
    cg::PlaneValues got = cg::read_plane (specs[p].geometry, GST_VIDEO_FRAME_PLANE_DATA (&f, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, p));
    if (got.size () != ref[p].size ()) {
      worst = -1.0;
      break;
    }
    for (size_t i = 0; i < got.size (); i++)
      worst = std::max (worst, std::fabs (got[i] - ref[p][i]));
  }
  gst_video_frame_unmap (&f);
  return worst;
}

/* Pushes @in (a reference is kept by the caller) and pulls the output (frames-in-flight 1, or a
 * harness whose element hands each frame out at once). */
inline GstBuffer *
push_pull (GstHarness * h, GstBuffer * in)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull (h);
  fail_unless (out != NULL, "no output frame");
  return out;
}

/* Compares @out with the reference blur of @in; fails the test with @what beyond @tolerance. */
inline void
check_frame (const GstVideoInfo & info, GstBuffer * in, GstBuffer * out, const Blur & b,
    const std::string & what, double tolerance = 1.0)
{
  fail_unless (out != NULL, "%s: no output frame", what.c_str ());
  std::string why;
  FrameValues ref = reference_frame (info, in, b, &why);
  fail_if (ref.empty (), "%s: %s", what.c_str (), why.c_str ());
  const double err = max_error (info, out, ref);
  fail_unless (err >= 0.0, "%s: the output frame does not map as %s %dx%d", what.c_str (),
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info));
  fail_unless (err <= tolerance, "%s: max error %.3f > %.1f", what.c_str (), err, tolerance);
}

/* ---------------------------------------------------------------- elements and context */

/* A cudagaussian harness; with @share, the element uses that CUDA context (set before it
 * starts), which saves creating one per harness. */
inline GstHarness *
new_blur_harness (guint frames_in_flight, GstCudaContext * share = NULL)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  fail_unless (e != NULL, "cudagaussian is not registered");
  g_object_set (e, "frames-in-flight", frames_in_flight, NULL);
  if (share) {
    GstContext *c = gst_context_new_cuda_context (share);
    gst_element_set_context (e, c);
    gst_context_unref (c);
  }
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

/* Gives @element (a harness's, which has none) a bus, so that its errors can be read. Tear the
 * harness down with teardown_with_bus(). */
inline GstBus *
attach_bus (GstElement * element)
{
  GstBus *bus = gst_bus_new ();
  gst_element_set_bus (element, bus);
  return bus;
}

/* Tears down @h, whose element has the bus @bus of attach_bus(), and drops the bus. Its queued
 * messages (those of the teardown too) are dropped first: each holds a reference to the element,
 * which holds the bus, a cycle that would leak both. */
inline void
teardown_with_bus (GstHarness * h, GstBus * bus)
{
  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

/* The text of the first ERROR on @bus ("" when there is none); @debug gets its details. */
inline std::string
pop_error (GstBus * bus, std::string * debug = NULL)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (!msg)
    return "";
  GError *err = NULL;
  gchar *dbg = NULL;
  gst_message_parse_error (msg, &err, &dbg);
  std::string text = err && err->message ? err->message : "(error without a message)";
  if (debug)
    *debug = dbg ? dbg : "";
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  return text;
}

/* Lets every element of @pipeline use @ctx (answers their NEED_CONTEXT). */
inline void
share_cuda_context (GstElement * pipeline, GstCudaContext * ctx)
{
  GstContext *c = gst_context_new_cuda_context (ctx);
  gst_element_set_context (pipeline, c);
  gst_context_unref (c);
}

/* The CUDA context an element answers a context query with (NULL if none); transfer full. */
inline GstCudaContext *
element_cuda_context (GstElement * element, const char *pad_name = "src")
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  if (!pad)
    return NULL;
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *ctx = NULL;
  if (gst_pad_query (pad, q)) {
    GstContext *c = NULL;
    gst_query_parse_context (q, &c);
    if (c)
      gst_structure_get (gst_context_get_structure (c), GST_CUDA_CONTEXT_TYPE,
          GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_query_unref (q);
  gst_object_unref (pad);
  return ctx;
}

/* Free memory of the GPU that @ctx is on (cudaMemGetInfo with @ctx current: the runtime uses
 * the current driver context, so no other context is created). 0 on failure. */
inline size_t
gpu_free_bytes (GstCudaContext * ctx)
{
  size_t free_b = 0, total_b = 0;
  if (!gst_cuda_context_push (ctx))
    return 0;
  if (cudaMemGetInfo (&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError ();
    free_b = 0;
  }
  gst_cuda_context_pop (NULL);
  return free_b;
}

inline double
mib (double bytes)
{
  return bytes / (1024.0 * 1024.0);
}

}  // namespace cgt
