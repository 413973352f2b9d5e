#include "cuda_element_context.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

gboolean
gst_cuda_element_open (GstElement * element, gint device_id,
    GstCudaContext ** context)
{
  if (!gst_cuda_load_library ()) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No CUDA device is available: the NVIDIA driver library (libcuda.so.1) "
            "could not be loaded."),
        ("Install the NVIDIA driver, or check that libcuda.so.1 is on the "
            "library path."));
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (element, device_id, context)) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No CUDA device is available (cuda-device-id=%d).", device_id),
        ("Could not create a CUDA context; check that an NVIDIA GPU is present "
            "and that cuda-device-id names one of them."));
    return FALSE;
  }
  if (!gst_cuda_context_push (*context)) {
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_element_is_device_buffer (GstBuffer * buffer, GstCudaContext * context)
{
  if (gst_buffer_n_memory (buffer) != 1)
    return FALSE;
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);
  return gst_is_cuda_memory (mem) &&
      GST_CUDA_MEMORY_CAST (mem)->context == context;
}

void
gst_cuda_element_sync_values (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));

  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}
