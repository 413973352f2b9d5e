/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudasobel element tests that need no GPU: registration, properties and their ranges, pad
 * templates, caps transformation and fixation (RGBA in -> GRAY8 out, memory feature kept, an
 * unsupported input refused), and the error a pipeline gets when no CUDA device can be used. */
#include <gst/check/gstcheck.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudaloader.h>

#include <string>

#include "device_memory.h"
#include "gst_check_run.h"
#include "pipeline_error.h"

static const char *kInFormats[] = { "GRAY8", "RGBA", "BGRA", "RGBx", "BGRx",
  "ARGB", "ABGR", "xRGB", "xBGR", "RGB", "BGR"
};

static GstCaps *
video_caps (const char *format, bool cuda, int width = 385, int height = 289)
{
  std::string s = std::string ("video/x-raw") + (cuda ? "(memory:CUDAMemory)" : "") +
      ",format=" + format + ",width=" + std::to_string (width) + ",height=" +
      std::to_string (height) + ",framerate=30/1";
  return gst_caps_from_string (s.c_str ());
}

GST_START_TEST (test_registered_with_defaults)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  fail_unless (e != NULL, "cudasobel is not registered");
  fail_unless (GST_IS_BASE_TRANSFORM (e));

  gint output, device;
  gdouble scale;
  g_object_get (e, "output", &output, "scale", &scale, "cuda-device-id", &device,
      NULL);
  fail_unless_equals_int (output, 0);   /* magnitude */
  fail_unless_equals_float (scale, 1.0);
  fail_unless_equals_int (device, -1);
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));

  GstElementFactory *f = gst_element_get_factory (e);
  fail_unless (strstr (gst_element_factory_get_metadata (f,
              GST_ELEMENT_METADATA_KLASS), "Video") != NULL);
  gst_object_unref (e);

  /* cudagaussian is still there, in the same plugin. */
  GstElement *g = gst_element_factory_make ("cudagaussian", NULL);
  fail_unless (g != NULL);
  gst_object_unref (g);
}
GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);

  /* Every property is documented. */
  for (const char *name : { "output", "scale", "cuda-device-id" }) {
    GParamSpec *p = g_object_class_find_property (klass, name);
    fail_unless (p != NULL, "no property %s", name);
    const gchar *blurb = g_param_spec_get_blurb (p);
    fail_unless (blurb != NULL && strlen (blurb) > 20, "%s is not documented", name);
  }

  /* scale: 0 .. 65535, clamped by the spec. */
  GParamSpec *p = g_object_class_find_property (klass, "scale");
  GParamSpecDouble *pd = G_PARAM_SPEC_DOUBLE (p);
  fail_unless_equals_float (pd->minimum, 0.0);
  fail_unless_equals_float (pd->maximum, 65535.0);
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, -2.0);
  fail_unless (g_param_value_validate (p, &v));
  fail_unless_equals_float (g_value_get_double (&v), 0.0);
  g_value_set_double (&v, 1e6);
  fail_unless (g_param_value_validate (p, &v));
  fail_unless_equals_float (g_value_get_double (&v), 65535.0);
  g_value_set_double (&v, 57.5);
  fail_if (g_param_value_validate (p, &v));
  g_value_unset (&v);
  fail_unless (p->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (g_object_class_find_property (klass,
          "output")->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (g_object_class_find_property (klass,
          "cuda-device-id")->flags & GST_PARAM_MUTABLE_READY);

  g_object_set (e, "scale", 2.5, NULL);
  gdouble scale;
  g_object_get (e, "scale", &scale, NULL);
  fail_unless_equals_float (scale, 2.5);

  /* Enum values by nick, as gst-launch users write them. */
  gst_util_set_object_arg (G_OBJECT (e), "output", "direction");
  gint output;
  g_object_get (e, "output", &output, NULL);
  fail_unless_equals_int (output, 1);
  gst_util_set_object_arg (G_OBJECT (e), "output", "magnitude");
  g_object_get (e, "output", &output, NULL);
  fail_unless_equals_int (output, 0);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_pad_templates)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");

  for (bool cuda : { false, true }) {
    for (const char *format : kInFormats) {
      /* In CUDA memory: not the formats GStreamer 1.22's CUDA allocator does not know. */
      const bool expected = !cuda || !(g_str_equal (format, "GRAY8") ||
          g_str_equal (format, "xRGB") || g_str_equal (format, "xBGR"));
      GstCaps *caps = video_caps (format, cuda);
      fail_unless (gst_pad_query_accept_caps (sink, caps) == expected, "sink and %s%s", format,
          cuda ? " in CUDA memory" : "");
      gst_caps_unref (caps);
    }
    /* Output in system memory only. */
    for (const char *format : { "GRAY8", "GRAY16_LE" }) {
      GstCaps *caps = video_caps (format, cuda);
      fail_unless (gst_pad_query_accept_caps (src, caps) == !cuda, "src and %s%s", format,
          cuda ? " in CUDA memory" : "");
      gst_caps_unref (caps);
    }
    /* Unsupported inputs, and colour formats on the output. */
    for (const char *format : { "I420", "NV12", "GRAY16_LE", "RGB16", "RGBA64_LE",
            "YUY2", "BGR10A2_LE" }) {
      GstCaps *caps = video_caps (format, cuda);
      fail_if (gst_pad_query_accept_caps (sink, caps), "sink accepted %s", format);
      gst_caps_unref (caps);
    }
    for (const char *format : { "RGBA", "BGRx", "I420", "GRAY16_BE" }) {
      GstCaps *caps = video_caps (format, cuda);
      fail_if (gst_pad_query_accept_caps (src, caps), "src accepted %s", format);
      gst_caps_unref (caps);
    }
  }
  GstCaps *audio = gst_caps_from_string ("audio/x-raw,format=S16LE");
  fail_if (gst_pad_query_accept_caps (sink, audio));
  gst_caps_unref (audio);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}
