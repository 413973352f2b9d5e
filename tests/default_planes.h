/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What cudagaussian's default planes (every part but alpha) mean for a reference: the alpha
 * channel of each output pixel is the input's. */
#pragma once

#include "frame_planes.h"
#include "gaussian_properties.h"
#include "reference_blur.h"

namespace cgt {

/* @ref (a plane's reference blur) with the channels the default planes leave alone taken from
 * @src. */
inline cudagaussian::PlaneValues
with_default_planes (const cudagaussian::PlaneSpec & ps, const cudagaussian::PlaneValues & src,
    const cudagaussian::PlaneValues & ref)
{
  cudagaussian::SampleFinish keep_only;
  keep_only.keep = cudagaussian::kept_channels (ps, kDefaultPlanes);
  return cudagaussian::finish_values (ps.geometry, src, ref, keep_only);
}

}                               /* namespace cgt */
