/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudasobel's work on the frame queue: its settings per frame, and the Sobel kernel run on each
 * frame of a batch. */
#pragma once

#include "frame_operation.h"
#include "sobel.h"

struct SobelFrameSettings : public FrameSettings
{
  cudagaussian::SobelSettings sobel;

  bool same_as (const FrameSettings & other) const override;
};

class SobelOperation : public FrameOperation
{
public:
  /* Input frames of @width x @height pixels laid out as @layout; output samples of @out_bytes. */
  SobelOperation (int width, int height, cudagaussian::SobelLayout layout, int out_bytes);
  bool planned_for (const FrameSettings & settings) const override;
  cudagaussian::Status plan (const FrameSettings & settings) override;
  cudagaussian::Status run_batch (const SourceBatch & src, const TargetBatch & dst,
      cudaStream_t stream) override;
  std::string describe () const override;

private:
  int width_, height_, out_bytes_;
  cudagaussian::SobelLayout layout_;
  cudagaussian::SobelSettings settings_;
  bool planned_ = false;
};
