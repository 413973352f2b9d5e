/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an element of the plugin runs on each frame, as the shared frame queue sees it.
 *
 * The element takes a snapshot of its properties for every frame (FrameSettings), once, on the
 * streaming thread; the queue plans an operation for it on a compute lane (FrameOperation) and
 * runs batches of frames through it. The operation works on device planes only: the queue
 * stages frames in system memory to and from the GPU around it. */
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda_status.h"
#include "frame_planes.h"

/* A snapshot of an element's settings for one frame. */
class FrameSettings
{
public:
  virtual ~FrameSettings () = default;
  /* Whether @other would be planned the same way (then frames of both share a batch). */
  virtual bool same_as (const FrameSettings & other) const = 0;
  /* Whether a frame is left untouched (sigma 0, nothing to filter): its input buffer is its
   * output. */
  virtual bool passes_through () const { return false; }
};

using FrameSettingsPtr = std::shared_ptr < const FrameSettings >;

/* Frames of a batch: planes[f][p] is plane p of frame f. */
using SourceBatch = std::vector < std::vector < cudagaussian::DevicePlaneRef >>;
using TargetBatch = std::vector < std::vector < cudagaussian::MutableDevicePlaneRef >>;

/* The work on one compute lane: planned for one settings snapshot at a time. Plan and run are
 * called with the CUDA context current, from the streaming thread. */
class FrameOperation
{
public:
  virtual ~FrameOperation () = default;
  /* Whether the last successful plan() was for settings that are the same as @settings. */
  virtual bool planned_for (const FrameSettings & settings) const = 0;
  /* Taps, coefficients and scratch for @settings. A Status without a CUDA error means the
   * settings are invalid (its message says why). */
  virtual cudagaussian::Status plan (const FrameSettings & settings) = 0;
  /* Whether planning for @settings replaces GPU memory that work already queued on the lane may
   * still use, so that the lane must be idle first. Per-frame data (a frame's regions) does not. */
  virtual bool plan_needs_idle_lane (const FrameSettings & settings) const
  {
    (void) settings;
    return true;
  }
  /* Whether the planned work may be given the same planes as source and destination: then a
   * frame staged from system memory is uploaded straight into its destination, and the
   * operation writes only what it changes. */
  virtual bool works_in_place () const
  {
    return false;
  }
  /* Queues the batch on @stream. */
  virtual cudagaussian::Status run_batch (const SourceBatch & src, const TargetBatch & dst,
      cudaStream_t stream) = 0;
  /* What the plan does, for the log (e.g. the algorithm auto chose). */
  virtual std::string describe () const = 0;
};
