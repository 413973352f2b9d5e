#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/demo.sh — the README's main command: build the plugin (tools/setup.sh), blur a video on the
# GPU into an MP4 you can open, and print frames per second.
#
#   tools/demo.sh                 600 frames of 1080p60 SMPTE bars (videotestsrc), sigma 6
#   tools/demo.sh input.mp4       any file GStreamer can decode instead
#
# Writes cudagaussian-demo.mp4 in the current directory (or $OUTPUT). Prints three rates:
#   whole pipeline  source → cudagaussian → videoconvert → x264enc → mp4mux → file
#   blur only       source → cudagaussian → fakesink
#   source only     source → fakesink (the ceiling the two above are measured against)
# Before them, one frame goes through cudagaussian alone, and the script prints how long after its
# start that first frame was blurred ("demo: first frame blurred N s after the start").
# Environment: SIGMA (default 6), FRAMES (default 600, built-in source only), OUTPUT, GPU_ARCH
# (e.g. 90: the architectures to build for instead of nvidia-smi's answer).
# Exits non-zero with GStreamer's error message when a pipeline fails (e.g. no CUDA device).
#
# Builds only the plugin, in its own build-demo/ (no tests, benchmarks, examples nor stand-in), for
# the architecture of the GPU present (nvidia-smi's compute capability); without nvidia-smi, for
# the default list. The build's timings: docs/bench/demo_build.txt.
set -euo pipefail
started="$(date +%s.%N)"
since_start() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sigma="${SIGMA:-6}"
frames="${FRAMES:-600}"
output="${OUTPUT:-cudagaussian-demo.mp4}"
input="${1:-}"
if [[ -n "$input" && ! -r "$input" ]]; then
  echo "demo: cannot read input file '$input'" >&2
  exit 2
fi

# The GPUs' compute capabilities as gpu_arch wants them ("9.0" -> "90", several joined by commas);
# empty without nvidia-smi or a driver.
gpu_arch() {
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
    awk '/^[0-9]+\.[0-9]+$/ { sub(/\./, ""); print }' | sort -un | paste -sd, -
}

arch="${GPU_ARCH:-$(gpu_arch || true)}"
if [[ -n "${GPU_ARCH:-}" ]]; then
  echo "demo: building the plugin for compute capability ${arch} (GPU_ARCH)" >&2
elif [[ -n "$arch" ]]; then
  echo "demo: building the plugin for this GPU (compute capability ${arch})" >&2
else
  echo "demo: no nvidia-smi answer: building the plugin for every default GPU architecture" >&2
fi
build="$root/build-demo"
CG_BUILD_DIR="$build"
CG_TARGETS="gst/libgstcudagaussian.so"
MESON_ARGS="-Dtests=disabled -Dbench=false -Dexamples=false -Dstandin=false${arch:+ -Dgpu_arch=$arch}"
# shellcheck source=tools/setup.sh
. "$root/tools/setup.sh" || { echo "demo: setup or build failed (see above)" >&2; exit 1; }
echo "demo: plugin built $(since_start) s after the start" >&2

export GST_PLUGIN_PATH="$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
if ! gst-inspect-1.0 cudagaussian >/dev/null 2>&1; then
  echo "demo: GStreamer cannot load the cudagaussian element from $build/gst" >&2
  gst-inspect-1.0 -b 2>&1 | grep -i cudagaussian >&2 || true
  exit 1
fi

if [[ -n "$input" ]]; then
  # decodebin may pick a GPU decoder; videoconvert keeps the choice of format and memory open.
  src=(filesrc "location=$input" ! decodebin ! videoconvert)
  counted=1  # frame count unknown: count buffers with identity
else
  src=(videotestsrc "num-buffers=$frames" pattern=smpte
       ! "video/x-raw,width=1920,height=1080,framerate=60/1,format=RGBA")
  counted=0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# Runs one pipeline; sets $rate to its frames per second or prints the error and exits.
run_pipeline() {
  local label="$1"
  shift
  local t0 t1 exec_s n
  t0="$(date +%s.%N)"
  if ! gst-launch-1.0 -e -v "$@" >"$log" 2>&1; then
    echo "demo: the '$label' run failed:" >&2
    grep -E -A4 '^(ERROR|WARNING: erroneous pipeline)' "$log" >&2 || tail -n 20 "$log" >&2
    # No half-written (or empty) video left behind as if it were the result.
    [[ -n "${partial:-}" ]] && rm -f "$partial"
    exit 1
  fi
  t1="$(date +%s.%N)"
  # gst-launch reports the time from PLAYING to EOS; prefer it over wall time (no startup).
  exec_s="$(sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' "$log" |
    awk '{ printf "%.6f", $1 * 3600 + $2 * 60 + $3 }')"
  [[ -n "$exec_s" ]] || exec_s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
  if ((counted)); then
    n="$(grep -c 'last-message = chain' "$log" || true)"
  else
    n="$frames"
  fi
  rate="$(awk -v n="$n" -v s="$exec_s" 'BEGIN { printf "%.1f", (s > 0) ? n / s : 0 }')"
  printf '%-15s %6d frames in %8.3f s: %8s fps\n' "$label" "$n" "$exec_s" "$rate"
}

count=()
if ((counted)); then count=(identity name=count silent=false !); fi

echo "demo: sigma $sigma, source: ${input:-videotestsrc 1920x1080 RGBA, $frames frames}"
# The first frame, alone: source -> cudagaussian -> fakesink, one buffer.
if ! gst-launch-1.0 -e "${src[@]}" ! identity eos-after=1 ! cudagaussian "sigma=$sigma" ! fakesink >"$log" 2>&1; then
  echo "demo: the first frame could not be blurred:" >&2
  grep -E -A4 '^(ERROR|WARNING: erroneous pipeline)' "$log" >&2 || tail -n 20 "$log" >&2
  exit 1
fi
echo "demo: first frame blurred $(since_start) s after the start"
partial="$output"
run_pipeline "whole pipeline" "${src[@]}" ! "${count[@]}" cudagaussian "sigma=$sigma" \
  ! videoconvert n-threads=0 ! x264enc speed-preset=ultrafast bitrate=12000 key-int-max=120 \
  ! video/x-h264,profile=main ! h264parse ! mp4mux ! filesink "location=$output"
partial=""
run_pipeline "blur only" "${src[@]}" ! "${count[@]}" cudagaussian "sigma=$sigma" ! fakesink
run_pipeline "source only" "${src[@]}" ! "${count[@]}" fakesink
echo "demo: wrote $(cd "$(dirname "$output")" && pwd)/$(basename "$output")"
