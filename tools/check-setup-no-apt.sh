#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/check-setup-no-apt.sh — shows that where the Debian packages are installed, the package
# step of tools/setup.sh, tools/test.sh and tools/demo.sh never run apt-get (nor sudo), as root
# and as a user without sudo. Run it as root (it creates that user, and removes it at the end).
#
#   tools/check-setup-no-apt.sh [--quick] [RUNS]     RUNS: package checks per user (default 100)
#
# Recording apt-get, apt and sudo come first on PATH: a call appends "user command arguments" to a
# log and fails. Steps, each passed when every run exits 0 and the log stays empty:
#   0. a control: apt-get and sudo called directly through those PATHs are recorded;
#   1. RUNS times `tools/setup.sh --packages` as root;
#   2. RUNS times the same as a new user that is not root and has no sudo (useradd);
#   3. as that user, in a fresh clone of this repository: `tools/test.sh --suite cpu` (it sets up
#      and builds build/ first, MESON_ARGS "-Dgpu_arch=90 -Dbench=false" unless given), then
#      `tools/demo.sh` until its plugin is built (GPU_ARCH=90 unless given; without a GPU it stops
#      at its first pipeline, which is not counted against it), each timed.
# --quick leaves out step 3. The output of a full run is kept in docs/bench/setup_loop.txt.
set -uo pipefail

quick=0
runs=100
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    *[!0-9]* | "") echo "usage: $0 [--quick] [RUNS]" >&2; exit 2 ;;
    *) runs=$a ;;
  esac
done
if [[ "$(id -u)" != 0 ]]; then
  echo "check-setup-no-apt: run as root (it creates a user without sudo)" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d /tmp/cg-no-apt.XXXXXX)"
user="cgnoapt$$"
chmod 755 "$work"
cleanup() {
  id "$user" >/dev/null 2>&1 && userdel -r "$user" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

shims="$work/shims"
calls="$work/calls.log"
mkdir -p "$shims"
: >"$calls"
chmod 666 "$calls"
for tool in apt-get apt sudo; do
  cat >"$shims/$tool" <<EOF
#!/bin/sh
echo "\$(id -un) $tool \$*" >>"$calls"
echo "recorded: $tool \$* (not run)" >&2
exit 1
EOF
  chmod 755 "$shims/$tool"
done
base_path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

useradd -m -s /bin/bash "$user" || { echo "check-setup-no-apt: useradd failed" >&2; exit 1; }
as_user() { runuser -u "$user" -- env -i HOME="/home/$user" USER="$user" PATH="$shims:$base_path" "$@"; }

echo "check-setup-no-apt: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, commit $(git -C "$root" rev-parse --short HEAD)"
echo "recording shims first on PATH: $(ls "$shims" | tr '\n' ' ')"
echo "user $user: uid $(id -u "$user"), groups: $(id -nG "$user")"
if [[ -x /usr/bin/sudo ]]; then
  echo "real sudo installed; $user's rights: $(sudo -n -l -U "$user" 2>&1 | tail -1)"
else
  echo "no real sudo installed"
fi

failures=0
# $1: label, $2: runs; then the command. Counts the runs that exit non-zero.
loop() {
  local label=$1 n=$2 i bad=0 start=$SECONDS before after
  shift 2
  before=$(wc -l <"$calls")
  for ((i = 1; i <= n; i++)); do
    "$@" >"$work/last.log" 2>&1 || { bad=$((bad + 1)); tail -3 "$work/last.log" | sed 's/^/    /'; }
  done
  after=$(wc -l <"$calls")
  local verdict=passed
  ((bad || after > before)) && verdict=FAILED && failures=$((failures + 1))
  echo "$label: $n runs in $((SECONDS - start)) s, $bad exited non-zero, apt-get/apt/sudo calls recorded: $((after - before)): $verdict"
}

# Control: the shims are what these PATHs find (a direct call is recorded), then a clean log.
env PATH="$shims:$PATH" apt-get --version >/dev/null 2>&1
as_user sudo -n true >/dev/null 2>&1
if [[ "$(cut -d' ' -f1,2 "$calls" | tr '\n' ' ')" == "root apt-get $user sudo " ]]; then
  echo "0. control: apt-get as root and sudo as $user, called directly, were recorded: passed"
else
  echo "0. control: direct calls were not recorded ($(tr '\n' ';' <"$calls")): FAILED"
  failures=$((failures + 1))
fi
: >"$calls"
loop "1. tools/setup.sh --packages as root" "$runs" \
  env PATH="$shims:$PATH" bash "$root/tools/setup.sh" --packages
loop "2. tools/setup.sh --packages as $user (no root, no sudo)" "$runs" \
  as_user bash "$root/tools/setup.sh" --packages

if ((!quick)); then
  clone="/home/$user/cudagaussian"
  git clone -q "$root" "$clone" && chown -R "$user:" "$clone"
  before=$(wc -l <"$calls")
  ok=1
  start=$SECONDS
  as_user bash -c "cd '$clone' && MESON_ARGS='${MESON_ARGS:--Dgpu_arch=90 -Dbench=false}' \
    /usr/bin/time -f 'time: %e s wall, %U s user, %S s sys' tools/test.sh --suite cpu" >"$work/test.log" 2>&1
  rc=$?
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$work/test.log" | tail -1)"
  echo "3a. tools/test.sh --suite cpu as $user, fresh clone: exit $rc, \"${summary:-no summary}\", $(grep '^time:' "$work/test.log")"
  ((rc == 0)) || { ok=0; tail -20 "$work/test.log" | sed 's/^/    /'; }
  as_user bash -c "cd '$clone' && GPU_ARCH='${GPU_ARCH:-90}' \
    /usr/bin/time -f 'time: %e s wall, %U s user, %S s sys' tools/demo.sh" >"$work/demo.log" 2>&1
  rc=$?
  built="$(grep -E '^demo: plugin built' "$work/demo.log")"
  echo "3b. tools/demo.sh as $user, fresh build-demo/: exit $rc, \"${built:-plugin not built}\", $(grep '^time:' "$work/demo.log")"
  grep -E '^demo: (first frame|the first frame)' -A2 "$work/demo.log" | head -3 | sed 's/^/    /'
  [[ -n "$built" ]] || { ok=0; tail -20 "$work/demo.log" | sed 's/^/    /'; }
  after=$(wc -l <"$calls")
  echo "3. apt-get/apt/sudo calls recorded during 3a and 3b: $((after - before))"
  ((ok && after == before)) || failures=$((failures + 1))
  echo "3: $( ((ok && after == before)) && echo passed || echo FAILED) ($((SECONDS - start)) s)"
fi

if [[ -s "$calls" ]]; then
  echo "recorded calls:"
  sed 's/^/    /' "$calls"
fi
echo "check-setup-no-apt: $( ((failures == 0)) && echo "all steps passed" || echo "$failures step(s) FAILED")"
((failures == 0))
