/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "frame_queue.h"

#include "cuda_context.h"
#include "frame_mapping.h"
#include "host_registration.h"

#define GST_CAT_DEFAULT category_

namespace cg = cudagaussian;

/* A 4K frame: the most pixels the compute lanes' scratch holds together. */
static const guint64 kLanePixels = 3840 * 2160;

FrameQueue::FrameQueue (GstElement * element, GstDebugCategory * category,
    GstCudaContext * context)
:  element_ (element), category_ (category),
    context_ (GST_CUDA_CONTEXT (gst_object_ref (context)))
{
  gst_video_info_init (&layout_.in_info);
  gst_video_info_init (&layout_.out_info);
}

FrameQueue::~FrameQueue ()
{
  drop_all ();
  gst_object_unref (context_);
}

GstFlowReturn
FrameQueue::post_error (const char *text, const cg::Status & st)
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
    post_error ("Could not create CUDA streams.", st);
    return FALSE;
  }
  return TRUE;
}

void
FrameQueue::configure (const FrameLayout & layout, guint depth,
    OperationFactory make_operation)
{
  g_assert (jobs_.empty ());
  layout_ = layout;
  same_layout_ = same_layout ();
  depth_ = MAX (depth, 1u);
  /* See the top of frame_queue.h: at most a 4K frame's pixels in the lanes' scratch, at most
   * depth / 4 frames and a Full HD frame's pixels in a batch. */
  const guint64 pixels = MAX ((guint64) GST_VIDEO_INFO_WIDTH (&layout.in_info) *
      GST_VIDEO_INFO_HEIGHT (&layout.in_info), 1);
  const guint by_size = (guint) MAX (kLanePixels / pixels, 1);
  batch_ = (guint) CLAMP (MIN ((guint64) depth_ / kDepthPerBatchFrame, kBatchPixels / pixels),
      1, (guint64) kMaxBatchFrames);
  const guint batches = (depth_ + batch_ - 1) / batch_;
  lanes_.clear ();
  while (lanes_.size () < MIN (batches, by_size)) {
    lanes_.emplace_back ();
    lanes_.back ().operation = make_operation ();
  }
  slots_.clear ();
  slots_.resize (depth_);
  next_slot_ = 0;
  next_lane_ = 0;
  waiting_ = 0;
  waiting_settings_.reset ();
  foreign_logged_ = FALSE;
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

/* Settings change between frames, never inside one: frames already queued keep the plan they
 * were launched with. A plan that replaces GPU memory waits for the lane's stream to finish them
 * first; one that does not (plan_needs_idle_lane) leaves them running. */
GstFlowReturn
FrameQueue::ensure_plan (Lane & lane, const FrameSettings & settings)
{
  if (lane.operation->planned_for (settings))
    return GST_FLOW_OK;
  cg::Status st;
  if (!lane.stream.get ())
    st = lane.stream.create ();
  if (!st.ok ())
    return post_error ("Could not create CUDA streams.", st);
  if (lane.operation->plan_needs_idle_lane (settings))
    st = lane.stream.synchronize ();
  if (st.ok ())
    st = lane.operation->plan (settings);
  if (!st.ok ()) {
    gchar *text = g_strdup_printf (st.cuda == cudaSuccess ? "Invalid %s settings" :
        "Could not prepare the %s on the GPU.", layout_.work);
    post_error (text, st);
    g_free (text);
    return GST_FLOW_ERROR;
  }
  if (&lane == &lanes_[0])
    GST_INFO_OBJECT (element_, "%s", lane.operation->describe ().c_str ());
  return GST_FLOW_OK;
}

GstFlowReturn
FrameQueue::ensure_slot (Slot & slot, gboolean in_device, gboolean out_device)
{
  cg::Status st;
  auto allocate =[&](std::vector < cg::DevicePlane > &planes,
      const std::vector < cg::PlaneGeometry > &geometry) {
    if (!planes.empty () || !st.ok ())
      return;
    planes.resize (geometry.size ());
    for (size_t i = 0; i < geometry.size () && st.ok (); i++)
      st = planes[i].allocate (geometry[i].row_bytes (), geometry[i].height);
    if (!st.ok ())
      planes.clear ();
  };
  if (!in_device)
    allocate (slot.in, layout_.in);
  if (!out_device)
    allocate (slot.out, layout_.out);
  /* A slot's events live as long as the slot (configure() replaces the slots). */
  for (cg::CudaEvent * event : {&slot.uploaded, &slot.computed, &slot.done})
    if (st.ok () && !event->created ())
      st = event->create ();
  if (!st.ok ())
    return post_error ("Could not allocate GPU buffers for a frame.", st);
  return GST_FLOW_OK;
}

/* Whether @in, CUDA memory of another context, is read by a peer copy (TRUE) or through host
 * memory (FALSE); the first such frame after caps is logged with the GPUs involved. */
gboolean
FrameQueue::classify_foreign_input (GstBuffer * in)
{
  GstCudaContext *other = gst_cuda_filter_foreign_context (in, context_);
  if (!other)
    return FALSE;
  const gboolean peer = gst_cuda_context_can_access_peer (context_, other);
  if (!foreign_logged_) {
    foreign_logged_ = TRUE;
    const guint from = gst_cuda_filter_context_device (other);
    const guint to = gst_cuda_filter_context_device (context_);
    if (peer)
      GST_INFO_OBJECT (element_, "input in CUDA memory of GPU %u, filtered on GPU %u: peer "
          "copies", from, to);
    else
      GST_WARNING_OBJECT (element_, "input in CUDA memory of %s (GPU %u), filtered on GPU %u "
          "without peer access: read through host memory (slow); give neighbouring CUDA "
          "elements the same cuda-device-id", from == to ? "another CUDA context" : "another GPU",
          from, to);
  }
  return peer;
}

/* The device plane @i of a job's result goes to: the output buffer's CUDA memory, or the slot's
 * staging plane that is downloaded into it. */
cg::MutableDevicePlaneRef FrameQueue::destination (const Job & job, size_t i) const
{
  const Slot & slot = slots_[job.slot];
  return job.out_device ?
      cg::MutableDevicePlaneRef { GST_VIDEO_FRAME_PLANE_DATA (&job.out_frame, i),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&job.out_frame, i) } :
      cg::MutableDevicePlaneRef { slot.out[i].get (), slot.out[i].pitch () };
}

