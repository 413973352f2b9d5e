/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pageable input made pinned: system memories that come back (from an upstream pool) are
 * page-locked with cudaHostRegister, so their uploads become asynchronous DMA instead of the
 * driver's synchronous staged copy. A memory is registered the second time it is seen (a
 * memory seen once may never return, and registering costs about as much as one staged copy),
 * and unregistered when GStreamer frees it. Elements that see the same memory at once (behind a
 * tee) register it once between them. */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

/* With @context pushed. Failures only mean the copy stays a staged one (logged in @category,
 * the element's). */
void gst_cuda_filter_register_host_memory (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context, GstBuffer * buffer);
