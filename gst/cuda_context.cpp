/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cuda_context.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

/* Devices the driver sees; -1 when it cannot tell. */
static int
cuda_device_count (void)
{
  int count = 0;
  if (CuInit (0) != CUDA_SUCCESS || CuDeviceGetCount (&count) != CUDA_SUCCESS)
    return -1;
  return count;
}

/* Errors below are logged (by GST_ELEMENT_ERROR) in the element's own category. */
#define GST_CAT_DEFAULT category

gboolean
gst_cuda_filter_open_context (GstElement * element, GstDebugCategory * category,
    gint device_id, GstCudaContext ** context)
{
  if (!gst_cuda_load_library ()) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No CUDA device is available: the NVIDIA driver library (libcuda.so.1) "
            "could not be loaded."),
        ("Install the NVIDIA driver, or check that libcuda.so.1 is on the "
            "library path."));
    return FALSE;
  }
  const int devices = cuda_device_count ();
  /* A context set on the element before (by the application, or by a neighbour while the
   * property said -1) that is on another GPU than the one now asked for. */
  if (*context && device_id >= 0 &&
      gst_cuda_filter_context_device (*context) != (guint) device_id) {
    GST_INFO_OBJECT (element, "not using the CUDA context of GPU %u: cuda-device-id=%d",
        gst_cuda_filter_context_device (*context), device_id);
    gst_clear_object (context);
  }
  if (device_id >= 0 && devices >= 0 && device_id >= devices && !*context) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("There is no CUDA device with id %d; this machine has %d.", device_id, devices),
        ("cuda-device-id counts from 0; -1 takes any device."));
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (element, device_id, context)) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No CUDA device is available (cuda-device-id=%d, %d device(s) found).", device_id,
            MAX (devices, 0)),
        ("Could not create a CUDA context; check that an NVIDIA GPU is present "
            "and that its driver works (nvidia-smi)."));
    return FALSE;
  }
  GST_INFO_OBJECT (element, "running on GPU %u (CUDA context %" GST_PTR_FORMAT ")",
      gst_cuda_filter_context_device (*context), *context);
  if (!gst_cuda_context_push (*context)) {
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return FALSE;
  }
  return TRUE;
}

guint
gst_cuda_filter_context_device (GstCudaContext * context)
{
  guint device = 0;
  g_object_get (context, "cuda-device-id", &device, NULL);
  return device;
}

gboolean
gst_cuda_filter_is_device_buffer (GstBuffer * buffer, GstCudaContext * context)
{
  if (gst_buffer_n_memory (buffer) != 1)
    return FALSE;
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);
  return gst_is_cuda_memory (mem) &&
      GST_CUDA_MEMORY_CAST (mem)->context == context;
}

GstCudaContext *
gst_cuda_filter_foreign_context (GstBuffer * buffer, GstCudaContext * context)
{
  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);
  if (!gst_is_cuda_memory (mem) || GST_CUDA_MEMORY_CAST (mem)->context == context)
    return NULL;
  return GST_CUDA_MEMORY_CAST (mem)->context;
}

void
gst_cuda_filter_sync_values (GstBaseTransform * trans, GstBuffer * buffer)
{
  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));

  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}
