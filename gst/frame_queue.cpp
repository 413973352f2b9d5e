#include "frame_queue.h"

#include <gst/cuda/gstcudamemory.h>

#include "cuda_element_context.h"
#include "host_registration.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_gaussian_debug);
#define GST_CAT_DEFAULT gst_cuda_gaussian_debug

namespace cg = cudagaussian;

/* A 4K frame: the most pixels the compute lanes' scratch holds together. */
static const guint64 kLanePixels = 3840 * 2160;

FrameQueue::FrameQueue (GstElement * element, GstCudaContext * context)
:  element_ (element), context_ (GST_CUDA_CONTEXT (gst_object_ref (context)))
{
  gst_video_info_init (&info_);
}

FrameQueue::~FrameQueue ()
{
  drop_all ();
  gst_object_unref (context_);
}

GstFlowReturn
FrameQueue::fail (const char *text, const cg::Status & st)
{
  if (st.cuda == cudaSuccess)
    GST_ELEMENT_ERROR (element_, LIBRARY, SETTINGS, ("%s: %s", text,
            st.message.c_str ()), (NULL));
  else
    GST_ELEMENT_ERROR (element_, LIBRARY, FAILED, ("%s", text), ("%s",
            st.message.c_str ()));
  return GST_FLOW_ERROR;
}

gboolean
FrameQueue::init ()
{
  cg::Status st = upload_.create ();
  if (st.ok ())
    st = download_.create ();
  if (!st.ok ()) {
    fail ("Could not create CUDA streams.", st);
    return FALSE;
  }
  return TRUE;
}

void
FrameQueue::configure (const GstVideoInfo & info,
    const std::vector < cg::PlaneSpec > &planes, guint depth)
{
  g_assert (jobs_.empty ());
  info_ = info;
  planes_ = planes;
  depth_ = MAX (depth, 1u);
  /* See the top of frame_queue.h: at most a 4K frame's pixels in the lanes' scratch. */
  const guint64 pixels = MAX ((guint64) GST_VIDEO_INFO_WIDTH (&info) *
      GST_VIDEO_INFO_HEIGHT (&info), 1);
  const guint by_size = (guint) MAX (kLanePixels / pixels, 1);
  /* See the top of frame_queue.h: at most depth / 4 frames and a Full HD frame's pixels. */
  batch_ = (guint) CLAMP (MIN ((guint64) depth_ / kDepthPerBatchFrame, kBatchPixels / pixels),
      1, (guint64) cg::kMaxBatchFrames);
  const guint batches = (depth_ + batch_ - 1) / batch_;
  lanes_.clear ();
  while (lanes_.size () < MIN (batches, by_size))
    lanes_.emplace_back ();
  slots_.clear ();
  slots_.resize (depth_);
  next_slot_ = 0;
  next_lane_ = 0;
  waiting_ = 0;
  GST_DEBUG_OBJECT (element_, "%u compute lane(s), batches of up to %u frame(s)",
      (guint) lanes_.size (), batch_);
}

void
FrameQueue::synchronize_all ()
{
  for (Lane & lane:lanes_)
    if (lane.stream.get ())
      lane.stream.synchronize ();
  upload_.synchronize ();
  download_.synchronize ();
}

/* Parameters change between frames, never inside one: frames already queued keep the plan
 * they were launched with, because a lane's stream finishes them before its plan changes. */
GstFlowReturn
FrameQueue::ensure_plan (Lane & lane, const cg::BlurSettings & settings)
{
  if (lane.blur.planned () && lane.blur.settings () == settings)
    return GST_FLOW_OK;
  cg::Status st;
  if (!lane.stream.get ())
    st = lane.stream.create ();
  if (!st.ok ())
    return fail ("Could not create CUDA streams.", st);
  st = lane.stream.synchronize ();
  if (st.ok ())
    st = lane.blur.plan (settings, planes_);
  if (!st.ok ())
    return fail (st.cuda == cudaSuccess ? "Invalid blur settings" :
        "Could not prepare the blur on the GPU.", st);
  if (&lane == &lanes_[0])
    GST_INFO_OBJECT (element_, "sigma %g x %g: %s", settings.sigma_x,
        settings.sigma_y, cg::algorithm_name (lane.blur.chosen ()));
  return GST_FLOW_OK;
}

