#!/usr/bin/env bash
# Accuracy on text without sentence ends: UD English EWT dev and Chinese GSD dev, each run
# together as one sentence (gold words), tagged by a build's `sawtag eval` with the shipped
# models, against the same words as their own sentences. Such a sentence is longer than the
# model's window, so this measures the long-sentence windows (TagOptions::long_sentence_window).
# Compare two builds (e.g. before and after a change of the windows) by running it for each.
# Not part of the test suite.
#
#   bench/long_sentence_accuracy.sh [BUILD_DIR]
#     EWT and GSD from ../shared/data (or $SAWTAG_UD_DIR, $SAWTAG_ZH_DIR)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
ud=${SAWTAG_UD_DIR:-$here/../shared/data/ud-english-ewt}
zh=${SAWTAG_ZH_DIR:-$here/../shared/data/ud-chinese-gsd-1.4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The words of every sentence of $1, renumbered, as one sentence (syntax columns dropped).
one_sentence() {
  awk -F '\t' 'BEGIN { OFS = "\t"; print "# sent_id = all" }
       /^#/ || NF < 10 || $1 ~ /[-.]/ { next }
       { $1 = ++n; $7 = "_"; $8 = "_"; $9 = "_"; print }
       END { print "" }' "$1"
}
accuracy() {  # "UPOS x XPOS y" of `sawtag eval` on $2 with model $1
  "$build/app/sawtag" eval -m "$1" "$2" | awk '/^(UPOS|XPOS) accuracy/ { printf "%s %s  ", $1, $3 }'
}

for set in "en_ewt.json $ud/en_ewt-ud-dev.conllu" "zh_gsd.json $zh/zh_gsd-ud-dev.conllu"; do
  read -r model gold <<< "$set"
  if [[ ! -f $gold ]]; then
    echo "skipped: $gold not found" >&2
    continue
  fi
  one_sentence "$gold" > "$work/one.conllu"
  echo "$(basename "$gold"): as sentences: $(accuracy "$here/models/$model" "$gold")"
  echo "$(basename "$gold"): as one sentence of $(grep -c . "$work/one.conllu" | awk '{print $1 - 1}') words: $(accuracy "$here/models/$model" "$work/one.conllu")"
done
