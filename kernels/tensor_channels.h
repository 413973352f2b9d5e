// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core FIR kernels have an instance for 1, 2 and 4 interleaved channels:
// with_tensor_channels(channels, f) calls f(std::integral_constant<int, C>()) for that instance.
// `channels` is 1, 2 or 4: TensorFir::applies() refuses other planes before any launch.
#pragma once

#include <type_traits>

namespace cudagaussian {

template <typename F>
decltype(auto) with_tensor_channels(int channels, F&& f) {
  if (channels == 4) return f(std::integral_constant<int, 4>());
  if (channels == 2) return f(std::integral_constant<int, 2>());
  return f(std::integral_constant<int, 1>());
}

}  // namespace cudagaussian
