/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
 * Interlaced video: one field per buffer (`interlace-mode=alternate`, system memory) is blurred
 * field by field, with the vertical sigma halved so that the blur has the same size on screen;
 * both fields in one buffer (`interleaved`, `mixed`) are refused at negotiation (deinterlace
 * first). sigma=0 passes frames through untouched, also when switched while playing.
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

#include <vector>

#include <gst/cuda/gstcudamemory.h>

#include "box_widths.h"
#include "fir_taps.h"
#include "frame_blur.h"
#include "gaussian_operation.h"
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
struct _GstCudaGaussian
{
  GstCudaFilter parent;

  /* properties, under the object lock */
  gdouble sigma;
  gdouble sigma_y;
  cg::Algorithm algorithm;
  gdouble truncate;
  cg::Border border;
  cg::RecursiveSettings recursive;
  gint box_passes;
  gdouble sigma_r;
  guint iterations;
  cg::EdgeFilter edge_filter;
  cg::TapSource coefficients;
  cg::BoxMethod box_method;

  /* the planes of the negotiated caps */
  std::vector < cg::PlaneSpec > *planes;
};

#define gst_cuda_gaussian_parent_class parent_class
G_DEFINE_TYPE (GstCudaGaussian, gst_cuda_gaussian, GST_TYPE_CUDA_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudagaussian, "cudagaussian", GST_RANK_NONE,
    GST_TYPE_CUDA_GAUSSIAN);

/* One field per buffer (interlace-mode=alternate), in system memory: each field is blurred on
 * its own. Interleaved and mixed fields are refused by the base class. */
#define GST_CUDA_GAUSSIAN_FIELD_CAPS                                           \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_FORMAT_INTERLACED,       \
      GST_CUDA_GAUSSIAN_FORMATS) ", interlace-mode = (string) alternate"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, GST_CUDA_GAUSSIAN_CUDA_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (GST_CUDA_GAUSSIAN_FORMATS) "; "
        GST_CUDA_GAUSSIAN_FIELD_CAPS));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, GST_CUDA_GAUSSIAN_CUDA_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (GST_CUDA_GAUSSIAN_FORMATS) "; "
        GST_CUDA_GAUSSIAN_FIELD_CAPS));

/* ---------------------------------------------------------------- properties */

static gdouble
effective_sigma_y (gdouble sigma, gdouble sigma_y)
{
  return sigma_y < 0 ? sigma : sigma_y;
}

/* The settings of the next frame, read once for it under the object lock. */
static FrameSettingsPtr
gst_cuda_gaussian_snapshot (GstCudaFilter * filter)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (filter);
  auto settings = std::make_shared < GaussianSettings > ();
  cg::BlurSettings & s = settings->blur;

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
  return settings;
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

/* ---------------------------------------------------------------- frames */

/* The planes of negotiated caps. GStreamer 1.22's CUDA allocator places the V plane of
 * I420/YV12 one row too early when the height is odd (fixed in 1.24): warn. A field of
 * interlace-mode=alternate is blurred on its own, its rows two frame rows apart, so its vertical
 * sigma is halved (the same blur on screen). */
static gboolean
gst_cuda_gaussian_configure (GstCudaFilter * filter, const GstVideoInfo * in,
    const GstVideoInfo * out G_GNUC_UNUSED, FrameLayout * layout)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (filter);
  std::vector < cg::PlaneSpec > planes;

  if (!gst_cuda_gaussian_plane_specs (in, &planes)) {
    GST_ERROR_OBJECT (self, "unsupported format %s", GST_VIDEO_INFO_NAME (in));
    return FALSE;
  }
  if (GST_VIDEO_INFO_INTERLACE_MODE (in) == GST_VIDEO_INTERLACE_MODE_ALTERNATE)
    for (cg::PlaneSpec & p : planes)
      p.subsample_y *= 2;
  if (layout->in_cuda && (GST_VIDEO_INFO_HEIGHT (in) & 1) &&
      (GST_VIDEO_INFO_FORMAT (in) == GST_VIDEO_FORMAT_I420 ||
          GST_VIDEO_INFO_FORMAT (in) == GST_VIDEO_FORMAT_YV12))
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("I420/YV12 with an odd height in CUDA memory: GStreamer 1.22 stores the last U "
            "row on top of the first V row, so chroma there is unreliable."),
        ("Use an even height, system memory or NV12 (fixed in GStreamer 1.24)."));

  layout->in.clear ();
  for (const cg::PlaneSpec & p : planes)
    layout->in.push_back (p.geometry);
  layout->out = layout->in;
  layout->work = "blur";
  *self->planes = planes;
  return TRUE;
}

static std::unique_ptr < FrameOperation >
gst_cuda_gaussian_new_operation (GstCudaFilter * filter)
{
  return std::make_unique < GaussianOperation > (*GST_CUDA_GAUSSIAN (filter)->planes);
}

static void
gst_cuda_gaussian_finalize (GObject * object)
{
  delete GST_CUDA_GAUSSIAN (object)->planes;
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_gaussian_class_init (GstCudaGaussianClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
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
      "CUDA Gaussian blur", "Filter/Effect/Video/Hardware",
      "Blurs video with an exact Gaussian on an NVIDIA GPU (interlaced video: one field per "
      "buffer, interlace-mode=alternate; interleaved fields are refused)",
      "cudagaussian developers <cudagaussian@users.noreply.github.com>");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  GstCudaFilterClass *filter_class = GST_CUDA_FILTER_CLASS (klass);
  filter_class->configure = gst_cuda_gaussian_configure;
  filter_class->snapshot = gst_cuda_gaussian_snapshot;
  filter_class->new_operation = gst_cuda_gaussian_new_operation;

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
  filter_class->category = gst_cuda_gaussian_debug;
}

static void
gst_cuda_gaussian_init (GstCudaGaussian * self)
{
  self->sigma = DEFAULT_SIGMA;
  self->sigma_y = DEFAULT_SIGMA_Y;
  self->algorithm = DEFAULT_ALGORITHM;
  self->truncate = DEFAULT_TRUNCATE;
  self->border = DEFAULT_BORDER;
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
  self->planes = new std::vector < cg::PlaneSpec > ();
}
