#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/check-readme-pipelines.sh — runs every `gst-launch-1.0 …` line of README.md and docs/*.md
# as written, bounded, and reports each as passed, failed or skipped; ends with
# "N passed, N failed, N skipped" and exits 1 when one failed.
#
#   tools/check-readme-pipelines.sh [PLUGIN_DIR]     (default: $GST_PLUGIN_PATH, else build/gst)
#
# What is changed in a line before it runs, and said in its report:
#   - videotestsrc and v4l2src get num-buffers=N (CG_PIPELINE_BUFFERS, default 60) unless they
#     have one: each line ends by itself;
#   - autovideosink becomes fakesink (no display here), and playbin, whose video sink would be
#     autovideosink, gets video-sink=fakesink;
#   - input.mp4 and file:///path/to/video.mp4 become a 2-second MJPEG clip (Matroska) made here
#     (jpegenc, matroskamux: no H.264 decoder needed), blurred.mp4 a file in a temporary folder.
# A line that reads /dev/video0 is skipped where there is none, one for a second GPU
# (cuda-device-id=1) where there is one GPU. Each line runs under `timeout`
# (CG_PIPELINE_TIMEOUT seconds, default 120).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
plugin_dir="${1:-${GST_PLUGIN_PATH:-$root/build/gst}}"
buffers="${CG_PIPELINE_BUFFERS:-60}"
limit="${CG_PIPELINE_TIMEOUT:-120}"
export GST_PLUGIN_PATH="$plugin_dir"

if ! gst-inspect-1.0 cudagaussian >/dev/null 2>&1; then
  echo "pipelines: GStreamer cannot load cudagaussian from $plugin_dir (build it first, or pass its folder)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clip="$work/input.mkv"
if ! gst-launch-1.0 -q videotestsrc num-buffers=60 ! video/x-raw,width=640,height=360,framerate=30/1 \
    ! jpegenc ! matroskamux ! filesink location="$clip" >"$work/clip.log" 2>&1; then
  echo "pipelines: could not make the input clip:" >&2
  cat "$work/clip.log" >&2
  exit 1
fi

# Every gst-launch-1.0 line of the documents (a trailing backslash continues a line), as
# "file:line<TAB>command".
extract() {
  local f n line cmd start
  for f in "$root/README.md" "$root"/docs/*.md; do
    n=0 cmd="" start=0
    while IFS= read -r line || [[ -n "$line" ]]; do
      n=$((n + 1))
      if [[ -z "$cmd" && "$line" =~ ^[[:space:]]*gst-launch-1\.0[[:space:]] ]]; then
        cmd="${line#"${line%%[![:space:]]*}"}" start=$n
      elif [[ -n "$cmd" ]]; then
        cmd+=" ${line#"${line%%[![:space:]]*}"}"
      else
        continue
      fi
      if [[ "$cmd" == *\\ ]]; then
        cmd="${cmd%\\}"
      else
        printf '%s:%d\t%s\n' "${f#"$root"/}" "$start" "$cmd"
        cmd=""
      fi
    done <"$f"
  done
}

# GPUs the driver lists (0 without one).
gpu_count() {
  nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true
}

passed=0 failed=0 skipped=0 i=0
while IFS=$'\t' read -r where cmd; do
  i=$((i + 1))
  notes=()
  run="$cmd"
  if [[ "$run" == *"/dev/video"* ]]; then
    dev="$(grep -o '/dev/video[0-9]*' <<<"$run" | head -1)"
    if [[ ! -e "$dev" ]]; then
      echo "[$i] $where: skipped: no $dev"
      echo "    $cmd"
      skipped=$((skipped + 1))
      continue
    fi
  fi
  if [[ "$run" == *"cuda-device-id=1"* ]] && (($(gpu_count) < 2)); then
    echo "[$i] $where: skipped: needs a second GPU"
    echo "    $cmd"
    skipped=$((skipped + 1))
    continue
  fi
  for src in videotestsrc v4l2src; do
    if [[ " $run " == *" $src "* && "$run" != *num-buffers=* ]]; then
      run="$(sed -E "s/(^| )$src( |$)/\\1$src num-buffers=$buffers\\2/" <<<"$run")"
      notes+=("num-buffers=$buffers added to $src")
    fi
  done
  if [[ "$run" == *autovideosink* ]]; then
    run="${run//autovideosink/fakesink}"
    notes+=("autovideosink replaced by fakesink")
  fi
  if [[ "$run" == *" playbin "* && "$run" != *video-sink=* ]]; then
    run="${run/ playbin / playbin video-sink=fakesink }"
    notes+=("playbin's video sink set to fakesink")
  fi
  if [[ "$run" == *input.mp4* || "$run" == *file:///path/to/video.mp4* ]]; then
    run="${run//file:\/\/\/path\/to\/video.mp4/file://$clip}"
    run="${run//location=input.mp4/location=$clip}"
    notes+=("input: a 60-frame MJPEG clip in Matroska")
  fi
  if [[ "$run" == *location=blurred.mp4* ]]; then
    run="${run//location=blurred.mp4/location=$work/blurred.mp4}"
    notes+=("output in a temporary folder")
  fi
  log="$work/run-$i.log"
  start=$SECONDS
  timeout "$limit" bash -c "$run" >"$log" 2>&1 </dev/null
  rc=$?
  took=$((SECONDS - start))
  note=""
  ((${#notes[@]})) && note=" ($(IFS=';'; echo "${notes[*]}" | sed 's/;/; /g'))"
  if ((rc == 0)) && ! grep -q '^ERROR' "$log"; then
    echo "[$i] $where: passed in ${took} s$note"
    echo "    $cmd"
    passed=$((passed + 1))
  else
    why="exit code $rc"
    ((rc == 124)) && why="timed out after ${limit} s"
    echo "[$i] $where: FAILED ($why)$note"
    echo "    $cmd"
    echo "    ran: $run"
    grep -E -A3 '^(ERROR|WARNING: erroneous pipeline)' "$log" | head -8 | sed 's/^/    | /'
    failed=$((failed + 1))
  fi
done < <(extract)

echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
