#!/usr/bin/env bash
# tools/test.sh — the README's test command: set up and build (tools/setup.sh), run every test
# under `meson test`, and end with one line "N passed, N failed, N skipped".
#
# CPU tests always run; GPU and element tests skip visibly (exit code 77) where there is no CUDA
# device. Extra arguments go to `meson test` (e.g. `tools/test.sh --suite cpu`).
# Exit code: meson test's (a failed build counts as one failed test and exits 1).
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

if ((rc != 0 && failed == 0)); then
  # meson test failed before running anything (e.g. it could not rebuild): say so in the count.
  echo "test: meson test exited $rc without a failing test" >&2
  failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$rc"
