/* Buffer pools shared by the plugin's elements: pinned host pools for system memory (so copies to
 * and from the GPU are DMA) and CUDA pools of the element's context for memory:CUDAMemory. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

gboolean gst_cuda_gaussian_caps_have_cuda_memory (GstCaps * caps);

/* A pinned or CUDA pool for @caps, configured (VIDEO_META); NULL on failure. */
GstBufferPool *gst_cuda_gaussian_pool_new (GstCudaContext * context,
    GstCaps * caps, guint size, guint min, guint max);

/* propose_allocation, after the base class: offers upstream a pool for the query's caps unless
 * one is there, and the video meta. */
gboolean gst_cuda_gaussian_propose_pool (GstElement * element,
    GstCudaContext * context, GstQuery * query);

/* The whole propose_allocation of an element derived directly from GstBaseTransform: the base
 * class's, then (unless in passthrough, where the query went downstream) our pool. */
gboolean gst_cuda_element_propose_allocation (GstBaseTransform * trans,
    GstCudaContext * context, GstQuery * decide_query, GstQuery * query);

/* decide_allocation, complete (the base class's default would replace a pool's allocator with
 * downstream's): a downstream CUDA pool of our context is kept; otherwise our own pool. @held:
 * output buffers the element holds at once (its frames in flight): a pool capped below
 * min + held would block the element's next acquire for good, so the cap is raised. */
gboolean gst_cuda_gaussian_decide_pool (GstElement * element,
    GstCudaContext * context, GstQuery * query, guint held);

G_END_DECLS