/* Whether input and output frames have the same planes (then an operation may work in place). */
bool
FrameQueue::same_layout () const
{
  if (layout_.in.size () != layout_.out.size ())
    return false;
  for (size_t i = 0; i < layout_.in.size (); i++)
    if (layout_.in[i].row_bytes () != layout_.out[i].row_bytes () ||
        layout_.in[i].height != layout_.out[i].height)
      return false;
  return true;
}

/* Starts copying a system-memory input (or a peer GPU's) into its slot's staging planes, or
 * straight into its destination when the operation works in place. */
GstFlowReturn
FrameQueue::upload (const Job & job)
{
  if (job.in_device)
    return GST_FLOW_OK;
  const Slot & slot = slots_[job.slot];
  cg::Status st;
  for (size_t i = 0; i < layout_.in.size () && st.ok (); i++) {
    const cg::MutableDevicePlaneRef to = job.in_place ? destination (job, i) :
        cg::MutableDevicePlaneRef { slot.in[i].get (), slot.in[i].pitch () };
    st = cg::copy_2d_async (to.data, to.pitch,
        GST_VIDEO_FRAME_PLANE_DATA (&job.in_frame, i),
        GST_VIDEO_FRAME_PLANE_STRIDE (&job.in_frame, i), layout_.in[i].row_bytes (),
        layout_.in[i].height, upload_.get ());
  }
  if (st.ok ())
    st = slot.uploaded.record (upload_.get ());
  if (!st.ok ())
    return post_error (job.in_peer ? "Copying the frame from another GPU failed." :
        "Copying the frame to the GPU failed.", st);
  return GST_FLOW_OK;
}