GST_END_TEST;

static GstCaps *
transform (GstElement * e, GstPadDirection direction, const char *caps_str,
    const char *filter_str = NULL)
{
  GstBaseTransform *t = GST_BASE_TRANSFORM (e);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstCaps *filter = filter_str ? gst_caps_from_string (filter_str) : NULL;
  GstCaps *out = GST_BASE_TRANSFORM_GET_CLASS (t)->transform_caps (t, direction,
      caps, filter);
  gst_caps_unref (caps);
  if (filter)
    gst_caps_unref (filter);
  return out;
}

static void
check_caps_equal (GstCaps * got, const char *want_str)
{
  GstCaps *want = gst_caps_from_string (want_str);
  gchar *g = gst_caps_to_string (got);
  fail_unless (gst_caps_is_equal (got, want), "got %s, want %s", g, want_str);
  g_free (g);
  gst_caps_unref (want);
  gst_caps_unref (got);
}

GST_START_TEST (test_transform_caps)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);

  /* Sink to src: any input format gives both gray formats; size, rate, aspect kept; colour
   * description dropped; the output is always in system memory (1.22's CUDA allocator has no
   * GRAY formats). */
  check_caps_equal (transform (e, GST_PAD_SINK,
          "video/x-raw,format=RGBA,width=385,height=289,framerate=30/1,"
          "pixel-aspect-ratio=1/1,colorimetry=sRGB"),
      "video/x-raw,format={GRAY8,GRAY16_LE},width=385,height=289,framerate=30/1,"
      "pixel-aspect-ratio=1/1");
  check_caps_equal (transform (e, GST_PAD_SINK,
          "video/x-raw(memory:CUDAMemory),format=BGRx,width=64,height=48,framerate=25/1"),
      "video/x-raw,format={GRAY8,GRAY16_LE},width=64,height=48,"
      "framerate=25/1");
  /* Several structures: all outputs in system memory. */
  check_caps_equal (transform (e, GST_PAD_SINK,
          "video/x-raw(memory:CUDAMemory),format=RGB,width=8,height=8; "
          "video/x-raw,format=GRAY8,width=8,height=8"),
      "video/x-raw,format={GRAY8,GRAY16_LE},width=8,height=8");
  /* A filter restricts the answer. */
  check_caps_equal (transform (e, GST_PAD_SINK,
          "video/x-raw,format=RGBA,width=16,height=16",
          "video/x-raw,format=GRAY16_LE"),
      "video/x-raw,format=GRAY16_LE,width=16,height=16");

  /* Src to sink: a gray output can come from any supported input. */
  /* Src to sink: any input format, in CUDA or system memory. */
  check_caps_equal (transform (e, GST_PAD_SRC,
          "video/x-raw,format=GRAY16_LE,width=[1,100],height=20"),
      "video/x-raw(memory:CUDAMemory),format={GRAY8,RGBA,BGRA,RGBx,BGRx,ARGB,ABGR,xRGB,xBGR,RGB,BGR},"
      "width=[1,100],height=20; "
      "video/x-raw,format={GRAY8,RGBA,BGRA,RGBx,BGRx,ARGB,ABGR,xRGB,xBGR,RGB,BGR},"
      "width=[1,100],height=20");

  /* ANY maps onto the other pad's template. */
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCaps *templ = gst_pad_get_pad_template_caps (src);
  GstCaps *any = transform (e, GST_PAD_SINK, "ANY");
  fail_unless (gst_caps_is_equal (any, templ));
  gst_caps_unref (any);
  gst_caps_unref (templ);
  gst_object_unref (src);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_fixate_prefers_gray8_and_keeps_size)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  GstBaseTransform *t = GST_BASE_TRANSFORM (e);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (t);

  GstCaps *in = gst_caps_from_string ("video/x-raw,format=RGBA,width=385,height=289,"
      "framerate=30/1");
  /* Downstream that lists GRAY16_LE first still gets GRAY8, the element's preference. */
  GstCaps *other = gst_caps_from_string ("video/x-raw,format={GRAY16_LE,GRAY8},"
      "width=[1,4096],height=[1,4096],framerate=[0/1,100/1]");
  GstCaps *fixed = klass->fixate_caps (t, GST_PAD_SINK, in, other);
  fail_unless (gst_caps_is_fixed (fixed));
  check_caps_equal (fixed,
      "video/x-raw,format=GRAY8,width=385,height=289,framerate=30/1");

  /* A downstream that only takes GRAY16_LE gets it. */
  other = gst_caps_from_string ("video/x-raw,format=GRAY16_LE,width=[1,4096],"
      "height=[1,4096],framerate=[0/1,100/1]");
  check_caps_equal (klass->fixate_caps (t, GST_PAD_SINK, in, other),
      "video/x-raw,format=GRAY16_LE,width=385,height=289,framerate=30/1");
  gst_caps_unref (in);

  /* CUDA-memory input gives a system-memory output. */
  in = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=BGR,width=64,"
      "height=48,framerate=25/1");
  other = transform (e, GST_PAD_SINK,
      "video/x-raw(memory:CUDAMemory),format=BGR,width=64,height=48,framerate=25/1");
  check_caps_equal (klass->fixate_caps (t, GST_PAD_SINK, in, other),
      "video/x-raw,format=GRAY8,width=64,height=48,framerate=25/1");
  gst_caps_unref (in);
  gst_object_unref (e);
}
GST_END_TEST;

