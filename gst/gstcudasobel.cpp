/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GStreamer
 * cudasobel: Sobel edge detection of raw video on NVIDIA GPUs.
 *
 * This library is free software; you can redistribute it and/or modify it under the terms of
 * the GNU Library General Public License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudasobel
 * @title: cudasobel
 *
 * The Sobel gradient of raw video, computed on an NVIDIA GPU: GRAY8 or 8-bit RGB input (RGBA,
 * BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, RGB, BGR) in,
 * GRAY8 or GRAY16_LE out, same size and frame rate, same memory (system memory or
 * `memory:CUDAMemory`). RGB input is reduced to luma first, Y = (77 R + 150 G + 29 B + 128) >> 8
 * (BT.601 weights in 8-bit fixed point). Gx = right - left and Gy = below - above columns/rows
 * weighted 1, 2, 1; pixels beyond the frame repeat the edge pixel.
 *
 * `output=magnitude` writes round(sqrt(Gx² + Gy²) × scale), clamped to 255 or 65535;
 * `output=direction` writes atan2(Gy, Gx) with [-π, π) mapped onto 0..255 (0..65535 for
 * GRAY16_LE): 0 = pointing left, 64 = up, 128 = right (and flat areas), 192 = down.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGBA ! cudasobel ! videoconvert ! autovideosink
 * ]| Edges of a test pattern.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=BGRx ! cudasobel scale=57 ! video/x-raw,format=GRAY16_LE ! videoconvert ! autovideosink
 * ]| 16-bit magnitude, scaled so that the strongest possible edge (1140.4) nearly fills the range.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! cudasobel ! video/x-raw,format=GRAY8 ! fakesink
 * ]| On frames already in CUDA memory (read in place; the gray output comes back to system
 * memory, as GStreamer 1.22's CUDA memory has no GRAY formats).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasobel.h"


#include <gst/cuda/gstcudamemory.h>

#include "gtype_registration.h"
#include "property_table.h"
#include "sobel_operation.h"

GST_DEBUG_CATEGORY (gst_cuda_sobel_debug);
#define GST_CAT_DEFAULT gst_cuda_sobel_debug

namespace cg = cudagaussian;

enum
{
  PROP_0,
  PROP_OUTPUT,
  PROP_SCALE,
};

#define DEFAULT_OUTPUT cg::SobelOutput::Magnitude
#define DEFAULT_SCALE 1.0

/* The properties, under the object lock. */
struct SobelProperties
{
  cg::SobelOutput output;
  gdouble scale;
};

struct _GstCudaSobel
{
  GstCudaFilter parent;

  SobelProperties props;

  /* the negotiated caps */
  int width, height, out_bytes;
  cg::SobelLayout layout;
};

#define gst_cuda_sobel_parent_class parent_class
G_DEFINE_TYPE (GstCudaSobel, gst_cuda_sobel, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudasobel, "cudasobel", GST_RANK_NONE,
    GST_TYPE_CUDA_SOBEL);

GType
gst_cuda_sobel_output_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::SobelOutput::Magnitude,
        "Gradient magnitude sqrt(Gx^2 + Gy^2) x scale, rounded, clamped to the output range",
        "magnitude"},
    {(gint) cg::SobelOutput::Direction,
          "Gradient direction atan2(Gy, Gx), [-pi, pi) mapped onto the output range "
          "(8-bit: 0 left, 64 up, 128 right and flat, 192 down)", "direction"},
    {0, NULL, NULL},
  };

  return register_enum_once (&type, "GstCudaSobelOutput", values);
}

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, GST_CUDA_SOBEL_CUDA_IN_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (GST_CUDA_SOBEL_IN_FORMATS)));

/* Output in system memory only: GStreamer 1.22's CUDA allocator has no GRAY formats (it aborts
 * on them), so a CUDA-memory input is downloaded as part of the job. */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (GST_CUDA_SOBEL_OUT_FORMATS)));

/* ---------------------------------------------------------------- properties */

