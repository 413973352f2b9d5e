/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Element tests that need no GPU: registration, properties, caps, passthrough, and the error a
 * pipeline gets when no CUDA device can be used. */
#include <gst/check/gstcheck.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudaloader.h>

#include <string>
#include <vector>

#include "device_memory.h"
#include "gst_check_run.h"
#include "pipeline_error.h"

static const char *kFormats[] = { "RGBA", "BGRA", "RGBx", "BGRx", "ARGB",
  "ABGR", "xRGB", "xBGR", "RGB", "BGR", "GRAY8", "GRAY16_LE", "I420", "YV12",
  "NV12", "NV21", "Y42B", "Y444", "P010_10LE", "P016_LE"
};

GST_START_TEST (test_registered_with_defaults)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  fail_unless (e != NULL, "cudagaussian is not registered");

  gdouble sigma, sigma_y, truncate;
  gint algorithm, border, device;
  guint frames_in_flight;
  g_object_get (e, "sigma", &sigma, "sigma-y", &sigma_y, "truncate", &truncate,
      "algorithm", &algorithm, "border", &border, "cuda-device-id", &device,
      "frames-in-flight", &frames_in_flight, NULL);
  fail_unless_equals_int (frames_in_flight, 0);  /* auto */
  fail_unless_equals_float (sigma, 2.0);
  fail_unless_equals_float (sigma_y, -1.0);
  fail_unless_equals_float (truncate, 4.0);
  fail_unless_equals_int (algorithm, 0);        /* auto */
  fail_unless_equals_int (border, 0);   /* replicate */
  fail_unless_equals_int (device, -1);
  gst_object_unref (e);
}
GST_END_TEST;

