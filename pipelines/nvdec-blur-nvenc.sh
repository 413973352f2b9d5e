#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# nvdec-blur-nvenc.sh — all on the GPU: NVDEC decode → cudagaussian → NVENC encode; the frames never
# leave GPU memory.
#
#   pipelines/nvdec-blur-nvenc.sh input.mp4 output.mp4 [sigma]
#
# input.mp4: MP4/MOV with H.264 video. Needs a GPU with NVENC: GeForce/RTX/most workstation GPUs
# have it; the data-centre H100 and H200 do not (use nvdec-blur-x264.sh there).
# Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
if (($# < 2)); then
  echo "usage: $0 INPUT.mp4 OUTPUT.mp4 [SIGMA]" >&2
  exit 2
fi
for e in nvh264dec nvh264enc; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "$0: GStreamer element $e is not available (no NVDEC/NVENC on this GPU or driver);" \
      "without NVENC use pipelines/nvdec-blur-x264.sh" >&2
    exit 1
  fi
done

exec gst-launch-1.0 -e \
  filesrc location="$1" ! qtdemux ! h264parse ! nvh264dec \
  ! 'video/x-raw(memory:CUDAMemory)' \
  ! cudagaussian sigma="${3:-4}" \
  ! nvh264enc ! h264parse ! mp4mux ! filesink location="$2"