/* The real query path: upstream offers fixed RGBA caps; the element's src pad answers with the
 * gray formats at that size, and its sink pad, asked from downstream, with the input formats. */
static GstCaps *upstream_caps = NULL;

static gboolean
upstream_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_CAPS)
    return gst_pad_query_default (pad, parent, query);
  GstCaps *filter;
  gst_query_parse_caps (query, &filter);
  GstCaps *result = filter ? gst_caps_intersect_full (filter, upstream_caps,
      GST_CAPS_INTERSECT_FIRST) : gst_caps_ref (upstream_caps);
  gst_query_set_caps_result (query, result);
  gst_caps_unref (result);
  return TRUE;
}

static GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC,
    GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

GST_START_TEST (test_caps_query_rgba_in_gray_out)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  GstPad *up = gst_pad_new_from_static_template (&any_src, "up");
  gst_pad_set_query_function (up, upstream_query);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");
  upstream_caps = video_caps ("RGBA", false);
  fail_unless_equals_int (gst_pad_link (up, sink), GST_PAD_LINK_OK);

  GstCaps *caps = gst_pad_query_caps (src, NULL);
  GstCaps *want = gst_caps_from_string ("video/x-raw,format={GRAY8,GRAY16_LE},"
      "width=385,height=289,framerate=30/1");
  gchar *s = gst_caps_to_string (caps);
  fail_unless (gst_caps_is_equal (caps, want), "src pad offers %s", s);
  g_free (s);
  gst_caps_unref (want);
  gst_caps_unref (caps);
  gst_caps_unref (upstream_caps);

  /* Upstream in an unsupported format: nothing can come out. */
  upstream_caps = video_caps ("I420", false);
  caps = gst_pad_query_caps (src, NULL);
  fail_unless (gst_caps_is_empty (caps));
  gst_caps_unref (caps);
  gst_caps_unref (upstream_caps);
  upstream_caps = NULL;

  gst_pad_unlink (up, sink);
  gst_object_unref (up);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}
