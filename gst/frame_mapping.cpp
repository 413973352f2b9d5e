/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "frame_mapping.h"

#include <gst/cuda/gstcudamemory.h>

namespace cg = cudagaussian;

/* gst_video_frame_map checks only that each plane's first byte is in the buffer (GStreamer 1.22
 * maps the memory holding it), not that the plane fits: a buffer smaller than its meta says
 * would be read past its end, on the GPU an illegal address that poisons the context. */
static gboolean
planes_fit (const GstVideoFrame & frame, const std::vector < cg::PlaneGeometry > &planes)
{
  for (guint i = 0; i < planes.size (); i++) {
    const cg::PlaneGeometry & g = planes[i];
    const GstMapInfo & map = frame.meta ? frame.map[i] : frame.map[0];
    const guint8 *data = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, i);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, i);
    if (stride < 0 || (g.height > 1 && (gsize) stride < g.row_bytes ()))
      return FALSE;
    if (!map.data || data < map.data || data > map.data + map.size)
      return FALSE;
    const gsize avail = map.size - (gsize) (data - map.data);
    const gsize need = (gsize) stride * (g.height - 1) + g.row_bytes ();
    if (need > avail)
      return FALSE;
  }
  return TRUE;
}

FrameMapResult
map_video_frame (GstVideoFrame * frame, const GstVideoInfo * info, GstBuffer * buffer,
    const std::vector < cg::PlaneGeometry > &planes, gboolean device, GstMapFlags flags)
{
  if (!gst_video_frame_map (frame, info, buffer,
          (GstMapFlags) (flags | (device ? GST_MAP_CUDA : 0))))
    return FrameMapResult::MapFailed;
  if (!planes_fit (*frame, planes)) {
    gst_video_frame_unmap (frame);
    return FrameMapResult::TooSmall;
  }
  return FrameMapResult::Mapped;
}
