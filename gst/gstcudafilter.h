/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCudaFilter: the abstract base of the plugin's elements. It owns what every CUDA video filter
 * of the plugin needs, so that each element holds for all of them at once:
 *
 *   - the GPU: cuda-device-id, the CUDA context (shared with neighbours), start and stop;
 *   - frames in flight (frames-in-flight): uploads, work and downloads of consecutive frames
 *     overlap, frames come out once each and in order, DRAIN/EOS/FLUSH/caps changes handled;
 *   - queries: context, latency (the frames in flight), drain, allocation (pinned and CUDA
 *     pools, the input buffers held announced as min_buffers);
 *   - input checks: caps before buffers, interlaced layouts, every plane inside its memory;
 *   - errors: every failure posted on the bus with a message that says what failed.
 *
 * A subclass supplies its pad templates, caps handling (transform_caps/fixate_caps where the
 * format changes), its properties, and three functions: configure (the planes of negotiated
 * caps), snapshot (its settings for one frame) and new_operation (the GPU work, FrameOperation,
 * one per compute lane). */
#pragma once

#include <memory>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "frame_operation.h"
#include "frame_queue.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FILTER (gst_cuda_filter_get_type ())
#define GST_CUDA_FILTER(obj) \
  (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_CUDA_FILTER, GstCudaFilter))
#define GST_CUDA_FILTER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_CUDA_FILTER, GstCudaFilterClass))
#define GST_CUDA_FILTER_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_CUDA_FILTER, GstCudaFilterClass))

typedef struct _GstCudaFilter GstCudaFilter;
typedef struct _GstCudaFilterClass GstCudaFilterClass;
GType gst_cuda_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCudaFilter, gst_object_unref)

struct _GstCudaFilterClass
{
  GstBaseTransformClass parent_class;

  /* The subclass's debug category: the base and its helpers log there. */
  GstDebugCategory *category;

  /* The planes of each side for negotiated caps (and the element's own state for them); FALSE
   * for caps the element cannot filter (logged). Called with the queue empty. */
  gboolean (*configure) (GstCudaFilter * self, const GstVideoInfo * in, const GstVideoInfo * out,
      FrameLayout * layout);
  /* The settings of @input's frame, from the properties (and the buffer's metas); once per
   * frame. NULL after posting an error (the frame is dropped and the flow stops). */
  FrameSettingsPtr (*snapshot) (GstCudaFilter * self, GstBuffer * input);
  /* The GPU work of a compute lane for the configured caps. */
  std::unique_ptr < FrameOperation > (*new_operation) (GstCudaFilter * self);
};

struct _GstCudaFilter
{
  GstBaseTransform parent;

  /* properties, under the object lock */
  gint device_id;
  guint frames_in_flight;

  /* streaming state */
  GstCudaContext *context;
  FrameQueue *queue;            /* created in start(), deleted in stop(), context pushed */
  GstVideoInfo in_info;
  guint depth;                  /* frames in flight for the current caps */
  gboolean negotiated;
  gboolean pool_active;         /* the decided output pool has been activated */
};

G_END_DECLS