GstFlowReturn
FrameQueue::ensure_slot (Slot & slot, gboolean in_device, gboolean out_device)
{
  cg::Status st;
  auto allocate =[&](std::vector < cg::DevicePlane > &planes) {
    if (!planes.empty () || !st.ok ())
      return;
    planes.resize (planes_.size ());
    for (size_t i = 0; i < planes_.size () && st.ok (); i++)
      st = planes[i].allocate (planes_[i].geometry.row_bytes (),
          planes_[i].geometry.height);
    if (!st.ok ())
      planes.clear ();
  };
  if (!in_device)
    allocate (slot.in);
  if (!out_device)
    allocate (slot.out);
  /* A slot's events live as long as the slot (configure() replaces the slots): created on
   * its first frame, then only re-recorded. */
  for (cg::CudaEvent * event : {&slot.uploaded, &slot.computed, &slot.done})
    if (st.ok () && !event->created ())
      st = event->create ();
  if (!st.ok ())
    return fail ("Could not allocate GPU buffers for a frame.", st);
  return GST_FLOW_OK;
}

/* Starts copying a system-memory input into its slot's staging planes. */
GstFlowReturn
FrameQueue::upload (const Job & job)
{
  if (job.in_device)
    return GST_FLOW_OK;
  const Slot & slot = slots_[job.slot];
  cg::Status st;
  for (size_t i = 0; i < planes_.size () && st.ok (); i++) {
    const cg::PlaneGeometry & g = planes_[i].geometry;
    st = cg::copy_2d_async (slot.in[i].get (), slot.in[i].pitch (),
        GST_VIDEO_FRAME_PLANE_DATA (&job.in_frame, i),
        GST_VIDEO_FRAME_PLANE_STRIDE (&job.in_frame, i), g.row_bytes (), g.height,
        upload_.get ());
  }
  if (st.ok ())
    st = slot.uploaded.record (upload_.get ());
  if (!st.ok ())
    return fail ("Copying the frame to the GPU failed.", st);
  return GST_FLOW_OK;
}

/* Blurs the waiting jobs in one batch on @lane, then queues their downloads; the last job's
 * `done` event marks them all finished. */
GstFlowReturn
FrameQueue::enqueue_waiting (Lane & lane)
{
  cudaStream_t compute = lane.stream.get ();
  const size_t n = planes_.size ();
  const size_t first = jobs_.size () - waiting_;
  std::vector < std::vector < cg::DevicePlaneRef >> &src = batch_src_;
  std::vector < std::vector < cg::MutableDevicePlaneRef >> &dst = batch_dst_;
  src.resize (waiting_);
  dst.resize (waiting_);
  gboolean download = FALSE;
  cg::Status st;

  for (guint k = 0; k < waiting_ && st.ok (); k++) {
    const Job & job = jobs_[first + k];
    const Slot & slot = slots_[job.slot];
    src[k].resize (n);
    dst[k].resize (n);
    for (size_t i = 0; i < n; i++) {
      if (job.in_device)
        src[k][i] = { GST_VIDEO_FRAME_PLANE_DATA (&job.in_frame, i),
          (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&job.in_frame, i) };
      else
        src[k][i] = { slot.in[i].get (), slot.in[i].pitch () };
      if (job.out_device)
        dst[k][i] = { GST_VIDEO_FRAME_PLANE_DATA (&job.out_frame, i),
          (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&job.out_frame, i) };
      else
        dst[k][i] = { slot.out[i].get (), slot.out[i].pitch () };
    }
    if (!job.in_device)
      st = slot.uploaded.make_wait (compute);
    download |= !job.out_device;
  }
  if (st.ok ())
    st = lane.blur.run_batch (src, dst, compute);
  if (st.ok ())
    st = cg::launch_check ();   /* also where the test-only "launch" fault fires */
  const guint last = jobs_.back ().slot;
  Slot & marker = slots_[last];
  if (st.ok () && !download)
    st = marker.done.record (compute);
  if (st.ok () && download) {
    st = marker.computed.record (compute);
    if (st.ok ())
      st = marker.computed.make_wait (download_.get ());
    for (guint k = 0; k < waiting_ && st.ok (); k++) {
      const Job & job = jobs_[first + k];
      for (size_t i = 0; i < n && !job.out_device && st.ok (); i++) {
        const cg::PlaneGeometry & g = planes_[i].geometry;
        st = cg::copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&job.out_frame, i),
            GST_VIDEO_FRAME_PLANE_STRIDE (&job.out_frame, i), dst[k][i].data,
            dst[k][i].pitch, g.row_bytes (), g.height, download_.get ());
      }
    }
    if (st.ok ())
      st = marker.done.record (download_.get ());
  }
  if (!st.ok ())
    return fail ("Blurring the frame on the GPU failed.", st);
  batches_launched_++;
  for (guint k = 0; k < waiting_; k++) {
    jobs_[first + k].done_slot = last;
    jobs_[first + k].batch = batches_launched_;
  }
  return GST_FLOW_OK;
}

