#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# before-after.sh — a side-by-side PNG of a still image: the original on the left, blurred by
# cudagaussian on the right.
#
#   pipelines/before-after.sh photo.(jpg|png) [sigma | "properties"] [output.png]
#
# Default sigma 8 (a number is the sigma; anything else, e.g. "sigma=1.5 sharpen=0.8", is
# cudagaussian's properties), default output before-after.png. Both halves pass through the same decode and
# RGBA conversion; only the right one through cudagaussian. Assumes the plugin is built
# (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
if (($# < 1)); then
  echo "usage: $0 IMAGE [SIGMA | \"PROPERTIES\"] [OUTPUT.png]" >&2
  exit 2
fi
input="$1"
props="${2:-8}"
if [[ "$props" =~ ^[0-9.]+$ ]]; then
  props="sigma=$props"
fi
output="${3:-before-after.png}"

# The blurred half goes right of the original: find the image's width from the decoded caps.
width="$(gst-launch-1.0 -v filesrc location="$input" ! decodebin ! fakesink 2>&1 |
  sed -n 's/.*caps = video\/x-raw.*width=(int)\([0-9]*\).*/\1/p' | head -n 1)"
if [[ -z "$width" ]]; then
  echo "$0: could not decode '$input' as an image" >&2
  exit 1
fi

gst-launch-1.0 -e \
  compositor name=mix sink_0::xpos=0 sink_1::xpos="$width" \
  ! videoconvert ! pngenc ! filesink location="$output" \
  filesrc location="$input" ! decodebin ! imagefreeze num-buffers=1 \
  ! videoconvert ! video/x-raw,format=RGBA ! tee name=t \
  t. ! queue ! mix.sink_0 \
  t. ! queue ! cudagaussian $props ! mix.sink_1
echo "wrote $output"
