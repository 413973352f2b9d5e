/* GStreamer
 * cudagaussian: Gaussian blur of raw video on NVIDIA GPUs.
 *
 * This library is free software; you can redistribute it and/or modify it under the terms of
 * the GNU Library General Public License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudagaussian
 * @title: cudagaussian
 *
 * Blurs raw video with an exact Gaussian on an NVIDIA GPU. Frames may live in system memory
 * (copied to the GPU and back; the element offers upstream pinned buffers so the copies are
 * DMA) or in CUDA memory (`memory:CUDAMemory`, zero-copy next to cudaupload, nvh264dec, ...).
 * Chroma planes are blurred with sigma divided by their subsampling, so the blur has the same
 * size on screen in every plane. All channels, alpha included, are blurred.
 *
 * algorithm=edge-aware blurs within regions and keeps edges (sigma-r sets the contrast that
 * counts as one): edges come from the colour channels of RGB formats (not alpha), from the
 * luma plane for YUV formats (applied to the chroma planes at their resolution), and from the
 * plane itself for GRAY.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudagaussian sigma=5 ! videoconvert ! autovideosink
 * ]| A blurred test pattern.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! cudagaussian sigma=8 ! videoconvert ! x264enc ! mp4mux ! filesink location=out.mp4
 * ]| Blur a file (system memory).
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! qtdemux ! h264parse ! nvh264dec ! "video/x-raw(memory:CUDAMemory)" ! cudagaussian sigma=8 ! nvh264enc ! h264parse ! mp4mux ! filesink location=out.mp4
 * ]| Decode, blur and encode without leaving the GPU (needs a GPU with NVENC).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudagaussian algorithm=edge-aware sigma=12 sigma-r=25 ! videoconvert ! autovideosink
 * ]| Smooth a camera picture while keeping faces and text sharp.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagaussian.h"

#include <cstring>
#include <string>
#include <vector>

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "box_widths.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "frame_queue.h"
#include "cuda_allocation.h"
#include "cuda_element_context.h"
#include "video_planes.h"

GST_DEBUG_CATEGORY (gst_cuda_gaussian_debug);
#define GST_CAT_DEFAULT gst_cuda_gaussian_debug

namespace cg = cudagaussian;

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_SIGMA_Y,
  PROP_ALGORITHM,
  PROP_TRUNCATE,
  PROP_BORDER,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_START_UP,
  PROP_PARTITIONS,
  PROP_SEGMENTS,
  PROP_KAPPA,
  PROP_BOX_PASSES,
  PROP_SIGMA_R,
  PROP_ITERATIONS,
  PROP_EDGE_FILTER,
  PROP_COEFFICIENTS,
  PROP_BOX_METHOD,
};

#define MAX_SIGMA 250.0
#define DEFAULT_SIGMA 2.0
#define DEFAULT_SIGMA_Y -1.0
#define DEFAULT_ALGORITHM cg::Algorithm::Auto
#define DEFAULT_TRUNCATE cg::kDefaultTruncate
#define DEFAULT_BORDER cg::Border::Replicate
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_FRAMES_IN_FLIGHT 0
#define DEFAULT_START_UP cg::StartUp::Exact
#define DEFAULT_PARTITIONS cg::LineSplit::Auto
#define DEFAULT_SEGMENTS 0
#define DEFAULT_KAPPA -1.0
#define DEFAULT_BOX_PASSES 3
#define DEFAULT_SIGMA_R 30.0
#define MAX_SIGMA_R 100000.0
#define DEFAULT_ITERATIONS 3
#define DEFAULT_EDGE_FILTER cg::EdgeFilter::Gaussian
#define DEFAULT_COEFFICIENTS cg::TapSource::Table
#define DEFAULT_BOX_METHOD cg::BoxMethod::RunningSum
#define MAX_SEGMENTS 4096
#define MAX_FRAMES_IN_FLIGHT 16
/* What frames-in-flight=0 (auto) means: minimal latency for live sources, overlap otherwise,
 * and for frames in CUDA memory of at most half a Full HD frame's pixels enough for batches of
 * two (frame_queue.h; measured, H200, SD RGBA: 90,427 fps at 3 in flight, 116,435 at 8). */
