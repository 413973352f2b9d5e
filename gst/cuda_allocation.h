/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Buffer pools shared by the plugin's elements: pinned host pools for system memory (so copies to
 * and from the GPU are DMA) and CUDA pools of the element's context for memory:CUDAMemory. */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

gboolean gst_cuda_filter_caps_have_cuda_memory (GstCaps * caps);

/* A pinned or CUDA pool for @caps, configured (VIDEO_META); NULL on failure. @for_upstream: a
 * pinned pool proposed to upstream falls back to ordinary memory where pinning fails (the
 * element takes any system memory); the element's own output pool reports the failure. */
GstBufferPool *gst_cuda_filter_pool_new (GstCudaContext * context, GstCaps * caps, guint size,
    guint min, guint max, gboolean for_upstream);

/* propose_allocation: offers upstream a pool for the query's caps unless one is there, with
 * @held as its minimum (the input buffers the element holds at once, so that an upstream pool
 * sized from it never runs dry), and the video meta. */
gboolean gst_cuda_filter_propose_pool (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstQuery * query, guint held);

/* decide_allocation, complete (the base class's default would replace a pool's allocator with
 * downstream's): a downstream CUDA pool of our context is kept; otherwise our own pool. @held:
 * output buffers the element holds at once (its frames in flight): a pool capped below
 * min + held would block the element's next acquire for good, so the cap is raised. */
gboolean gst_cuda_filter_decide_pool (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstQuery * query, guint held);
