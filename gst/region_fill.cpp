/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "region_fill.h"

#include <cmath>

/* The value of component @comp (in GStreamer's component order: R, G, B, A or Y, U, V, A) at
 * the format's depth. */
static int
component_value (const GstVideoInfo * info, guint comp, guint32 argb)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  const double r = ((argb >> 16) & 0xff) / 255.0, g = ((argb >> 8) & 0xff) / 255.0;
  const double b = (argb & 0xff) / 255.0, a = (argb >> 24) / 255.0;
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);
  const double max = (double) ((1u << depth) - 1);

  if (comp == 3 || GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
    const double v = comp == 0 ? r : comp == 1 ? g : comp == 2 ? b : a;
    return (int) std::lround (v * max);
  }
  /* YUV and GRAY: Y'CbCr from the matrix (BT.709 where the caps give none), in the range. */
  gdouble kr, kb;
  if (!gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix, &kr, &kb))
    gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_COLOR_MATRIX_BT709, &kr, &kb);
  const double y = kr * r + (1.0 - kr - kb) * g + kb * b;
  const double yuv[3] = { y, (b - y) / (2.0 * (1.0 - kb)), (r - y) / (2.0 * (1.0 - kr)) };
  const GstVideoColorRange range = GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo) ?
      GST_VIDEO_COLOR_RANGE_0_255 : info->colorimetry.range;
  gint offset[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gst_video_color_range_offsets (range, finfo, offset, scale);
  const long v = std::lround (offset[comp] + yuv[comp] * scale[comp]);
  return (int) CLAMP (v, 0L, (long) max);
}

std::vector < std::array < int, 4 >> gst_cuda_gaussian_fill_values (const GstVideoInfo * info,
    guint32 argb)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  std::vector < std::array < int, 4 >> fill (GST_VIDEO_INFO_N_PLANES (info));

  for (auto & plane : fill)
    plane.fill (0);
  /* Padding channels first, then every component at its place in its plane. */
  for (guint p = 0; p < fill.size (); ++p)
    for (int c = 0; c < 4; ++c)
      fill[p][c] = (int) std::lround ((argb >> 24) / 255.0 *
          ((1u << GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0)) - 1));
  for (guint comp = 0; comp < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); ++comp) {
    const guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp);
    const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);
    const guint bytes = depth + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp) > 8 ? 2 : 1;
    const guint channel = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp) / bytes;
    if (plane < fill.size () && channel < 4)
      fill[plane][channel] = component_value (info, comp, argb);
  }
  return fill;
}
