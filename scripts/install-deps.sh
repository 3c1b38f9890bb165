#!/usr/bin/env bash
# Installs the Debian packages sawtag needs to build and test, if any are missing.
# Uses sudo only when not run as root.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config libcli11-dev libspdlog-dev nlohmann-json3-dev
          libeigen3-dev catch2 libutf8proc-dev)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
