// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in finish_plane: the finishing step over the rounded blur in dst, as the kernel does.
#include "cpu_plane.h"
#include "sample_finish_pass.h"

namespace cudagaussian {

Status finish_plane(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                    const SampleFinish& finish, cudaStream_t) {
  // The "blur" of the input is what dst already holds.
  return cpu_plane_run(g, src, src_pitch, dst, dst_pitch, finish,
                       [&](const PlaneValues&) { return read_plane(g, dst, dst_pitch); });
}

}  // namespace cudagaussian