namespace
{

typedef SobelProperties Props;

const PropertyRow < Props > sobel_rows[] = {
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("output", "Output",
          "What each output pixel holds: the gradient magnitude or its direction "
          "(for GRAY8 and GRAY16_LE alike)", GST_TYPE_CUDA_SOBEL_OUTPUT,
          (gint) DEFAULT_OUTPUT, mutable_playing);
    }, ENUM_ROW (cg::SobelOutput, output)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("scale", "Scale",
          "output=magnitude: factor applied to sqrt(Gx^2 + Gy^2) before rounding to "
          "nearest and clamping to 255 (GRAY8) or 65535 (GRAY16_LE); magnitudes of "
          "8-bit input reach at most 1140.4 (Gx 510, Gy 1020). Ignored for direction",
          0.0, cg::kSobelMaxScale, DEFAULT_SCALE, live);
    }, VALUE_ROW (double, scale)},
};

}                               /* namespace */

static void
gst_cuda_sobel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  property_table_set_locked (object, &GST_CUDA_SOBEL (object)->props, sobel_rows, PROP_OUTPUT,
      prop_id, value, pspec);
}

static void
gst_cuda_sobel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  property_table_get_locked (object, &GST_CUDA_SOBEL (object)->props, sobel_rows, PROP_OUTPUT,
      prop_id, value, pspec);
}

/* The settings of the next frame, read once for it under the object lock. */
static FrameSettingsPtr
gst_cuda_sobel_snapshot (GstCudaFilter * filter, GstBuffer * input G_GNUC_UNUSED)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (filter);
  auto settings = std::make_shared < SobelFrameSettings > ();

  GST_OBJECT_LOCK (self);
  settings->sobel.output = self->props.output;
  settings->sobel.scale = self->props.scale;
  GST_OBJECT_UNLOCK (self);
  return settings;
}

/* ---------------------------------------------------------------- caps */


/* A caps format list ("{ A, B }") as a GValue. */
static void
format_list (GValue * list, const char *formats)
{
  g_value_init (list, GST_TYPE_LIST);
  if (!gst_value_deserialize (list, formats))
    g_assert_not_reached ();
}

/* Same size and frame rate on both sides; the format changes, and the output is in system memory: any input format
 * gives GRAY8 or GRAY16_LE, any output format may come from any input format. Colorimetry and
 * chroma siting do not carry over between RGB and GRAY. */
static GstCaps *
gst_cuda_sobel_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  if (gst_caps_is_any (caps)) {
    GstPad *other = direction == GST_PAD_SINK ? GST_BASE_TRANSFORM_SRC_PAD (trans) :
        GST_BASE_TRANSFORM_SINK_PAD (trans);
    GstCaps *templ = gst_pad_get_pad_template_caps (other);
    if (!filter)
      return templ;
    GstCaps *tmp = gst_caps_intersect_full (filter, templ, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (templ);
    return tmp;
  }

  GValue formats = G_VALUE_INIT;
  format_list (&formats, direction == GST_PAD_SINK ?
      GST_CUDA_SOBEL_OUT_FORMATS : GST_CUDA_SOBEL_IN_FORMATS);

  GstCaps *result = gst_caps_new_empty ();
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site",
        NULL);
    gst_structure_set_value (s, "format", &formats);
    if (direction == GST_PAD_SINK) {
      /* output: system memory whatever the input's memory */
      result = gst_caps_merge_structure_full (result, s, NULL);
    } else {
      /* input: CUDA memory or system memory */
      result = gst_caps_merge_structure_full (result, gst_structure_copy (s),
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
      result = gst_caps_merge_structure_full (result, s, NULL);
    }
    (void) f;
  }
  g_value_unset (&formats);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

/* The other side takes this side's size, frame rate and aspect ratio; the output prefers GRAY8
 * (GRAY16_LE only when downstream asks for it). */
static GstCaps *
gst_cuda_sobel_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  if (gst_caps_is_empty (othercaps) || gst_caps_is_any (othercaps))
    return othercaps;

  GstStructure *out = gst_caps_get_structure (othercaps, 0);
  const GstStructure *in = gst_caps_get_structure (caps, 0);
  if (direction == GST_PAD_SINK)
    gst_structure_fixate_field_string (out, "format", "GRAY8");
  for (const char *field : {"width", "height"}) {
    gint v;
    if (gst_structure_get_int (in, field, &v))
      gst_structure_fixate_field_nearest_int (out, field, v);
  }
  for (const char *field : {"framerate", "pixel-aspect-ratio"}) {
    gint n, d;
    if (gst_structure_get_fraction (in, field, &n, &d))
      gst_structure_fixate_field_nearest_fraction (out, field, n, d);
  }
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* The pixel layout of an input format the kernel reads; FALSE for anything else. */
static gboolean
sobel_layout (const GstVideoInfo * info, cg::SobelLayout * layout)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  if (GST_VIDEO_INFO_N_PLANES (info) != 1
      || GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) != 8)
    return FALSE;
  if (GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo)) {
    *layout = cg::SobelLayout ();
    return TRUE;
  }
  if (!GST_VIDEO_FORMAT_INFO_IS_RGB (finfo))
    return FALSE;
  layout->channels = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
  layout->r = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_R);
  layout->g = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_G);
  layout->b = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_B);
  return layout->valid ();
}

