/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gaussian_properties.h"

#include <gst/gst.h>

#include "box_widths.h"
#include "fir_taps.h"
#include "gaussian_enums.h"
#include "property_table.h"

namespace cg = cudagaussian;

#define MAX_SIGMA 250.0
#define MAX_SIGMA_R 100000.0
#define MAX_SEGMENTS 4096

namespace
{

typedef GaussianProperties Props;

/* Comma-separated names, trimmed, empty ones dropped. */
std::vector < std::string > split_names (const gchar * text)
{
  std::vector < std::string > names;
  gchar **parts = g_strsplit (text ? text : "", ",", -1);
  for (gchar ** part = parts; *part; ++part) {
    g_strstrip (*part);
    if (**part)
      names.emplace_back (*part);
  }
  g_strfreev (parts);
  return names;
}

void
set_zones (RegionProperties & r, const gchar * text)
{
  r.zones_text = text ? text : "";
  std::vector < cg::MarkedBox > zones;
  std::string error;
  if (cg::parse_privacy_zones (r.zones_text, &zones, &error)) {
    r.zones = zones;
    r.zones_error.clear ();
  } else {
    r.zones_error = error;
  }
}

const PropertyRow < Props > rows[] = {
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels (horizontal, and vertical "
          "unless sigma-y is set); 0 passes frames through untouched", 0.0, MAX_SIGMA, 2.0, live);
    }, VALUE_ROW (double, sigma)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("sigma-y", "Sigma Y",
          "Vertical standard deviation in pixels for an anisotropic blur; -1 follows sigma",
          -1.0, MAX_SIGMA, -1.0, live);
    }, VALUE_ROW (double, sigma_y)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("algorithm", "Algorithm",
          "How the blur is computed; auto picks the fastest exact one",
          GST_TYPE_CUDA_GAUSSIAN_ALGORITHM, (gint) cg::Algorithm::Auto, mutable_playing);
    }, ENUM_ROW (cg::Algorithm, algorithm)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("truncate", "Truncate",
          "FIR support in sigmas: taps out to ceil(truncate x sigma) pixels each side (4 keeps "
          "the lost tail below 0.01 %; the radius may not exceed 1536; algorithm=fir and the "
          "region blur)", cg::kMinTruncate, cg::kMaxTruncate, cg::kDefaultTruncate, live);
    }, VALUE_ROW (double, truncate)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("border", "Border", "How pixels beyond the frame edges are made up",
          GST_TYPE_CUDA_GAUSSIAN_BORDER, (gint) cg::Border::Replicate, mutable_playing);
    }, ENUM_ROW (cg::Border, border)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("start-up", "Start-up",
          "How the recursive algorithms start at the frame edges",
          GST_TYPE_CUDA_GAUSSIAN_START_UP, (gint) cg::StartUp::Exact, mutable_playing);
    }, ENUM_ROW (cg::StartUp, recursive.start)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("partitions", "Partitions",
          "How the recursive and edge-aware algorithms split each line over GPU threads "
          "(block-parallel and one-way are exact, block-parallel has the most threads; k-way, "
          "and young-van-vliet's two-way below large sigmas, are approximate, see kappa)",
          GST_TYPE_CUDA_GAUSSIAN_PARTITIONS, (gint) cg::LineSplit::Auto, mutable_playing);
    }, ENUM_ROW (cg::LineSplit, recursive.split)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_uint ("segments", "Segments",
          "Pieces per line for partitions=k-way (0 = enough to fill the GPU)", 0, MAX_SEGMENTS, 0,
          mutable_playing);
    }, CAST_ROW (uint, int, recursive.segments)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("kappa", "Kappa",
          "Warm-up before each piece of a k-way line or a warmed-up two-way one "
          "(young-van-vliet's, while it is under 1/25 of the line), in sigmas (the error falls "
          "like exp(-1.7 kappa)); for edge-aware in sigmas of transformed distance, so edges "
          "shorten it; -1 = auto: 4 for the recursive Gaussians, 2 for edge-aware",
          -1.0, 100.0, -1.0, live);
    }, VALUE_ROW (double, recursive.kappa)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_int ("box-passes", "Box passes",
          "Box passes per direction for algorithm=box (more passes: closer to a Gaussian)",
          cg::kMinBoxPasses, cg::kMaxBoxPasses, 3, mutable_playing);
    }, VALUE_ROW (int, box_passes)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("sigma-r", "Range sigma",
          "algorithm=edge-aware: contrast, in 8-bit levels (0-255, whatever the format's "
          "depth), that counts as an edge; smaller keeps more edges, large values blur like a "
          "plain Gaussian", 0.1, MAX_SIGMA_R, 30.0, live);
    }, VALUE_ROW (double, sigma_r)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_uint ("iterations", "Iterations",
          "algorithm=edge-aware: horizontal+vertical pass pairs, with sigmas that add up to "
          "sigma (more: fewer streaks along edges, 3 suffice)", 1, 10, 3, mutable_playing);
    }, VALUE_ROW (uint, iterations)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("edge-filter", "Edge filter",
          "algorithm=edge-aware: the recursive filter run in the transformed domain",
          GST_TYPE_CUDA_GAUSSIAN_EDGE_FILTER, (gint) cg::EdgeFilter::Gaussian, mutable_playing);
    }, ENUM_ROW (cg::EdgeFilter, edge_filter)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("coefficients", "Coefficients",
          "algorithm=fir: where the taps come from (algorithm=auto always uses the table)",
          GST_TYPE_CUDA_GAUSSIAN_COEFFICIENTS, (gint) cg::TapSource::Table, mutable_playing);
    }, ENUM_ROW (cg::TapSource, coefficients)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("box-method", "Box method",
          "algorithm=box: how the box passes are summed (integral keeps exact 64-bit sums: "
          "8-bit frames up to sigma 250 with 3 passes, 67 with 4, 29 with 5, 17 with 6; 16-bit "
          "ones 114, 33, 16, 10; beyond, a clear error)",
          GST_TYPE_CUDA_GAUSSIAN_BOX_METHOD, (gint) cg::BoxMethod::RunningSum, mutable_playing);
    }, ENUM_ROW (cg::BoxMethod, box_method)},

  /* Sharpen and planes */
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("sharpen", "Sharpen",
          "Unsharp mask: out = in + sharpen x (in - blur), the blur being the Gaussian of sigma; "
          "0 = blur only (e.g. sigma=1.5 sharpen=0.8)", 0.0, cg::kMaxSharpen, 0.0, live);
    }, VALUE_ROW (double, sharpen)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("sharpen-threshold", "Sharpen threshold",
          "sharpen: differences between a pixel and its blur below this many 8-bit levels "
          "(whatever the depth) are left alone, so that noise is not amplified", 0.0, cg::kMaxSharpenThreshold, 0.0,
          live);
    }, VALUE_ROW (double, sharpen_threshold)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_flags ("planes", "Planes",
          "The parts of the frame that are filtered; the others are copied unchanged (a format "
          "with none of them passes its buffers through)",
          GST_TYPE_CUDA_GAUSSIAN_PLANES, kDefaultPlanes, mutable_playing);
    }, VALUE_ROW (flags, planes)},

  /* Regions */
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("regions", "Regions",
          "Where the effect goes: the whole frame, only inside the regions "
          "(GstVideoRegionOfInterestMeta on the buffer, and privacy-zones), or outside them",
          GST_TYPE_CUDA_GAUSSIAN_REGIONS, (gint) RegionMode::Frame, mutable_playing);
    }, ENUM_ROW (RegionMode, region.mode)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_string ("roi-types", "ROI types",
          "Region-of-interest types that count, comma-separated (e.g. \"face,license-plate\"); "
          "empty = every type", "", mutable_playing);
    },
    [](Props & p, const GValue * v) {
      p.region.types_text = g_value_get_string (v) ? g_value_get_string (v) : "";
      p.region.types = split_names (g_value_get_string (v));
    },
    [](const Props & p, GValue * v) { g_value_set_string (v, p.region.types_text.c_str ()); }},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("roi-min-confidence", "ROI minimum confidence",
          "Regions whose detection confidence (the \"detection\" parameter's \"confidence\") "
          "is below this are ignored; regions without one always count", 0.0, 1.0, 0.0, live);
    }, VALUE_ROW (double, region.min_confidence)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_string ("privacy-zones", "Privacy zones",
          "Fixed regions, always blurred, in pixels: \"x,y,width,height;x,y,width,height\" "
          "(a malformed list stops the stream with an error)", "", mutable_playing);
    },
    [](Props & p, const GValue * v) { set_zones (p.region, g_value_get_string (v)); },
    [](const Props & p, GValue * v) { g_value_set_string (v, p.region.zones_text.c_str ()); }},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_int ("roi-padding", "ROI padding",
          "Pixels added on each side of every region", 0, 4096, 0, live);
    }, VALUE_ROW (int, region.padding)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("roi-padding-ratio", "ROI padding ratio",
          "Plus this fraction of the region's width (left, right) and height (top, bottom)",
          0.0, 4.0, 0.0, live);
    }, VALUE_ROW (double, region.padding_ratio)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("roi-shape", "ROI shape", "The shape of each region",
          GST_TYPE_CUDA_GAUSSIAN_ROI_SHAPE, (gint) cg::RegionShape::Rectangle, mutable_playing);
    }, ENUM_ROW (cg::RegionShape, region.shape)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_int ("roi-feather", "ROI feather",
          "Soft edge in pixels, inside each region's border: the effect fades out towards the "
          "border (0 = hard edge)", 0, 1024, 0, live);
    }, VALUE_ROW (int, region.feather)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_double ("roi-strength", "ROI strength",
          "Blur scaled to each region: sigma = roi-strength x the region's smaller side (e.g. "
          "0.1); 0 = sigma and sigma-y as set", 0.0, 10.0, 0.0, live);
    }, VALUE_ROW (double, region.strength)},
  {[](GParamFlags, GParamFlags mutable_playing) {
      return g_param_spec_enum ("roi-effect", "ROI effect", "What regions=inside/outside applies",
          GST_TYPE_CUDA_GAUSSIAN_ROI_EFFECT, (gint) cg::RegionEffect::Blur, mutable_playing);
    }, ENUM_ROW (cg::RegionEffect, region.effect)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_int ("roi-pixel-size", "ROI pixel size",
          "roi-effect=pixelate: block side in pixels", 1, 1024, 16, live);
    }, VALUE_ROW (int, region.pixel_size)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_uint ("roi-fill-color", "ROI fill color",
          "roi-effect=fill: the colour, 0xAARRGGBB", 0, G_MAXUINT32, 0xff000000, live);
    }, VALUE_ROW (uint, region.fill_color)},
  {[](GParamFlags live, GParamFlags) {
      return g_param_spec_uint ("roi-hold", "ROI hold",
          "Frames a region stays covered after the detector stops reporting it (matched by "
          "the meta's id when it has one, else by overlap)", 0, 1000, 0, live);
    }, VALUE_ROW (uint, region.hold)},
};

}                               /* namespace */

void
gaussian_properties_install (GObjectClass * klass)
{
  property_table_install (klass, rows, 1);
}

void
gaussian_properties_set_locked (GObject * object, GaussianProperties * props, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  property_table_set_locked (object, props, rows, 1, prop_id, value, pspec);
}

void
gaussian_properties_get_locked (GObject * object, const GaussianProperties * props,
    guint prop_id, GValue * value, GParamSpec * pspec)
{
  property_table_get_locked (object, props, rows, 1, prop_id, value, pspec);
}
