// SPDX-License-Identifier: LGPL-2.1-or-later
// Stand-in sobel(): the same argument checks as kernels/sobel.cu, then the exact reference of
// common/reference_sobel on the "device" planes (host memory under the stand-in driver).
#include "sobel.h"

#include <cstdint>
#include <string>

#include "reference_sobel.h"

namespace cudagaussian {

Status sobel(const SobelPlane& in, const SobelTarget& out, const SobelSettings& settings, cudaStream_t) {
  if (in.width <= 0 || in.height <= 0)
    return Status::invalid("sobel: empty image " + std::to_string(in.width) + "x" + std::to_string(in.height));
  if (!in.layout.valid())
    return Status::invalid("sobel: unsupported pixel layout (channels " + std::to_string(in.layout.channels) + ")");
  if (out.bytes_per_sample != 1 && out.bytes_per_sample != 2)
    return Status::invalid("sobel: output samples must be 1 or 2 bytes");
  if (!in.data || !out.data) return Status::invalid("sobel: null plane");
  if (in.pitch < static_cast<size_t>(in.width) * in.layout.channels)
    return Status::invalid("sobel: input pitch smaller than a row");
  if (out.pitch < static_cast<size_t>(in.width) * out.bytes_per_sample)
    return Status::invalid("sobel: output pitch smaller than a row");
  if (out.bytes_per_sample == 2 && ((reinterpret_cast<uintptr_t>(out.data) | out.pitch) & 1u) != 0)
    return Status::invalid("sobel: 16-bit output must be 2-byte aligned (data and pitch)");
  if (!(settings.scale >= 0.0 && settings.scale <= kSobelMaxScale))
    return Status::invalid("sobel: scale must be in [0, 65535]");
  const SobelImage image{in.data, in.pitch, in.width, in.height, in.layout};
  reference_sobel(image, settings, out.bytes_per_sample, out.data, out.pitch);
  return Status::success();
}

}  // namespace cudagaussian
