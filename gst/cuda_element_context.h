/* The CUDA context life cycle both elements share: acquire (or share) it at start with a clear
 * error when there is no usable device, and release GPU state inside it at stop. */
#pragma once

#include <gst/gst.h>
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
