/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sobel_operation.h"

#include <cstdio>

namespace cg = cudagaussian;

static bool
equal (const cg::SobelSettings & a, const cg::SobelSettings & b)
{
  return a.output == b.output && a.scale == b.scale;
}

bool
SobelFrameSettings::same_as (const FrameSettings & other) const
{
  const SobelFrameSettings *o = dynamic_cast < const SobelFrameSettings * >(&other);
  return o && equal (o->sobel, sobel);
}

SobelOperation::SobelOperation (int width, int height, cg::SobelLayout layout, int out_bytes)
:  width_ (width), height_ (height), out_bytes_ (out_bytes), layout_ (layout)
{
}

bool
SobelOperation::planned_for (const FrameSettings & settings) const
{
  return planned_ && equal (static_cast < const SobelFrameSettings & >(settings).sobel,
      settings_);
}

/* Nothing to prepare on the GPU: the kernel's launcher checks the settings on every run. */
cg::Status
SobelOperation::plan (const FrameSettings & settings)
{
  settings_ = static_cast < const SobelFrameSettings & >(settings).sobel;
  planned_ = true;
  return cg::Status::success ();
}

cg::Status
SobelOperation::run_batch (const SourceBatch & src, const TargetBatch & dst,
    cudaStream_t stream)
{
  for (size_t f = 0; f < src.size (); f++) {
    cg::SobelPlane in;
    in.data = src[f][0].data;
    in.pitch = src[f][0].pitch;
    in.width = width_;
    in.height = height_;
    in.layout = layout_;
    cg::SobelTarget out;
    out.data = dst[f][0].data;
    out.pitch = dst[f][0].pitch;
    out.bytes_per_sample = out_bytes_;
    CG_TRY (cg::sobel (in, out, settings_, stream));
  }
  return cg::Status::success ();
}

std::string
SobelOperation::describe () const
{
  char text[96];
  std::snprintf (text, sizeof text, "Sobel %s, scale %g, %d-bit output",
      cg::sobel_output_name (settings_.output), settings_.scale, 8 * out_bytes_);
  return text;
}
