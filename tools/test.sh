#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/test.sh — the README's test command: set up and build (tools/setup.sh), run every test
# under `meson test`, and end with one line "N passed, N failed, N skipped".
#
# Every test case is a meson test of its own, '<program>.<case>' (tests/meson.build; `meson test
# -C build --list` lists them). CPU tests always run; GPU and element tests skip visibly, with
# their reason, where there is no CUDA device. Extra arguments go to `meson test` (e.g.
# `tools/test.sh --suite cpu`, `tools/test.sh --suite recursive`, `tools/test.sh common.taps_sum_to_one`).
# After a full run (no extra arguments), valgrind memcheck runs over the CPU test programs
# (build/tests/test_common, test_recursive, test_edge_aware) and counts as one more test: passed when valgrind
# finds no error and no leak, skipped when valgrind is not installed. Then valgrind memcheck runs
# over the element tests built against the CPU stand-in (suite standin, docs/standin.md): a
# subset of their cases (standin_valgrind_cases below, picked with GStreamer's GST_CHECKS), one
# more test, passed when every program passes with no memcheck error and no leak. CG_VALGRIND=1
# runs both after a partial run too, CG_VALGRIND=0 never.
# Exit code: meson test's, or 1 when valgrind finds errors (a failed build counts as one failed
# test and exits 1).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# shellcheck source=tools/setup.sh
if ! . "$root/tools/setup.sh"; then
  echo "test: setup or build failed (see above)" >&2
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi

log="$(mktemp)"
# Each case is a meson test of its own (tests/meson.build). A skipped one leaves its reason in
# $CG_SKIP_NOTES/<test name> (tests/skip_note.h); meson 1.0 shows only "exit status 77" there,
# so the reason replaces it on the test's line, e.g. "SKIP 0.01s   no CUDA device".
export CG_SKIP_NOTES
CG_SKIP_NOTES="$(mktemp -d)"
trap 'rm -rf "$log" "$CG_SKIP_NOTES"' EXIT
show_skip_reasons() {
  awk -v notes="$CG_SKIP_NOTES" '
    / SKIP / && / exit status 77$/ {
      name = $2  # "N/M name SKIP ..." or "N/M project:suite / name SKIP ..."
      for (i = 1; i < NF; i++) if ($i == "/") name = $(i + 1)
      file = notes "/" name
      if ((getline why < file) > 0) sub(/exit status 77$/, why)
      close(file)
    }
    { print; fflush() }'
}
meson test -C "$root/build" --print-errorlogs "$@" 2>&1 | show_skip_reasons | tee "$log"
rc=${PIPESTATUS[0]}

# Meson's summary block: "Ok: 3", "Expected Fail: 0", "Fail: 0", "Unexpected Pass: 0",
# "Skipped: 1", "Timeout: 0".
read -r passed failed skipped < <(awk '
  /^Ok:/              { ok = $2 }
  /^Expected Fail:/   { xf = $3 }
  /^Fail:/            { f = $2 }
  /^Unexpected Pass:/ { up = $3 }
  /^Skipped:/         { s = $2 }
  /^Timeout:/         { t = $2 }
  END { printf "%d %d %d\n", ok + xf, f + up + t, s }' "$log")

# Valgrind memcheck over the CPU tests. Memcheck errors and leaks exit with 99; the programs' own
# verdict is ignored here (meson test gave it), because valgrind runs long double arithmetic in
# 64 bits, which fails test_recursive's comparison with a long double evaluation.
valgrind_step() {
  local t exe vlog status=0
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind: not installed, skipped (tools/setup.sh installs it)"
    return 77
  fi
  vlog="$(mktemp)"
  for t in test_common test_recursive test_edge_aware; do
    exe="$root/build/tests/$t"
    if [[ ! -x "$exe" ]]; then
      echo "valgrind $t: $exe is missing"
      status=1
      continue
    fi
    valgrind --error-exitcode=99 --leak-check=full -q "$exe" >"$vlog" 2>&1
    case $? in
      99) echo "valgrind $t: memcheck errors or leaks"; grep '^==' "$vlog"; status=1 ;;
      0 | 1) echo "valgrind $t: clean (no memcheck errors, no leaks)" ;;
      *) echo "valgrind $t: the program did not finish"; tail -20 "$vlog"; status=1 ;;
    esac
  done
  rm -f "$vlog"
  return "$status"
}
# The stand-in element tests under memcheck: program, then the cases to run (GST_CHECKS; empty:
# all). Chosen to cover every path of the elements (system, pinned, padded and CUDA memory,
# frames in flight, flushes, caps changes, every fault, bad input) in a few minutes; the long
# cases (8192x8192 frames, 500 state cycles, threads) run natively in the suite only.
standin_valgrind_cases=(
  "element:"
  "sobel_element:"
  "element_gpu:test_system_memory_every_format,test_upstream_gets_pinned_buffers,test_settings_change_between_frames,test_passthrough_keeps_buffer,test_frames_in_flight,test_recursive_algorithms,test_edge_aware_algorithm,test_reused_pageable_memory_gets_registered,test_flush_and_caps_change_with_frames_in_flight"
  "sobel_element_gpu:test_negotiation,test_system_memory_every_format,test_pinned_buffers_both_ways,test_settings_change_between_frames,test_cuda_memory_proposed_pool,test_pipeline_runs"
  "faults_gpu:"
  "two_gpus:test_cuda_memory_on_gpu1,test_explicit_id_wins_over_other_gpu_context,test_cuda_memory_of_other_gpu"
  "reliability_input_gpu:test_property_bounds_while_playing,test_frames_in_flight_range,test_caps_renegotiation_mid_stream,test_sigma_far_larger_than_frame"
  "reliability_memory_gpu:"
  "reliability_lifecycle_gpu:test_eos_with_frames_in_flight,test_flushing_seek_mid_stream"
  "reliability_threads_gpu:test_two_elements_share_a_context"
  "region_element_gpu:test_metas_pass_through_and_no_regions_passes_the_buffer,test_hold_covers_missed_frames,test_malformed_privacy_zones_stop_with_an_error"
)

