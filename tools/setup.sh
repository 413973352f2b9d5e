#!/usr/bin/env bash
# tools/setup.sh — install what cudagaussian needs on Debian 12, configure and build it.
#
#   tools/setup.sh            install missing packages, `meson setup build` (first time), `ninja -C build`
#   . tools/setup.sh          the same, and the calling shell keeps nvcc on its PATH
#
# Idempotent: packages already installed are skipped (dpkg -s), an existing build/ is reused.
# Environment:
#   MESON_ARGS     extra arguments for the first `meson setup` (e.g. "-Dgpu_arch=90 -Dbench=false");
#                  an already configured build/ is kept as it is (use `meson configure build -D...`)
#   CG_SKIP_APT=1  do not install packages (e.g. no root and no sudo)
# Not installed here: the NVIDIA driver and the CUDA toolkit (12 or 13, at /usr/local/cuda or with
# nvcc on PATH) — they come from NVIDIA, not from Debian's main archive.

cg_setup() {
  local root build
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  build="$root/build"

  local packages=(
    g++ meson ninja-build pkg-config
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
    valgrind
  )
  local missing=() p
  for p in "${packages[@]}"; do
    # dpkg -s also succeeds for a removed package whose config files remain: check the status.
    if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]})); then
    if [[ "${CG_SKIP_APT:-}" == 1 ]]; then
      echo "setup: CG_SKIP_APT=1, not installing missing packages: ${missing[*]}" >&2
    else
      local sudo=()
      if [[ "$(id -u)" != 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
          echo "setup: missing packages (${missing[*]}) and not root, no sudo: install them as root" >&2
          return 1
        fi
        sudo=(sudo)
      fi
      echo "setup: installing ${missing[*]}" >&2
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q || return 1
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}" || return 1
    fi
  fi

  if ! command -v nvcc >/dev/null 2>&1; then
    if [[ -x /usr/local/cuda/bin/nvcc ]]; then
      export PATH="/usr/local/cuda/bin:$PATH"
    else
      echo "setup: nvcc not found on PATH nor in /usr/local/cuda/bin: install the CUDA toolkit (12 or 13)" >&2
      return 1
    fi
  fi

  local meson_args=()
  read -r -a meson_args <<<"${MESON_ARGS:-}"
  if [[ -f "$build/build.ninja" ]]; then
    : # configured; ninja re-runs meson itself when a meson.build changes
  elif [[ -f "$build/meson-private/coredata.dat" ]]; then
    echo "setup: meson setup --reconfigure $build ${meson_args[*]}" >&2
    meson setup --reconfigure "$build" "$root" "${meson_args[@]}" || return 1
  else
    echo "setup: meson setup $build ${meson_args[*]}" >&2
    meson setup "$build" "$root" "${meson_args[@]}" || return 1
  fi

  ninja -C "$build" || { echo "setup: build failed" >&2; return 1; }
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -uo pipefail
  cg_setup
  exit $?
fi
cg_setup
