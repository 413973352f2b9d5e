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

step "pipelines"
clip=/tmp/clip.mp4
gst-launch-1.0 -q videotestsrc num-buffers=120 ! video/x-raw,width=1280,height=720,framerate=30/1 \
  ! x264enc ! video/x-h264,profile=main ! h264parse ! mp4mux ! filesink location=$clip 2>&1 | tail -3
for p in \
  "videotestsrc num-buffers=300 ! video/x-raw,format=RGBA,width=1920,height=1080 ! cudagaussian sigma=5 ! fakesink" \
  "videotestsrc num-buffers=300 ! video/x-raw,format=NV12,width=1920,height=1080 ! cudagaussian sigma=5 ! fakesink" \
  "videotestsrc num-buffers=300 ! video/x-raw,format=RGBA,width=1920,height=1080 ! cudaupload ! video/x-raw(memory:CUDAMemory) ! cudagaussian sigma=5 ! video/x-raw(memory:CUDAMemory) ! cudadownload ! fakesink" \
  "filesrc location=$clip ! qtdemux ! h264parse ! nvh264dec ! video/x-raw(memory:CUDAMemory),format=NV12 ! cudagaussian sigma=8 ! cudadownload ! videoconvert ! x264enc ! mp4mux ! filesink location=/tmp/blurred.mp4" \
  "videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=64,height=48 ! cudagaussian sigma=200 truncate=8 ! fakesink"; do
  echo "--- $p"
  start=$(date +%s%N)
  timeout 120 gst-launch-1.0 $p > /tmp/pipeline.log 2>&1
  rc=$?
  grep -v -E "^(Setting|Pipeline|Prerolling|Redistribute|New clock|Freeing|Got EOS)" /tmp/pipeline.log | tail -9
  echo "rc=$rc wall=$(( ($(date +%s%N) - start) / 1000000 )) ms"
done
gst-discoverer-1.0 /tmp/blurred.mp4 2>/dev/null | head -8

step "before/after picture"
if [ -f tests/data/fruits.jpg ]; then
  gst-launch-1.0 -q filesrc location=tests/data/fruits.jpg ! jpegdec ! videoconvert ! video/x-raw,format=RGBA \
    ! cudagaussian sigma=6 ! videoconvert ! pngenc ! filesink location="$OUT/after.png"
  gst-launch-1.0 -q filesrc location=tests/data/fruits.jpg ! jpegdec ! videoconvert ! pngenc ! filesink location="$OUT/before.png"
  ls -la "$OUT"/*.png
fi

step "gst-inspect"
gst-inspect-1.0 cudagaussian > "$OUT/inspect.txt" 2>&1; grep -c . "$OUT/inspect.txt"
