#!/usr/bin/env bash
# Training speed, as issue 14 measures it: one epoch over the first 2,000 sentences of UD English
# EWT train (39,802 words) with a 200-sentence dev set, with 1 and 2 threads; prints the
# trainer's words/s (the epoch alone) and the wall time of the whole command (start-up, the
# epoch, dev scoring, calibration and writing the model). Best of $RUNS runs (default 3), the
# thread counts taken in turns. Then one epoch of the whole of EWT train with 2 threads.
# Not part of the test suite.
#
#   bench/train_speed.sh [BUILD_DIR]      # needs ../shared/data/ud-english-ewt or $SAWTAG_UD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ud=${SAWTAG_UD_DIR:-$here/../shared/data/ud-english-ewt}
runs=${RUNS:-3}
[[ -f $ud/en_ewt-ud-train.conllu ]] || { echo "skipped: $ud/en_ewt-ud-train.conllu not found" >&2; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk 'BEGIN{RS=""; ORS="\n\n"} NR<=2000' "$ud/en_ewt-ud-train.conllu" > "$work/train2k.conllu"
awk 'BEGIN{RS=""; ORS="\n\n"} NR<=200' "$ud/en_ewt-ud-dev.conllu" > "$work/dev.conllu"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"

# Prints "WORDS_PER_SECOND WALL_SECONDS" for one epoch of $1 with $2 threads.
epoch() {
  local start=$EPOCHREALTIME log
  log=$("$build/app/sawtag" train --train "$1" --dev "$work/dev.conllu" -o "$work/model.json" \
          --epochs 1 -j "$2" 2>&1)
  local end=$EPOCHREALTIME
  local speed
  speed=$(sed -n 's/.*epoch 1: .*, \([0-9]*\) words\/s.*/\1/p' <<< "$log")
  echo "$speed $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b - a}')"
}

declare -A best_speed best_wall
for ((run = 1; run <= runs; ++run)); do
  for threads in 1 2; do
    read -r speed wall < <(epoch "$work/train2k.conllu" "$threads")
    if [[ -z ${best_speed[$threads]:-} || $speed -gt ${best_speed[$threads]} ]]; then
      best_speed[$threads]=$speed
    fi
    if [[ -z ${best_wall[$threads]:-} ]] || awk -v a="$wall" -v b="${best_wall[$threads]}" 'BEGIN{exit !(a < b)}'; then
      best_wall[$threads]=$wall
    fi
  done
done
printf '%-32s %8s %12s\n' "first 2,000 sentences, 1 epoch" threads "words/s" 
for threads in 1 2; do
  printf '%-32s %8s %12s   (whole command %s s)\n' "" "$threads" "${best_speed[$threads]}" "${best_wall[$threads]}"
done
read -r speed wall < <(epoch "$ud/en_ewt-ud-train.conllu" 2)
printf '%-32s %8s %12s   (whole command %s s)\n' "all of EWT train, 1 epoch" 2 "$speed" "$wall"
