#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# nvdec-blur-x264.sh — NVDEC decode into GPU memory → cudagaussian → download → x264 (CPU) encode.
# For GPUs without NVENC, such as the data-centre H100/H200.
#
#   pipelines/nvdec-blur-x264.sh input.mp4 output.mp4 [sigma]
#
# input.mp4: MP4/MOV with H.264 video. Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
if (($# < 2)); then
  echo "usage: $0 INPUT.mp4 OUTPUT.mp4 [SIGMA]" >&2
  exit 2
fi

exec gst-launch-1.0 -e \
  filesrc location="$1" ! qtdemux ! h264parse ! nvh264dec \
  ! 'video/x-raw(memory:CUDAMemory)' \
  ! cudagaussian sigma="${3:-4}" \
  ! cudadownload ! videoconvert ! x264enc speed-preset=fast bitrate=8000 \
  ! video/x-h264,profile=main ! h264parse ! mp4mux ! filesink location="$2"
