set -x
build-gpu/bench/bench_regions --csv $OUT/regions.csv > $OUT/regions.md 2>&1; cat $OUT/regions.md
meson test -C build-gpu --print-errorlogs --num-processes 12 > $OUT/test.log 2>&1; grep -E "^(Ok|Fail|Skipped|Timeout)" $OUT/test.log; grep -E "^FAIL|CHECK failed" $OUT/test.log | head -20
CG_TEST_FILTER=in_place compute-sanitizer --tool memcheck build-gpu/tests/test_region_gpu > $OUT/memcheck.txt 2>&1; tail -2 $OUT/memcheck.txt
CG_TEST_FILTER=1024 compute-sanitizer --tool memcheck build-gpu/tests/test_region_gpu > $OUT/memcheck2.txt 2>&1; tail -2 $OUT/memcheck2.txt
build-gpu/bench/bench_regions --only "10 boxes 200x200" > $OUT/regions2.md 2>&1; grep -E "^\| (copy|whole frame, FrameBlur auto|blur|fill)" $OUT/regions2.md