static int
out_bytes (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE ? 2 : 1;
}

/* The planes of negotiated caps: one interleaved input plane, one gray output plane. */
static gboolean
gst_cuda_sobel_configure (GstCudaFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out, FrameLayout * layout)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (filter);
  cg::SobelLayout sobel;

  if (!sobel_layout (in, &sobel)) {
    GST_ERROR_OBJECT (self, "unsupported input format %s", GST_VIDEO_INFO_NAME (in));
    return FALSE;
  }
  if (GST_VIDEO_INFO_FORMAT (out) != GST_VIDEO_FORMAT_GRAY8
      && GST_VIDEO_INFO_FORMAT (out) != GST_VIDEO_FORMAT_GRAY16_LE) {
    GST_ERROR_OBJECT (self, "unsupported output format %s", GST_VIDEO_INFO_NAME (out));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (in) != GST_VIDEO_INFO_WIDTH (out)
      || GST_VIDEO_INFO_HEIGHT (in) != GST_VIDEO_INFO_HEIGHT (out)) {
    GST_ERROR_OBJECT (self, "input and output sizes differ");
    return FALSE;
  }
  self->width = GST_VIDEO_INFO_WIDTH (in);
  self->height = GST_VIDEO_INFO_HEIGHT (in);
  self->out_bytes = out_bytes (out);
  self->layout = sobel;

  cg::PlaneGeometry in_plane, out_plane;
  in_plane.width = out_plane.width = self->width;
  in_plane.height = out_plane.height = self->height;
  in_plane.channels = sobel.channels;
  out_plane.bytes_per_sample = self->out_bytes;
  layout->in = { in_plane };
  layout->out = { out_plane };
  layout->work = "Sobel filter";
  GST_DEBUG_OBJECT (self, "%s %dx%d (%d channels, R %d G %d B %d) -> %s",
      GST_VIDEO_INFO_NAME (in), self->width, self->height, sobel.channels, sobel.r, sobel.g,
      sobel.b, GST_VIDEO_INFO_NAME (out));
  return TRUE;
}

static std::unique_ptr < FrameOperation >
gst_cuda_sobel_new_operation (GstCudaFilter * filter)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (filter);
  return std::make_unique < SobelOperation > (self->width, self->height, self->layout,
      self->out_bytes);
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_sobel_class_init (GstCudaSobelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_sobel_set_property;
  gobject_class->get_property = gst_cuda_sobel_get_property;

  property_table_install (gobject_class, sobel_rows, PROP_OUTPUT);
  gst_element_class_set_static_metadata (element_class,
      "CUDA Sobel edge detector", "Filter/Effect/Converter/Video/Hardware",
      "Sobel gradient magnitude or direction of video (GRAY8 or RGB in, GRAY8 or "
      "GRAY16_LE out) on an NVIDIA GPU",
      "cudagaussian developers <cudagaussian@users.noreply.github.com>");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_sobel_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_sobel_fixate_caps);

  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  filter_class->configure = gst_cuda_sobel_configure;
  filter_class->snapshot = gst_cuda_sobel_snapshot;
  filter_class->new_operation = gst_cuda_sobel_new_operation;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SOBEL_OUTPUT,
      (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_sobel_debug, "cudasobel", 0,
      "CUDA Sobel edge detector");
  filter_class->category = gst_cuda_sobel_debug;
}

static void
gst_cuda_sobel_init (GstCudaSobel * self)
{
  self->props.output = DEFAULT_OUTPUT;
  self->props.scale = DEFAULT_SCALE;
  self->layout = cg::SobelLayout ();
}
