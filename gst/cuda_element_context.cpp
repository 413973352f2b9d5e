#include "cuda_element_context.h"

#include <gst/cuda/gstcudaloader.h>
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
