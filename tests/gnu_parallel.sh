#!/usr/bin/env bash
# sawtag as a filter under GNU parallel: two local jobs, the input cut into blocks at line
# ends, must give exactly what one process gives. Skipped (exit 77) without `parallel`.
#   gnu_parallel.sh SAWTAG_BINARY MODEL
set -euo pipefail
sawtag=$1
model=$2
if ! command -v parallel > /dev/null; then
  echo "skipped: GNU parallel is not installed (Debian package 'parallel')"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for i in $(seq 1 3000); do
  echo "I saw a saw number $i. The dog don't see it, do you?"
done > "$work/input.txt"

"$sawtag" tag -m "$model" --sentence-per-line -j 1 < "$work/input.txt" > "$work/one.txt"
# --pipe cuts stdin into blocks of whole lines; -k keeps the blocks' outputs in input order.
parallel --will-cite --pipe -k -j 2 --block 20k \
  "$sawtag" tag -m "$model" --sentence-per-line -j 1 < "$work/input.txt" > "$work/parallel.txt"

if ! cmp -s "$work/one.txt" "$work/parallel.txt"; then
  echo "FAIL: GNU parallel output differs from one process:"
  diff "$work/one.txt" "$work/parallel.txt" | head -5
  exit 1
fi
lines=$(wc -l < "$work/parallel.txt")
if [ "$lines" -ne 3000 ]; then
  echo "FAIL: expected 3000 output lines, got $lines"
  exit 1
fi
echo "ok: 3000 lines, identical under GNU parallel with 2 jobs"
