/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudasobel: Sobel edge detection of raw video on NVIDIA GPUs (same plugin as cudagaussian). */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SOBEL (gst_cuda_sobel_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSobel, gst_cuda_sobel, GST, CUDA_SOBEL, GstCudaFilter);

#define GST_TYPE_CUDA_SOBEL_OUTPUT (gst_cuda_sobel_output_get_type ())
GType gst_cuda_sobel_output_get_type (void);

/* What cudasobel reads and writes, as caps format lists. */
#define GST_CUDA_SOBEL_IN_FORMATS \
  "{ GRAY8, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, RGB, BGR }"
#define GST_CUDA_SOBEL_OUT_FORMATS "{ GRAY8, GRAY16_LE }"
/* Input in CUDA memory: the formats GStreamer 1.22's CUDA allocator knows (not GRAY8, xRGB, xBGR:
 * it aborts the process when asked for a pool of them). */
#define GST_CUDA_SOBEL_CUDA_IN_FORMATS "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"

GST_ELEMENT_REGISTER_DECLARE (cudasobel);

G_END_DECLS