#define AUTO_FRAMES_LIVE 1
#define AUTO_FRAMES_NOT_LIVE 3
#define AUTO_FRAMES_NOT_LIVE_SMALL_CUDA (2 * FrameQueue::kDepthPerBatchFrame)
#define AUTO_SMALL_CUDA_PIXELS (FrameQueue::kBatchPixels / 2)

struct _GstCudaGaussian
{
  GstBaseTransform parent;

  /* properties, under the object lock */
  gdouble sigma;
  gdouble sigma_y;
  cg::Algorithm algorithm;
  gdouble truncate;
  cg::Border border;
  gint device_id;
  guint frames_in_flight;
  cg::RecursiveSettings recursive;
  gint box_passes;
  gdouble sigma_r;
  guint iterations;
  cg::EdgeFilter edge_filter;
  cg::TapSource coefficients;
  cg::BoxMethod box_method;

  /* streaming state */
  GstCudaContext *context;
  GstVideoInfo info;
  FrameQueue *queue;            /* created in start(), deleted in stop(), context pushed */
  guint depth;                  /* frames in flight for the current caps */
};

#define gst_cuda_gaussian_parent_class parent_class
G_DEFINE_TYPE (GstCudaGaussian, gst_cuda_gaussian, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (cudagaussian, "cudagaussian", GST_RANK_NONE,
    GST_TYPE_CUDA_GAUSSIAN);

GType
gst_cuda_gaussian_algorithm_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::Algorithm::Auto, "Pick the fastest exact algorithm", "auto"},
    {(gint) cg::Algorithm::Fir,
        "Separable FIR: sampled Gaussian taps out to truncate x sigma", "fir"},
    {(gint) cg::Algorithm::YoungVanVliet,
        "Recursive, Young-van Vliet 3rd order (2002 coefficients): cost independent of sigma",
        "young-van-vliet"},
    {(gint) cg::Algorithm::YoungVanVliet1995,
        "Recursive, Young-van Vliet 3rd order with the 1995 coefficients (sigma >= 0.5)",
        "young-van-vliet-1995"},
    {(gint) cg::Algorithm::Deriche,
        "Recursive, Deriche 4th order: cost independent of sigma, closest to a Gaussian",
        "deriche"},
    {(gint) cg::Algorithm::Box,
        "Iterated box filter (box-passes passes, widths matching sigma): cost independent "
          "of sigma, approximate", "box"},
    {(gint) cg::Algorithm::Direct,
        "Direct 2D convolution with the FIR taps (a baseline; radius at most 16)",
        "direct"},
    {(gint) cg::Algorithm::EdgeAware,
        "Edge-aware: recursive blur in the domain-transformed space (sigma-r, iterations, "
          "edge-filter); keeps edges sharp", "edge-aware"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianAlgorithm", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::Border::Replicate, "Repeat the edge pixel: aaa|abcd",
        "replicate"},
    {(gint) cg::Border::Mirror,
        "Mirror about the edge pixel, not repeating it: cb|abcd", "mirror"},
    {(gint) cg::Border::Reflect,
        "Reflect about the edge, repeating the edge pixel: ba|abcd",
        "reflect"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_start_up_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::StartUp::Exact,
        "As if the frame were extended by repeating its edge pixels (exact)", "exact"},
    {(gint) cg::StartUp::Simple,
        "The seed paper's rule: each pass starts from its own input's edge value (inexact "
          "near the right and bottom edges for Young-van Vliet; for comparison)", "simple"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianStartUp", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_partitions_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::LineSplit::Auto,
        "Recursive Gaussians: block-parallel; edge-aware: k-way (Algorithm C)", "auto"},
    {(gint) cg::LineSplit::OneWay,
        "One GPU thread per line (few threads; edge-aware: Algorithm A)", "one-way"},
    {(gint) cg::LineSplit::TwoWay,
        "Each line in two halves: exact where the halves swap directions (deriche; "
          "young-van-vliet once kappa x sigma is 1/25 of the line or more, where that "
          "is faster), else the second warmed up over kappa x sigma pixels "
          "(edge-aware: Algorithm C)",
        "two-way"},
    {(gint) cg::LineSplit::KWay,
        "Each line in 'segments' pieces, each warmed up over kappa x sigma pixels "
          "(edge-aware: Algorithm C)", "k-way"},
    {(gint) cg::LineSplit::BlockParallel,
        "Short segments joined exactly through carries (Nehab et al. 2011)",
        "block-parallel"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianPartitions", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_edge_filter_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::EdgeFilter::Gaussian,
        "Gaussian in the transformed domain (Gastal & Oliveira 2015; the seed's complex "
          "Deriche form)", "gaussian"},
    {(gint) cg::EdgeFilter::Rf,
        "First-order recursive filter of the Domain Transform (Gastal & Oliveira 2011); "
          "cheaper, exponential response", "rf"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianEdgeFilter", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_coefficients_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::TapSource::Table,
        "Taps from a table (the register-blocked kernel; the default)", "table"},
    {(gint) cg::TapSource::Incremental,
        "Taps generated in the kernel by Turkowski's incremental method (a per-pixel "
          "kernel, for comparison)", "incremental"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianCoefficients", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_gaussian_box_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::BoxMethod::RunningSum,
        "Running window sums in float (the default)", "running-sum"},
    {(gint) cg::BoxMethod::Integral,
        "Exact integer sums from summed-area tables (Pardo's integral image); the same "
          "result as the exact reference", "integral"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGaussianBoxMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, GST_CUDA_GAUSSIAN_CUDA_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (GST_CUDA_GAUSSIAN_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, GST_CUDA_GAUSSIAN_CUDA_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (GST_CUDA_GAUSSIAN_FORMATS)));

