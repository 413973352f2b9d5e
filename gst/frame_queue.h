/* Frames in flight: the GPU side of the cudagaussian element.
 *
 * Each frame is a job: its upload (system memory only) runs on an upload stream, its blur on
 * a compute lane's stream, its download on a download stream, ordered by events. While frame N
 * computes, N+1 can upload and N-1 download. Up to `depth` jobs are in flight; each owns a slot
 * of staging buffers, reused only once its previous job has finished.
 *
 * Compute lanes: a frame too small to fill the GPU leaves it partly idle (one SD frame of the
 * FIR is a single wave of blocks), so consecutive batches (below) blur on different lanes in
 * turn, each with its own stream and its own blur (scratch and plan), and their kernels
 * overlap. lanes = min(batches in flight, pixels of a 4K frame / pixels of a frame), so the
 * lanes' scratch never holds more pixels than one 4K frame's: 3 lanes up to Full HD at depth 3,
 * 1 at 4K. A lane runs one blur after another (a batch's frames too, where its kernels do not
 * take several frames at once), so its scratch is never shared by two frames at once.
 *
 * Batches: frames smaller than Full HD also share kernel launches. Up to `batch` frames wait
 * (mapped, uploads started) and then blur together in one launch where the kernel can take
 * several frames (the fused FIR), on one lane: one launch call instead of several, and blocks
 * enough to fill the GPU. batch = min(depth / 4, Full HD pixels / frame pixels), at least 1:
 * four batches in flight, so that the GPU still has batches queued while the oldest one's
 * frames are handed out (measured: two batches of depth / 2 left it waiting), and no latency
 * beyond the `depth` frames in flight. A frame with other parameters than the waiting ones
 * starts a new batch. One event marks a batch done, waited for once per batch.
 *
 * All methods are called from the streaming thread with the CUDA context pushed; failures are
 * posted on the bus with GST_ELEMENT_ERROR and returned as GST_FLOW_ERROR. */
#pragma once

#include <deque>
#include <vector>

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "device_memory.h"
#include "frame_blur.h"

class FrameQueue
{
public:
  /* A Full HD frame: the most pixels of one batch (one such frame fills the GPU). */
  static constexpr guint64 kBatchPixels = 1920 * 1080;
  /* Frames in flight per frame of a batch: batch = depth / this (top of this file). */
  static constexpr guint kDepthPerBatchFrame = 4;

  FrameQueue (GstElement * element, GstCudaContext * context);
  ~FrameQueue ();
  FrameQueue (const FrameQueue &) = delete;
  FrameQueue & operator= (const FrameQueue &) = delete;

  /* Creates the streams; FALSE (error posted) on failure. */
  gboolean init ();

  /* New caps or depth: the queue must be empty (drained or dropped). */
  void configure (const GstVideoInfo & info,
      const std::vector < cudagaussian::PlaneSpec > &planes, guint depth);

  /* Starts blurring @in into @out (takes both references). */
  GstFlowReturn launch (GstBuffer * in, GstBuffer * out,
      const cudagaussian::BlurSettings & settings);

  /* Waits for the oldest job and hands out its output buffer. */
  GstFlowReturn finish_oldest (GstBuffer ** out);

  /* Waits for every job and throws the outputs away (flush). */
  void drop_all ();

  guint pending () const { return (guint) jobs_.size (); }
  guint depth () const { return depth_; }

private:
  struct Slot
  {
    std::vector < cudagaussian::DevicePlane > in, out;  /* staging, system memory only */
    cudagaussian::CudaEvent uploaded, computed, done;
  };
  struct Lane
  {
    cudagaussian::CudaStream stream;
    cudagaussian::FrameBlur blur;
  };
  struct Job
  {
    GstBuffer *in = nullptr;
    GstBuffer *out = nullptr;
    GstVideoFrame in_frame, out_frame;
    gboolean in_mapped = FALSE, out_mapped = FALSE;
    gboolean in_device = FALSE, out_device = FALSE;
    guint slot = 0;
    guint done_slot = 0;        /* whose `done` event marks this frame finished */
    guint64 batch = 0;          /* launched in the batch of this number (from 1) */
  };
  GstFlowReturn ensure_plan (Lane & lane,
      const cudagaussian::BlurSettings & settings);
  GstFlowReturn ensure_slot (Slot & slot, gboolean in_device,
      gboolean out_device);
  GstFlowReturn upload (const Job & job);
  GstFlowReturn launch_waiting ();
  GstFlowReturn enqueue_waiting (Lane & lane);
  void synchronize_all ();
  void release_job (Job & job);
  GstFlowReturn fail (const char *text, const cudagaussian::Status & st);

  GstElement *element_;
  GstCudaContext *context_;
  cudagaussian::CudaStream upload_, download_;
  std::deque < Lane > lanes_;   /* not movable: built in place */
  GstVideoInfo info_;
  std::vector < cudagaussian::PlaneSpec > planes_;
  std::vector < Slot > slots_;
  std::deque < Job > jobs_;
  /* The planes of the batch being launched, kept to reuse their memory from batch to batch. */
  std::vector < std::vector < cudagaussian::DevicePlaneRef >> batch_src_;
  std::vector < std::vector < cudagaussian::MutableDevicePlaneRef >> batch_dst_;
  guint depth_ = 1;
  guint batch_ = 1;
  guint waiting_ = 0;           /* jobs at the back of jobs_ not launched yet */
  guint next_slot_ = 0;
  guint next_lane_ = 0;
  guint64 batches_launched_ = 0;
  guint64 finished_batch_ = 0;  /* the last batch whose `done` event was waited for */
};
