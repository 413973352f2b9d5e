// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core FIR as one kernel (layout: common/fused_fir_bands.h): a block stages its tile
// and halo once, one fp16 plane per channel; each warp multiplies its strips horizontally and
// passes the products, still in registers, to the vertical band. No intermediate in memory.
// TensorFir (tensor_fir.h) plans and runs it; compute capability 8.0 or later.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "fused_fir_bands.h"
#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

struct FusedFirLaunch {
  int width = 0, height = 0, channels = 0;
  Border border = Border::Replicate;
  FusedBandShape bands;
  size_t shared_bytes = 0;
  const void* values = nullptr;  // device copy of FusedBands::values in fp16
};

FusedFirLaunch fused_fir_launch(const PlaneGeometry& geometry, Border border, const FusedBands& bands,
                                const void* device_bands);
// Lets the kernel of `channels` use up to `bytes` of shared memory (the device's opt-in limit).
Status allow_fused_fir_shared_memory(int channels, int bytes);
Status run_fused_fir(const FusedFirLaunch& launch, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                     const SampleFinish& finish, cudaStream_t stream);

}  // namespace cudagaussian