/* ---------------------------------------------------------------- properties */

static gdouble
effective_sigma_y (gdouble sigma, gdouble sigma_y)
{
  return sigma_y < 0 ? sigma : sigma_y;
}

/* A blur of zero in both directions leaves frames untouched: let buffers through. */
static void
gst_cuda_gaussian_update_passthrough (GstCudaGaussian * self)
{
  GST_OBJECT_LOCK (self);
  const gboolean identity = self->sigma == 0.0 &&
      effective_sigma_y (self->sigma, self->sigma_y) == 0.0;
  GST_OBJECT_UNLOCK (self);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), identity);
}

static cg::BlurSettings
gst_cuda_gaussian_snapshot (GstCudaGaussian * self)
{
  cg::BlurSettings s;

  GST_OBJECT_LOCK (self);
  s.algorithm = self->algorithm;
  s.sigma_x = self->sigma;
  s.sigma_y = effective_sigma_y (self->sigma, self->sigma_y);
  s.truncate = self->truncate;
  s.border = self->border;
  s.recursive = self->recursive;
  s.box_passes = self->box_passes;
  s.sigma_r = self->sigma_r;
  s.iterations = (int) self->iterations;
  s.edge_filter = self->edge_filter;
  s.coefficients = self->coefficients;
  s.box_method = self->box_method;
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_cuda_gaussian_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_SIGMA_Y:
      self->sigma_y = g_value_get_double (value);
      break;
    case PROP_ALGORITHM:
      self->algorithm = (cg::Algorithm) g_value_get_enum (value);
      break;
    case PROP_TRUNCATE:
      self->truncate = g_value_get_double (value);
      break;
    case PROP_BORDER:
      self->border = (cg::Border) g_value_get_enum (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight = g_value_get_uint (value);
      break;
    case PROP_START_UP:
      self->recursive.start = (cg::StartUp) g_value_get_enum (value);
      break;
    case PROP_PARTITIONS:
      self->recursive.split = (cg::LineSplit) g_value_get_enum (value);
      break;
    case PROP_SEGMENTS:
      self->recursive.segments = (int) g_value_get_uint (value);
      break;
    case PROP_KAPPA:
      self->recursive.kappa = g_value_get_double (value);
      break;
    case PROP_BOX_PASSES:
      self->box_passes = g_value_get_int (value);
      break;
    case PROP_SIGMA_R:
      self->sigma_r = g_value_get_double (value);
      break;
    case PROP_ITERATIONS:
      self->iterations = g_value_get_uint (value);
      break;
    case PROP_EDGE_FILTER:
      self->edge_filter = (cg::EdgeFilter) g_value_get_enum (value);
      break;
    case PROP_COEFFICIENTS:
      self->coefficients = (cg::TapSource) g_value_get_enum (value);
      break;
    case PROP_BOX_METHOD:
      self->box_method = (cg::BoxMethod) g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (prop_id == PROP_SIGMA || prop_id == PROP_SIGMA_Y)
    gst_cuda_gaussian_update_passthrough (self);
}

static void
gst_cuda_gaussian_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_SIGMA_Y:
      g_value_set_double (value, self->sigma_y);
      break;
    case PROP_ALGORITHM:
      g_value_set_enum (value, (gint) self->algorithm);
      break;
    case PROP_TRUNCATE:
      g_value_set_double (value, self->truncate);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, (gint) self->border);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->frames_in_flight);
      break;
    case PROP_START_UP:
      g_value_set_enum (value, (gint) self->recursive.start);
      break;
    case PROP_PARTITIONS:
      g_value_set_enum (value, (gint) self->recursive.split);
      break;
    case PROP_SEGMENTS:
      g_value_set_uint (value, (guint) self->recursive.segments);
      break;
    case PROP_KAPPA:
      g_value_set_double (value, self->recursive.kappa);
      break;
    case PROP_BOX_PASSES:
      g_value_set_int (value, self->box_passes);
      break;
    case PROP_SIGMA_R:
      g_value_set_double (value, self->sigma_r);
      break;
    case PROP_ITERATIONS:
      g_value_set_uint (value, self->iterations);
      break;
    case PROP_EDGE_FILTER:
      g_value_set_enum (value, (gint) self->edge_filter);
      break;
    case PROP_COEFFICIENTS:
      g_value_set_enum (value, (gint) self->coefficients);
      break;
    case PROP_BOX_METHOD:
      g_value_set_enum (value, (gint) self->box_method);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---------------------------------------------------------------- CUDA context */

