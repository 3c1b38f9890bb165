#!/usr/bin/env bash
# Installs the Debian packages sawtag needs to build and test, if any are missing, and
# Chromium (the attention page test) and GNU parallel (the parallel filter test) where Debian
# has them (those tests are skipped without them). Uses sudo only when not run as root.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config libcli11-dev libspdlog-dev nlohmann-json3-dev
          libeigen3-dev catch2 libutf8proc-dev
          pybind11-dev python3-dev python3-numpy python3-pytest)
optional_packages=(chromium parallel)
# --fuzz: also clang and its libFuzzer runtime, for the fuzz targets (tests/fuzz/; CI's last step).
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-dev)
fi

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2> /dev/null | grep -q "install ok installed"
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done
missing_optional=()
for package in "${optional_packages[@]}"; do
  is_installed "$package" || missing_optional+=("$package")
done
if [ "${#missing[@]}" -eq 0 ] && [ "${#missing_optional[@]}" -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${as_root[@]}" apt-get update
  "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
elif [ "${#missing_optional[@]}" -gt 0 ]; then
  "${as_root[@]}" apt-get update || true
fi
# One at a time, and never fatal: a machine without them only skips the tests that need them.
for package in "${missing_optional[@]}"; do
  echo "install-deps: installing $package (optional)"
  "${as_root[@]}" apt-get install -y --no-install-recommends "$package" ||
    echo "install-deps: $package could not be installed; the tests that need it are skipped"
done
