/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "cuda_allocation.h"
#include "cuda_context.h"
#include "cuda_status.h"

#define GST_CAT_DEFAULT (GST_CUDA_FILTER_GET_CLASS (self)->category)

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
};

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_FRAMES_IN_FLIGHT 0
#define MAX_FRAMES_IN_FLIGHT 16
/* What frames-in-flight=0 (auto) means: minimal latency for live sources, overlap otherwise, and
 * for frames in CUDA memory of at most half a Full HD frame's pixels enough for batches of two
 * (frame_queue.h). */
#define AUTO_FRAMES_LIVE 1
#define AUTO_FRAMES_NOT_LIVE 3
#define AUTO_FRAMES_NOT_LIVE_SMALL_CUDA (2 * FrameQueue::kDepthPerBatchFrame)
#define AUTO_SMALL_CUDA_PIXELS (FrameQueue::kBatchPixels / 2)

#define gst_cuda_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaFilter, gst_cuda_filter, GST_TYPE_BASE_TRANSFORM);

static GstDebugCategory *
category_of (GstCudaFilter * self)
{
  return GST_CUDA_FILTER_GET_CLASS (self)->category;
}

/* ---------------------------------------------------------------- properties */

static void
gst_cuda_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->frames_in_flight);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---------------------------------------------------------------- context, start, stop */

static void
gst_cuda_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaFilter *self = GST_CUDA_FILTER (element);

  /* An explicit cuda-device-id refuses a context of another GPU (gst_cuda_handle_set_context). */
  GST_OBJECT_LOCK (self);
  const gint device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_handle_set_context (element, context, device_id, &self->context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static void
gst_cuda_filter_free_queue (GstCudaFilter * self)
{
  if (!self->queue)
    return;
  if (!gst_cuda_filter_release_in_context (self->context, [self] { delete self->queue; }))
    GST_ERROR_OBJECT (self, "could not push CUDA context; leaking GPU state");
  self->queue = NULL;
}

static gboolean
gst_cuda_filter_start (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  GST_OBJECT_LOCK (self);
  const gint device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  if (!gst_cuda_filter_open_context (GST_ELEMENT (self), category_of (self), device_id,
          &self->context))
    return FALSE;
  self->queue = new FrameQueue (GST_ELEMENT (self), category_of (self), self->context);
  const gboolean ok = self->queue->init ();
  gst_cuda_context_pop (NULL);
  if (!ok) {
    gst_cuda_filter_free_queue (self);
    return FALSE;
  }
  self->negotiated = FALSE;
  return TRUE;
}

static gboolean
gst_cuda_filter_stop (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  gst_cuda_filter_free_queue (self);
  gst_clear_object (&self->context);
  self->negotiated = FALSE;
  return TRUE;
}

/* ---------------------------------------------------------------- caps */

/* Frames in flight: as set, or by whether upstream is live and what the frames are. */
static guint
gst_cuda_filter_choose_depth (GstCudaFilter * self, const FrameLayout & layout)
{
  GST_OBJECT_LOCK (self);
  guint depth = self->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  if (depth > 0)
    return depth;
  GstQuery *latency = gst_query_new_latency ();
  gboolean live = FALSE;
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), latency))
    gst_query_parse_latency (latency, &live, NULL, NULL);
  gst_query_unref (latency);
  const gboolean small_cuda = layout.in_cuda && (guint64) GST_VIDEO_INFO_WIDTH (&layout.in_info) *
      GST_VIDEO_INFO_HEIGHT (&layout.in_info) <= AUTO_SMALL_CUDA_PIXELS;
  return live ? AUTO_FRAMES_LIVE : small_cuda ? AUTO_FRAMES_NOT_LIVE_SMALL_CUDA :
      AUTO_FRAMES_NOT_LIVE;
}

static gboolean
gst_cuda_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterClass *klass = GST_CUDA_FILTER_GET_CLASS (self);
  FrameLayout layout;

  self->negotiated = FALSE;
  if (!self->queue) {
    GST_ERROR_OBJECT (self, "no CUDA state: was start() successful?");
    return FALSE;
  }
  if (!gst_video_info_from_caps (&layout.in_info, incaps) ||
      !gst_video_info_from_caps (&layout.out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "not raw video caps: %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
        incaps, outcaps);
    return FALSE;
  }
  const GstVideoInterlaceMode mode = GST_VIDEO_INFO_INTERLACE_MODE (&layout.in_info);
  if (mode == GST_VIDEO_INTERLACE_MODE_INTERLEAVED || mode == GST_VIDEO_INTERLACE_MODE_MIXED) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Interlaced video with both fields in one buffer (interlace-mode=%s) is not "
            "supported: filtering across fields would mix them.",
            gst_video_interlace_mode_to_string (mode)),
        ("Deinterlace first (deinterlace), or send one field per buffer "
            "(interlace-mode=alternate)."));
    return FALSE;
  }
  layout.in_cuda = gst_cuda_filter_caps_have_cuda_memory (incaps);
  if (!klass->configure (self, &layout.in_info, &layout.out_info, &layout)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Unsupported caps."),
        ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  const guint depth = gst_cuda_filter_choose_depth (self, layout);

  /* New geometry: frames of the old caps were drained by the CAPS event. */
  if (!gst_cuda_context_push (self->context))
    return FALSE;
  self->queue->drop_all ();
  self->queue->configure (layout, depth,[self, klass] {
        return klass->new_operation (self);
      });
  gst_cuda_context_pop (NULL);

  const gboolean depth_changed = depth != self->depth;
  self->depth = depth;
  self->in_info = layout.in_info;
  self->negotiated = TRUE;
  GST_DEBUG_OBJECT (self, "%u frame(s) in flight", depth);
  if (depth_changed)
    gst_element_post_message (GST_ELEMENT (self), gst_message_new_latency (GST_OBJECT (self)));
  return TRUE;
}

