/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The elements' CUDA context: acquired (or shared with neighbours) at start with a clear error
 * when there is no usable device, GPU state released inside it at stop, device buffers told
 * from host ones, and controlled properties applied before each frame. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>

/* Loads the driver library and finds or creates the element's CUDA context (shared with its
 * neighbours through the context query), then makes it current. An explicit @device_id (>= 0)
 * wins: a neighbour's context on another GPU is not taken (nor one set on the element earlier),
 * the element creates its own on @device_id instead; with -1 a neighbour's context is taken,
 * whatever its GPU. On FALSE a GST_ELEMENT_ERROR saying why has been posted (and logged in
 * @category, the element's); on TRUE the caller creates its GPU state and pops the context
 * (gst_cuda_context_pop). */
gboolean gst_cuda_filter_open_context (GstElement * element, GstDebugCategory * category,
    gint device_id, GstCudaContext ** context);

/* Runs @release (which frees GPU state) with @context current. FALSE when the context cannot be
 * made current: the state then cannot be freed safely, and the caller should say it leaks. */
template < typename Release >
gboolean
gst_cuda_filter_release_in_context (GstCudaContext * context, Release release)
{
  if (!context || !gst_cuda_context_push (context))
    return FALSE;
  release ();
  gst_cuda_context_pop (NULL);
  return TRUE;
}

/* The GPU @context runs on (its "cuda-device-id"). */
guint gst_cuda_filter_context_device (GstCudaContext * context);

/* A buffer the kernels can read or write in place: one CUDA memory of @context. */
gboolean gst_cuda_filter_is_device_buffer (GstBuffer * buffer, GstCudaContext * context);

/* The context of a buffer of one CUDA memory that is not @context's (another GPU's, or another
 * context on the same GPU); NULL otherwise. Transfer none. */
GstCudaContext *gst_cuda_filter_foreign_context (GstBuffer * buffer, GstCudaContext * context);

/* GstBaseTransform::before_transform: controlled properties take their value for this frame
 * before it is filtered (streams in time format only). */
void gst_cuda_filter_sync_values (GstBaseTransform * trans, GstBuffer * buffer);
