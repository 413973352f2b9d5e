/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "video_planes.h"

gboolean
gst_cuda_gaussian_plane_specs (const GstVideoInfo * info,
    std::vector<cudagaussian::PlaneSpec> * specs)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  specs->clear ();
  for (guint plane = 0; plane < GST_VIDEO_INFO_N_PLANES (info); plane++) {
    gint comp = -1;

    /* The first component stored in this plane describes its sample layout. */
    for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane) {
        comp = (gint) c;
        break;
      }
    }
    if (comp < 0)
      return FALSE;

    const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);
    const guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp);
    const gint bytes = depth + shift > 8 ? 2 : 1;
    const gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp);

    /* Padding bytes (the x of RGBx) count as a channel: blurring them is harmless and keeps
     * every pixel one vector. */
    if (pstride <= 0 || pstride % bytes != 0)
      return FALSE;
    if (bytes == 2 && GST_VIDEO_FORMAT_INFO_IS_LE (finfo) == FALSE)
      return FALSE;

    cudagaussian::PlaneSpec spec;
    spec.geometry.width = GST_VIDEO_INFO_COMP_WIDTH (info, comp);
    spec.geometry.height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
    spec.geometry.channels = pstride / bytes;
    spec.geometry.bytes_per_sample = bytes;
    spec.geometry.shift = (gint) shift;
    spec.subsample_x = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
    spec.subsample_y = 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
    if (!spec.geometry.valid ())
      return FALSE;
    /* The part each channel holds; a channel no component sits in (the x of RGBx) goes
     * with the colour. */
    for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
        continue;
      const guint channel = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / (guint) bytes;
      if (channel >= 4)
        continue;
      unsigned part;
      if (c == GST_VIDEO_COMP_A)
        part = cudagaussian::kPartAlpha;
      else if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo))
        part = cudagaussian::kPartColor;
      else if (c == GST_VIDEO_COMP_Y)
        part = cudagaussian::kPartLuma;   /* Y, and gray */
      else
        part = cudagaussian::kPartChroma;
      spec.channel_parts[channel] = part;
    }
    /* Edge-aware guide: the R, G and B samples of an RGB pixel, not alpha or padding. */
    if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
      spec.edge_channels = 0;
      for (guint c = 0; c < 3 && c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++)
        if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane)
          spec.edge_channels |=
              1u << (GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / (guint) bytes);
    }
    specs->push_back (spec);
  }
  return !specs->empty ();
}
