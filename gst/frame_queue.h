/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in flight: the GPU side shared by the plugin's elements.
 *
 * Each frame is a job: its upload (system memory only) runs on an upload stream, its operation
 * on a compute lane's stream, its download on a download stream, ordered by events. While frame
 * N computes, N+1 can upload and N-1 download. Up to `depth` jobs are in flight; each GPU job
 * owns a slot of staging buffers, reused only once the slot's previous job has finished.
 *
 * Compute lanes: a frame too small to fill the GPU leaves it partly idle, so consecutive batches
 * run on different lanes in turn, each with its own stream and its own operation (scratch and
 * plan), and their kernels overlap. lanes = min(batches in flight, pixels of a 4K frame / pixels
 * of a frame), so the lanes' scratch never holds more pixels than one 4K frame's.
 *
 * Batches: frames smaller than Full HD also share kernel launches. Up to `batch` frames wait
 * (mapped, uploads started) and then run together on one lane. batch = min(depth / 4, Full HD
 * pixels / frame pixels), at least 1: four batches in flight keep the GPU fed while the oldest
 * one's frames are handed out. A frame with other settings than the waiting ones starts a new
 * batch. One event marks a batch done, waited for once per batch.
 *
 * Inputs in CUDA memory of another context (another GPU's, from a neighbour on another
 * cuda-device-id) are never read in place: where gst-cuda enabled peer access between the two
 * contexts they are copied GPU to GPU on the upload stream (a peer copy); otherwise gst-cuda maps
 * them to host memory (its own download) and they are uploaded like system memory. Either way
 * the kernels read only this context's memory.
 *
 * Uploads go into the slot's input staging planes, or, when the planned operation works in place
 * (FrameOperation::works_in_place), straight into the frame's destination planes (the output's
 * CUDA memory or the slot's output staging planes), where the operation then filters them.
 *
 * Frames whose settings pass them through (sigma 0) are jobs too, without GPU work: their input
 * buffer is their output, handed out in order behind the frames before them.
 *
 * All methods are called from the streaming thread with the CUDA context current; failures are
 * posted on the bus with GST_ELEMENT_ERROR and returned as GST_FLOW_ERROR. */
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "device_memory.h"
#include "frame_operation.h"
#include "plane.h"
#include "plane_blur.h"

/* The planes of a frame on each side of the operation, and what the element calls its work in
 * error messages ("blur", "Sobel filter"). */
struct FrameLayout
{
  GstVideoInfo in_info, out_info;
  std::vector < cudagaussian::PlaneGeometry > in, out;
  gboolean in_cuda = FALSE;     /* the input caps are memory:CUDAMemory */
  const char *work = "filter";
};

class FrameQueue
{
public:
  /* A Full HD frame: the most pixels of one batch (one such frame fills the GPU). */
  static constexpr guint64 kBatchPixels = 1920 * 1080;
  /* Frames in flight per frame of a batch: batch = depth / this (top of this file). */
  static constexpr guint kDepthPerBatchFrame = 4;
  /* The most frames one batch holds: what the kernels take in one launch. */
  static constexpr guint kMaxBatchFrames = cudagaussian::kMaxBatchFrames;

  using OperationFactory = std::function < std::unique_ptr < FrameOperation > () >;

  FrameQueue (GstElement * element, GstDebugCategory * category, GstCudaContext * context);
  ~FrameQueue ();
  FrameQueue (const FrameQueue &) = delete;
  FrameQueue & operator= (const FrameQueue &) = delete;

  /* Creates the streams; FALSE (error posted) on failure. */
  gboolean init ();

  /* New caps or depth: the queue must be empty (drained or dropped). */
  void configure (const FrameLayout & layout, guint depth, OperationFactory make_operation);

  /* Starts the work of one frame: @in into @out (takes both references). A frame whose
   * settings pass it through gives @out NULL (and @in is its output). */
  GstFlowReturn launch (GstBuffer * in, GstBuffer * out, const FrameSettingsPtr & settings);

  /* Whether the oldest frame can be handed out without waiting for work that later frames
   * could overlap: the queue is full, or the oldest frame has no GPU work. */
  bool oldest_ready () const;

  /* Waits for the oldest job and hands out its output buffer. */
  GstFlowReturn finish_oldest (GstBuffer ** out);

  /* Waits for every job and throws the outputs away (flush). */
  void drop_all ();

  guint pending () const { return (guint) jobs_.size (); }
  guint depth () const { return depth_; }

private:
  struct Slot
  {
    std::vector < cudagaussian::DevicePlane > in, out;  /* staging of frames in system memory */
    cudagaussian::CudaEvent uploaded, computed, done;
  };
  struct Lane
  {
    cudagaussian::CudaStream stream;
    std::unique_ptr < FrameOperation > operation;
  };
  struct Job
  {
    GstBuffer *in = nullptr;
    GstBuffer *out = nullptr;   /* nullptr: passed through, `in` is the output */
    GstVideoFrame in_frame, out_frame;
    gboolean in_mapped = FALSE, out_mapped = FALSE;
    gboolean in_device = FALSE, out_device = FALSE;
    gboolean in_peer = FALSE;   /* CUDA memory of a peer context: copied into staging */
    gboolean in_place = FALSE;  /* staged straight into the destination, filtered in place */
    guint slot = 0;
    guint done_slot = 0;        /* whose `done` event marks this frame finished */
    guint64 batch = 0;          /* launched in the batch of this number (from 1) */
  };
  GstFlowReturn ensure_plan (Lane & lane, const FrameSettings & settings);
  GstFlowReturn ensure_slot (Slot & slot, gboolean in_device, gboolean out_device);
  GstFlowReturn map_job (Job & job);
  GstFlowReturn upload (const Job & job);
  cudagaussian::MutableDevicePlaneRef destination (const Job & job, size_t plane) const;
  bool same_layout () const;
  GstFlowReturn launch_waiting ();
  GstFlowReturn enqueue_waiting (Lane & lane);
  void synchronize_all ();
  void release_job (Job & job);
  GstFlowReturn post_error (const char *text, const cudagaussian::Status & st);
  gboolean classify_foreign_input (GstBuffer * in);

  GstElement *element_;
  GstDebugCategory *category_;
  GstCudaContext *context_;
  cudagaussian::CudaStream upload_, download_;
  std::deque < Lane > lanes_;   /* not movable: built in place */
  FrameLayout layout_;
  bool same_layout_ = false;    /* same_layout (), when configured */
  std::vector < Slot > slots_;
  std::deque < Job > jobs_;
  /* The settings of the batch being gathered (its lane is planned for them). */
  FrameSettingsPtr waiting_settings_;
  /* The planes of the batch being launched, kept to reuse their memory from batch to batch. */
  SourceBatch batch_src_;
  TargetBatch batch_dst_;
  guint depth_ = 1;
  guint batch_ = 1;
  guint waiting_ = 0;           /* jobs at the back of jobs_ not launched yet */
  guint next_slot_ = 0;
  guint next_lane_ = 0;
  guint64 batches_launched_ = 0;
  guint64 finished_batch_ = 0;  /* the last batch whose `done` event was waited for */
  gboolean foreign_logged_ = FALSE;     /* input from another context reported (per caps) */
};
