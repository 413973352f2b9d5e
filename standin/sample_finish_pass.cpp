// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in finish_plane: the finishing step over the rounded blur in dst, as the kernel does.
#include "cpu_plane.h"
#include "sample_finish_pass.h"

namespace cudagaussian {

Status finish_plane(const PlaneGeometry& g, const void* src, size_t src_pitch, void* dst, size_t dst_pitch,
                    const SampleFinish& finish, cudaStream_t) {
  CG_TRY(check_run_arguments(g, src, src_pitch, dst, dst_pitch));
  CG_TRY(check_kernel_access(src, "source"));
  CG_TRY(check_kernel_access(dst, "target"));
  const PlaneValues in = read_plane(g, src, src_pitch);
  const PlaneValues blurred = read_plane(g, dst, dst_pitch);
  store_plane(g, finish_values(g, in, blurred, finish), dst, dst_pitch);
  return Status::success();
}

}  // namespace cudagaussian
