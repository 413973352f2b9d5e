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
 * Privacy blur: regions=inside limits the effect to the regions a detector marked on the buffer
 * (GstVideoRegionOfInterestMeta, filtered by roi-types and roi-min-confidence) and to fixed
 * privacy-zones; regions=outside applies it everywhere else (background blur). Inside a region
 * the result equals the whole-frame blur there; outside every region the frame is unchanged,
 * bit for bit. Regions may grow (roi-padding), be ellipses, have a soft edge (roi-feather),
 * a blur scaled to their size (roi-strength), be pixelated or filled (roi-effect), and stay
 * covered for a few frames after the detector misses them (roi-hold). The metas are passed on.
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
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! cudagaussian regions=inside roi-types=face roi-strength=0.15 roi-padding-ratio=0.2 roi-hold=5 ! videoconvert ! autovideosink
 * ]| Blur every face OpenCV's detector finds, strongly enough at any distance.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagaussian.h"

#include <array>
#include <vector>

#include <gst/cuda/gstcudamemory.h>

#include "gaussian_operation.h"
#include "gaussian_properties.h"
#include "region_fill.h"
#include "region_hold.h"
#include "region_metas.h"
#include "video_planes.h"

GST_DEBUG_CATEGORY (gst_cuda_gaussian_debug);
#define GST_CAT_DEFAULT gst_cuda_gaussian_debug

namespace cg = cudagaussian;

/* Regions per frame beyond which boxes are left out (logged). */
#define MAX_REGIONS 1024

struct _GstCudaGaussian
{
  GstCudaFilter parent;

  /* properties, under the object lock */
  GaussianProperties *props;

  /* streaming state: the planes of the negotiated caps and the parts (FramePart) they have,
   * regions held over missed frames */
  std::vector < cg::PlaneSpec > *planes;
  unsigned format_parts;
  cg::RegionHold *hold;
  gboolean warned_region_limit;
  /* roi-fill-color in the caps' samples, converted again when the colour or the caps change */
  std::vector < std::array < int, 4 >> *fill;
  guint32 fill_color;
  gboolean fill_valid;
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

static void
gst_cuda_gaussian_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  gaussian_properties_set_locked (object, GST_CUDA_GAUSSIAN (object)->props, prop_id, value,
      pspec);
}

static void
gst_cuda_gaussian_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  gaussian_properties_get_locked (object, GST_CUDA_GAUSSIAN (object)->props, prop_id, value,
      pspec);
}

/* ---------------------------------------------------------------- regions */

/* This frame's regions: the buffer's region-of-interest metas (filtered, held over missed
 * frames) and, in mode inside, the privacy zones; grown, clipped and given their sigma. Boxes
 * are in the buffer's pixels; a field of interlace-mode=alternate counts its rows twice, as
 * its planes do. */
static std::vector < cg::Region >
gst_cuda_gaussian_frame_regions (GstCudaGaussian * self, GstBuffer * input,
    const GaussianProperties & props, const cg::RegionOptions & options,
    std::vector < cg::Region > *zones)
{
  const RegionProperties & rp = props.region;
  const cg::PlaneSpec & luma = self->planes->front ();
  const int rows = luma.subsample_y;
  long long width_ll, height_ll;
  cg::region_frame_extent (*self->planes, &width_ll, &height_ll);
  const int width = (int) width_ll, height = (int) height_ll;
  guint skipped = 0;
  std::vector < cg::MarkedBox > boxes = self->hold->update (gst_cuda_gaussian_read_regions
      (input, rp.types, rp.min_confidence, &skipped), rp.hold);
  std::vector < cg::MarkedBox > zone_boxes = rp.zones;
  for (std::vector < cg::MarkedBox > *list : {&boxes, &zone_boxes})
    for (cg::MarkedBox & b : *list)
      b.y *= rows, b.h *= rows;
  if (rp.mode == RegionMode::Inside)
    boxes.insert (boxes.begin (), zone_boxes.begin (), zone_boxes.end ());

  cg::RegionPlanCounts counts, zone_counts;
  std::vector < cg::Region > regions = cg::plan_regions (boxes, options, width, height, &counts);
  *zones = rp.mode == RegionMode::Outside ? cg::plan_regions (zone_boxes, options, width, height,
      &zone_counts) : std::vector < cg::Region > ();
  if (skipped || counts.empty || counts.outside)
    GST_DEBUG_OBJECT (self, "%zu regions; left out: %u by type or confidence, %zu empty, "
        "%zu outside the frame", regions.size (), skipped, counts.empty, counts.outside);
  if (counts.over_limit && !self->warned_region_limit) {
    GST_WARNING_OBJECT (self, "more than %d regions on a frame: %zu left out (warned once)",
        MAX_REGIONS, counts.over_limit);
    self->warned_region_limit = TRUE;
  }
  return regions;
}

