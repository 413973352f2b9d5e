set -x
meson test -C build-gpu --print-errorlogs --num-processes 12 > $OUT/test.log 2>&1; grep -E "^(Ok|Fail|Skipped|Timeout)" $OUT/test.log; grep -E "^FAIL|CHECK failed|^[0-9]+/[0-9]+ .*FAIL" $OUT/test.log | head -20
grep -E "keeping_a_channel|in_place_uploads" $OUT/test.log | head
CG_TEST_FILTER=keeping compute-sanitizer --tool memcheck build-gpu/tests/test_sharpen_gpu > $OUT/mc1.txt 2>&1; tail -3 $OUT/mc1.txt
CG_TEST_FILTER=in_place compute-sanitizer --tool memcheck build-gpu/tests/test_region_gpu > $OUT/mc2.txt 2>&1; tail -2 $OUT/mc2.txt
build-gpu/bench/bench_regions --csv $OUT/regions_h100.csv > $OUT/regions_h100.md 2>&1; grep -E "^\| (copy|whole frame, FrameBlur auto|blur 1 box|blur 10 boxes 200|blur 100 boxes|fill)" $OUT/regions_h100.md
build-gpu/bench/bench_fir --quick > $OUT/fir.md 2>&1; head -40 $OUT/fir.md
