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

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "device_memory.h"
#include "cuda_allocation.h"
#include "cuda_element_context.h"
#include "host_registration.h"
#include "sobel.h"
#include "video_planes.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sobel_debug);
#define GST_CAT_DEFAULT gst_cuda_sobel_debug

namespace cg = cudagaussian;

enum
{
  PROP_0,
  PROP_OUTPUT,
  PROP_SCALE,
  PROP_DEVICE_ID,
};

#define DEFAULT_OUTPUT cg::SobelOutput::Magnitude
#define DEFAULT_SCALE 1.0
#define DEFAULT_DEVICE_ID -1

/* GPU state, created in start() and deleted in stop(), with the context pushed. */
struct SobelGpu
{
  cg::CudaStream stream;
  cg::DevicePlane in, out;      /* staging for system memory, allocated on first use */
};

struct _GstCudaSobel
{
  GstBaseTransform parent;

  /* properties, under the object lock */
  cg::SobelOutput output;
  gdouble scale;
  gint device_id;

  /* streaming state */
  GstCudaContext *context;
  GstVideoInfo in_info, out_info;
  cg::SobelLayout layout;
  SobelGpu *gpu;
};

#define gst_cuda_sobel_parent_class parent_class
G_DEFINE_TYPE (GstCudaSobel, gst_cuda_sobel, GST_TYPE_BASE_TRANSFORM);
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

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaSobelOutput", values);
    g_once_init_leave (&type, t);
  }
  return type;
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

static void
gst_cuda_sobel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OUTPUT:
      self->output = (cg::SobelOutput) g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_double (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_sobel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OUTPUT:
      g_value_set_enum (value, (gint) self->output);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->scale);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static cg::SobelSettings
gst_cuda_sobel_snapshot (GstCudaSobel * self)
{
  cg::SobelSettings s;

  GST_OBJECT_LOCK (self);
  s.output = self->output;
  s.scale = self->scale;
  GST_OBJECT_UNLOCK (self);
  return s;
}

/* ---------------------------------------------------------------- CUDA context */

static void
gst_cuda_sobel_set_context (GstElement * element, GstContext * context)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (element);

  gst_cuda_handle_set_context (element, context, self->device_id,
      &self->context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cuda_sobel_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (GST_ELEMENT (self), query, self->context))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

static void
gst_cuda_sobel_free_gpu (GstCudaSobel * self)
{
  if (!self->gpu)
    return;
  if (!gst_cuda_element_release_in_context (self->context,
          [self] { delete self->gpu; }))
    GST_ERROR_OBJECT (self, "could not push CUDA context; leaking GPU state");
  self->gpu = NULL;
}

static gboolean
gst_cuda_sobel_start (GstBaseTransform * trans)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  if (!gst_cuda_element_open (GST_ELEMENT (self), self->device_id, &self->context))
    return FALSE;
  self->gpu = new SobelGpu;
  const cg::Status st = self->gpu->stream.create ();
  gst_cuda_context_pop (NULL);
  if (!st.ok ()) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("Could not create a CUDA stream."),
        ("%s", st.message.c_str ()));
    gst_cuda_sobel_free_gpu (self);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_sobel_stop (GstBaseTransform * trans)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  gst_cuda_sobel_free_gpu (self);
  gst_clear_object (&self->context);
  return TRUE;
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

