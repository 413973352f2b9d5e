// SPDX-License-Identifier: LGPL-2.1-or-later
// Frames pushed through appsrc by bench_pipeline and soak: a few pre-filled buffers re-sent over
// and over, each push a new buffer sharing their memory, with PTS index x pts_step.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

// A new buffer sharing the memories and video meta of @tmpl, with PTS @index x @pts_step.
inline GstBuffer* wrap_for_push(GstBuffer* tmpl, guint64 index, GstClockTime pts_step) {
  GstBuffer* buf = gst_buffer_new();
  for (guint i = 0; i < gst_buffer_n_memory(tmpl); ++i)
    gst_buffer_append_memory(buf, gst_memory_ref(gst_buffer_peek_memory(tmpl, i)));
  if (GstVideoMeta* m = gst_buffer_get_video_meta(tmpl))
    gst_buffer_add_video_meta_full(buf, m->flags, m->format, m->width, m->height, m->n_planes,
                                   m->offset, m->stride);
  GST_BUFFER_PTS(buf) = index * pts_step;
  GST_BUFFER_DURATION(buf) = pts_step;
  return buf;
}
