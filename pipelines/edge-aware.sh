#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# edge-aware.sh — smooth a video while keeping its edges (algorithm=edge-aware) into an MP4.
#
#   pipelines/edge-aware.sh IN OUT.mp4 [sigma] [sigma-r]
#
# sigma sets how far the smoothing reaches (pixels), sigma-r the contrast (8-bit levels) that
# counts as an edge: small sigma-r keeps more edges, a large one blurs like a plain Gaussian.
# Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 IN OUT.mp4 [sigma] [sigma-r]" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"

exec gst-launch-1.0 -e \
  filesrc location="$1" ! decodebin ! videoconvert ! video/x-raw,format=RGBA \
  ! cudagaussian algorithm=edge-aware sigma="${3:-12}" sigma-r="${4:-25}" \
  ! videoconvert ! x264enc ! video/x-h264,profile=main ! h264parse ! mp4mux \
  ! filesink location="$2"