/* Checks that the spec clamps @value to @expected (TRUE from validate = it was changed). */
static void
check_double_clamped (GObjectClass * klass, const char *name, gdouble value,
    gdouble expected)
{
  GParamSpec *pspec = g_object_class_find_property (klass, name);
  fail_unless (pspec != NULL, "no property %s", name);
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, value);
  const gboolean changed = g_param_value_validate (pspec, &v);
  fail_unless (changed == (value != expected), "%s=%g", name, value);
  fail_unless_equals_float (g_value_get_double (&v), expected);
  g_value_unset (&v);
}

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);

  check_double_clamped (klass, "sigma", 0.0, 0.0);
  check_double_clamped (klass, "sigma", 250.0, 250.0);
  check_double_clamped (klass, "sigma", -0.5, 0.0);
  check_double_clamped (klass, "sigma", 1000.0, 250.0);
  check_double_clamped (klass, "sigma-y", -1.0, -1.0);
  check_double_clamped (klass, "sigma-y", -3.0, -1.0);
  check_double_clamped (klass, "sigma-y", 251.0, 250.0);
  check_double_clamped (klass, "truncate", 0.5, 1.0);
  check_double_clamped (klass, "truncate", 8.0, 8.0);
  check_double_clamped (klass, "truncate", 9.0, 8.0);

  /* Live-changeable and controllable where a change between frames makes sense. */
  const char *live[] = { "sigma", "sigma-y", "truncate" };
  for (const char *name : live) {
    GParamSpec *p = g_object_class_find_property (klass, name);
    fail_unless (p->flags & GST_PARAM_CONTROLLABLE, "%s", name);
    fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING, "%s", name);
  }
  fail_unless (g_object_class_find_property (klass,
          "border")->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (g_object_class_find_property (klass,
          "algorithm")->flags & GST_PARAM_MUTABLE_PLAYING);

  /* Enum values by nick, as gst-launch users write them. */
  gst_util_set_object_arg (G_OBJECT (e), "border", "mirror");
  gint border;
  g_object_get (e, "border", &border, NULL);
  fail_unless_equals_int (border, 1);
  gst_util_set_object_arg (G_OBJECT (e), "algorithm", "fir");
  gint algorithm;
  g_object_get (e, "algorithm", &algorithm, NULL);
  fail_unless_equals_int (algorithm, 1);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_edge_aware_coefficients_and_box_method_properties)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);

  gdouble sigma_r, kappa;
  guint iterations;
  gint edge_filter, partitions;
  g_object_get (e, "sigma-r", &sigma_r, "iterations", &iterations, "edge-filter",
      &edge_filter, "kappa", &kappa, "partitions", &partitions, NULL);
  fail_unless_equals_float (sigma_r, 30.0);
  fail_unless_equals_int (iterations, 3);
  fail_unless_equals_int (edge_filter, 0);      /* gaussian */
  fail_unless_equals_float (kappa, -1.0);       /* auto: 4 recursive, 2 edge-aware */
  fail_unless_equals_int (partitions, 4);       /* auto */

  check_double_clamped (klass, "sigma-r", 0.0, 0.1);
  check_double_clamped (klass, "sigma-r", 1e6, 100000.0);
  check_double_clamped (klass, "kappa", -2.0, -1.0);
  check_double_clamped (klass, "kappa", 100.0, 100.0);
  GParamSpec *it = g_object_class_find_property (klass, "iterations");
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, 11);
  fail_unless (g_param_value_validate (it, &v));
  fail_unless_equals_int (g_value_get_uint (&v), 10);
  g_value_set_uint (&v, 0);
  fail_unless (g_param_value_validate (it, &v));
  fail_unless_equals_int (g_value_get_uint (&v), 1);
  g_value_unset (&v);
  fail_unless (g_object_class_find_property (klass,
          "sigma-r")->flags & GST_PARAM_CONTROLLABLE);

  gst_util_set_object_arg (G_OBJECT (e), "algorithm", "edge-aware");
  gst_util_set_object_arg (G_OBJECT (e), "edge-filter", "rf");
  gst_util_set_object_arg (G_OBJECT (e), "partitions", "k-way");
  gint algorithm;
  g_object_get (e, "algorithm", &algorithm, "edge-filter", &edge_filter,
      "partitions", &partitions, NULL);
  fail_unless_equals_int (algorithm, 7);
  fail_unless_equals_int (edge_filter, 1);
  fail_unless_equals_int (partitions, 2);

  gint coefficients;
  g_object_get (e, "coefficients", &coefficients, NULL);
  fail_unless_equals_int (coefficients, 0);     /* table */
  gst_util_set_object_arg (G_OBJECT (e), "coefficients", "incremental");
  g_object_get (e, "coefficients", &coefficients, NULL);
  fail_unless_equals_int (coefficients, 1);
  gint box_method;
  g_object_get (e, "box-method", &box_method, NULL);
  fail_unless_equals_int (box_method, 0);       /* running-sum */
  gst_util_set_object_arg (G_OBJECT (e), "box-method", "integral");
  g_object_get (e, "box-method", &box_method, NULL);
  fail_unless_equals_int (box_method, 1);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_caps_accepted_for_every_format)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");

  for (const char *format : kFormats) {
    /* In CUDA memory, all but the formats GStreamer 1.22's CUDA allocator does not know. */
    const gboolean cuda_ok = !g_str_equal (format, "xRGB") && !g_str_equal (format, "xBGR") &&
        !g_str_equal (format, "GRAY8") && !g_str_equal (format, "GRAY16_LE");
    for (const char *feature : { "", "(memory:CUDAMemory)" }) {
      std::string s = std::string ("video/x-raw") + feature + ",format=" + format +
          ",width=385,height=289,framerate=30/1";
      const gboolean expected = feature[0] == '\0' || cuda_ok;
      GstCaps *caps = gst_caps_from_string (s.c_str ());
      fail_unless (gst_pad_query_accept_caps (sink, caps) == expected, "sink and %s",
          s.c_str ());
      fail_unless (gst_pad_query_accept_caps (src, caps) == expected, "src and %s",
          s.c_str ());
      gst_caps_unref (caps);
    }
  }
  for (const char *bad : { "video/x-raw,format=YUY2,width=64,height=64",
          "video/x-raw,format=UYVY,width=64,height=64",
          "video/x-raw,format=RGBA64_LE,width=64,height=64",
          "video/x-bayer,format=rggb,width=64,height=64",
          "audio/x-raw,format=S16LE" }) {
    GstCaps *caps = gst_caps_from_string (bad);
    fail_if (gst_pad_query_accept_caps (sink, caps), "accepted %s", bad);
    gst_caps_unref (caps);
  }
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}
GST_END_TEST;