static gboolean
gst_cuda_sobel_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);
  GstVideoInfo in_info, out_info;
  cg::SobelLayout layout;

  if (!self->gpu) {
    GST_ERROR_OBJECT (self, "no CUDA state: was start() successful?");
    return FALSE;
  }
  if (!gst_video_info_from_caps (&in_info, incaps)
      || !sobel_layout (&in_info, &layout)) {
    GST_ERROR_OBJECT (self, "unsupported input caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (!gst_video_info_from_caps (&out_info, outcaps)
      || (GST_VIDEO_INFO_FORMAT (&out_info) != GST_VIDEO_FORMAT_GRAY8
          && GST_VIDEO_INFO_FORMAT (&out_info) != GST_VIDEO_FORMAT_GRAY16_LE)) {
    GST_ERROR_OBJECT (self, "unsupported output caps %" GST_PTR_FORMAT,
        outcaps);
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (&in_info) != GST_VIDEO_INFO_WIDTH (&out_info)
      || GST_VIDEO_INFO_HEIGHT (&in_info) != GST_VIDEO_INFO_HEIGHT (&out_info)) {
    GST_ERROR_OBJECT (self, "input and output sizes differ: %" GST_PTR_FORMAT
        " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }

  /* New geometry: staging planes are reallocated on the next system-memory frame. */
  if (!gst_cuda_context_push (self->context))
    return FALSE;
  self->gpu->in.release ();
  self->gpu->out.release ();
  gst_cuda_context_pop (NULL);

  self->in_info = in_info;
  self->out_info = out_info;
  self->layout = layout;
  GST_DEBUG_OBJECT (self, "%s %dx%d (%d channels, R %d G %d B %d) -> %s",
      GST_VIDEO_INFO_NAME (&in_info), GST_VIDEO_INFO_WIDTH (&in_info),
      GST_VIDEO_INFO_HEIGHT (&in_info), layout.channels, layout.r, layout.g,
      layout.b, GST_VIDEO_INFO_NAME (&out_info));
  return TRUE;
}

/* ---------------------------------------------------------------- allocation */

static gboolean
gst_cuda_sobel_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  return gst_cuda_element_propose_allocation (trans, self->context, decide_query,
      query);
}

/* Output buffers: for CUDA memory a downstream CUDA pool of our context or a new one; for
 * system memory always our pinned pool, so the download is DMA. */
static gboolean
gst_cuda_sobel_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  return gst_cuda_gaussian_decide_pool (GST_ELEMENT (self), self->context, query, 1);
}

/* ---------------------------------------------------------------- streaming */

static GstFlowReturn
gst_cuda_sobel_fail (GstCudaSobel * self, const char *text,
    const cg::Status & st)
{
  if (st.cuda == cudaSuccess)
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("%s: %s", text,
            st.message.c_str ()), (NULL));
  else
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("%s", text), ("%s",
            st.message.c_str ()));
  return GST_FLOW_ERROR;
}

/* One frame, synchronously: upload (system memory), filter, download (system memory), wait.
 * With the context pushed. */
