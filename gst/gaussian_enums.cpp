/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The enumerated properties of cudagaussian, as GLib enum types (what gst-inspect-1.0 lists). */
#include "gaussian_enums.h"

#include "gtype_registration.h"
#include "frame_blur.h"

namespace cg = cudagaussian;

/* One value per row of the algorithm table (kernels/blur_algorithms.h), in its order. */
GType
gst_cuda_gaussian_algorithm_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    const std::vector < cg::BlurAlgorithm > &rows = cg::blur_algorithms ();
    /* Registered types keep their values for the life of the process. */
    GEnumValue *values = g_new0 (GEnumValue, rows.size () + 1);
    for (size_t i = 0; i < rows.size (); i++)
      values[i] = {(gint) rows[i].id, rows[i].description, rows[i].nick};
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

  return register_enum_once (&type, "GstCudaGaussianBorder", values);
}

GType
gst_cuda_gaussian_start_up_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::StartUp::Exact,
        "As if the frame were extended by repeating its edge pixels (exact)", "exact"},
    {(gint) cg::StartUp::Simple,
        "Lee, Ko and Choe's rule: each pass starts from its own input's edge value (inexact "
          "near the right and bottom edges for Young-van Vliet; for comparison)", "simple"},
    {0, NULL, NULL},
  };

  return register_enum_once (&type, "GstCudaGaussianStartUp", values);
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

  return register_enum_once (&type, "GstCudaGaussianPartitions", values);
}

GType
gst_cuda_gaussian_edge_filter_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {(gint) cg::EdgeFilter::Gaussian,
        "Gaussian in the transformed domain (Gastal & Oliveira 2015, in complex "
          "Deriche form)", "gaussian"},
    {(gint) cg::EdgeFilter::Rf,
        "First-order recursive filter of the Domain Transform (Gastal & Oliveira 2011); "
          "cheaper, exponential response", "rf"},
    {0, NULL, NULL},
  };

  return register_enum_once (&type, "GstCudaGaussianEdgeFilter", values);
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

  return register_enum_once (&type, "GstCudaGaussianCoefficients", values);
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

  return register_enum_once (&type, "GstCudaGaussianBoxMethod", values);
}

GType
gst_cuda_gaussian_planes_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {cg::kPartLuma, "Luma (Y) of YUV formats, and gray formats", "luma"},
    {cg::kPartChroma, "Chroma (U and V) of YUV formats", "chroma"},
    {cg::kPartColor, "R, G and B of RGB formats", "color"},
    {cg::kPartAlpha, "Alpha of formats that have it (left out by default: it passes through)",
        "alpha"},
    {0, NULL, NULL},
  };

  return register_flags_once (&type, "GstCudaGaussianPlanes", values);
}
