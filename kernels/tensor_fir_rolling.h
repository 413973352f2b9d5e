// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core FIR rolling down the frame: a block takes 256 scalars of the frame down a
// segment of rows, staging each input row once and keeping its output rows in progress in
// registers (common/rolling_fir_schedule.h). Its shared memory does not grow with the vertical
// radius, and no row is multiplied twice, where the one kernel (tensor_fir_fused.h) stages and
// multiplies its vertical halo with every tile. It uses the one kernel's tables. TensorFir
// (tensor_fir.h) plans and runs it; compute capability 8.0 or later.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "blur_params.h"
#include "cuda_status.h"
#include "fused_fir_bands.h"
#include "plane.h"
#include "sample_finish.h"

namespace cudagaussian {

struct RollingFirLaunch {
  int width = 0, height = 0, channels = 0;
  Border border = Border::Replicate;
  FusedBandShape bands;
  int ring = 0;          // the kernel instance: rolling_ring_tiles(column_blocks)
  int segment_rows = 0;  // output rows a block runs down, a multiple of 16
  int segments = 0;
  size_t shared_bytes = 0;
  const void* values = nullptr;  // device copy of FusedBands::values in fp16
};

// Whether the layout takes these tables: a ring of at most kRollingMaxRing tiles (vertical radii
// up to 56) and a staged step of at most two pieces a thread (horizontal radii up to 384 / C).
bool rolling_fir_fits(const FusedBands& bands, int channels);
size_t rolling_fir_shared_bytes(const FusedBands& bands, int channels);
// Segments: as many as fill the `sm_count` SMs with one block each, at least 16 rows long.
RollingFirLaunch rolling_fir_launch(const PlaneGeometry& geometry, Border border, const FusedBands& bands,
                                    const void* device_bands, int sm_count);
// Lets the kernels of `channels` use up to `bytes` of shared memory (the device's opt-in limit).
Status allow_rolling_fir_shared_memory(int channels, int bytes);
Status run_rolling_fir(const RollingFirLaunch& launch, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                       const SampleFinish& finish, cudaStream_t stream);

}  // namespace cudagaussian
