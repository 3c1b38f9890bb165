#!/usr/bin/env bash
# Installs a sawtag build into a temporary prefix, then checks what a user of it gets:
#  - tests/consumer, a separate CMake project, finds the library with find_package(sawtag),
#    builds and runs;
#  - the installed binary runs and finds the model installed beside it
#    (<prefix>/share/sawtag/en_ewt.json) without --model or $SAWTAG_MODEL;
#  - the manual page is installed and renders (man -l <prefix>/share/man/man1/sawtag.1).
# Usage: tests/install_consumer.sh BUILD_DIR SOURCE_DIR   (ctest runs it as install_consumer)
set -euo pipefail

build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sawtag-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

fail() { echo "install_consumer: $*" >&2; exit 1; }

cmake --install "$build_dir" --prefix "$prefix" > "$work/install.log"
[ -x "$prefix/bin/sawtag" ] || fail "the binary was not installed"
[ -f "$prefix/include/sawtag/output.hpp" ] || fail "the headers were not installed"
config=$(find "$prefix" -name sawtagConfig.cmake | head -n 1)
[ -n "$config" ] || fail "sawtagConfig.cmake was not installed"

generator=()
if command -v ninja > /dev/null; then generator=(-G Ninja); fi
cmake -S "$source_dir/tests/consumer" -B "$work/consumer" "${generator[@]}" \
      -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" \
  || { cat "$work/configure.log" >&2; fail "configuring tests/consumer failed"; }
cmake --build "$work/consumer" > "$work/build.log" \
  || { cat "$work/build.log" >&2; fail "building tests/consumer failed"; }
[ "$("$work/consumer/sawtag_consumer")" = ok ] || fail "the consumer program failed"

# The manual page: installed, and rendered by man without a warning where man is installed.
page="$prefix/share/man/man1/sawtag.1"
[ -f "$page" ] || fail "the manual page was not installed ($page)"
if command -v man > /dev/null; then
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 > "$work/man.txt") \
    || fail "man -l $page failed: $warnings"
  [ -z "$warnings" ] || fail "man -l $page warns: $warnings"
  grep -q "sawtag train" "$work/man.txt" || fail "the rendered manual page lacks its commands"
fi

version=$("$prefix/bin/sawtag" --version)
[[ "$version" == "sawtag "* ]] || fail "unexpected --version output: $version"

# The installed binary finds <prefix>/share/sawtag/en_ewt.json. Without a shipped model,
# install the frozen test model there to check the search.
model="$prefix/share/sawtag/en_ewt.json"
if [ ! -f "$model" ]; then
  if [ -f "$source_dir/tests/data/tiny-model-v1.json" ]; then
    mkdir -p "$(dirname "$model")"
    cp "$source_dir/tests/data/tiny-model-v1.json" "$model"
  else
    echo "install_consumer: no model to install; skipping the default-model check"
    echo "install_consumer: ok"
    exit 0
  fi
fi
tagged=$(cd / && echo "I saw a saw" | env -u SAWTAG_MODEL "$prefix/bin/sawtag")
[ "$(echo "$tagged" | wc -w)" = 4 ] || fail "unexpected output of the installed binary: $tagged"
case "$tagged" in I/*) ;; *) fail "unexpected output of the installed binary: $tagged" ;; esac
echo "install_consumer: ok ($tagged)"