/* ---------------------------------------------------------------- streaming */

/* Pushes every frame in flight downstream, oldest first (before a serialized event or a DRAIN
 * query, so that events and buffers keep their order, and at EOS). */
static GstFlowReturn
gst_cuda_filter_drain (GstCudaFilter * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  if (!self->queue || self->queue->pending () == 0)
    return GST_FLOW_OK;
  if (!gst_cuda_context_push (self->context))
    return GST_FLOW_ERROR;
  while (self->queue->pending () > 0) {
    GstBuffer *buf = NULL;
    GstFlowReturn r = self->queue->finish_oldest (&buf);
    if (r == GST_FLOW_OK && ret == GST_FLOW_OK && buf)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);
    else
      gst_clear_buffer (&buf);
    if (r != GST_FLOW_OK)
      ret = r;
  }
  gst_cuda_context_pop (NULL);
  return ret;
}

static gboolean
gst_cuda_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    if (self->queue && gst_cuda_context_push (self->context)) {
      self->queue->drop_all ();
      gst_cuda_context_pop (NULL);
    }
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    gst_cuda_filter_drain (self);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* An output buffer from the negotiated pool, with the input's metadata; a failure is posted as
 * this element's error, saying which memory could not be had. */
static GstFlowReturn
gst_cuda_filter_acquire_output (GstCudaFilter * self, GstBuffer * input, GstBuffer ** output)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  /* The pool is activated here, once after each allocation decision, so that a pool that
   * cannot allocate is reported as such. */
  if (!self->pool_active) {
    GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);
    self->pool_active = pool && (gst_buffer_pool_is_active (pool) ||
        gst_buffer_pool_set_active (pool, TRUE));
    gst_clear_object (&pool);
  }
  const gboolean ready = self->pool_active;

  GstFlowReturn ret = GST_FLOW_ERROR;
  if (ready && !cudagaussian::fault_injected ("pool"))
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans, input, output);
  if (ret == GST_FLOW_OK && *output)
    return GST_FLOW_OK;
  gst_clear_buffer (output);
  if (ret == GST_FLOW_FLUSHING || GST_PAD_IS_FLUSHING (GST_BASE_TRANSFORM_SRC_PAD (self)))
    return GST_FLOW_FLUSHING;
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (self));
  const gboolean cuda = caps && gst_cuda_filter_caps_have_cuda_memory (caps);
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Could not allocate an output frame for the GPU's results (%s memory).",
          cuda ? "CUDA" : "pinned host"),
      ("the output buffer pool %s (%s); caps %" GST_PTR_FORMAT,
          ready ? "gave no buffer" : "could not be activated",
          cudagaussian::fault_injected ("pool") ? "injected fault" : gst_flow_get_name (ret),
          caps));
  gst_clear_caps (&caps);
  return GST_FLOW_ERROR;
}

/* Starts a frame: the element's settings are read once for it; its output buffer and GPU work
 * are queued, or it passes through untouched. generate_output hands frames out in order. */
static GstFlowReturn
gst_cuda_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont G_GNUC_UNUSED,
    GstBuffer * input)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  if (!self->queue) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Element is not started."), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* What the default submit does first: renegotiate and pick a pool if downstream asked. */
  if (!gst_base_transform_reconfigure (trans)) {
    gst_buffer_unref (input);
    return GST_PAD_IS_FLUSHING (GST_BASE_TRANSFORM_SRC_PAD (trans)) ?
        GST_FLOW_FLUSHING : GST_FLOW_NOT_NEGOTIATED;
  }
  if (!self->negotiated) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("A buffer came before its caps: the element cannot tell the frames' format."),
        ("Give the source caps (for appsrc: its caps property)."));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  const FrameSettingsPtr settings = GST_CUDA_FILTER_GET_CLASS (self)->snapshot (self, input);
  if (!settings) {
    gst_buffer_unref (input);
    return GST_FLOW_ERROR;
  }
  GstBuffer *output = NULL;
  if (!settings->passes_through ()) {
    GstFlowReturn ret = gst_cuda_filter_acquire_output (self, input, &output);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (input);
      return ret;
    }
  }
  if (!gst_cuda_context_push (self->context)) {
    gst_buffer_unref (input);
    gst_clear_buffer (&output);
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("Could not make the CUDA context current."),
        (NULL));
    return GST_FLOW_ERROR;
  }
  const GstFlowReturn ret = self->queue->launch (input, output, settings);
  gst_cuda_context_pop (NULL);
  return ret;
}