static void
gst_cuda_gaussian_set_context (GstElement * element, GstContext * context)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (element);

  gst_cuda_handle_set_context (element, context, self->device_id,
      &self->context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Never called: submit_input_buffer and generate_output replace the base class's default
 * path. It exists because without a transform vfunc GstBaseTransform treats the element as
 * in-place and would not allocate output buffers from our pool. */
static GstFlowReturn
gst_cuda_gaussian_transform (GstBaseTransform * trans, GstBuffer * inbuf G_GNUC_UNUSED,
    GstBuffer * outbuf G_GNUC_UNUSED)
{
  GST_ELEMENT_ERROR (trans, CORE, NOT_IMPLEMENTED,
      ("Internal error: unexpected synchronous transform."), (NULL));
  return GST_FLOW_NOT_SUPPORTED;
}

/* Frames in flight add (depth - 1) frame durations of latency. */
static gboolean
gst_cuda_gaussian_latency_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return FALSE;
  if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), query))
    return FALSE;

  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (query, &live, &min, &max);
  const gint fps_n = GST_VIDEO_INFO_FPS_N (&self->info);
  const gint fps_d = GST_VIDEO_INFO_FPS_D (&self->info);
  if (self->depth > 1 && fps_n > 0 && fps_d > 0) {
    const GstClockTime extra = gst_util_uint64_scale (GST_SECOND,
        (guint64) fps_d * (self->depth - 1), fps_n);
    min += extra;
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += extra;
  }
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

