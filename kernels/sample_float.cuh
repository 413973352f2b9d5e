// SPDX-License-Identifier: LGPL-2.1-or-later
// Stored samples to float and back without conversion instructions, which run at a fraction of
// the multiply-add rate: an integer below 2^23 is the low bits of the float 2^23 + v. A stored
// sample's value is stored >> shift; 8-bit planes have no shift (PlaneGeometry::valid), so their
// shift is not even read.
#pragma once

#include <type_traits>

namespace cudagaussian {

template <typename T>
__device__ __forceinline__ int sample_shift_of(int shift) {
  return sizeof(T) == 1 ? 0 : shift;
}

// The value of a stored 8- or 16-bit sample, as float.
template <typename T>
__device__ __forceinline__ float sample_as_float(T stored, int shift) {
  return __uint_as_float(0x4B000000u | (static_cast<unsigned>(stored) >> sample_shift_of<T>(shift))) - 8388608.0f;
}

// rounded_sample(v, max_value) (sample_finish.h), stored: clamped first (the bounds are
// integers, so clamping commutes with the floor), then floored by an addition onto 2^23 rounded
// down; the sample type keeps the low bits, dropping the float's exponent above them.
template <typename T>
__device__ __forceinline__ T stored_sample(float v, float max_value, int shift) {
  static_assert(sizeof(T) <= 2, "the sample keeps the low 16 bits of 2^23 + value");
  const float clamped = fminf(fmaxf(v + 0.5f, 0.0f), max_value);
  return static_cast<T>(__float_as_uint(__fadd_rd(clamped, 8388608.0f)) << sample_shift_of<T>(shift));
}

}  // namespace cudagaussian
