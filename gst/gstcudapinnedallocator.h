/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Page-locked (pinned) host memory for system-memory video buffers: copies between these
 * buffers and the GPU are asynchronous DMA with no staging copy in the driver. */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_PINNED_ALLOCATOR (gst_cuda_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaPinnedAllocator, gst_cuda_pinned_allocator,
    GST, CUDA_PINNED_ALLOCATOR, GstAllocator);

/* The allocator keeps a reference on @context: memory is allocated and freed inside it. With
 * @pageable_fallback, memory that cannot be pinned is ordinary system memory instead (for pools
 * handed to other elements, which should not fail because pinning does); without, it is a
 * failed allocation. */
GstAllocator *gst_cuda_pinned_allocator_new (GstCudaContext * context,
    gboolean pageable_fallback);

/* A GstVideoBufferPool (with VIDEO_META) whose buffers are pinned host memory. */
GstBufferPool *gst_cuda_pinned_pool_new (GstCudaContext * context,
    GstCaps * caps, guint size, guint min_buffers, guint max_buffers,
    gboolean pageable_fallback);

G_END_DECLS
