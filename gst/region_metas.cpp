/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "region_metas.h"

#include <gst/video/video.h>

/* The detection confidence of @meta, when it has one ("detection" parameter, "confidence"
 * field, as GStreamer's analytics elements attach it). */
static gboolean
meta_confidence (GstVideoRegionOfInterestMeta * meta, gdouble * confidence)
{
  GstStructure *detection = gst_video_region_of_interest_meta_get_param (meta, "detection");
  return detection && gst_structure_get_double (detection, "confidence", confidence);
}

static gboolean
type_wanted (GstVideoRegionOfInterestMeta * meta, const std::vector < std::string > &types)
{
  if (types.empty ())
    return TRUE;
  const gchar *type = g_quark_to_string (meta->roi_type);
  for (const std::string & wanted : types)
    if (type && wanted == type)
      return TRUE;
  return FALSE;
}

std::vector < cudagaussian::MarkedBox >
gst_cuda_gaussian_read_regions (GstBuffer * buffer, const std::vector < std::string > &types,
    double min_confidence, guint * skipped)
{
  std::vector < cudagaussian::MarkedBox > boxes;
  gpointer state = NULL;
  GstMeta *meta;

  *skipped = 0;
  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    gdouble confidence;
    if (!type_wanted (roi, types) ||
        (meta_confidence (roi, &confidence) && confidence < min_confidence)) {
      ++*skipped;
      continue;
    }
    cudagaussian::MarkedBox box;
    box.x = roi->x;
    box.y = roi->y;
    box.w = roi->w;
    box.h = roi->h;
    box.id = roi->id;
    boxes.push_back (box);
  }
  return boxes;
}