/* Launches the batch being gathered on the next lane, which launch() planned for it when the
 * batch's first frame came. On failure its jobs are given back (their slots too, so that slots
 * stay in order). */
GstFlowReturn
FrameQueue::launch_waiting ()
{
  if (waiting_ == 0)
    return GST_FLOW_OK;
  GstFlowReturn ret = enqueue_waiting (lanes_[next_lane_]);
  if (ret != GST_FLOW_OK) {
    /* Work already queued for these jobs must not touch buffers we give back. */
    synchronize_all ();
    next_slot_ = (next_slot_ + depth_ - waiting_) % depth_;
    for (; waiting_ > 0; waiting_--) {
      release_job (jobs_.back ());
      jobs_.pop_back ();
    }
    return ret;
  }
  next_lane_ = (next_lane_ + 1) % (guint) lanes_.size ();
  waiting_ = 0;
  return GST_FLOW_OK;
}

/* With a GstVideoMeta, gst_video_frame_map checks only that each plane's first byte is in the
 * buffer (GStreamer 1.22 maps the memory holding it), not that the plane fits: check it here,
 * so that a buffer smaller than its meta or caps say is an error, never a copy past its end. */
static gboolean
planes_fit (const GstVideoFrame & frame,
    const std::vector < cg::PlaneSpec > &planes)
{
  for (guint i = 0; i < planes.size (); i++) {
    const cg::PlaneGeometry & g = planes[i].geometry;
    const GstMapInfo & map = frame.meta ? frame.map[i] : frame.map[0];
    const guint8 *data = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, i);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, i);
    if (stride < 0 || (g.height > 1 && (gsize) stride < g.row_bytes ()))
      return FALSE;
    if (!map.data || data < map.data || data > map.data + map.size)
      return FALSE;
    const gsize avail = map.size - (gsize) (data - map.data);
    const gsize need = (gsize) stride * (g.height - 1) + g.row_bytes ();
    if (need > avail)
      return FALSE;
  }
  return TRUE;
}

