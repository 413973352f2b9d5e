#!/bin/bash
# Everything we verify on the lent GPU host, in one call (run through the GStreamer bundle):
#   bash .gst-bundle/run.sh 'bash tools/gpu-host-check.sh'
# with MESON_ARGS=-Dgpu_arch=90 to build only for Hopper. Logs and results go to $OUT.
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
mkdir -p "$OUT"
export GST_PLUGIN_PATH_1_0=$PWD/build-gpu/gst
step() { echo; echo "=== $*"; }

step "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv

step "tests"
meson test -C build-gpu --print-errorlogs --num-processes 4 2>&1 | tee "$OUT/tests.log" | tail -25
cp build-gpu/meson-logs/testlog.txt "$OUT/testlog.txt" 2>/dev/null

step "compute-sanitizer (memcheck over all kernel cases, racecheck over a subset)"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/tests/test_fir_gpu > "$OUT/memcheck.log" 2>&1
echo "memcheck rc=$?"; tail -4 "$OUT/memcheck.log"
CG_TEST_FILTER=channels timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 build-gpu/tests/test_fir_gpu > "$OUT/racecheck.log" 2>&1
echo "racecheck rc=$?"; tail -4 "$OUT/racecheck.log"

step "kernel benchmark"
build-gpu/bench/bench_fir "$OUT/bench_fir.csv" 2>&1 | tee "$OUT/bench.log"

step "pipelines (the scripts of pipelines/ and the README's main command)"
clip=/tmp/clip.mp4
gst-launch-1.0 -q videotestsrc num-buffers=120 ! video/x-raw,width=1280,height=720,framerate=30/1 \
  ! x264enc ! video/x-h264,profile=main ! h264parse ! mp4mux ! filesink location=$clip 2>&1 | tail -3
run() {  # label command...
  echo "--- $1"; shift
  local start=$(date +%s%N)
  timeout 180 "$@" > /tmp/step.log 2>&1
  local rc=$?
  grep -v -E "^(Setting|Pipeline|Prerolling|Redistribute|New clock|Freeing|Got EOS|Got context|Waiting|EOS on)" /tmp/step.log | tail -12
  echo "rc=$rc wall=$(( ($(date +%s%N) - start) / 1000000 )) ms"
}
run "file to file" bash pipelines/file-to-file.sh $clip /tmp/file-blurred.mp4 6
run "CUDA memory (cudaupload, 1080p NV12, 600 frames)" bash pipelines/cuda-memory.sh 4 600
run "NVDEC -> blur in CUDA memory -> x264" bash pipelines/nvdec-blur-x264.sh $clip /tmp/nvdec-blurred.mp4 8
ls -la /tmp/file-blurred.mp4 /tmp/nvdec-blurred.mp4
run "bad settings give a clear error" gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian sigma=200 truncate=8 ! fakesink
run "README main command (tools/demo.sh)" env CG_SKIP_APT=1 MESON_ARGS=-Dgpu_arch=90 FRAMES=600 OUTPUT=/tmp/demo.mp4 bash tools/demo.sh
ls -la /tmp/demo.mp4
run "before/after picture" bash pipelines/before-after.sh tests/data/fruits.jpg 6 "$OUT/before-after.png"

step "gst-inspect"
gst-inspect-1.0 cudagaussian > "$OUT/inspect.txt" 2>&1; grep -c . "$OUT/inspect.txt"
