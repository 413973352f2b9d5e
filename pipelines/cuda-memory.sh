#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# cuda-memory.sh — the zero-copy path: frames already in GPU memory (memory:CUDAMemory) are blurred
# there with no host copy, in the CUDA context shared with cudaupload/cudadownload.
#
#   pipelines/cuda-memory.sh [sigma] [frames]
#
# cudaupload/cudadownload come from gst-plugins-bad's nvcodec plugin; in Debian 12 they register
# only where the NVIDIA driver's NVDEC/NVENC libraries load. Prints the run time (-v shows caps).
# Assumes the plugin is built (tools/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$root/build/gst}"

exec gst-launch-1.0 -e \
  videotestsrc num-buffers="${2:-600}" pattern=smpte \
  ! video/x-raw,format=NV12,width=1920,height=1080,framerate=60/1 \
  ! cudaupload ! 'video/x-raw(memory:CUDAMemory)' \
  ! cudagaussian sigma="${1:-4}" \
  ! 'video/x-raw(memory:CUDAMemory)' ! cudadownload ! fakesink