GstFlowReturn
FrameQueue::launch (GstBuffer * in, GstBuffer * out,
    const cg::BlurSettings & settings)
{
  g_assert (jobs_.size () < depth_);
  Job job;
  job.in = in;
  job.out = out;
  job.slot = job.done_slot = next_slot_;
  job.in_device = gst_cuda_element_is_device_buffer (in, context_);
  job.out_device = gst_cuda_element_is_device_buffer (out, context_);
  if (!job.in_device)
    gst_cuda_gaussian_register_reused_memory (context_, in);

  /* The batch being gathered blurs with one plan, its lane's (planned at its first frame):
   * other parameters start a new one. Checked first, so that invalid settings fail on the
   * frame that brings them. */
  GstFlowReturn ret = GST_FLOW_OK;
  if (waiting_ > 0 && lanes_[next_lane_].blur.settings () != settings)
    ret = launch_waiting ();
  if (ret == GST_FLOW_OK && waiting_ == 0)
    ret = ensure_plan (lanes_[next_lane_], settings);

  if (ret == GST_FLOW_OK && !gst_video_frame_map (&job.in_frame, &info_, in,
          (GstMapFlags) (GST_MAP_READ | (job.in_device ? GST_MAP_CUDA : 0)))) {
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("Could not map the input frame: the buffer may be smaller than its caps "
            "describe."), (NULL));
    ret = GST_FLOW_ERROR;
  }
  job.in_mapped = ret == GST_FLOW_OK;
  if (ret == GST_FLOW_OK && !job.in_device && !planes_fit (job.in_frame, planes_)) {
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("The input frame is smaller than its caps or video meta describe."),
        ("%" G_GSIZE_FORMAT " bytes in the buffer", gst_buffer_get_size (in)));
    ret = GST_FLOW_ERROR;
  }
  if (ret == GST_FLOW_OK && !gst_video_frame_map (&job.out_frame, &info_, out,
          (GstMapFlags) (GST_MAP_WRITE | (job.out_device ? GST_MAP_CUDA : 0)))) {
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("Could not map the output frame."), (NULL));
    ret = GST_FLOW_ERROR;
  }
  job.out_mapped = ret == GST_FLOW_OK;
  if (ret == GST_FLOW_OK && !job.out_device && !planes_fit (job.out_frame, planes_)) {
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("The output buffer is smaller than its caps describe."), (NULL));
    ret = GST_FLOW_ERROR;
  }

  if (ret == GST_FLOW_OK)
    ret = ensure_slot (slots_[job.slot], job.in_device, job.out_device);
  if (ret == GST_FLOW_OK)
    ret = upload (job);
  if (ret != GST_FLOW_OK) {
    /* Work already queued for this job must not touch buffers we give back. */
    synchronize_all ();
    release_job (job);
    return ret;
  }
  next_slot_ = (next_slot_ + 1) % depth_;
  jobs_.push_back (job);
  waiting_++;
  if (waiting_ >= batch_)
    return launch_waiting ();
  return GST_FLOW_OK;
}

void
FrameQueue::release_job (Job & job)
{
  if (job.out_mapped)
    gst_video_frame_unmap (&job.out_frame);
  if (job.in_mapped)
    gst_video_frame_unmap (&job.in_frame);
  gst_clear_buffer (&job.in);
  gst_clear_buffer (&job.out);
}

GstFlowReturn
FrameQueue::finish_oldest (GstBuffer ** out)
{
  *out = NULL;
  if (jobs_.empty ())
    return GST_FLOW_OK;
  if (jobs_.size () == waiting_) {      /* the oldest job still waits for its batch */
    GstFlowReturn ret = launch_waiting ();
    if (ret != GST_FLOW_OK)
      return ret;
  }
  Job job = jobs_.front ();
  jobs_.pop_front ();

  /* 1.22 has no stream in GstCudaMemory: the frame must be complete before it leaves. The
   * rest of a batch is complete once its first frame is (a synchronize costs ~1.5 us). */
  cg::Status st;
  if (job.batch != finished_batch_)
    st = slots_[job.done_slot].done.synchronize ();
  if (st.ok ())
    finished_batch_ = job.batch;
  GstBuffer *result = gst_buffer_ref (job.out);
  release_job (job);
  if (!st.ok ()) {
    gst_buffer_unref (result);
    return fail ("Blurring the frame on the GPU failed.", st);
  }
  *out = result;
  return GST_FLOW_OK;
}

void
FrameQueue::drop_all ()
{
  /* Every job's work, launched or (uploads of frames waiting for their batch) not, is on the
   * lanes' and the transfer streams. */
  if (!jobs_.empty ())
    synchronize_all ();
  waiting_ = 0;
  while (!jobs_.empty ()) {
    release_job (jobs_.front ());
    jobs_.pop_front ();
  }
}
