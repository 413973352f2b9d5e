/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian's properties as one table (property_table.h) over GaussianProperties. The element
 * keeps one GaussianProperties under its object lock and copies it once per frame. */
#pragma once

#include <string>
#include <vector>

#include <glib-object.h>

#include "fir_taps.h"
#include "frame_blur.h"
#include "region_enums.h"
#include "region_filter.h"
#include "region_boxes.h"

/* Which regions get an effect, and which effect. */
struct RegionProperties
{
  RegionMode mode = RegionMode::Frame;
  std::vector < std::string > types;   /* roi-types, parsed; empty = every type */
  std::string types_text;
  double min_confidence = 0.0;
  std::vector < cudagaussian::MarkedBox > zones;      /* privacy-zones, parsed */
  std::string zones_text;
  std::string zones_error;      /* why zones_text is not a zone list; empty when it is */
  int padding = 0;
  double padding_ratio = 0.0;
  cudagaussian::RegionShape shape = cudagaussian::RegionShape::Rectangle;
  int feather = 0;
  double strength = 0.0;
  cudagaussian::RegionEffect effect = cudagaussian::RegionEffect::Blur;
  int pixel_size = 16;
  guint32 fill_color = 0xff000000;      /* ARGB */
  guint hold = 0;
};

/* planes: every part but alpha, which passes through. */
constexpr guint kDefaultPlanes = cudagaussian::kPartLuma | cudagaussian::kPartChroma |
    cudagaussian::kPartColor;

struct GaussianProperties
{
  double sigma = 2.0;
  double sigma_y = -1.0;        /* -1: follows sigma */
  cudagaussian::Algorithm algorithm = cudagaussian::Algorithm::Auto;
  double truncate = cudagaussian::kDefaultTruncate;
  cudagaussian::Border border = cudagaussian::Border::Replicate;
  cudagaussian::RecursiveSettings recursive;  /* exact start-up, split auto, kappa auto */
  int box_passes = 3;
  double sigma_r = 30.0;
  guint iterations = 3;
  cudagaussian::EdgeFilter edge_filter = cudagaussian::EdgeFilter::Gaussian;
  cudagaussian::TapSource coefficients = cudagaussian::TapSource::Table;
  cudagaussian::BoxMethod box_method = cudagaussian::BoxMethod::RunningSum;
  double sharpen = 0.0;
  double sharpen_threshold = 0.0;
  guint planes = kDefaultPlanes;
  RegionProperties region;

  GaussianProperties ()
  {
    recursive.split = cudagaussian::LineSplit::Auto;    /* resolved per algorithm */
    recursive.kappa = -1.0;
  }
  double effective_sigma_y () const { return sigma_y < 0 ? sigma : sigma_y; }
};

/* Installs every property, ids from 1. */
void gaussian_properties_install (GObjectClass * klass);
/* set_property / get_property, under the object lock of @object. */
void gaussian_properties_set_locked (GObject * object, GaussianProperties * props, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void gaussian_properties_get_locked (GObject * object, const GaussianProperties * props,
    guint prop_id, GValue * value, GParamSpec * pspec);