/* sigma 0 passes frames through, decided per frame from one reading of the properties
 * (test_element_gpu, test_neighbours_gpu): GstBaseTransform's own passthrough mode, which a
 * property set from another thread would flip between two readings of a frame, and which skips
 * the allocation query, stays off at any sigma. */
GST_START_TEST (test_base_passthrough_mode_stays_off)
{
  GstElement *e = gst_element_factory_make ("cudagaussian", NULL);
  GstBaseTransform *t = GST_BASE_TRANSFORM (e);

  for (double sigma : { 2.0, 0.0, 0.5 }) {
    for (double sigma_y : { -1.0, 0.0, 3.0 }) {
      g_object_set (e, "sigma", sigma, "sigma-y", sigma_y, NULL);
      fail_if (gst_base_transform_is_passthrough (t));
    }
  }
  gst_object_unref (e);
}
GST_END_TEST;

/* Without a usable device the pipeline must stop with a readable error, not crash or hang.
 * With a GPU present, a device id that does not exist takes the same path. */
GST_START_TEST (test_error_without_cuda_device)
{
  check_no_cuda_device_error ("cudagaussian");
}
GST_END_TEST;

/* The categories of the messages the elements log at WARNING or above. */
static void
record_category (GstDebugCategory * category, GstDebugLevel level, const gchar *, const gchar *,
    gint, GObject * object, GstDebugMessage *, gpointer data)
{
  if (level <= GST_LEVEL_WARNING && object && GST_IS_ELEMENT (object) &&
      (g_str_equal (G_OBJECT_TYPE_NAME (object), "GstCudaGaussian") ||
          g_str_equal (G_OBJECT_TYPE_NAME (object), "GstCudaSobel")))
    static_cast < std::vector < std::string > *>(data)->push_back (
        gst_debug_category_get_name (category));
}

/* Errors from the element's helper files (its CUDA context, pools) are logged in the element's
 * own category, where GST_DEBUG=cudagaussian:N finds them, not in the default one. */
GST_START_TEST (test_errors_logged_in_the_element_category)
{
  for (const char *element : { "cudagaussian", "cudasobel" }) {
    std::vector < std::string > categories;
    gst_debug_set_threshold_for_name ("default", GST_LEVEL_WARNING);
    gst_debug_set_threshold_for_name (element, GST_LEVEL_WARNING);
    gst_debug_add_log_function (record_category, &categories, NULL);
    check_no_cuda_device_error (element);
    gst_debug_remove_log_function (record_category);
    fail_if (categories.empty (), "%s: no warning logged with its error", element);
    for (const std::string & c : categories)
      fail_unless (c == element, "%s: logged in category '%s'", element, c.c_str ());
  }
}
GST_END_TEST;

static Suite *
cudagaussian_element_suite (void)
{
  Suite *s = suite_create ("cudagaussian-element");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registered_with_defaults);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_edge_aware_coefficients_and_box_method_properties);
  tcase_add_test (tc, test_caps_accepted_for_every_format);
  tcase_add_test (tc, test_base_passthrough_mode_stays_off);
  tcase_add_test (tc, test_error_without_cuda_device);
  tcase_add_test (tc, test_errors_logged_in_the_element_category);
  return s;
}

CGT_CHECK_MAIN (cudagaussian_element);
