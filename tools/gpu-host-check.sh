#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Everything we verify on the lent GPU host, through the GStreamer bundle:
#   MESON_ARGS=-Dgpu_arch=90 bash .gst-bundle/run.sh 'bash tools/gpu-host-check.sh [PARTS]'
# PARTS: any of tests sanitizers asan bench soak peers pipelines two-gpus (default: all but asan,
# which builds the project a second time with ASan/UBSan and runs every test suite there, and
# two-gpus, which needs a host with two GPUs). Logs, CSVs and reports go to $OUT; a short summary
# goes to stdout.
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
mkdir -p "$OUT"
export GST_PLUGIN_PATH_1_0=$PWD/build-gpu/gst
parts=${*:-tests sanitizers bench soak peers pipelines}
want() { [[ " $parts " == *" $1 "* ]]; }
step() { echo; echo "=== $*"; }

step "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if want tests; then
  step "tests"
  meson test -C build-gpu --print-errorlogs --num-processes 4 > "$OUT/tests.log" 2>&1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/tests.log"
  grep -E "FAIL|:F:|:E:" "$OUT/tests.log" | head -20
  cp build-gpu/meson-logs/testlog.txt "$OUT/testlog.txt"
fi

if want sanitizers; then
  step "compute-sanitizer"
  sanitize() {  # tool test filter
    CG_TEST_FILTER=$3 timeout 300 compute-sanitizer --tool "$1" --error-exitcode 9 \
      "build-gpu/tests/$2" > "$OUT/$1-$2.log" 2>&1
    echo "$1 $2 (${3:-all cases}): rc=$? $(grep -E 'SUMMARY' "$OUT/$1-$2.log")"
  }
  sanitize memcheck test_fir_gpu ""
  sanitize memcheck test_fir_plans_gpu ""
  sanitize initcheck test_fir_gpu per_pixel
  sanitize racecheck test_fir_gpu channels
  sanitize memcheck test_recursive_gpu constant
  sanitize racecheck test_recursive_gpu sixteen
  sanitize memcheck test_box_direct_gpu ""
  sanitize racecheck test_box_direct_gpu ""
  sanitize memcheck test_sobel_gpu ""
  sanitize memcheck test_edge_aware_gpu exact
  sanitize initcheck test_edge_aware_gpu full_hd
  sanitize initcheck test_fir_gpu channels
  sanitize memcheck test_recursive_gpu ""
  sanitize racecheck test_recursive_gpu every
  sanitize initcheck test_recursive_gpu every
  sanitize racecheck test_sobel_gpu small
  sanitize initcheck test_sobel_gpu sd
  sanitize racecheck test_edge_aware_gpu exact
  sanitize initcheck test_box_direct_gpu ""
  sanitize memcheck test_edge_aware_gpu ""
fi

if want asan; then
  step "ASan + UBSan build (build-asan), all test suites"
  { meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false ${MESON_ARGS:-} &&
    ninja -C build-asan; } > "$OUT/asan-build.log" 2>&1 || { echo "asan build failed"; tail -20 "$OUT/asan-build.log"; }
  meson test -C build-asan --print-errorlogs --num-processes 4 --timeout-multiplier 3 > "$OUT/asan-tests.log" 2>&1
  echo "asan tests rc=$?"
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/asan-tests.log"
  grep -m 20 -E "ERROR: AddressSanitizer|runtime error:|LeakSanitizer" "$OUT/asan-tests.log"
fi

if want bench; then
  step "benchmarks"
  build-gpu/bench/bench_fir --csv "$OUT/bench_fir.csv" > "$OUT/bench_fir.md" 2>&1; echo "bench_fir rc=$?"
  build-gpu/bench/bench_fir --sizes --csv "$OUT/bench_fir_sizes.csv" > "$OUT/bench_fir_sizes.md" 2>&1
  echo "bench_fir --sizes rc=$?"
  timeout 400 build-gpu/bench/bench_recursive --csv "$OUT/bench_recursive.csv" > "$OUT/bench_recursive.md" 2>&1
  echo "bench_recursive rc=$?"
  timeout 300 build-gpu/bench/bench_pipeline --csv "$OUT/bench_pipeline.csv" > "$OUT/bench_pipeline.md" 2>&1
  echo "bench_pipeline rc=$?"
  sed -n '/^## Targets/,$p' "$OUT/bench_pipeline.md"
  # Live latency through GStreamer's latency tracer, then without it and the parallel branches.
  { GST_TRACERS=latency timeout 120 build-gpu/bench/bench_pipeline --live-latency
    echo; echo "The same without the tracer (GST_TRACERS unset), and the branches:"; echo
    timeout 200 build-gpu/bench/bench_pipeline --live-latency --branches | tail -n +3
  } > "$OUT/pipeline_latency_branches.md" 2>/dev/null
  echo "bench_pipeline --live-latency --branches rc=$?"
  timeout 120 build-gpu/bench/bench_lanes --csv "$OUT/bench_lanes.csv" > "$OUT/bench_lanes.md" 2>&1
  echo "bench_lanes rc=$?"
  timeout 200 build-gpu/bench/bench_sobel --csv "$OUT/bench_sobel.csv" > "$OUT/bench_sobel.md" 2>&1
  echo "bench_sobel rc=$?"
  timeout 300 build-gpu/bench/bench_edge_aware --csv "$OUT/bench_edge_aware.csv" > "$OUT/bench_edge_aware.md" 2>&1
  echo "bench_edge_aware rc=$?"
