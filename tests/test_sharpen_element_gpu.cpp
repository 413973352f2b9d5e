/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian's sharpen, sharpen-threshold and planes through the element: the properties as
 * gst-inspect-1.0 shows them, every format family against the unsharp-mask reference (within 1
 * LSB), the parts not chosen bit-exact, a change while playing, sharpening inside regions, and
 * frames in CUDA memory. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cstdarg>
#include <cmath>
#include <string>
#include <vector>

#include "element_gpu_helpers.h"

using namespace cgt;

namespace
{

/* The blur the tests sharpen with (FIR, sigma 1.5, amount 0.8), as the reference sees it. */
Blur
sharpening ()
{
  Blur b;
  b.sigma = 1.5;
  b.sharpen = 0.8;
  return b;
}

/* printf into a std::string, for the messages of failed checks. */
std::string
text (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  gchar *s = g_strdup_vprintf (format, args);
  va_end (args);
  std::string out = s;
  g_free (s);
  return out;
}

GstHarness *
sharpen_harness (const Blur & sh, const std::string & caps)
{
  GstHarness *h = gst_harness_new ("cudagaussian");
  g_object_set (h->element, "sigma", sh.sigma, "sharpen", sh.sharpen, "sharpen-threshold",
      sh.sharpen_threshold, "planes", sh.parts, "algorithm", 1 /* fir */ , NULL);
  gst_harness_set_src_caps_str (h, caps.c_str ());
  return h;
}

/* Bytes of plane @p of @a and @b (mapped as @info) that differ. */
long
plane_bytes_differing (const GstVideoInfo & info, GstBuffer * a, GstBuffer * b, guint p)
{
  GstVideoFrame fa, fb;
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  const gint comp_width = GST_VIDEO_FRAME_COMP_WIDTH (&fa, p) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, p);
  long n = 0;
  for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fa, p); y++) {
    const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
    const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
    for (gint x = 0; x < comp_width; x++)
      n += ra[x] != rb[x];
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return n;
}

}                               /* namespace */

GST_START_TEST (test_properties_documented)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  fail_unless (e != NULL);
  gdouble amount, threshold;
  guint planes;
  g_object_get (e, "sharpen", &amount, "sharpen-threshold", &threshold, "planes", &planes, NULL);
  fail_unless_equals_float (amount, 0.0);
  fail_unless_equals_float (threshold, 0.0);
  fail_unless_equals_int (planes, cg::kPartLuma | cg::kPartChroma | cg::kPartColor);
  for (const char *name : {"sharpen", "sharpen-threshold", "planes"}) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
    fail_unless (pspec != NULL, "no property %s", name);
    fail_unless (strlen (g_param_spec_get_blurb (pspec)) > 20, "%s has no description", name);
  }
  /* The flags parse from their nicks, as gst-launch-1.0 writes them. */
  gst_util_set_object_arg (G_OBJECT (e), "planes", "luma+alpha");
  g_object_get (e, "planes", &planes, NULL);
  fail_unless_equals_int (planes, cg::kPartLuma | cg::kPartAlpha);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "planes");
  fail_unless (G_IS_PARAM_SPEC_FLAGS (pspec));
  GFlagsClass *flags = G_PARAM_SPEC_FLAGS (pspec)->flags_class;
  for (const char *nick : {"luma", "chroma", "color", "alpha"})
    fail_unless (g_flags_get_value_by_nick (flags, nick) != NULL, "no flag %s", nick);
  gst_object_unref (e);
}
GST_END_TEST;

/* Every format family, sharpened with and without a threshold, against the reference. */
GST_START_TEST (test_sharpen_every_format_family)
{
  unsigned seed = 1;
  for (const char *format : {"RGBA", "BGRx", "RGB", "GRAY8", "GRAY16_LE", "I420", "NV12",
          "P010_10LE", "Y444"}) {
    for (double threshold : {0.0, 4.0}) {
      Blur sh = sharpening ();
      sh.sharpen_threshold = threshold;
      const GstVideoInfo info = video_info (format, 97, 61);
      GstHarness *h = sharpen_harness (sh, caps_string (format, 97, 61));
      GstBuffer *in = new_random_frame (info, seed++);
      GstBuffer *out = push_pull (h, in);
      check_frame (info, in, out, sh, text ("%s threshold %g", format, threshold));
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
    }
  }
}
GST_END_TEST;

/* The parts not chosen are the input's bytes: chroma under planes=luma, luma under
 * planes=chroma, alpha by default; planes=color+alpha blurs alpha too. */
