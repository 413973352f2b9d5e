/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Maps a GstVideoInfo to the plain plane descriptions of kernels/frame_blur.h. */
#pragma once

#include <vector>

#include <gst/video/video.h>

#include "frame_blur.h"

/* The formats the element accepts in system memory, as a caps format list. */
#define GST_CUDA_GAUSSIAN_FORMATS                                              \
  "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, RGB, BGR, GRAY8, "        \
  "GRAY16_LE, I420, YV12, NV12, NV21, Y42B, Y444, P010_10LE, P016_LE }"

/* In memory:CUDAMemory: the same less xRGB, xBGR, GRAY8 and GRAY16_LE, which GStreamer 1.22's CUDA
 * allocator does not know (it aborts the process when asked for a pool of them). */
#define GST_CUDA_GAUSSIAN_CUDA_FORMATS                                         \
  "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, "                           \
  "I420, YV12, NV12, NV21, Y42B, Y444, P010_10LE, P016_LE }"

/* Fills one PlaneSpec per plane of @info: samples per pixel, sample size and shift, and the
 * plane's subsampling (so chroma gets a proportionally smaller sigma). Returns FALSE for a
 * layout the kernels cannot handle. */
gboolean gst_cuda_gaussian_plane_specs (const GstVideoInfo * info,
    std::vector<cudagaussian::PlaneSpec> * specs);
