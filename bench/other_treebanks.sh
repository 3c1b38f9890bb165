#!/usr/bin/env bash
# How a model does on treebanks it never saw: every *-ud-test.conllu under a folder (for the
# English model: UD English GUM, PUD, LinES, ParTUT, ... from universaldependencies.org), scored
# by `sawtag eval` on gold words. XPOS is left out: those treebanks need not use EWT's tag set.
# Their lemma and feature conventions differ from EWT's in places (GUM lemmatizes "people" as
# "person"), so compare models on the same treebank rather than against EWT's figures.
# Not part of the test suite.
#
#   bench/other_treebanks.sh FOLDER [MODEL] [BUILD_DIR]
#     MODEL: default models/en_ewt.json; BUILD_DIR: default build
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
folder=${1:?usage: bench/other_treebanks.sh FOLDER [MODEL] [BUILD_DIR]}
model=${2:-$here/models/en_ewt.json}
build=${3:-$here/build}

shopt -s nullglob
treebanks=("$folder"/*-ud-test.conllu)
if (( ${#treebanks[@]} == 0 )); then
  echo "skipped: no *-ud-test.conllu in $folder" >&2
  exit 0
fi
printf '%-28s %8s %8s %8s %8s\n' treebank words UPOS UFeats Lemmas
for gold in "${treebanks[@]}"; do
  "$build/app/sawtag" eval -m "$model" --confusions 0 "$gold" |
    awk -v name="$(basename "$gold")" '
      /^UPOS accuracy/ { upos = $3; words = $6 }
      /^UFeats accuracy/ { feats = $3 }
      /^Lemmas accuracy/ { lemmas = $3 }
      END { printf "%-28s %8s %8s %8s %8s\n", name, words, upos, feats, lemmas }'
done
