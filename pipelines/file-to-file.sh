#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# file-to-file.sh — blur a video file into an H.264 MP4.
#
#   pipelines/file-to-file.sh input.(mp4|mkv|webm|...) output.mp4 [sigma]
#
# decodebin picks any installed decoder (a GPU one where available); videoconvert passes the
# decoder's format through when cudagaussian accepts it, so no conversion happens for NV12/I420.
# Audio is dropped. Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
if (($# < 2)); then
  echo "usage: $0 INPUT OUTPUT.mp4 [SIGMA]" >&2
  exit 2
fi

exec gst-launch-1.0 -e \
  filesrc location="$1" ! decodebin ! videoconvert \
  ! cudagaussian sigma="${3:-4}" \
  ! videoconvert ! x264enc speed-preset=fast bitrate=8000 ! h264parse \
  ! mp4mux ! filesink location="$2"