/* roi-fill-color as the negotiated caps store it. */
static const std::vector < std::array < int, 4 >> &
gst_cuda_gaussian_fill_for_caps (GstCudaGaussian * self, const GstVideoInfo * info,
    guint32 color)
{
  if (!self->fill_valid || self->fill_color != color) {
    *self->fill = gst_cuda_gaussian_fill_values (info, color);
    self->fill_color = color;
    self->fill_valid = TRUE;
  }
  return *self->fill;
}

/* The settings of the next frame, read once for it under the object lock. */
static FrameSettingsPtr
gst_cuda_gaussian_snapshot (GstCudaFilter * filter, GstBuffer * input)
{
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (filter);
  auto settings = std::make_shared < GaussianSettings > ();
  cg::BlurSettings & s = settings->blur;

  GST_OBJECT_LOCK (self);
  const GaussianProperties props = *self->props;
  GST_OBJECT_UNLOCK (self);

  s.algorithm = props.algorithm;
  s.sigma_x = props.sigma;
  s.sigma_y = props.effective_sigma_y ();
  s.truncate = props.truncate;
  s.border = props.border;
  s.recursive = props.recursive;
  s.box_passes = props.box_passes;
  s.sigma_r = props.sigma_r;
  s.iterations = (int) props.iterations;
  s.edge_filter = props.edge_filter;
  s.coefficients = props.coefficients;
  s.box_method = props.box_method;
  s.sharpen = props.sharpen;
  s.sharpen_threshold = props.sharpen_threshold;
  /* Only the parts the format has: a frame with none of the chosen parts passes through. */
  s.parts = props.planes & self->format_parts;

  const RegionProperties & rp = props.region;
  settings->mode = rp.mode;
  if (rp.mode == RegionMode::Frame)
    return settings;
  if (!rp.zones_error.empty ()) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("privacy-zones is not a list of x,y,width,height rectangles: %s.",
            rp.zones_error.c_str ()), ("privacy-zones=\"%s\"", rp.zones_text.c_str ()));
    return nullptr;
  }
  cg::RegionOptions options;
  options.padding = rp.padding;
  options.padding_ratio = rp.padding_ratio;
  options.shape = rp.shape;
  options.feather = rp.feather;
  options.strength = rp.effect == cg::RegionEffect::Blur ? rp.strength : 0.0;
  options.sigma_x = s.sigma_x;
  options.sigma_y = s.sigma_y;
  options.max_regions = MAX_REGIONS;
  settings->regions = gst_cuda_gaussian_frame_regions (self, input, props, options,
      &settings->zones);
  settings->effect.effect = rp.effect;
  settings->effect.truncate = s.truncate;
  settings->effect.pixel_size = rp.pixel_size;
  settings->effect.sharpen = s.sharpen;
  settings->effect.sharpen_threshold = s.sharpen_threshold;
  for (const cg::PlaneSpec & p : *self->planes)
    settings->effect.keep.push_back (cg::kept_channels (p, s.parts));
  if (rp.effect == cg::RegionEffect::Fill)
    settings->effect.fill = gst_cuda_gaussian_fill_for_caps (self, &filter->in_info,
        rp.fill_color);
  return settings;
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
  self->format_parts = cg::frame_parts (planes);
  self->hold->reset ();
  self->fill_valid = FALSE;
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
  GstCudaGaussian *self = GST_CUDA_GAUSSIAN (object);

  delete self->props;
  delete self->planes;
  delete self->hold;
  delete self->fill;
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_gaussian_class_init (GstCudaGaussianClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  gobject_class->set_property = gst_cuda_gaussian_set_property;
  gobject_class->get_property = gst_cuda_gaussian_get_property;
  gobject_class->finalize = gst_cuda_gaussian_finalize;
  gaussian_properties_install (gobject_class);

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
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_PLANES,
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
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_REGIONS, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_ROI_SHAPE, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSSIAN_ROI_EFFECT, (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_gaussian_debug, "cudagaussian", 0,
      "CUDA Gaussian blur");
  filter_class->category = gst_cuda_gaussian_debug;
}

static void
gst_cuda_gaussian_init (GstCudaGaussian * self)
{
  self->props = new GaussianProperties ();
  self->planes = new std::vector < cg::PlaneSpec > ();
  self->hold = new cg::RegionHold ();
  self->fill = new std::vector < std::array < int, 4 >> ();
}
