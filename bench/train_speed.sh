#!/usr/bin/env bash
# Training speed: one epoch of the default recipe on UD English EWT train, with 1 and 2
# threads; prints words/s. Not part of the test suite.
#
#   bench/train_speed.sh [BUILD_DIR]      # needs ../shared/data/ud-english-ewt or $SAWTAG_UD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ud=${SAWTAG_UD_DIR:-$here/../shared/data/ud-english-ewt}
[[ -f $ud/en_ewt-ud-train.conllu ]] || { echo "skipped: $ud/en_ewt-ud-train.conllu not found" >&2; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A dev set of 200 sentences keeps the per-epoch scoring out of the figure.
awk 'BEGIN{RS=""; ORS="\n\n"} NR<=200' "$ud/en_ewt-ud-dev.conllu" > "$work/dev.conllu"
printf '%-8s %12s\n' threads "words/s"
for threads in 1 2; do
  speed=$("$build/app/sawtag" train --train "$ud/en_ewt-ud-train.conllu" --dev "$work/dev.conllu" \
            -o "$work/model.json" --epochs 1 -j "$threads" 2>&1 |
          sed -n 's/.*epoch 1: .*, \([0-9]*\) words\/s.*/\1/p')
  printf '%-8s %12s\n' "$threads" "$speed"
done
