B=build-gpu/bench
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats --section ComputeWorkloadAnalysis --section SourceCounters"
ncu --clock-control none $SEC -k regex:fused_kernel --launch-skip 100 -c 1 $B/bench_fir > $OUT/ncu_fused_r2.txt 2>&1
ncu --clock-control none $SEC -k regex:fused_kernel --launch-skip 1000 -c 1 $B/bench_fir > $OUT/ncu_fused_r8.txt 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Issued Warp|Block Limit|Theoretical Occ|Mem Busy|L1/TEX Hit|L2 Hit|Executed Ipc A|Dynamic Shared|Threads  " $OUT/ncu_fused_r2.txt > $OUT/summary.txt
