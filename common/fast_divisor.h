// SPDX-License-Identifier: LGPL-2.1-or-later
// Division by a number fixed before a kernel runs, as a multiply and a shift (Granlund and
// Montgomery, "Division by invariant integers using multiplication", PLDI 1994): a kernel that
// divides by a plan's value pays two instructions instead of an integer division's twenty.
#pragma once

#include <cstdint>

#include "border.h"  // CG_HOST_DEVICE

namespace cudagaussian {

// n / d for 0 <= n < 2^31 and 1 <= d < 2^31. With l = ceil(log2 d) and m = ceil(2^(31 + l) / d),
// m d - 2^(31 + l) < d <= 2^l, which makes floor(m n / 2^(31 + l)) = floor(n / d) for every
// n < 2^31; m < 2^32 since d > 2^(l - 1).
struct FastDivisor {
  uint32_t multiplier = 1u << 31;
  uint32_t shift = 31;
  int divisor = 1;

  FastDivisor() = default;
  explicit FastDivisor(int d) : divisor(d) {
    uint32_t l = 0;
    while ((1ull << l) < static_cast<uint64_t>(d)) ++l;
    shift = 31 + l;
    multiplier = static_cast<uint32_t>(((1ull << shift) + static_cast<uint64_t>(d) - 1) / static_cast<uint64_t>(d));
  }
  CG_HOST_DEVICE int divide(int n) const {
    return static_cast<int>((static_cast<uint64_t>(static_cast<uint32_t>(n)) * multiplier) >> shift);
  }
};

}  // namespace cudagaussian
