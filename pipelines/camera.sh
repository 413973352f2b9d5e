#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# camera.sh — live blur of a V4L2 camera on screen.
#
#   pipelines/camera.sh [/dev/video0] [sigma]
#
# The sigma property is controllable and may be changed while PLAYING (e.g. from an application
# with g_object_set); this script keeps it fixed. Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"

exec gst-launch-1.0 -e \
  v4l2src device="${1:-/dev/video0}" ! videoconvert \
  ! cudagaussian sigma="${2:-8}" \
  ! videoconvert ! autovideosink
