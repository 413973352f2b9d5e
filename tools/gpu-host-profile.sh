#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Nsight Compute profiles of the FIR kernels inside bench_fir (run through the GStreamer bundle,
# after a build): the fused kernel at sigma 2 and the two-pass kernels at sigma 10.
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
prof() {  # name regex skip
  ncu --clock-control none $sections -k "regex:$2" --launch-skip "$3" -c 1 build-gpu/bench/bench_fir \
    > "$OUT/ncu-$1.txt" 2>&1
  echo "--- $1"; grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|Shared Memory Config|Dynamic Shared|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Stall|theoretical" "$OUT/ncu-$1.txt" | head -40
}
prof fused-s2 fused_kernel 450
prof column-s10 column_kernel 230
prof row-s10 row_kernel 230
