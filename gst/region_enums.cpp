/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "region_enums.h"

#include "gtype_registration.h"
#include "region_filter.h"

namespace cg = cudagaussian;

GType
gst_cuda_gaussian_regions_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) RegionMode::Frame, "The whole frame", "frame"},
    {(gint) RegionMode::Inside,
        "Only the regions: region-of-interest metas and privacy-zones", "inside"},
    {(gint) RegionMode::Outside,
        "Everything but the regions (background blur); privacy-zones stay blurred", "outside"},
    {0, NULL, NULL},
  };
  return register_enum_once (&type, "GstCudaGaussianRegions", values);
}

GType
gst_cuda_gaussian_roi_shape_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::RegionShape::Rectangle, "The region's box", "rectangle"},
    {(gint) cg::RegionShape::Ellipse, "The ellipse inscribed in the box", "ellipse"},
    {0, NULL, NULL},
  };
  return register_enum_once (&type, "GstCudaGaussianRoiShape", values);
}

GType
gst_cuda_gaussian_roi_effect_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::RegionEffect::Blur, "Gaussian blur (sigma, or roi-strength)", "blur"},
    {(gint) cg::RegionEffect::Pixelate, "Blocks of roi-pixel-size pixels", "pixelate"},
    {(gint) cg::RegionEffect::Fill, "Solid roi-fill-color", "fill"},
    {0, NULL, NULL},
  };
  return register_enum_once (&type, "GstCudaGaussianRoiEffect", values);
}
