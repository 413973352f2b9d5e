/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Maps a video frame for the GPU and checks that every plane the kernels will touch lies inside
 * the memory that holds it, in system and in CUDA memory alike. */
#pragma once

#include <vector>

#include <gst/video/video.h>

#include "plane.h"

enum class FrameMapResult { Mapped, MapFailed, TooSmall };

/* Maps @buffer as @info (GST_MAP_CUDA added for a CUDA memory when @device). On anything but
 * Mapped, @frame is left unmapped. */
FrameMapResult map_video_frame (GstVideoFrame * frame, const GstVideoInfo * info,
    GstBuffer * buffer, const std::vector < cudagaussian::PlaneGeometry > &planes,
    gboolean device, GstMapFlags flags);
