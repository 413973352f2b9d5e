// SPDX-License-Identifier: LGPL-2.1-or-later
// The tensor-core operations of the FIR kernels (tensor_fir_fused.cu, tensor_fir_rolling.cu):
// matrix loads from shared memory and the m16n8k16 product, in the fragment layout of the PTX
// ISA's mma.sync.
#pragma once

#include <cstring>

#include <cuda_fp16.h>

namespace cudagaussian {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// The 8x8 matrices of 16-bit values whose rows the lanes point at (lanes 8 j .. 8 j + 7: the
// rows of matrix j), as mma.sync takes its operands.
__device__ __forceinline__ void load_matrices_x4(unsigned (&r)[4], const half* rows) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(rows)));
}
__device__ __forceinline__ void load_matrices_x2(unsigned (&r)[2], const half* rows) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(shared_address(rows)));
}

// d (16x8, fp32) += a (16x16, fp16, row-major) x b (16x8, fp16, column-major). Compute
// capability 8.0 on; TensorFir never launches the kernel below that, and it would trap there.
__device__ __forceinline__ void multiply_add(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();
#endif
}

__device__ __forceinline__ unsigned pack_halves(float lo, float hi) {
  const half2 h = __floats2half2_rn(lo, hi);
  unsigned u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}

// The band tables (fused_fir_bands.h) from global into shared memory, by `threads` threads: rows
// of 16 halves, their two 16-byte halves swapped in rows 4-7 of every 8, so that the eight rows
// of a matrix load fall in different banks (FragmentLanes reads them so).
__device__ __forceinline__ void copy_swizzled_tables(half* to, const void* from, int values, int threads) {
  for (int i = threadIdx.x; i < values / 8; i += threads) {
    const int table_row = i / 2;
    reinterpret_cast<uint4*>(to)[2 * table_row + (i % 2 ^ table_row / 4 % 2)] = __ldg(reinterpret_cast<const uint4*>(from) + i);
  }
}

// Where a lane points in the matrix loads of the FIR's products: a row block's four 8x8 quarters
// (rows 0-7 and 8-15 of columns 0-7, then of columns 8-15), swizzled; 16 staged rows of 16
// pixels (rows 0-7 then 8-15, columns 0-7 and 8-15 of each); a column block's columns 0-7 and
// 8-15, swizzled.
struct FragmentLanes {
  int band_at, staged_row, staged_column, column_at;
  __device__ explicit FragmentLanes(int lane) {
    const int band_row = lane % 8 + (lane / 8 % 2) * 8, band_column = lane / 16 * 8;
    const int column_row = lane % 8, column_column = lane / 8 % 2 * 8;
    band_at = band_row * 16 + (band_column ^ band_row / 4 % 2 * 8);
    staged_row = lane % 8 + lane / 16 * 8;
    staged_column = lane / 8 % 2 * 8;
    column_at = column_row * 16 + (column_column ^ column_row / 4 % 2 * 8);
  }
};

}  // namespace cudagaussian