static gboolean
gst_cuda_gaussian_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (GST_ELEMENT (self), query, self->context))
    return TRUE;
  if (gst_cuda_gaussian_latency_query (trans, direction, query))
    return TRUE;

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* Releases every GPU resource of the queue inside its context. */
static void
gst_cuda_gaussian_free_queue (GstCudaGaussian * self)
{
  if (!self->queue)
    return;
  if (!gst_cuda_element_release_in_context (self->context,
          [self] { delete self->queue; }))
    GST_ERROR_OBJECT (self, "could not push CUDA context; leaking GPU state");
  self->queue = NULL;
}

static gboolean
gst_cuda_gaussian_start (GstBaseTransform * trans)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  if (!gst_cuda_element_open (GST_ELEMENT (self), self->device_id, &self->context))
    return FALSE;
  self->queue = new FrameQueue (GST_ELEMENT (self), self->context);
  const gboolean ok = self->queue->init ();
  gst_cuda_context_pop (NULL);
  if (!ok) {
    gst_cuda_gaussian_free_queue (self);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_gaussian_stop (GstBaseTransform * trans)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  gst_cuda_gaussian_free_queue (self);
  gst_clear_object (&self->context);
  return TRUE;
}

/* ---------------------------------------------------------------- caps and allocation */


static gboolean
gst_cuda_gaussian_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps G_GNUC_UNUSED)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);
  GstVideoInfo info;
  std::vector < cg::PlaneSpec > planes;

  if (!self->queue) {
    GST_ERROR_OBJECT (self, "no CUDA state: was start() successful?");
    return FALSE;
  }
  if (!gst_video_info_from_caps (&info, incaps) ||
      !gst_cuda_gaussian_plane_specs (&info, &planes)) {
    GST_ERROR_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }

  /* Frames in flight: as set, or by whether upstream is live. */
  guint depth = self->frames_in_flight;
  if (depth == 0) {
    GstQuery *latency = gst_query_new_latency ();
    gboolean live = FALSE;
    if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), latency))
      gst_query_parse_latency (latency, &live, NULL, NULL);
    gst_query_unref (latency);
    const gboolean small_cuda = gst_cuda_gaussian_caps_have_cuda_memory (incaps) &&
        (guint64) GST_VIDEO_INFO_WIDTH (&info) * GST_VIDEO_INFO_HEIGHT (&info) <=
        AUTO_SMALL_CUDA_PIXELS;
    depth = live ? AUTO_FRAMES_LIVE : small_cuda ? AUTO_FRAMES_NOT_LIVE_SMALL_CUDA :
        AUTO_FRAMES_NOT_LIVE;
  }

  /* GStreamer 1.22's CUDA allocator places the V plane of I420/YV12 one row too early when the
   * height is odd (fixed in 1.24): the last U row and the first V row share memory. */
  if (gst_cuda_gaussian_caps_have_cuda_memory (incaps) && (GST_VIDEO_INFO_HEIGHT (&info) & 1) &&
      (GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_I420 ||
          GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_YV12))
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("I420/YV12 with an odd height in CUDA memory: GStreamer 1.22 stores the last U "
            "row on top of the first V row, so chroma there is unreliable."),
        ("Use an even height, system memory or NV12 (fixed in GStreamer 1.24)."));

  /* New geometry: frames of the old caps were drained by the CAPS event; the next frame
   * re-plans. */
  if (!gst_cuda_context_push (self->context))
    return FALSE;
  self->queue->drop_all ();
  self->queue->configure (info, planes, depth);
  gst_cuda_context_pop (NULL);

  const gboolean depth_changed = depth != self->depth;
  self->depth = depth;
  self->info = info;
  GST_DEBUG_OBJECT (self, "%u frame(s) in flight", depth);
  gst_cuda_gaussian_update_passthrough (self);
  if (depth_changed)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  return TRUE;
}

static gboolean
gst_cuda_gaussian_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  return gst_cuda_element_propose_allocation (trans, self->context, decide_query,
      query);
}

/* Output buffers: for CUDA memory a downstream CUDA pool of our context or a new one; for
 * system memory always our pinned pool, so the download is DMA. The base class's default would
 * replace the pool's allocator with downstream's, so the pool is configured here, completely. */
static gboolean
gst_cuda_gaussian_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  return gst_cuda_gaussian_decide_pool (GST_ELEMENT (self), self->context, query,
      MAX (self->depth, 1u));
}

