/* Pageable input made pinned: system memories that come back (from an upstream pool) are
 * page-locked with cudaHostRegister, so their uploads become asynchronous DMA instead of the
 * driver's synchronous staged copy. A memory is registered the second time it is seen (a
 * memory seen once may never return, and registering costs about as much as one staged copy),
 * and unregistered when GStreamer frees it. */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

/* With @context pushed. Failures only mean the copy stays a staged one. */
void gst_cuda_gaussian_register_reused_memory (GstCudaContext * context,
    GstBuffer * buffer);

G_END_DECLS
