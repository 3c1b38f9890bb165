#!/usr/bin/env bash
# Quick start on a fresh Debian machine: installs the build tools and libraries if missing,
# builds the `sawtag` CLI into build/, and tags "I saw a saw" with the shipped model.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target sawtag_cli -j "${SAWTAG_JOBS:-$(nproc)}"

if [ -z "${SAWTAG_MODEL:-}" ] && [ ! -f models/en_ewt.json ]; then
  echo "quickstart: built build/app/sawtag, but there is no model yet: models/en_ewt.json is" >&2
  echo "quickstart: missing. Train one (docs/cli.md, 'sawtag train') or pass -m MODEL / set SAWTAG_MODEL." >&2
  exit 1
fi
echo '$ echo "I saw a saw" | build/app/sawtag'
echo "I saw a saw" | build/app/sawtag
