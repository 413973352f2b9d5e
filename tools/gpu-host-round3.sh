#!/bin/bash
# Third-round GPU checks: all tests, sanitizers over the recursive kernels, the peers (logs in $OUT).
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
export GST_PLUGIN_PATH_1_0=$PWD/build-gpu/gst
meson test -C build-gpu --print-errorlogs --num-processes 4 > "$OUT/tests.log" 2>&1
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/tests.log"
grep -E "FAIL|:F:|:E:" "$OUT/tests.log" | head -20
cp build-gpu/meson-logs/testlog.txt "$OUT/testlog.txt"
CG_TEST_FILTER=constant timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/tests/test_recursive_gpu > "$OUT/memcheck-recursive.log" 2>&1
echo "memcheck recursive rc=$?"; tail -2 "$OUT/memcheck-recursive.log"
CG_TEST_FILTER=sixteen timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 build-gpu/tests/test_recursive_gpu > "$OUT/racecheck-recursive.log" 2>&1
echo "racecheck recursive rc=$?"; tail -2 "$OUT/racecheck-recursive.log"
timeout 300 python3 bench/peers.py --csv "$OUT/peers.csv" > "$OUT/peers.md" 2>&1
echo "peers rc=$?"; tail -25 "$OUT/peers.md"
python3 -c "import matplotlib; print('matplotlib', matplotlib.__version__)" 2>&1 | tail -1
