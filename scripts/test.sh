#!/usr/bin/env bash
# Installs the build tools and libraries if missing, builds sawtag with its tests and runs
# them all (unit tests, CLI tests, the install/consumer test).
#   SAWTAG_BUILD_DIR  build directory (default: build)
#   SAWTAG_JOBS       parallel jobs (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
build_dir=${SAWTAG_BUILD_DIR:-build}
jobs=${SAWTAG_JOBS:-$(nproc)}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSAWTAG_BUILD_TESTS=ON
cmake --build "$build_dir" -j "$jobs"
cd "$build_dir"
ctest --output-on-failure -j "$jobs"
