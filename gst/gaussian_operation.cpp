/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gaussian_operation.h"

#include <cstdio>

namespace cg = cudagaussian;

bool
GaussianSettings::same_as (const FrameSettings & other) const
{
  const GaussianSettings *o = dynamic_cast < const GaussianSettings * >(&other);
  return o && o->blur == blur;
}

bool
GaussianSettings::passes_through () const
{
  return blur.sigma_x == 0.0 && blur.sigma_y == 0.0;
}

GaussianOperation::GaussianOperation (std::vector < cg::PlaneSpec > planes)
:  planes_ (std::move (planes))
{
}

bool
GaussianOperation::planned_for (const FrameSettings & settings) const
{
  const GaussianSettings & s = static_cast < const GaussianSettings & >(settings);
  return blur_.planned () && blur_.settings () == s.blur;
}

cg::Status
GaussianOperation::plan (const FrameSettings & settings)
{
  return blur_.plan (static_cast < const GaussianSettings & >(settings).blur, planes_);
}

cg::Status
GaussianOperation::run_batch (const SourceBatch & src, const TargetBatch & dst,
    cudaStream_t stream)
{
  return blur_.run_batch (src, dst, stream);
}

std::string
GaussianOperation::describe () const
{
  char text[128];
  std::snprintf (text, sizeof text, "sigma %g x %g: %s", blur_.settings ().sigma_x,
      blur_.settings ().sigma_y, cg::algorithm_name (blur_.chosen ()));
  return text;
}