GST_START_TEST (test_planes_keep_the_rest)
{
  struct Run
  {
    const char *format;
    guint parts;
    std::vector < guint > untouched;    /* planes that must be the input's bytes */
  } runs[] = {
    {"I420", cg::kPartLuma, {1, 2}},
    {"I420", cg::kPartChroma, {0}},
    {"NV12", cg::kPartLuma, {1}},
    {"P010_10LE", cg::kPartChroma, {0}},
  };
  unsigned seed = 40;
  for (const Run & r : runs) {
    Blur sh = sharpening ();
    sh.sharpen = 0.0;
    sh.sigma = 3.0;
    sh.parts = r.parts;
    const GstVideoInfo info = video_info (r.format, 97, 62);
    GstHarness *h = sharpen_harness (sh, caps_string (r.format, 97, 62));
    GstBuffer *in = new_random_frame (info, seed++);
    GstBuffer *out = push_pull (h, in);
    for (guint p : r.untouched)
      fail_unless_equals_int (plane_bytes_differing (info, in, out, p), 0);
    check_frame (info, in, out, sh, text ("%s parts 0x%x", r.format, r.parts));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }

  /* RGBA: alpha passes through by default, and is blurred when chosen. */
  const GstVideoInfo info = video_info ("RGBA", 64, 48);
  GstBuffer *in = new_random_frame (info, 99);
  for (guint parts : {(guint) kDefaultPlanes, (guint) (cg::kPartColor | cg::kPartAlpha)}) {
    Blur sh = sharpening ();
    sh.sharpen = 0.0;
    sh.sigma = 3.0;
    sh.parts = parts;
    GstHarness *h = sharpen_harness (sh, caps_string ("RGBA", 64, 48));
    GstBuffer *out = push_pull (h, in);
    GstMapInfo a, b;
    fail_unless (gst_buffer_map (in, &a, GST_MAP_READ) && gst_buffer_map (out, &b, GST_MAP_READ));
    long alpha_changed = 0;
    for (gsize i = 3; i < a.size; i += 4)
      alpha_changed += a.data[i] != b.data[i];
    gst_buffer_unmap (in, &a);
    gst_buffer_unmap (out, &b);
    if (parts & cg::kPartAlpha)
      fail_unless (alpha_changed > 1000, "alpha was not blurred (%ld changed)", alpha_changed);
    else
      fail_unless_equals_int (alpha_changed, 0);
    check_frame (info, in, out, sh, text ("RGBA parts 0x%x", parts));
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  gst_buffer_unref (in);
}
GST_END_TEST;

/* sharpen is controllable: a change applies from the next frame on. */
GST_START_TEST (test_sharpen_changes_while_playing)
{
  const GstVideoInfo info = video_info ("NV12", 128, 72);
  Blur sh = sharpening ();
  sh.sharpen = 0.0;
  GstHarness *h = sharpen_harness (sh, caps_string ("NV12", 128, 72));
  unsigned seed = 70;
  for (double amount : {0.0, 1.0, 2.5, 0.0}) {
    sh.sharpen = amount;
    g_object_set (h->element, "sharpen", amount, NULL);
    GstBuffer *in = new_random_frame (info, seed++);
    GstBuffer *out = push_pull (h, in);
    check_frame (info, in, out, sh, text ("sharpen %g", amount));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* regions=inside with sharpen: inside a privacy zone the output is the whole-frame unsharp
 * mask there; outside it, the input's bytes. */
GST_START_TEST (test_sharpen_inside_regions)
{
  const int w = 96, hgt = 64, x0 = 20, y0 = 10, x1 = 70, y1 = 50;
  const GstVideoInfo info = video_info ("RGBA", w, hgt);
  Blur sh = sharpening ();
  sh.sharpen = 1.5;
  sh.sharpen_threshold = 2.0;
  GstHarness *h = sharpen_harness (sh, caps_string ("RGBA", w, hgt));
  gst_util_set_object_arg (G_OBJECT (h->element), "regions", "inside");
  g_object_set (h->element, "privacy-zones", "20,10,50,40", NULL);
  GstBuffer *in = new_random_frame (info, 5);
  GstBuffer *out = push_pull (h, in);
  std::string why;
  const FrameValues ref = reference_frame (info, in, sh, &why);
  fail_if (ref.empty (), "%s", why.c_str ());
  GstVideoFrame fi, fo;
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  double worst = 0.0;
  long outside_changed = 0;
  for (int y = 0; y < hgt; y++) {
    const guint8 *ri = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0);
    const guint8 *ro = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0);
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 4; c++) {
        const bool inside = x >= x0 && x < x1 && y >= y0 && y < y1;
        if (inside)
          worst = std::max (worst, std::fabs (ro[x * 4 + c] - ref[0][(y * w + x) * 4 + c]));
        else
          outside_changed += ro[x * 4 + c] != ri[x * 4 + c];
      }
  }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  fail_unless_equals_int (outside_changed, 0);
  fail_unless (worst <= 1.0, "inside the region: max error %.3f", worst);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Frames in CUDA memory (cudaupload ! cudagaussian ! cudadownload): sharpened, alpha kept. */
GST_START_TEST (test_sharpen_in_cuda_memory)
{
  if (!cgt::have_cudaupload ())
    return;
  unsigned seed = 90;
  for (const char *format : {"RGBA", "NV12", "I420", "P010_10LE"}) {
    const int w = 385, hgt = 288;
    const GstVideoInfo info = video_info (format, w, hgt);
    GstHarness *h = gst_harness_new_parse ("cudaupload ! video/x-raw(memory:CUDAMemory) ! "
        "cudagaussian algorithm=fir sigma=1.5 sharpen=0.8 sharpen-threshold=2 frames-in-flight=1 ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload");
    gst_harness_set_src_caps_str (h, caps_string (format, w, hgt).c_str ());
    GstBuffer *in = new_random_frame (info, seed++);
    GstBuffer *out = push_pull (h, in);
    Blur sh = sharpening ();
    sh.sharpen_threshold = 2.0;
    check_frame (info, in, out, sh, std::string (format) + " in CUDA memory");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static Suite *
sharpen_element_suite (void)
{
  Suite *s = suite_create ("cudagaussian-sharpen-element");
  TCase *tc = tcase_create ("sharpen");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties_documented);
  tcase_add_test (tc, test_sharpen_every_format_family);
  tcase_add_test (tc, test_planes_keep_the_rest);
  tcase_add_test (tc, test_sharpen_changes_while_playing);
  tcase_add_test (tc, test_sharpen_inside_regions);
  tcase_add_test (tc, test_sharpen_in_cuda_memory);
  return s;
}

int
main (int argc, char **argv)
{
  return cgt::run_gpu_suite (argc, argv, sharpen_element_suite, "sharpen_element_gpu", __FILE__);
}
