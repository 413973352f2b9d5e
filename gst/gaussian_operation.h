/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian's work on the frame queue: a snapshot of its blur settings per frame, and a
 * FrameBlur per compute lane. */
#pragma once

#include <vector>

#include "frame_blur.h"
#include "frame_operation.h"

struct GaussianSettings : public FrameSettings
{
  cudagaussian::BlurSettings blur;

  bool same_as (const FrameSettings & other) const override;
  /* sigma 0 in both directions leaves frames untouched. */
  bool passes_through () const override;
};

class GaussianOperation : public FrameOperation
{
public:
  explicit GaussianOperation (std::vector < cudagaussian::PlaneSpec > planes);
  bool planned_for (const FrameSettings & settings) const override;
  cudagaussian::Status plan (const FrameSettings & settings) override;
  cudagaussian::Status run_batch (const SourceBatch & src, const TargetBatch & dst,
      cudaStream_t stream) override;
  std::string describe () const override;

private:
  std::vector < cudagaussian::PlaneSpec > planes_;
  cudagaussian::FrameBlur blur_;
};
