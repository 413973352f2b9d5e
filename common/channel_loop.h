// SPDX-License-Identifier: LGPL-2.1-or-later
// Loops over the (at most four) interleaved channels of a pixel in code shared by the CPU and
// the CUDA kernels.
#pragma once

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

constexpr int kMaxChannels = 4;

}  // namespace cudagaussian

// Runs to the bound with the real count as a condition, so that CUDA unrolls the loop and keeps
// per-channel state in registers rather than local memory.
#ifdef __CUDA_ARCH__
#define CG_FOR_CHANNELS(c, channels) \
  _Pragma("unroll") for (int c = 0; c < ::cudagaussian::kMaxChannels; ++c) if (c < (channels))
#else
#define CG_FOR_CHANNELS(c, channels) \
  for (int c = 0; c < ::cudagaussian::kMaxChannels; ++c) if (c < (channels))
#endif