/* ---------------------------------------------------------------- streaming */

/* Pushes every frame in flight downstream, oldest first (before a serialized event, so that
 * events and buffers keep their order, and at EOS). */
static GstFlowReturn
gst_cuda_gaussian_drain (GstCudaGaussian * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  if (!self->queue || self->queue->pending () == 0)
    return GST_FLOW_OK;
  if (!gst_cuda_context_push (self->context))
    return GST_FLOW_ERROR;
  while (self->queue->pending () > 0) {
    GstBuffer *buf = NULL;
    GstFlowReturn r = self->queue->finish_oldest (&buf);
    if (r == GST_FLOW_OK && ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);
    else
      gst_clear_buffer (&buf);
    if (r != GST_FLOW_OK)
      ret = r;
  }
  gst_cuda_context_pop (NULL);
  return ret;
}

static gboolean
gst_cuda_gaussian_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    if (self->queue && gst_cuda_context_push (self->context)) {
      self->queue->drop_all ();
      gst_cuda_context_pop (NULL);
    }
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    gst_cuda_gaussian_drain (self);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* Starts a frame: its output buffer (metadata copied by the base class) and GPU work are
 * queued; generate_output hands frames out once `depth` are in flight. */
static GstFlowReturn
gst_cuda_gaussian_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);
  GstBaseTransformClass *parent = GST_BASE_TRANSFORM_CLASS (parent_class);

  if (gst_base_transform_is_passthrough (trans))
    return parent->submit_input_buffer (trans, is_discont, input);
  if (!self->queue) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Element is not started."),
        (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* What the default submit does first: renegotiate and pick a pool if downstream asked. */
  if (!gst_base_transform_reconfigure (trans)) {
    gst_buffer_unref (input);
    return GST_PAD_IS_FLUSHING (GST_BASE_TRANSFORM_SRC_PAD (trans)) ?
        GST_FLOW_FLUSHING : GST_FLOW_NOT_NEGOTIATED;
  }
  GstBuffer *output = NULL;
  GstFlowReturn ret = parent->prepare_output_buffer (trans, input, &output);
  if (ret != GST_FLOW_OK || !output) {
    gst_buffer_unref (input);
    return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;
  }
  if (!gst_cuda_context_push (self->context)) {
    gst_buffer_unref (input);
    gst_buffer_unref (output);
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return GST_FLOW_ERROR;
  }
  ret = self->queue->launch (input, output, gst_cuda_gaussian_snapshot (self));
  gst_cuda_context_pop (NULL);
  return ret;
}