# Runs them with the environment of the standin suite (standin/tests/meson.build) and the
# registries it left. Definite and indirect leaks count as errors; "possibly lost" blocks are
# listed but do not fail the step: GStreamer's streaming threads stay parked in GLib's thread
# pool at exit, and whether their thread-local storage shows as possibly lost depends on timing. The programs' verdict counts too: under the stand-in nothing depends on
# long double arithmetic.
valgrind_standin_step() {
  local entry name cases exe vlog start listed status=0 b="$root/build/standin"
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind standin: valgrind is not installed, skipped"
    return 77
  fi
  if [[ ! -d "$b/tests" ]]; then
    echo "valgrind standin: no stand-in build (meson option standin=false), skipped"
    return 77
  fi
  vlog="$(mktemp)"
  listed="$(meson test -C "$root/build" --no-rebuild --list 2>/dev/null)"
  for entry in "${standin_valgrind_cases[@]}"; do
    name="${entry%%:*}"
    cases="${entry#*:}"
    exe="$b/tests/standin_test_$name"
    if [[ ! -x "$exe" ]]; then
      echo "valgrind standin $name: $exe is missing"
      status=1
      continue
    fi
    # GST_CHECKS runs whichever of the names exist: each must be a case of the suite.
    local c missing=0
    for c in ${cases//,/ }; do
      if ! grep -qx -- ".* / ${name}_standin\.$c" <<<"$listed"; then
        echo "valgrind standin $name: no case named $c (meson test --list)"
        missing=1
      fi
    done
    ((missing)) && { status=1; continue; }
    local plugin_path=("GST_PLUGIN_PATH_1_0=$b/plugin")
    [[ "$name" == faults_gpu ]] && plugin_path=()  # registers the element statically
    start=$SECONDS
    env CK_FORK=no CG_STANDIN_STRICT=1 G_SLICE=always-malloc G_DEBUG=gc-friendly \
      LD_LIBRARY_PATH="$b/driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" GST_REGISTRY_1_0="$b/tests/registry-$name.bin" \
      "${plugin_path[@]}" GST_CHECKS="$cases" \
      GST_PLUGIN_LOADING_WHITELIST=gstreamer:gst-plugins-base:cudagaussian \
      valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --num-callers=40 \
      --suppressions=/usr/share/glib-2.0/valgrind/glib.supp \
      --suppressions="$root/standin/valgrind.supp" "$exe" >"$vlog" 2>&1
    case $? in
      0) echo "valgrind standin $name: clean, passed ($((SECONDS - start)) s)" ;;
      99) echo "valgrind standin $name: memcheck errors or leaks"; grep '^==' "$vlog"; status=1 ;;
      *) echo "valgrind standin $name: the program failed under valgrind"; tail -30 "$vlog"; status=1 ;;
    esac
  done
  rm -f "$vlog"
  return "$status"
}

count_step() {
  case $1 in
    0) passed=$((passed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); ((rc == 0)) && rc=1 ;;
  esac
}
if [[ "${CG_VALGRIND:-}" == 1 || ( "${CG_VALGRIND:-}" != 0 && $# -eq 0 ) ]]; then
  valgrind_step
  count_step $?
  valgrind_standin_step
  count_step $?
fi

# The README's numbers come from docs/bench/, and the Python sources compile.
if python3 "$root/tools/check-readme-numbers.py" &&
  python3 -m py_compile "$root"/examples/*.py "$root"/bench/*.py "$root/tools/check-readme-numbers.py"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  ((rc == 0)) && rc=1
fi

if ((rc != 0 && failed == 0)); then
  # meson test failed before running anything (e.g. it could not rebuild): say so in the count.
  echo "test: meson test exited $rc without a failing test" >&2
  failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$rc"