/* Runs the waiting jobs in one batch on @lane, then queues their downloads; the last job's
 * `done` event marks them all finished. */
GstFlowReturn
FrameQueue::enqueue_waiting (Lane & lane)
{
  cudaStream_t compute = lane.stream.get ();
  const size_t first = jobs_.size () - waiting_;
  batch_src_.resize (waiting_);
  batch_dst_.resize (waiting_);
  gboolean download = FALSE;
  cg::Status st;

  for (guint k = 0; k < waiting_ && st.ok (); k++) {
    const Job & job = jobs_[first + k];
    const Slot & slot = slots_[job.slot];
    batch_src_[k].resize (layout_.in.size ());
    batch_dst_[k].resize (layout_.out.size ());
    for (size_t i = 0; i < layout_.out.size (); i++)
      batch_dst_[k][i] = destination (job, i);
    for (size_t i = 0; i < layout_.in.size (); i++)
      batch_src_[k][i] = job.in_device ?
          cg::DevicePlaneRef { GST_VIDEO_FRAME_PLANE_DATA (&job.in_frame, i),
          (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&job.in_frame, i) } :
          job.in_place ? cg::DevicePlaneRef { batch_dst_[k][i].data, batch_dst_[k][i].pitch } :
          cg::DevicePlaneRef { slot.in[i].get (), slot.in[i].pitch () };
    if (!job.in_device)
      st = slot.uploaded.make_wait (compute);
    download |= !job.out_device;
  }
  if (st.ok ())
    st = lane.operation->run_batch (batch_src_, batch_dst_, compute);
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
      for (size_t i = 0; i < layout_.out.size () && !job.out_device && st.ok (); i++)
        st = cg::copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&job.out_frame, i),
            GST_VIDEO_FRAME_PLANE_STRIDE (&job.out_frame, i), batch_dst_[k][i].data,
            batch_dst_[k][i].pitch, layout_.out[i].row_bytes (), layout_.out[i].height,
            download_.get ());
    }
    if (st.ok ())
      st = marker.done.record (download_.get ());
  }
  if (!st.ok ()) {
    gchar *text = g_strdup_printf ("The %s failed on the GPU.", layout_.work);
    post_error (text, st);
    g_free (text);
    return GST_FLOW_ERROR;
  }
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
    waiting_settings_.reset ();
    return ret;
  }
  next_lane_ = (next_lane_ + 1) % (guint) lanes_.size ();
  waiting_ = 0;
  waiting_settings_.reset ();
  return GST_FLOW_OK;
}