static GstFlowReturn
gst_cuda_gaussian_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (trans);
  const guint pending = self->queue ? self->queue->pending () : 0;

  *outbuf = NULL;
  /* A passthrough buffer waits behind the frames still in flight. */
  if (pending == 0)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
        outbuf);
  if (pending < self->queue->depth () && trans->queued_buf == NULL)
    return GST_FLOW_OK;

  if (!gst_cuda_context_push (self->context))
    return GST_FLOW_ERROR;
  GstFlowReturn ret = self->queue->finish_oldest (outbuf);
  gst_cuda_context_pop (NULL);
  return ret;
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_gaussian_finalize (GObject * object)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (object);

  gst_cuda_gaussian_free_queue (self);
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_gaussian_class_init (GstCudaGaussianClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags live = (GParamFlags) (G_PARAM_READWRITE |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING |
      G_PARAM_STATIC_STRINGS);
  const GParamFlags mutable_playing = (GParamFlags) (G_PARAM_READWRITE |
      GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);

  gobject_class->set_property = gst_cuda_gaussian_set_property;
  gobject_class->get_property = gst_cuda_gaussian_get_property;
  gobject_class->finalize = gst_cuda_gaussian_finalize;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels (horizontal, and vertical "
          "unless sigma-y is set); 0 passes frames through untouched",
          0.0, MAX_SIGMA, DEFAULT_SIGMA, live));
  g_object_class_install_property (gobject_class, PROP_SIGMA_Y,
      g_param_spec_double ("sigma-y", "Sigma Y",
          "Vertical standard deviation in pixels for an anisotropic blur; "
          "-1 follows sigma", -1.0, MAX_SIGMA, DEFAULT_SIGMA_Y, live));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm",
          "How the blur is computed; auto picks the fastest exact one",
          GST_TYPE_CUDA_GAUSSIAN_ALGORITHM, (gint) DEFAULT_ALGORITHM,
          mutable_playing));
  g_object_class_install_property (gobject_class, PROP_TRUNCATE,
      g_param_spec_double ("truncate", "Truncate",
          "FIR support in sigmas: taps out to ceil(truncate x sigma) pixels each "
          "side (4 keeps the lost tail below 0.01 %; the radius may not exceed "
          "1536; algorithm=fir only)", cg::kMinTruncate, cg::kMaxTruncate, DEFAULT_TRUNCATE, live));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How pixels beyond the frame edges are made up",
          GST_TYPE_CUDA_GAUSSIAN_BORDER, (gint) DEFAULT_BORDER,
          mutable_playing));
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "The GPU to use (-1 = any; a context shared by neighbouring CUDA "
          "elements is preferred)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          (GParamFlags) (G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
              G_PARAM_STATIC_STRINGS)));

  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames on the GPU at once, so that uploads, blurs and downloads of "
          "consecutive frames overlap (each adds a frame of latency; below 4K "
          "consecutive frames also blur on their own CUDA streams, and from 8 on, "
          "frames below Full HD blur a quarter of them per kernel launch, so that "
          "small frames fill the GPU); 0 = auto: 1 for live sources; otherwise 8 for "
          "frames in CUDA memory of at most half a Full HD frame's pixels (SD, HD), "
          "3 for the rest",
          0, MAX_FRAMES_IN_FLIGHT,
          DEFAULT_FRAMES_IN_FLIGHT, (GParamFlags) (G_PARAM_READWRITE |
              GST_PARAM_MUTABLE_READY | G_PARAM_STATIC_STRINGS)));

  g_object_class_install_property (gobject_class, PROP_START_UP,
      g_param_spec_enum ("start-up", "Start-up",
          "How the recursive algorithms start at the frame edges",
          GST_TYPE_CUDA_GAUSSIAN_START_UP, (gint) DEFAULT_START_UP, mutable_playing));
  g_object_class_install_property (gobject_class, PROP_PARTITIONS,
      g_param_spec_enum ("partitions", "Partitions",
          "How the recursive and edge-aware algorithms split each line over GPU "
          "threads (block-parallel and one-way are exact, block-parallel has the "
          "most threads; k-way, and young-van-vliet's two-way below large sigmas, are "
          "approximate, see kappa)",
          GST_TYPE_CUDA_GAUSSIAN_PARTITIONS,
          (gint) DEFAULT_PARTITIONS, mutable_playing));
  g_object_class_install_property (gobject_class, PROP_SEGMENTS,
      g_param_spec_uint ("segments", "Segments",
          "Pieces per line for partitions=k-way (0 = enough to fill the GPU; for "
          "edge-aware also pieces of at most 32 pixels)", 0,
          MAX_SEGMENTS, DEFAULT_SEGMENTS, mutable_playing));
  g_object_class_install_property (gobject_class, PROP_KAPPA,
      g_param_spec_double ("kappa", "Kappa",
          "Warm-up before each piece of a k-way line or a warmed-up two-way one "
          "(young-van-vliet's, while it is under 1/25 of the line), in sigmas (the "
          "error falls like exp(-1.7 kappa)); for edge-aware in sigmas of "
          "transformed distance, so edges shorten it; -1 = auto: 4 for the "
          "recursive Gaussians, 2 for edge-aware", -1.0, 100.0, DEFAULT_KAPPA, live));

  g_object_class_install_property (gobject_class, PROP_BOX_PASSES,
      g_param_spec_int ("box-passes", "Box passes",
          "Box passes per direction for algorithm=box (more passes: closer to a "
          "Gaussian)", cg::kMinBoxPasses, cg::kMaxBoxPasses, DEFAULT_BOX_PASSES,
          mutable_playing));

  g_object_class_install_property (gobject_class, PROP_SIGMA_R,
      g_param_spec_double ("sigma-r", "Range sigma",
          "algorithm=edge-aware: contrast, in 8-bit levels (0-255, whatever the "
          "format's depth), that counts as an edge; smaller keeps more edges, "
          "large values blur like a plain Gaussian", 0.1, MAX_SIGMA_R,
          DEFAULT_SIGMA_R, live));
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_uint ("iterations", "Iterations",
          "algorithm=edge-aware: horizontal+vertical pass pairs, with sigmas that "
          "add up to sigma (more: fewer streaks along edges, 3 suffice)", 1,
          10, DEFAULT_ITERATIONS, mutable_playing));
  g_object_class_install_property (gobject_class, PROP_EDGE_FILTER,
      g_param_spec_enum ("edge-filter", "Edge filter",
          "algorithm=edge-aware: the recursive filter run in the transformed domain",
          GST_TYPE_CUDA_GAUSSIAN_EDGE_FILTER, (gint) DEFAULT_EDGE_FILTER,
          mutable_playing));

  g_object_class_install_property (gobject_class, PROP_COEFFICIENTS,
      g_param_spec_enum ("coefficients", "Coefficients",
          "algorithm=fir: where the taps come from (algorithm=auto always uses the table)",
          GST_TYPE_CUDA_GAUSSIAN_COEFFICIENTS, (gint) DEFAULT_COEFFICIENTS,
          mutable_playing));

  g_object_class_install_property (gobject_class, PROP_BOX_METHOD,
      g_param_spec_enum ("box-method", "Box method",
          "algorithm=box: how the box passes are summed (integral keeps exact 64-bit "
          "sums: 8-bit frames up to sigma 250 with 3 passes, 67 with 4, 29 with 5, 17 with "
          "6; 16-bit ones 114, 33, 16, 10; beyond, a clear error)",
          GST_TYPE_CUDA_GAUSSIAN_BOX_METHOD, (gint) DEFAULT_BOX_METHOD, mutable_playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Gaussian blur", "Filter/Effect/Video",
      "Blurs video with an exact Gaussian on an NVIDIA GPU",
      "cudagaussian developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_set_caps);
  trans_class->get_unit_size = GST_DEBUG_FUNCPTR (gst_cuda_video_get_unit_size);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_gaussian_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_gaussian_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_element_sync_values);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_gaussian_sink_event);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_gaussian_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_gaussian_generate_output);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_ALGORITHM,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_BORDER,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_START_UP,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_PARTITIONS,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_EDGE_FILTER,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_COEFFICIENTS,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_BOX_METHOD,
      (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_gaussian_debug, "cudagaussian", 0,
      "CUDA Gaussian blur");
}

static void
gst_cuda_gaussian_init (GstCudaGaussian * self)
{
  self->sigma = DEFAULT_SIGMA;
  self->sigma_y = DEFAULT_SIGMA_Y;
  self->algorithm = DEFAULT_ALGORITHM;
  self->truncate = DEFAULT_TRUNCATE;
  self->border = DEFAULT_BORDER;
  self->device_id = DEFAULT_DEVICE_ID;
  self->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  self->recursive.start = DEFAULT_START_UP;
  self->recursive.split = DEFAULT_PARTITIONS;
  self->recursive.segments = DEFAULT_SEGMENTS;
  self->recursive.kappa = DEFAULT_KAPPA;
  self->box_passes = DEFAULT_BOX_PASSES;
  self->sigma_r = DEFAULT_SIGMA_R;
  self->iterations = DEFAULT_ITERATIONS;
  self->edge_filter = DEFAULT_EDGE_FILTER;
  self->coefficients = DEFAULT_COEFFICIENTS;
  self->box_method = DEFAULT_BOX_METHOD;
  self->depth = 1;
  gst_video_info_init (&self->info);
  gst_cuda_gaussian_update_passthrough (self);
}
