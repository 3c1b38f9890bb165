#!/usr/bin/env bash
# Tagging speed, start-up time and memory of the shipped model; prints a table. Not part of
# the test suite (figures vary with the machine and its load). Needs GNU time (/usr/bin/time).
#
#   bench/tag_speed.sh [BUILD_DIR]   # UD English EWT from ../shared/data or $SAWTAG_UD_DIR
#
# - EWT test text: the '# text' lines of en_ewt-ud-test.conllu, raw text -> text format,
#   end to end (start-up included), -j 1 and -j 2; best of 7 runs each, taken in turns (a run
#   is half a second, and on a shared virtual machine the same run's CPU time varies by 1.5x).
# - 1M words: EWT train text repeated to a million words, -j 1 and -j 2.
# - a 100,000-word line: EWT test text joined into one line (repeated to 100,000 words), -j 1 and
#   -j 2, with its own peak RSS (a long line is tokenized and tagged in parts, so it should cost
#   no more memory than normal text).
# - cold start: `echo "I saw a saw" | sawtag`, median of 7 runs.
# - peak RSS of each run (the largest is reported).
# - FLOPs per word and the single-core matrix-multiply throughput (bench/matmul_throughput.cpp),
#   and the fraction of that throughput that -j 1 tagging achieves.
# - each CPU kernel level this machine has (SAWTAG_CPU=baseline, avx2, ...): EWT test text -j 1,
#   best of 3, and the share of that level's own matrix-multiply peak (its bfloat16 kernel where
#   it has one, else float32) that tagging achieves.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
sawtag=$build/app/sawtag
model=$here/models/en_ewt.json
ud=${SAWTAG_UD_DIR:-$here/../shared/data/ud-english-ewt}
[[ -f $ud/en_ewt-ud-test.conllu ]] || { echo "skipped: $ud/en_ewt-ud-test.conllu not found" >&2; exit 0; }
[[ -x /usr/bin/time ]] || { echo "bench/tag_speed.sh needs GNU time (Debian package 'time')" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sed -n 's/^# text = //p' "$ud/en_ewt-ud-test.conllu" > "$work/test.txt"
sed -n 's/^# text = //p' "$ud/en_ewt-ud-train.conllu" > "$work/train.txt"
: > "$work/million.txt"
while [ "$(wc -w < "$work/million.txt")" -lt 1000000 ]; do
  cat "$work/train.txt" >> "$work/million.txt"
done
tr '\n' ' ' < "$work/test.txt" | awk '{ for (i = 1; i <= NF; ++i) words[++n] = $i }
  END { for (k = 0; k < 100000; ++k) printf "%s%s", (k ? " " : ""), words[k % n + 1]; print "" }' \
  > "$work/line.txt"

echo 0 > "$work/peak_rss"
# run INPUT THREADS [NAME] -> "seconds words peak_kb", the best of the runs so far under NAME
# (default: INPUT and THREADS), with the largest peak RSS of them. Runs keep their records in
# files: run's output is read through a subshell, where variables do not outlive it.
run() {
  local input=$1 threads=$2 name=${3:-$(basename "$1")-$2} best words rss seconds peak
  # Wall time from bash's microsecond clock: GNU time's %e has 10 ms steps, 3 % of a run.
  local start=$EPOCHREALTIME
  /usr/bin/time -f "%M" -o "$work/time" "$sawtag" tag -m "$model" -j "$threads" \
    "$input" > "$work/out.txt"
  seconds=$(awk "BEGIN{print $EPOCHREALTIME - $start}")
  read -r rss < "$work/time"
  read -r best peak 2> /dev/null < "$work/$name.best" || { best=$seconds; peak=0; }
  if (( rss > peak )); then peak=$rss; fi
  if (( rss > $(cat "$work/peak_rss") )); then echo "$rss" > "$work/peak_rss"; fi
  if awk "BEGIN{exit !($seconds < $best)}"; then best=$seconds; fi
  echo "$best $peak" > "$work/$name.best"
  words=$(wc -w < "$work/out.txt")
  echo "$best $words $peak"
}

for _ in $(seq 7); do
  read -r test1_s test_words test1_kb < <(run "$work/test.txt" 1)
  read -r test2_s _ test2_kb < <(run "$work/test.txt" 2)
done
read -r million1_s million_words _ < <(run "$work/million.txt" 1)
read -r million2_s _ _ < <(run "$work/million.txt" 2)
read -r line1_s line_words line1_kb < <(run "$work/line.txt" 1)
read -r line2_s _ line2_kb < <(run "$work/line.txt" 2)

starts=()
for _ in $(seq 7); do
  begin=$EPOCHREALTIME
  echo "I saw a saw" | "$sawtag" -m "$model" -j 1 > /dev/null
  end=$EPOCHREALTIME
  starts+=("$(awk "BEGIN{printf \"%.1f\", ($end - $begin) * 1000}")")
done
cold_ms=$(printf '%s\n' "${starts[@]}" | sort -n | sed -n 4p)

average_length=$(awk -F'\t' '/^[0-9]+\t/ {w++} /^$/ {s++} END {printf "%.1f", w / s}' \
                 "$ud/en_ewt-ud-test.conllu")
"$build/bench/sawtag_matmul_bench" "$model" "$average_length" > "$work/matmul.txt"
value() { awk -v key="$1" '$1 == key {print $2}' "$work/matmul.txt"; }

# Per level, runs of all levels taken in turns; level_s[NAME] is the best time of each.
levels=$(awk '$1 == "level" {print $2}' "$work/matmul.txt")
declare -A level_s
for _ in 1 2 3; do
  for level in $levels; do
    read -r "level_s[$level]" _ _ < <(SAWTAG_CPU=$level run "$work/test.txt" 1 "level-$level")
  done
done
# peak LEVEL: the level's fastest kernel, GFLOP/s (bfloat16 where it has one).
peak() { awk -v level="$1" '$1 == "level" && $2 == level {print ($4 > $3 ? $4 : $3)}' "$work/matmul.txt"; }

speed() { awk "BEGIN{printf \"%.0f\", $1 / $2}"; }
test1=$(speed "$test_words" "$test1_s")
test2=$(speed "$test_words" "$test2_s")
million1=$(speed "$million_words" "$million1_s")
million2=$(speed "$million_words" "$million2_s")
line1=$(speed "$line_words" "$line1_s")
line2=$(speed "$line_words" "$line2_s")
flops=$(value flops_per_word)
achieved=$(awk "BEGIN{printf \"%.1f\", $million1 * $flops / 1e9}")

echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "model: $model"
printf '%-44s %14s\n' "measure" "value"
printf '%-44s %14s\n' "EWT test text ($test_words words), -j 1" "$test1 words/s"
printf '%-44s %14s\n' "EWT test text, -j 2" "$test2 words/s ($(awk "BEGIN{printf \"%.2f\", $test2 / $test1}")x)"
printf '%-44s %14s\n' "1M-word file ($million_words words), -j 1" "$million1 words/s"
printf '%-44s %14s\n' "1M-word file, -j 2" "$million2 words/s ($(awk "BEGIN{printf \"%.2f\", $million2 / $million1}")x)"
printf '%-44s %14s\n' "100,000-word line ($line_words words), -j 1" "$line1 words/s"
printf '%-44s %14s\n' "100,000-word line, -j 2" "$line2 words/s"
printf '%-44s %14s\n' "cold start (load + tag one sentence)" "$cold_ms ms"
printf '%-44s %14s\n' "peak RSS (largest of all runs)" "$(( $(cat "$work/peak_rss") / 1024 )) MB"
printf '%-44s %14s\n' "peak RSS, EWT test text -j 1 / -j 2" "$(( test1_kb / 1024 )) / $(( test2_kb / 1024 )) MB"
printf '%-44s %14s\n' "peak RSS, 100,000-word line -j 1 / -j 2" "$(( line1_kb / 1024 )) / $(( line2_kb / 1024 )) MB"
printf '%-44s %14s\n' "FLOPs per word (n = $average_length)" "$flops"
printf '%-44s %14s\n' "matmul, Eigen float32, 1 core" "$(value eigen_float32_gflops) GFLOP/s"
printf '%-44s %14s\n' "matmul, sawtag $(value fastest_kernel), 1 core" "$(value sawtag_fastest_gflops) GFLOP/s"
printf '%-44s %14s\n' "tagging -j 1 (1M words) achieves" "$achieved GFLOP/s"
printf '%-44s %14s\n' "  = fraction of sawtag's kernel peak" "$(awk "BEGIN{printf \"%.1f%%\", 100 * $achieved / $(value sawtag_fastest_gflops)}")"
printf '%-44s %14s\n' "  = fraction of Eigen float32 peak" "$(awk "BEGIN{printf \"%.1f%%\", 100 * $achieved / $(value eigen_float32_gflops)}")"
echo
echo "per CPU level (SAWTAG_CPU), EWT test text -j 1, best of 3:"
printf '%-12s %12s %18s %22s\n' "level" "words/s" "level peak GFLOP/s" "tagging GFLOP/s (share)"
for level in $levels; do
  level_speed=$(speed "$test_words" "${level_s[$level]}")
  level_gflops=$(awk "BEGIN{printf \"%.1f\", $level_speed * $flops / 1e9}")
  printf '%-12s %12s %18s %22s\n' "$level" "$level_speed" "$(peak "$level")" \
    "$level_gflops ($(awk "BEGIN{printf \"%.0f%%\", 100 * $level_gflops / $(peak "$level")}"))"
done