fi

if want soak; then
  step "soak"
  timeout 200 build-gpu/bench/soak 100000 > "$OUT/soak.log" 2>&1
  echo "soak rc=$?"; tail -12 "$OUT/soak.log"
fi

if want peers; then
  step "peers"
  timeout 300 python3 bench/peers.py --csv "$OUT/peers.csv" > "$OUT/peers.md" 2>&1
  echo "peers rc=$?"
fi

if want pipelines; then
  step "pipelines (the scripts of pipelines/ and the README's main command)"
  clip=/tmp/clip.mp4
  gst-launch-1.0 -q videotestsrc num-buffers=120 ! video/x-raw,width=1280,height=720,framerate=30/1 \
    ! x264enc ! video/x-h264,profile=main ! h264parse ! mp4mux ! filesink location=$clip 2>&1 | tail -3
  run() {  # label command...
    echo "--- $1"; shift
    local start=$(date +%s%N)
    timeout 180 "$@" > /tmp/step.log 2>&1
    local rc=$?
    grep -v -E "^(Setting|Pipeline|Prerolling|Redistribute|New clock|Freeing|Got EOS|Got context|Waiting|EOS on)" /tmp/step.log | tail -9
    echo "rc=$rc wall=$(( ($(date +%s%N) - start) / 1000000 )) ms"
  }
  run "file to file" bash pipelines/file-to-file.sh $clip /tmp/file-blurred.mp4 6
  run "edge-aware file to file" bash pipelines/edge-aware.sh $clip /tmp/edge-aware.mp4 12 25
  run "CUDA memory (cudaupload, 1080p NV12, 600 frames)" bash pipelines/cuda-memory.sh 4 600
  run "NVDEC -> blur in CUDA memory -> x264" bash pipelines/nvdec-blur-x264.sh $clip /tmp/nvdec-blurred.mp4 8
  ls -la /tmp/file-blurred.mp4 /tmp/nvdec-blurred.mp4
  run "large sigma with algorithm=auto (Deriche)" gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=640,height=480 ! cudagaussian sigma=200 truncate=8 ! fakesink
  run "FIR radius over the limit: a clear error" gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian algorithm=fir sigma=200 truncate=8 ! fakesink
  run "README main command (tools/demo.sh)" env CG_SKIP_APT=1 MESON_ARGS=-Dgpu_arch=90 FRAMES=600 OUTPUT=/tmp/demo.mp4 bash tools/demo.sh
  ls -la /tmp/demo.mp4
  gst-inspect-1.0 cudagaussian > "$OUT/inspect.txt" 2>&1
fi

if want two-gpus; then
  step "two GPUs (test, pipelines/two-gpus.sh, bench_two_gpus)"
  nvidia-smi -L
  nvidia-smi topo -m > "$OUT/topo.txt" 2>&1; head -5 "$OUT/topo.txt"
  meson test -C build-gpu -v --suite two_gpus > "$OUT/two_gpus-tests.log" 2>&1
  echo "two_gpus tests rc=$?"
  grep -E "^ *[0-9]+/[0-9]+ |correct|skipped|peer access|Checks|:F:|:E:" "$OUT/two_gpus-tests.log"
  for memory in system cuda; do
    timeout 300 bash pipelines/two-gpus.sh 5 3000 $memory > "$OUT/two-gpus-$memory.log" 2>&1
    echo "two-gpus.sh $memory rc=$?"; cat "$OUT/two-gpus-$memory.log"
  done
  timeout 500 build-gpu/bench/bench_two_gpus --csv "$OUT/two_gpus.csv" > "$OUT/two_gpus.md" 2>"$OUT/two_gpus.err"
  echo "bench_two_gpus rc=$?"; cat "$OUT/two_gpus.md"; tail -3 "$OUT/two_gpus.err"
fi
