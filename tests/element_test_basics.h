/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every GPU element test needs: caps and video infos, random frames, padded strides,
 * pinned-memory checks, the proposed pool, and a main() that skips without a CUDA device. */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <random>
#include <string>

#include "device_memory.h"
#include "gst_check_run.h"

namespace cgt {

inline GstVideoInfo
video_info (const char *format, int width, int height)
{
  GstVideoInfo info;
  gst_video_info_set_format (&info, gst_video_format_from_string (format), width, height);
  return info;
}

inline std::string
caps_string (const char *format, int width, int height, bool cuda = false)
{
  return std::string ("video/x-raw") + (cuda ? "(memory:CUDAMemory)" : "") + ",format=" +
      format + ",width=" + std::to_string (width) + ",height=" + std::to_string (height) +
      ",framerate=30/1";
}

/* Random bytes over the whole buffer, padding included (any value is a valid sample). */
inline void
fill_bytes (guint8 * data, gsize size, unsigned seed)
{
  std::mt19937 rng (seed);
  gsize i = 0;
  for (; i + 4 <= size; i += 4) {
    const guint32 v = rng ();
    memcpy (data + i, &v, 4);
  }
  for (; i < size; i++)
    data[i] = (guint8) (rng () >> 24);
}

inline gboolean
fill_random (GstBuffer * buffer, unsigned seed)
{
  GstMapInfo map;
  if (!gst_buffer_map (buffer, &map, GST_MAP_WRITE))
    return FALSE;
  fill_bytes (map.data, map.size, seed);
  gst_buffer_unmap (buffer, &map);
  return TRUE;
}

/* A buffer whose planes have strides @extra_bytes longer than the default, described by a
 * GstVideoMeta. */
inline GstBuffer *
new_padded_buffer (const GstVideoInfo * info, int extra_bytes)
{
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize size = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + extra_bytes;
    offsets[p] = size;
    guint comp = 0;
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_INFO_COMP_PLANE (info, c) == p) {
        comp = c;
        break;
      }
    size += (gsize) strides[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  }
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offsets, strides);
  return buf;
}

/* Whether GStreamer's cudaupload is installed (nvcodec needs the NVDEC/NVENC libraries); prints
 * a skip line when it is not. */
inline bool
have_cudaupload ()
{
  GstElementFactory *up = gst_element_factory_find ("cudaupload");
  if (!up) {
    g_print ("skipped: cudaupload is not available (nvcodec needs NVDEC/NVENC libs)\n");
    return false;
  }
  gst_object_unref (up);
  return true;
}

/* Whether the buffer's memory is page-locked host memory. */
inline gboolean
is_pinned (GstBuffer * buf)
{
  GstMapInfo map;
  cudaPointerAttributes attr;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  const gboolean pinned = cudaPointerGetAttributes (&attr, map.data) == cudaSuccess
      && attr.type == cudaMemoryTypeHost;
  gst_buffer_unmap (buf, &map);
  return pinned;
}

/* The pool the element under @h proposes upstream for @caps (those of @info, in system memory),
 * active, and a buffer from it, which must be pinned. Release with release_proposed_pool(). */
struct ProposedPool
{
  GstCaps *caps = NULL;
  GstQuery *query = NULL;
  GstBufferPool *pool = NULL;
  GstBuffer *buffer = NULL;
};

inline ProposedPool
acquire_from_proposed_pool (GstHarness * h, const GstVideoInfo & info, const std::string & caps)
{
  ProposedPool p;
  p.caps = gst_caps_from_string (caps.c_str ());
  p.query = gst_query_new_allocation (p.caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, p.query));
  fail_unless (gst_query_get_n_allocation_pools (p.query) > 0, "no pool proposed");
  guint size = 0;
  gst_query_parse_nth_allocation_pool (p.query, 0, &p.pool, &size, NULL, NULL);
  fail_unless (p.pool != NULL);
  fail_unless (size >= GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_buffer_pool_set_active (p.pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (p.pool, &p.buffer, NULL), GST_FLOW_OK);
  fail_unless (is_pinned (p.buffer), "proposed pool does not give pinned memory");
  return p;
}

inline void
release_proposed_pool (ProposedPool & p)
{
  gst_buffer_pool_set_active (p.pool, FALSE);
  gst_object_unref (p.pool);
  gst_query_unref (p.query);
  gst_caps_unref (p.caps);
}

/* main() of a GPU element test: the suite (gst_check_run.h), or a visible skip (exit 77) without
 * a CUDA device. The suite's name and file are not used (they were gst_check_run_suite's). */
inline int
run_gpu_suite (int argc, char **argv, Suite * (*make_suite) (void), const char * /* name */,
    const char * /* file */)
{
  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library () || cudagaussian::cuda_device_count () == 0) {
    return skip_program ("no CUDA device");
  }
  return run_suite (make_suite ());
}

}  // namespace cgt
