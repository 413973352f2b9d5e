/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcudapinnedallocator.h"

#include <cstring>

#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include "device_memory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_pinned_allocator_debug);
#define GST_CAT_DEFAULT gst_cuda_pinned_allocator_debug

struct _GstCudaPinnedAllocator
{
  GstAllocator parent;
  GstCudaContext *context;
  gboolean pageable_fallback;
};

G_DEFINE_TYPE (GstCudaPinnedAllocator, gst_cuda_pinned_allocator,
    GST_TYPE_ALLOCATOR);

/* What a wrapped memory needs to free its block in the right context. */
struct PinnedBlock
{
  GstCudaContext *context;
  void *data;
};

static void
pinned_block_free (gpointer user_data)
{
  PinnedBlock *block = static_cast < PinnedBlock * >(user_data);

  if (gst_cuda_context_push (block->context)) {
    cudagaussian::pinned_free (block->data);
    gst_cuda_context_pop (NULL);
  } else {
    GST_ERROR ("could not push CUDA context to free pinned memory %p",
        block->data);
  }
  gst_object_unref (block->context);
  delete block;
}

static GstMemory *
gst_cuda_pinned_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaPinnedAllocator *self = GST_CUDA_PINNED_ALLOCATOR (allocator);
  const gsize maxsize = size + params->prefix + params->padding;
  void *data = NULL;

  /* cudaHostAlloc returns page-aligned memory, which covers any alignment GStreamer asks. */
  if (params->align >= 4096) {
    GST_ERROR_OBJECT (self, "alignment %" G_GSIZE_FORMAT " not supported",
        params->align + 1);
    return NULL;
  }
  if (!gst_cuda_context_push (self->context)) {
    GST_ERROR_OBJECT (self, "could not push CUDA context");
    return NULL;
  }
  cudagaussian::Status st = cudagaussian::pinned_alloc (maxsize, &data);
  gst_cuda_context_pop (NULL);
  if (!st.ok () && self->pageable_fallback) {
    GST_WARNING_OBJECT (self, "pinned allocation of %" G_GSIZE_FORMAT " bytes failed (%s): "
        "ordinary memory instead", maxsize, st.message.c_str ());
    return gst_allocator_alloc (NULL, size, params);
  }
  if (!st.ok ()) {
    GST_ERROR_OBJECT (self, "pinned allocation of %" G_GSIZE_FORMAT
        " bytes failed: %s", maxsize, st.message.c_str ());
    return NULL;
  }

  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (static_cast < guint8 * >(data) + params->prefix + size, 0,
        params->padding);

  PinnedBlock *block = new PinnedBlock { GST_CUDA_CONTEXT (gst_object_ref (self->context)), data };
  return gst_memory_new_wrapped ((GstMemoryFlags) params->flags, data, maxsize,
      params->prefix, size, block, pinned_block_free);
}

static void
gst_cuda_pinned_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  /* Memories are wrapped system memories that free themselves through pinned_block_free. */
  GST_ERROR_OBJECT (allocator, "unexpected free of memory %p", memory);
}

static void
gst_cuda_pinned_allocator_dispose (GObject * object)
{
  GstCudaPinnedAllocator *self = GST_CUDA_PINNED_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cuda_pinned_allocator_parent_class)->dispose (object);
}

static void
gst_cuda_pinned_allocator_class_init (GstCudaPinnedAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->dispose = gst_cuda_pinned_allocator_dispose;
  allocator_class->alloc = gst_cuda_pinned_allocator_alloc;
  allocator_class->free = gst_cuda_pinned_allocator_free;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_pinned_allocator_debug,
      "cudapinnedallocator", 0, "Pinned host memory for cudagaussian");
}

static void
gst_cuda_pinned_allocator_init (GstCudaPinnedAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = "CudaGaussianPinned";
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cuda_pinned_allocator_new (GstCudaContext * context, gboolean pageable_fallback)
{
  GstCudaPinnedAllocator *self = GST_CUDA_PINNED_ALLOCATOR (g_object_new
      (GST_TYPE_CUDA_PINNED_ALLOCATOR, NULL));

  gst_object_ref_sink (self);
  self->context = GST_CUDA_CONTEXT (gst_object_ref (context));
  self->pageable_fallback = pageable_fallback;
  return GST_ALLOCATOR_CAST (self);
}

GstBufferPool *
gst_cuda_pinned_pool_new (GstCudaContext * context, GstCaps * caps,
    guint size, guint min_buffers, guint max_buffers, gboolean pageable_fallback)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstAllocator *allocator = gst_cuda_pinned_allocator_new (context, pageable_fallback);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_params (config, caps, size, min_buffers,
      max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);

  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
