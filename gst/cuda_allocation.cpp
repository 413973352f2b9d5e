/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cuda_allocation.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

#include "gstcudapinnedallocator.h"

gboolean
gst_cuda_filter_caps_have_cuda_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

GstBufferPool *
gst_cuda_filter_pool_new (GstCudaContext * context, GstCaps * caps,
    guint size, guint min, guint max, gboolean for_upstream)
{
  if (!gst_cuda_filter_caps_have_cuda_memory (caps))
    return gst_cuda_pinned_pool_new (context, caps, size, min, max, for_upstream);

  GstBufferPool *pool = gst_cuda_buffer_pool_new (context);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* The pool's own idea of the buffer size (CUDA pools pad their planes). */
static guint
pool_buffer_size (GstBufferPool * pool)
{
  guint size = 0;
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  return size;
}

gboolean
gst_cuda_filter_propose_pool (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstQuery * query, guint held)
{
  GstCaps *caps;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !context)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) == 0) {
    GstBufferPool *pool = gst_cuda_filter_pool_new (context, caps,
        GST_VIDEO_INFO_SIZE (&info), held, 0, TRUE);
    if (!pool) {
      GST_CAT_WARNING_OBJECT (category, element, "could not create a buffer pool to propose");
      return FALSE;
    }
    gst_query_add_allocation_pool (query, pool, pool_buffer_size (pool), held, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

gboolean
gst_cuda_filter_decide_pool (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstQuery * query, guint held)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  guint size = 0, min = 0, max = 0;
  gboolean update = FALSE;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  size = GST_VIDEO_INFO_SIZE (&info);

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    update = TRUE;
    /* For system memory always our pinned pool, so the download is DMA. */
    if (pool && !(gst_cuda_filter_caps_have_cuda_memory (caps) &&
            GST_IS_CUDA_BUFFER_POOL (pool) &&
            GST_CUDA_BUFFER_POOL (pool)->context == context))
      gst_clear_object (&pool);
    size = MAX (size, (guint) GST_VIDEO_INFO_SIZE (&info));
    if (max != 0 && max < min + held) {
      GST_CAT_DEBUG_OBJECT (category, element, "pool cap %u raised to %u for %u frame(s) in flight", max,
          min + held, held);
      max = min + held;
    }
  }

  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (!pool)
    pool = gst_cuda_filter_pool_new (context, caps, size, min, max, FALSE);
  if (!pool) {
    GST_CAT_ERROR_OBJECT (category, element, "could not create an output buffer pool");
    return FALSE;
  }
  size = pool_buffer_size (pool);

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
