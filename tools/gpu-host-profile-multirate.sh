#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Nsight Compute profiles of the multirate Gaussian's three passes inside bench_lanes (run through
# the GStreamer bundle, after a build with -Dbench=true): 1080p RGBA8 at SIGMA (default 10), alpha
# kept (the element's default planes), one launch of each pass after the first 6000. For each pass
# $OUT gets the details page (ncu-multirate-NAME.txt) and the per-instruction counts
# (ncu-multirate-NAME-sass.csv), summarized by tools/sass-counts.py.
#
# Usage: tools/gpu-host-profile-multirate.sh [SIGMA]   (SIGMA from 8.5 up: below it 1080p RGBA8
# runs the FIR)
set -u -o pipefail
OUT=${OUT:-/tmp/cudagaussian-out}
SIGMA=${1:-10}
mkdir -p "$OUT"
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section SourceCounters"
# bench_lanes runs every case with alpha blurred first (3 lane counts x 2 feeds x 5 runs x 180
# frames with --quick): 6000 launches of a pass reach the runs with alpha kept.
skip=6000
prof() {  # name regex
  local report="$OUT/ncu-multirate-$1"
  ncu --clock-control none $sections -k "regex:$2" --launch-skip "$skip" -c 1 -f -o "$report" \
    build-gpu/bench/bench_lanes "$SIGMA" --quick --csv /dev/null > /dev/null 2>&1 || { echo "ncu failed for $1"; return 1; }
  ncu -i "$report.ncu-rep" --page details > "$report.txt" 2>&1
  ncu -i "$report.ncu-rep" --page source --print-source sass --csv > "$report-sass.csv" 2>&1
  rm -f "$report.ncu-rep"
  echo "--- $1, sigma $SIGMA, alpha kept"
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|Registers Per|Grid Size|Block Size|Waves Per SM|Achieved Occupancy" "$report.txt"
  python3 "$(dirname "$0")/sass-counts.py" "$report-sass.csv" --top 8
}
prof column-decimation "decimate_columns"
prof row-pass "blur_coarse_rows"
prof column-interpolation "interpolate_columns"
