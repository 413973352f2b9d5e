/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cudagaussian plugin: registers its elements. Registration needs no GPU or driver; an
 * element without one fails at start with a message that says so. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/cuda/gstcudamemory.h>

#include "gstcudagaussian.h"
#include "gstcudasobel.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  /* Makes the CUDA memory and caps feature known even if nvcodec is not loaded yet. */
  gst_cuda_memory_init_once ();
  if (!GST_ELEMENT_REGISTER (cudasobel, plugin)) return FALSE;
  return GST_ELEMENT_REGISTER (cudagaussian, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudagaussian,
    "Gaussian blur on NVIDIA GPUs", plugin_init, PACKAGE_VERSION, "LGPL",
    PACKAGE_NAME, PACKAGE_ORIGIN)
