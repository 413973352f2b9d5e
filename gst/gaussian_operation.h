/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudagaussian's work on the frame queue: a snapshot of its settings per frame (the blur, and
 * the regions the frame's effect is limited to), and the blurs of one compute lane. */
#pragma once

#include <vector>

#include "frame_blur.h"
#include "frame_operation.h"
#include "region_enums.h"
#include "region_filter.h"

struct GaussianSettings : public FrameSettings
{
  cudagaussian::BlurSettings blur;
  RegionMode mode = RegionMode::Frame;
  /* mode inside/outside: this frame's regions (clipped, with their sigma) and the effect;
   * outside: the privacy zones, which stay under the effect. */
  std::vector < cudagaussian::Region > regions;
  std::vector < cudagaussian::Region > zones;
  cudagaussian::RegionEffectSettings effect;

  bool same_as (const FrameSettings & other) const override;
  /* Frames the settings leave unchanged: sigma 0 where it blurs, or no region inside. */
  bool passes_through () const override;
};

class GaussianOperation : public FrameOperation
{
public:
  explicit GaussianOperation (std::vector < cudagaussian::PlaneSpec > planes);
  bool planned_for (const FrameSettings & settings) const override;
  cudagaussian::Status plan (const FrameSettings & settings) override;
  bool plan_needs_idle_lane (const FrameSettings & settings) const override;
  bool works_in_place () const override;
  cudagaussian::Status run_batch (const SourceBatch & src, const TargetBatch & dst,
      cudaStream_t stream) override;
  std::string describe () const override;

private:
  bool blur_planned_for (const GaussianSettings & s) const;
  bool needs_blur_plan (const GaussianSettings & s) const;
  cudagaussian::Status run_frame (const std::vector < cudagaussian::DevicePlaneRef > &src,
      const std::vector < cudagaussian::MutableDevicePlaneRef > &dst, cudaStream_t stream);

  std::vector < cudagaussian::PlaneSpec > planes_;
  cudagaussian::FrameBlur blur_;
  cudagaussian::RegionFilter regions_;
  GaussianSettings planned_;
  bool region_planned_ = false;
};
