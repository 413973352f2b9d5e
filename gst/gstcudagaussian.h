/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian: Gaussian blur of raw video on NVIDIA GPUs. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

#include "gaussian_enums.h"
#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GAUSSIAN (gst_cuda_gaussian_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGaussian, gst_cuda_gaussian, GST, CUDA_GAUSSIAN, GstCudaFilter);

GST_ELEMENT_REGISTER_DECLARE (cudagaussian);

G_END_DECLS
