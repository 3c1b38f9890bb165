#!/usr/bin/env bash
# Builds pre-trained word vectors for `sawtag train --pretrained-embeddings` from the unlabelled
# Wikipedia text in ../shared/data/unlabeled, with Debian's fasttext (skip-gram, dim 128,
# min count 5, $EPOCHS epochs (default 5), no subwords). Text is lower-cased and split the way UD English splits
# words ("don't" -> "do n't", punctuation off), so the vectors' words match the tagger's.
#
#   scripts/build_vectors.sh [OUT_DIR]     # default: build/vectors; takes ~40 min on 2 cores
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${SAWTAG_UNLABELED:-$here/../shared/data/unlabeled/enwiki-2015-32M-words.txt.xz}
out=${1:-$here/build/vectors}
threads=${THREADS:-2}
epochs=${EPOCHS:-5}
mkdir -p "$out"
command -v fasttext >/dev/null || { echo "fasttext is missing: apt-get install fasttext" >&2; exit 1; }
[[ -f $corpus ]] || { echo "$corpus: not found (set SAWTAG_UNLABELED)" >&2; exit 1; }

if [[ ! -s $out/wiki.tok ]]; then
  # Contractions split off (do n't, john 's, we 're), punctuation split off except inside
  # numbers and abbreviations (3.5, u.s.), whitespace squeezed.
  xz -dc "$corpus" | perl -CSD -pe '
    $_ = lc;
    s/(\w)(n\x{27}t)\b/$1 $2/g;
    s/(\w)(\x{27}(?:s|re|ve|ll|d|m))\b/$1 $2/g;
    s/([^\w\s\x{27}.,\-])/ $1 /g;
    s/([,.])(\s|$)/ $1$2/g;
    s/\s+/ /g; s/^ //; s/ $/\n/;' > "$out/wiki.tok.partial"
  mv "$out/wiki.tok.partial" "$out/wiki.tok"
fi
fasttext skipgram -input "$out/wiki.tok" -output "$out/wiki" -dim 128 -minCount 5 -epoch "$epochs" \
  -maxn 0 -thread "$threads" -verbose 2
echo "vectors: $out/wiki.vec"
