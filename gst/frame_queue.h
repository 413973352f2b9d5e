/* Frames in flight: the GPU side of the cudagaussian element.
 *
 * Each frame is a job: its upload (system memory only) runs on an upload stream, its blur on
 * the compute stream, its download on a download stream, ordered by events. While frame N
 * computes, N+1 can upload and N-1 download. Up to `depth` jobs are in flight; each owns a slot
 * of staging buffers, reused only once its previous job has finished. The blur's scratch is
 * shared, which is safe because the compute stream runs one blur after another.
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
  struct Job
  {
    GstBuffer *in = nullptr;
    GstBuffer *out = nullptr;
    GstVideoFrame in_frame, out_frame;
    gboolean in_mapped = FALSE, out_mapped = FALSE;
    guint slot = 0;
  };
  GstFlowReturn ensure_plan (const cudagaussian::BlurSettings & settings);
  GstFlowReturn ensure_slot (Slot & slot, gboolean in_device,
      gboolean out_device);
  GstFlowReturn enqueue (Job & job, const Slot & slot, gboolean in_device,
      gboolean out_device);
  void release_job (Job & job);
  GstFlowReturn fail (const char *text, const cudagaussian::Status & st);

  GstElement *element_;
  GstCudaContext *context_;
  cudagaussian::CudaStream upload_, compute_, download_;
  cudagaussian::FrameBlur blur_;
  GstVideoInfo info_;
  std::vector < cudagaussian::PlaneSpec > planes_;
  std::vector < Slot > slots_;
  std::deque < Job > jobs_;
  guint depth_ = 1;
  guint next_slot_ = 0;
};
