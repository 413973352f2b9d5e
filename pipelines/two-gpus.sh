#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# two-gpus.sh — one pipeline per GPU with cuda-device-id: first both in one process (one
# gst-launch with two branches), then in two processes; prints the fps of each.
#
#   pipelines/two-gpus.sh [sigma] [frames] [system|cuda] [WIDTHxHEIGHT]
#
# Each branch blurs the same RGBA frame (1920x1080 unless given) over and over (videotestsrc makes one frame,
# imagefreeze re-sends it without copying), so the blur, not the source, sets the pace:
#   system  frames in system memory, uploaded and downloaded by the element on its GPU's PCIe link;
#   cuda    the frame uploaded once by cudaupload cuda-device-id=N, blurred in GPU memory (needs
#           gst-plugins-bad's nvcodec, which registers only where NVDEC/NVENC libraries load).
# fps: fpsdisplaysink's average over the branch. Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
sigma="${1:-5}"
frames="${2:-3000}"
memory="${3:-system}"
size="${4:-1920x1080}"

if command -v nvidia-smi >/dev/null && (($(nvidia-smi -L | grep -c '^GPU') < 2)); then
  echo "$0: needs two GPUs; nvidia-smi lists $(nvidia-smi -L | grep -c '^GPU')" >&2
  exit 1
fi
if ! gst-inspect-1.0 fpsdisplaysink >/dev/null 2>&1; then
  echo "$0: GStreamer element fpsdisplaysink is not available (gst-plugins-bad)" >&2
  exit 1
fi
if [[ $memory == cuda ]] && ! gst-inspect-1.0 cudaupload >/dev/null 2>&1; then
  echo "$0: GStreamer element cudaupload is not available (nvcodec needs NVDEC/NVENC libs)" >&2
  exit 1
fi
if [[ $memory != system && $memory != cuda || ! $size =~ ^[0-9]+x[0-9]+$ ]]; then
  echo "usage: $0 [SIGMA] [FRAMES] [system|cuda] [WIDTHxHEIGHT]" >&2
  exit 2
fi

# The branch for GPU $1, ending in an fpsdisplaysink named gpu$1.
branch() {
  local upload=""
  [[ $memory == cuda ]] && upload="! cudaupload cuda-device-id=$1 ! video/x-raw(memory:CUDAMemory)"
  echo "videotestsrc num-buffers=1 pattern=smpte" \
    "! video/x-raw,format=RGBA,width=${size%x*},height=${size#*x},framerate=1000/1 $upload" \
    "! imagefreeze num-buffers=$frames" \
    "! cudagaussian cuda-device-id=$1 sigma=$sigma" \
    "! fpsdisplaysink name=gpu$1 video-sink=fakesink text-overlay=false sync=false" \
    "fps-update-interval=250"
}

# The last average fps that fpsdisplaysink gpu$2 reported in log $1.
average_fps() {
  grep -o "GstFPSDisplaySink:gpu$2: last-message = .*average: [0-9.]*" "$1" | tail -1 |
    sed 's/.*average: //'
}

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

echo "== one process, two branches ($memory memory, $size RGBA, $frames frames each, sigma $sigma)"
start=$(date +%s.%N)
# shellcheck disable=SC2046  # the branches are pipeline descriptions, split on purpose
gst-launch-1.0 -v $(branch 0) $(branch 1) >"$log/one.txt" 2>&1 ||
  { tail -20 "$log/one.txt" >&2; exit 1; }
end=$(date +%s.%N)
for gpu in 0 1; do
  echo "GPU $gpu: $(average_fps "$log/one.txt" $gpu) fps"
done
echo "both: $(awk -v n="$frames" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", 2 * n / (e - s) }')" \
  "fps over the whole run (start-up included)"

echo "== two processes, one per GPU"
start=$(date +%s.%N)
pids=()
for gpu in 0 1; do
  # shellcheck disable=SC2046
  gst-launch-1.0 -v $(branch $gpu) >"$log/gpu$gpu.txt" 2>&1 &
  pids+=($!)
done
for i in 0 1; do
  wait "${pids[$i]}" || { tail -20 "$log/gpu$i.txt" >&2; exit 1; }
done
end=$(date +%s.%N)
for gpu in 0 1; do
  echo "GPU $gpu: $(average_fps "$log/gpu$gpu.txt" $gpu) fps"
done
echo "both: $(awk -v n="$frames" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", 2 * n / (e - s) }')" \
  "fps over the whole run (start-up included)"
