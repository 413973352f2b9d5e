#!/bin/bash
# Second-round GPU checks: all tests, then the recursive and pipeline benchmarks (logs in $OUT).
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
export GST_PLUGIN_PATH_1_0=$PWD/build-gpu/gst
meson test -C build-gpu --print-errorlogs --num-processes 4 > "$OUT/tests.log" 2>&1
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/tests.log"
grep -E "FAIL|:F:|:E:" "$OUT/tests.log" | head -20
cp build-gpu/meson-logs/testlog.txt "$OUT/testlog.txt"
timeout 300 build-gpu/bench/bench_recursive --csv "$OUT/bench_recursive.csv" > "$OUT/bench_recursive.md" 2>&1
echo "bench_recursive rc=$?"
timeout 280 build-gpu/bench/bench_pipeline --csv "$OUT/bench_pipeline.csv" > "$OUT/bench_pipeline.md" 2>&1
echo "bench_pipeline rc=$?"
tail -30 "$OUT/bench_pipeline.md"
