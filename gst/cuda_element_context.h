/* What both elements share around their CUDA context: acquire (or share) it at start with a
 * clear error when there is no usable device, release GPU state inside it at stop, tell device
 * buffers from host ones, and apply controlled properties before each frame. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>

/* Loads the driver library and finds or creates the element's CUDA context (shared with its
 * neighbours through the context query), then makes it current. On FALSE a GST_ELEMENT_ERROR
 * saying why has been posted; on TRUE the caller creates its GPU state and pops the context
 * (gst_cuda_context_pop). */
gboolean gst_cuda_element_open (GstElement * element, gint device_id,
    GstCudaContext ** context);

/* Runs @release (which frees GPU state) with @context current. FALSE when the context cannot be
 * made current: the state then cannot be freed safely, and the caller should say it leaks. */
template < typename Release >
gboolean
gst_cuda_element_release_in_context (GstCudaContext * context, Release release)
{
  if (!context || !gst_cuda_context_push (context))
    return FALSE;
  release ();
  gst_cuda_context_pop (NULL);
  return TRUE;
}

/* A buffer the kernels can read or write in place: one CUDA memory of @context. */
gboolean gst_cuda_element_is_device_buffer (GstBuffer * buffer, GstCudaContext * context);

/* GstBaseTransform::before_transform: controlled properties take their value for this frame
 * before it is filtered. */
void gst_cuda_element_sync_values (GstBaseTransform * trans, GstBuffer * buffer);
