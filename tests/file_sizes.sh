#!/usr/bin/env bash
# No source file of the library or the CLI (lib/, app/: .cpp, .hpp, .inc) is over MAX_LINES
# lines (700 unless told): a file a newcomer can hold in their head has one job (issue 31).
# Each file over the limit is named with its count, and the test fails.
#   tests/file_sizes.sh SOURCE_DIR [MAX_LINES]     (ctest runs it as file_sizes)
set -euo pipefail
cd "$1"
max_lines=${2:-700}

# "LINES FILE", one a line; wc's "total" lines left out.
counts=$(find lib app -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inc' \) -print0 |
           sort -z | xargs -0 wc -l | awk '$2 != "total"')
checked=$(grep -c . <<< "$counts" || true)
if [ "$checked" -eq 0 ]; then
  echo "no source files found under lib/ and app/ of $1" >&2
  exit 1
fi
over=$(awk -v max="$max_lines" '$1 > max { print $2 ": " $1 " lines, more than " max \
                                           ": split it along its responsibilities" }' <<< "$counts")
if [ -n "$over" ]; then
  echo "$over" >&2
  echo "$(grep -c . <<< "$over") of $checked source files are over $max_lines lines" >&2
  exit 1
fi
echo "$checked source files, none over $max_lines lines"
