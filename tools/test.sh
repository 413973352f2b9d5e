#!/usr/bin/env bash
# tools/test.sh — the README's test command: set up and build (tools/setup.sh), run every test
# under `meson test`, and end with one line "N passed, N failed, N skipped".
#
# CPU tests always run; GPU and element tests skip visibly (exit code 77) where there is no CUDA
# device. Extra arguments go to `meson test` (e.g. `tools/test.sh --suite cpu`).
# After a full run (no extra arguments), valgrind memcheck runs over the CPU test programs
# (build/tests/test_common, test_recursive, test_edge_aware) and counts as one more test: passed when valgrind
# finds no error and no leak, skipped when valgrind is not installed. CG_VALGRIND=1 runs it after
# a partial run too, CG_VALGRIND=0 never.
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
trap 'rm -f "$log"' EXIT
meson test -C "$root/build" --print-errorlogs "$@" 2>&1 | tee "$log"
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
if [[ "${CG_VALGRIND:-}" == 1 || ( "${CG_VALGRIND:-}" != 0 && $# -eq 0 ) ]]; then
  valgrind_step
  case $? in
    0) passed=$((passed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); ((rc == 0)) && rc=1 ;;
  esac
fi

if ((rc != 0 && failed == 0)); then
  # meson test failed before running anything (e.g. it could not rebuild): say so in the count.
  echo "test: meson test exited $rc without a failing test" >&2
  failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$rc"