static GstFlowReturn
gst_cuda_sobel_process (GstCudaSobel * self, GstBuffer * inbuf,
    GstBuffer * outbuf, const cg::SobelSettings & settings)
{
  SobelGpu *gpu = self->gpu;
  const gboolean in_device = gst_cuda_element_is_device_buffer (inbuf, self->context);
  const gboolean out_device = gst_cuda_element_is_device_buffer (outbuf, self->context);
  GstVideoFrame in_frame, out_frame;

  if (!in_device)
    gst_cuda_gaussian_register_reused_memory (self->context, inbuf);
  if (!gst_video_frame_map (&in_frame, &self->in_info, inbuf,
          (GstMapFlags) (GST_MAP_READ | (in_device ? GST_MAP_CUDA : 0)))) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map the input frame: the buffer may be smaller than its caps "
            "describe."), (NULL));
    return GST_FLOW_ERROR;
  }
  if (!gst_video_frame_map (&out_frame, &self->out_info, outbuf,
          (GstMapFlags) (GST_MAP_WRITE | (out_device ? GST_MAP_CUDA : 0)))) {
    gst_video_frame_unmap (&in_frame);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Could not map the output frame."),
        (NULL));
    return GST_FLOW_ERROR;
  }

  const int width = GST_VIDEO_INFO_WIDTH (&self->in_info);
  const int height = GST_VIDEO_INFO_HEIGHT (&self->in_info);
  const int obytes = out_bytes (&self->out_info);
  const size_t in_row = (size_t) width * self->layout.channels;
  const size_t out_row = (size_t) width * obytes;
  cudaStream_t stream = gpu->stream.get ();
  void *in_data = GST_VIDEO_FRAME_PLANE_DATA (&in_frame, 0);
  const size_t in_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&in_frame, 0);
  void *out_data = GST_VIDEO_FRAME_PLANE_DATA (&out_frame, 0);
  const size_t out_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
  cg::Status st;

  cg::SobelPlane src;
  src.width = width;
  src.height = height;
  src.layout = self->layout;
  if (in_device) {
    src.data = in_data;
    src.pitch = in_stride;
  } else {
    if (!gpu->in.get ())
      st = gpu->in.allocate (in_row, height);
    if (st.ok ())
      st = cg::copy_2d_async (gpu->in.get (), gpu->in.pitch (), in_data,
          in_stride, in_row, height, stream);
    src.data = gpu->in.get ();
    src.pitch = gpu->in.pitch ();
  }

  cg::SobelTarget dst;
  dst.bytes_per_sample = obytes;
  if (out_device) {
    dst.data = out_data;
    dst.pitch = out_stride;
  } else {
    if (st.ok () && !gpu->out.get ())
      st = gpu->out.allocate (out_row, height);
    dst.data = gpu->out.get ();
    dst.pitch = gpu->out.pitch ();
  }

  if (st.ok ())
    st = cg::sobel (src, dst, settings, stream);
  if (st.ok () && !out_device)
    st = cg::copy_2d_async (out_data, out_stride, dst.data, dst.pitch, out_row,
        height, stream);
  /* Always wait: nothing queued may touch the frames once they are unmapped. 1.22's
   * GstCudaMemory has no stream either, so the output must be complete when it leaves. */
  const cg::Status synced = gpu->stream.synchronize ();
  if (st.ok ())
    st = synced;

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (!st.ok ())
    return gst_cuda_sobel_fail (self, st.cuda == cudaSuccess ?
        "Invalid Sobel settings" : "The Sobel filter failed on the GPU.", st);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_sobel_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (trans);

  if (!self->gpu) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Element is not started."),
        (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  const cg::SobelSettings settings = gst_cuda_sobel_snapshot (self);
  if (!gst_cuda_context_push (self->context)) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return GST_FLOW_ERROR;
  }
  const GstFlowReturn ret = gst_cuda_sobel_process (self, inbuf, outbuf,
      settings);
  gst_cuda_context_pop (NULL);
  return ret;
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_sobel_finalize (GObject * object)
{
  GstCudaSobel *self = GST_CUDA_SOBEL (object);

  gst_cuda_sobel_free_gpu (self);
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_sobel_class_init (GstCudaSobelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_sobel_set_property;
  gobject_class->get_property = gst_cuda_sobel_get_property;
  gobject_class->finalize = gst_cuda_sobel_finalize;

  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What each output pixel holds: the gradient magnitude or its direction "
          "(for GRAY8 and GRAY16_LE alike)", GST_TYPE_CUDA_SOBEL_OUTPUT,
          (gint) DEFAULT_OUTPUT, (GParamFlags) (G_PARAM_READWRITE |
              GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "output=magnitude: factor applied to sqrt(Gx^2 + Gy^2) before rounding to "
          "nearest and clamping to 255 (GRAY8) or 65535 (GRAY16_LE); magnitudes of "
          "8-bit input reach at most 1140.4 (Gx 510, Gy 1020). Ignored for direction",
          0.0, cg::kSobelMaxScale, DEFAULT_SCALE, (GParamFlags) (G_PARAM_READWRITE
              | GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
              G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "The GPU to use (-1 = any; a context shared by neighbouring CUDA "
          "elements is preferred)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          (GParamFlags) (G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
              G_PARAM_STATIC_STRINGS)));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Sobel edge detector", "Filter/Effect/Converter/Video",
      "Sobel gradient magnitude or direction of video (GRAY8 or RGB in, GRAY8 or "
      "GRAY16_LE out) on an NVIDIA GPU", "cudagaussian developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_sobel_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_sobel_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_sobel_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_sobel_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_sobel_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_sobel_set_caps);
  trans_class->get_unit_size = GST_DEBUG_FUNCPTR (gst_cuda_video_get_unit_size);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_sobel_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_sobel_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_sobel_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_element_sync_values);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_sobel_transform);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SOBEL_OUTPUT,
      (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_sobel_debug, "cudasobel", 0,
      "CUDA Sobel edge detector");
}

static void
gst_cuda_sobel_init (GstCudaSobel * self)
{
  self->output = DEFAULT_OUTPUT;
  self->scale = DEFAULT_SCALE;
  self->device_id = DEFAULT_DEVICE_ID;
  self->layout = cg::SobelLayout ();
  gst_video_info_init (&self->in_info);
  gst_video_info_init (&self->out_info);
}
