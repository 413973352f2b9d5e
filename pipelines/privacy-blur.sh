#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# privacy-blur.sh — blur every face that OpenCV's detector finds, into an MP4 or onto the screen.
#
#   pipelines/privacy-blur.sh [INPUT] [OUTPUT.mp4 | screen]
#
# INPUT is a photo (frozen into a 5 s clip) or a video; default tests/data/messi5.jpg. OUTPUT
# defaults to privacy-blur.mp4. facedetect (gstreamer1.0-opencv, cascades from opencv-data)
# attaches a "face" region-of-interest meta per face and, with display=false, leaves the
# picture alone; cudagaussian blurs inside those regions only, with a sigma scaled to each face
# (roi-strength), a margin around it (roi-padding-ratio), an elliptic soft-edged shape, and each
# face kept covered for 5 frames after the detector misses it (roi-hold). Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"
input="${1:-$root/tests/data/messi5.jpg}"
output="${2:-privacy-blur.mp4}"

case "${input,,}" in
  *.jpg | *.jpeg | *.png) source="filesrc location=\"$input\" ! decodebin ! imagefreeze num-buffers=125 ! video/x-raw,framerate=25/1" ;;
  *) source="filesrc location=\"$input\" ! decodebin" ;;
esac
blur="cudagaussian regions=inside roi-types=face roi-strength=0.2 roi-padding-ratio=0.15 \
roi-shape=ellipse roi-feather=4 roi-hold=5"
if [[ "$output" == screen ]]; then
  sink="videoconvert ! autovideosink"
else
  sink="videoconvert ! x264enc speed-preset=fast ! h264parse ! mp4mux ! filesink location=\"$output\""
fi

# facedetect's OpenCV prints an error line for every optional cascade it cannot find: dropped.
set +e
eval gst-launch-1.0 -e "$source" ! videoconvert ! facedetect display=false ! "$blur" ! "$sink" \
  2>&1 | grep -v "haarcascade_.*Can't open file"
rc=${PIPESTATUS[0]}
set -e
((rc == 0)) && [[ "$output" != screen ]] && echo "wrote $output"
exit "$rc"