/* Maps both frames and checks that every plane lies inside its memory. */
GstFlowReturn
FrameQueue::map_job (Job & job)
{
  FrameMapResult r = map_video_frame (&job.in_frame, &layout_.in_info, job.in, layout_.in,
      job.in_device || job.in_peer, GST_MAP_READ);
  job.in_mapped = r == FrameMapResult::Mapped;
  if (r == FrameMapResult::Mapped) {
    r = map_video_frame (&job.out_frame, &layout_.out_info, job.out, layout_.out,
        job.out_device, GST_MAP_WRITE);
    job.out_mapped = r == FrameMapResult::Mapped;
    if (r != FrameMapResult::Mapped) {
      GST_ELEMENT_ERROR (element_, STREAM, FAILED,
          ("The output buffer is smaller than its caps describe."), (NULL));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
  if (r == FrameMapResult::MapFailed)
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("Could not map the input frame: the buffer may be smaller than its caps "
            "describe."), ("%" G_GSIZE_FORMAT " bytes in the buffer",
            gst_buffer_get_size (job.in)));
  else
    GST_ELEMENT_ERROR (element_, STREAM, FAILED,
        ("The input frame is smaller than its caps or video meta describe."),
        ("%" G_GSIZE_FORMAT " bytes in the buffer, in %s memory", gst_buffer_get_size (job.in),
            job.in_device || job.in_peer ? "CUDA" : "system"));
  return GST_FLOW_ERROR;
}

GstFlowReturn
FrameQueue::launch (GstBuffer * in, GstBuffer * out, const FrameSettingsPtr & settings)
{
  g_assert (jobs_.size () < depth_);
  GstFlowReturn ret = GST_FLOW_OK;
  Job job;
  job.in = in;
  job.out = out;

  if (!out) {
    /* Passed through: behind the frames before it, which must not wait for a batch. */
    ret = launch_waiting ();
    if (ret != GST_FLOW_OK) {
      release_job (job);
      return ret;
    }
    jobs_.push_back (job);
    return GST_FLOW_OK;
  }

  job.slot = job.done_slot = next_slot_;
  job.in_device = gst_cuda_filter_is_device_buffer (in, context_);
  job.in_peer = !job.in_device && classify_foreign_input (in);
  job.out_device = gst_cuda_filter_is_device_buffer (out, context_);
  if (!job.in_device)
    gst_cuda_filter_register_host_memory (element_, category_, context_, in);

  /* The batch being gathered runs with one plan, its lane's (planned at its first frame): other
   * settings start a new one. Checked first, so that invalid settings fail on the frame that
   * brings them. */
  if (waiting_ > 0 && !waiting_settings_->same_as (*settings))
    ret = launch_waiting ();
  if (ret == GST_FLOW_OK && waiting_ == 0) {
    ret = ensure_plan (lanes_[next_lane_], *settings);
    if (ret == GST_FLOW_OK)
      waiting_settings_ = settings;
  }
  if (ret == GST_FLOW_OK)
    ret = map_job (job);
  if (ret == GST_FLOW_OK)
    job.in_place = !job.in_device && same_layout_ &&
        lanes_[next_lane_].operation->works_in_place ();
  if (ret == GST_FLOW_OK)
    ret = ensure_slot (slots_[job.slot], job.in_device || job.in_place, job.out_device);
  if (ret == GST_FLOW_OK)
    ret = upload (job);
  if (ret != GST_FLOW_OK) {
    /* Work already queued for this job must not touch buffers we give back. */
    synchronize_all ();
    release_job (job);
    if (waiting_ == 0)
      waiting_settings_.reset ();
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

bool
FrameQueue::oldest_ready () const
{
  return !jobs_.empty () && (jobs_.size () >= depth_ || jobs_.front ().out == nullptr);
}

GstFlowReturn
FrameQueue::finish_oldest (GstBuffer ** out)
{
  *out = NULL;
  if (jobs_.empty ())
    return GST_FLOW_OK;
  Job job = jobs_.front ();
  if (!job.out) {
    jobs_.pop_front ();
    *out = job.in;
    return GST_FLOW_OK;
  }
  if (jobs_.size () == waiting_) {      /* the oldest job still waits for its batch */
    GstFlowReturn ret = launch_waiting ();
    if (ret != GST_FLOW_OK)
      return ret;
  }
  jobs_.pop_front ();

  /* GStreamer 1.22's CUDA memory carries no stream: the frame must be complete before it
   * leaves. The rest of a batch is complete once its first frame is. */
  cg::Status st;
  if (job.batch != finished_batch_)
    st = slots_[job.done_slot].done.synchronize ();
  if (st.ok ())
    finished_batch_ = job.batch;
  GstBuffer *result = gst_buffer_ref (job.out);
  release_job (job);
  if (!st.ok ()) {
    gst_buffer_unref (result);
    gchar *text = g_strdup_printf ("The %s failed on the GPU.", layout_.work);
    post_error (text, st);
    g_free (text);
    return GST_FLOW_ERROR;
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
  waiting_settings_.reset ();
  while (!jobs_.empty ()) {
    release_job (jobs_.front ());
    jobs_.pop_front ();
  }
}