GST_END_TEST;

static GstCaps *
unit_sizes (GstElement * e, const char *caps_str, gsize * size)
{
  GstBaseTransform *t = GST_BASE_TRANSFORM (e);
  GstCaps *caps = gst_caps_from_string (caps_str);
  fail_unless (GST_BASE_TRANSFORM_GET_CLASS (t)->get_unit_size (t, caps, size));
  return caps;
}

GST_START_TEST (test_unit_sizes)
{
  GstElement *e = gst_element_factory_make ("cudasobel", NULL);
  gsize size = 0;
  gst_caps_unref (unit_sizes (e, "video/x-raw,format=RGBA,width=385,height=289", &size));
  fail_unless_equals_uint64 (size, 385 * 4 * 289);
  gst_caps_unref (unit_sizes (e, "video/x-raw,format=RGB,width=385,height=289", &size));
  fail_unless_equals_uint64 (size, 1156 * 289); /* rows padded to 4 bytes */
  gst_caps_unref (unit_sizes (e, "video/x-raw,format=GRAY8,width=385,height=289", &size));
  fail_unless_equals_uint64 (size, 388 * 289);
  gst_caps_unref (unit_sizes (e, "video/x-raw,format=GRAY16_LE,width=385,height=289",
          &size));
  fail_unless_equals_uint64 (size, 772 * 289);
  gst_object_unref (e);
}
GST_END_TEST;

/* Without a usable device the pipeline must stop with a readable error, not crash or hang.
 * With a GPU present, a device id that does not exist takes the same path. */
GST_START_TEST (test_error_without_cuda_device)
{
  check_no_cuda_device_error ("cudasobel");
}
GST_END_TEST;

static Suite *
cudasobel_element_suite (void)
{
  Suite *s = suite_create ("cudasobel-element");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registered_with_defaults);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_pad_templates);
  tcase_add_test (tc, test_transform_caps);
  tcase_add_test (tc, test_fixate_prefers_gray8_and_keeps_size);
  tcase_add_test (tc, test_caps_query_rgba_in_gray_out);
  tcase_add_test (tc, test_unit_sizes);
  tcase_add_test (tc, test_error_without_cuda_device);
  return s;
}

CGT_CHECK_MAIN (cudasobel_element);