static GstFlowReturn
gst_cuda_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  *outbuf = NULL;
  if (!self->queue || !self->queue->oldest_ready ())
    return GST_FLOW_OK;
  if (!gst_cuda_context_push (self->context))
    return GST_FLOW_ERROR;
  GstFlowReturn ret = self->queue->finish_oldest (outbuf);
  gst_cuda_context_pop (NULL);
  return ret;
}

/* Never called: submit_input_buffer and generate_output replace the base class's path. Without
 * a transform vfunc GstBaseTransform would treat the element as in-place and not allocate
 * output buffers from the negotiated pool. */
static GstFlowReturn
gst_cuda_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf G_GNUC_UNUSED,
    GstBuffer * outbuf G_GNUC_UNUSED)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED,
      ("Internal error: unexpected synchronous transform."), (NULL));
  return GST_FLOW_NOT_SUPPORTED;
}

/* ---------------------------------------------------------------- queries and allocation */

/* Frames in flight add (depth - 1) frame durations of latency. */
static gboolean
gst_cuda_filter_latency_query (GstCudaFilter * self, GstQuery * query)
{
  if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    return FALSE;
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (query, &live, &min, &max);
  const gint fps_n = GST_VIDEO_INFO_FPS_N (&self->in_info);
  const gint fps_d = GST_VIDEO_INFO_FPS_D (&self->in_info);
  if (self->depth > 1 && fps_n > 0 && fps_d > 0) {
    const GstClockTime extra = gst_util_uint64_scale (GST_SECOND,
        (guint64) fps_d * (self->depth - 1), fps_n);
    min += extra;
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += extra;
  }
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

static gboolean
gst_cuda_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gst_cuda_handle_context_query (GST_ELEMENT (self), query, self->context))
        return TRUE;
      break;
    case GST_QUERY_LATENCY:
      if (direction == GST_PAD_SRC)
        return gst_cuda_filter_latency_query (self, query);
      break;
    case GST_QUERY_DRAIN:
      /* Upstream (a decoder) frees or reuses its buffers once this returns. */
      if (direction == GST_PAD_SINK)
        gst_cuda_filter_drain (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

static gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans, decide_query, query))
    return FALSE;
  return gst_cuda_filter_propose_pool (GST_ELEMENT (self), category_of (self), self->context,
      query, MAX (self->depth, 1u));
}

/* Output buffers: for CUDA memory a downstream CUDA pool of our context or a new one; for
 * system memory always our pinned pool, so the download is DMA. */
static gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  self->pool_active = FALSE;
  return gst_cuda_filter_decide_pool (GST_ELEMENT (self), category_of (self), self->context,
      query, MAX (self->depth, 1u));
}

/* Metadata that describes the picture's content (regions of interest, orientation, size) stays
 * true of a filtered picture of the same size: it is copied to the output, as video filters
 * do. Other metadata follows the base class's rule. */
static gboolean
gst_cuda_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf, GstMeta * meta,
    GstBuffer * inbuf)
{
  static const gchar *const picture_tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR, NULL
  };
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);
  gboolean picture_only = TRUE;

  for (; tags && *tags && picture_only; ++tags)
    picture_only = g_strv_contains (picture_tags, *tags);
  if (picture_only)
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans, outbuf, meta, inbuf);
}

/* ---------------------------------------------------------------- GObject */

static void
gst_cuda_filter_finalize (GObject * object)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  gst_cuda_filter_free_queue (self);
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static gboolean
gst_cuda_filter_get_unit_size (GstBaseTransform * trans G_GNUC_UNUSED, GstCaps * caps,
    gsize * size)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

static void
gst_cuda_filter_class_init (GstCudaFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_filter_set_property;
  gobject_class->get_property = gst_cuda_filter_get_property;
  gobject_class->finalize = gst_cuda_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "The GPU to use, counted from 0 (-1 = the GPU of a context shared by neighbouring "
          "CUDA elements, else the first; an explicit id never takes a neighbour's context "
          "of another GPU)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          (GParamFlags) (G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
              G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames on the GPU at once, so that uploads, filtering and downloads of "
          "consecutive frames overlap (each adds a frame of latency); 0 = auto: 1 for live "
          "sources, 8 for frames in CUDA memory of at most half a Full HD frame, else 3",
          0, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          (GParamFlags) (G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
              G_PARAM_STATIC_STRINGS)));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_caps);
  trans_class->get_unit_size = GST_DEBUG_FUNCPTR (gst_cuda_filter_get_unit_size);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_query);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);
  trans_class->before_transform = GST_DEBUG_FUNCPTR (gst_cuda_filter_sync_values);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_filter_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_filter_sink_event);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR (gst_cuda_filter_submit_input_buffer);
  trans_class->transform_meta = GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_meta);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cuda_filter_generate_output);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER, (GstPluginAPIFlags) 0);
}

static void
gst_cuda_filter_init (GstCudaFilter * self)
{
  self->device_id = DEFAULT_DEVICE_ID;
  self->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  self->depth = 1;
  gst_video_info_init (&self->in_info);
}
