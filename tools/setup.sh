#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/setup.sh — install what cudagaussian needs on Debian 12, configure and build it.
#
#   tools/setup.sh              install missing packages, `meson setup build` (first time), `ninja -C build`
#   tools/setup.sh --packages   only check the packages and install the missing ones
#   . tools/setup.sh            the same as the first, and the calling shell keeps nvcc on its PATH
#
# Idempotent: packages already installed are skipped (dpkg-query), an existing build dir is reused.
# apt-get runs only when a package is missing; it then says what it installs, waits for another
# apt/dpkg to let go of its lock (at most CG_APT_LOCK_WAIT seconds, default 300) and uses sudo
# when not root.
# Environment:
#   MESON_ARGS      extra arguments for the first `meson setup` (e.g. "-Dgpu_arch=90 -Dbench=false");
#                   an already configured build dir is kept as it is (use `meson configure BUILD -D...`)
#   CG_BUILD_DIR    build directory (default: build/ in the repository)
#   CG_TARGETS      ninja targets to build (default: all)
#   CG_JOBS         ninja's parallel jobs (default: ninja's own choice)
#   CG_SKIP_APT=1   do not install packages (e.g. no root and no sudo)
# Not installed here: the NVIDIA driver and the CUDA toolkit (12 or 13, at /usr/local/cuda or with
# nvcc on PATH) — they come from NVIDIA, not from Debian's main archive.

cg_packages=(
  g++ meson ninja-build pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  valgrind
)

# Prints the packages of cg_packages that are not installed, one per line. One dpkg-query for all
# of them and no pipe: a reader that stops early (grep -q) would kill dpkg with SIGPIPE and, under
# pipefail, report a package as missing when it is not.
cg_missing_packages() {
  local installed p
  # Exits non-zero when a package is unknown to dpkg; that package simply has no line.
  installed="$(dpkg-query -W -f='${Package} ${Status}\n' "${cg_packages[@]}" 2>/dev/null)" || true
  for p in "${cg_packages[@]}"; do
    # "install ok installed" only: a removed package whose config files remain is missing.
    [[ $'\n'"$installed"$'\n' == *$'\n'"$p install ok installed"$'\n'* ]] || echo "$p"
  done
}

# Waits until no process holds apt's or dpkg's locks, at most CG_APT_LOCK_WAIT seconds.
# $@: the sudo prefix (fuser sees other users' processes only as root).
cg_wait_for_dpkg_lock() {
  local limit="${CG_APT_LOCK_WAIT:-300}" waited=0
  local locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock)
  command -v fuser >/dev/null 2>&1 || return 0  # apt's own lock timeout below still applies
  while "$@" fuser "${locks[@]}" >/dev/null 2>&1; do
    if ((waited >= limit)); then
      echo "setup: apt/dpkg is still busy after ${limit} s (another install running?); try again later" >&2
      return 1
    fi
    ((waited % 10 == 0)) && echo "setup: waiting for another apt/dpkg to finish (${waited}/${limit} s)" >&2
    sleep 1
    waited=$((waited + 1))
  done
}

cg_install_packages() {
  local missing
  mapfile -t missing < <(cg_missing_packages)
  ((${#missing[@]})) || return 0
  if [[ "${CG_SKIP_APT:-}" == 1 ]]; then
    echo "setup: CG_SKIP_APT=1, not installing missing packages: ${missing[*]}" >&2
    return 0
  fi
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "setup: missing packages (${missing[*]}) and not root, no sudo: install them as root" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  echo "setup: installing ${missing[*]}" >&2
  cg_wait_for_dpkg_lock "${sudo[@]}" || return 1
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q
             -o "DPkg::Lock::Timeout=${CG_APT_LOCK_WAIT:-300}")
  "${apt[@]}" update || return 1
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}" || return 1
}

cg_setup() {
  local root build
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  build="${CG_BUILD_DIR:-$root/build}"

  cg_install_packages || return 1
  [[ "${1:-}" == --packages ]] && return 0

  if ! command -v nvcc >/dev/null 2>&1; then
    if [[ -x /usr/local/cuda/bin/nvcc ]]; then
      export PATH="/usr/local/cuda/bin:$PATH"
    else
      echo "setup: nvcc not found on PATH nor in /usr/local/cuda/bin: install the CUDA toolkit (12 or 13)" >&2
      return 1
    fi
  fi

  local meson_args=() targets=() jobs=()
  read -r -a meson_args <<<"${MESON_ARGS:-}"
  read -r -a targets <<<"${CG_TARGETS:-}"
  [[ -n "${CG_JOBS:-}" ]] && jobs=(-j "$CG_JOBS")
  if [[ -f "$build/build.ninja" ]]; then
    : # configured; ninja re-runs meson itself when a meson.build changes
  elif [[ -f "$build/meson-private/coredata.dat" ]]; then
    echo "setup: meson setup --reconfigure $build ${meson_args[*]}" >&2
    meson setup --reconfigure "$build" "$root" "${meson_args[@]}" || return 1
  else
    echo "setup: meson setup $build ${meson_args[*]}" >&2
    meson setup "$build" "$root" "${meson_args[@]}" || return 1
  fi

  ninja -C "$build" "${jobs[@]}" "${targets[@]}" || { echo "setup: build failed" >&2; return 1; }
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -uo pipefail
  cg_setup "$@"
  exit $?
fi
cg_setup
