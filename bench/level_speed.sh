#!/usr/bin/env bash
# Tagging and training words/s at each CPU level this machine has (SAWTAG_CPU=...) and at the
# level sawtag chooses itself (measured once, then cached), for one or two builds (e.g. a native
# and a portable one); and the long-line cases of issue 28. Every run is taken in turns with the
# others, $RUNS times (default 5); the median is printed, with `uptime` before and after (the
# figures mean little on a loaded machine). Not part of the test suite.
#
#   bench/level_speed.sh BUILD_DIR [BUILD_DIR...]
#     UD English EWT and Chinese GSD from ../shared/data (or $SAWTAG_UD_DIR, $SAWTAG_ZH_DIR)
#
# - tag: EWT test '# text' lines x5 (raw text, -j 1), per level and the default;
# - train: one epoch over the first $TRAIN_SENTENCES (default 500) EWT train sentences, -j 1,
#   the trainer's words/s, per level and the default;
# - long lines (default level): 100,000 words of EWT test text on one line with no sentence end
#   (punctuation removed), -j 1 and -j 2; 30,000 Chinese characters of GSD train without
#   punctuation on one line (models/zh_gsd.json), -j 1 and -j 2, characters/s; and, for scale,
#   GSD train's own text, -j 2.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
(( $# >= 1 )) || { echo "usage: $0 BUILD_DIR [BUILD_DIR...]" >&2; exit 2; }
builds=("$@")
runs=${RUNS:-5}
train_sentences=${TRAIN_SENTENCES:-500}
ud=${SAWTAG_UD_DIR:-$here/../shared/data/ud-english-ewt}
zh=${SAWTAG_ZH_DIR:-$here/../shared/data/ud-chinese-gsd-1.4}
[[ -f $ud/en_ewt-ud-test.conllu ]] || { echo "skipped: $ud not found" >&2; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache  # the default level is measured once here, then cached

sed -n 's/^# text = //p' "$ud/en_ewt-ud-test.conllu" > "$work/test1.txt"
for _ in 1 2 3 4 5; do cat "$work/test1.txt"; done > "$work/test.txt"
test_words=$(wc -w < "$work/test.txt")
awk -v n="$train_sentences" 'BEGIN{RS=""; ORS="\n\n"} NR<=n' "$ud/en_ewt-ud-train.conllu" \
  > "$work/train.conllu"
awk 'BEGIN{RS=""; ORS="\n\n"} NR<=100' "$ud/en_ewt-ud-dev.conllu" > "$work/dev.conllu"
tr -d '.!?;:' < "$work/test1.txt" | tr '\n' ' ' |
  awk '{ for (i = 1; i <= NF; ++i) w[++n] = $i }
       END { for (k = 0; k < 100000; ++k) printf "%s%s", (k ? " " : ""), w[k % n + 1]; print "" }' \
  > "$work/line.txt"
have_zh=0
if [[ -f $zh/zh_gsd-ud-train.conllu ]]; then
  have_zh=1
  sed -n 's/^# text = //p' "$zh/zh_gsd-ud-train.conllu" > "$work/zh.txt"
  # 30,000 characters, punctuation (ASCII and CJK) and spaces removed, on one line.
  python3 - "$work/zh.txt" "$work/zh-line.txt" <<'PY'
import sys, unicodedata
text = open(sys.argv[1], encoding="utf-8").read()
kept = [c for c in text if not unicodedata.category(c).startswith(("P", "Z", "C"))]
open(sys.argv[2], "w", encoding="utf-8").write("".join(kept[:30000]) + "\n")
PY
  zh_chars=$(python3 -c "import sys; print(len(open(sys.argv[1], encoding='utf-8').read().replace(chr(10), '').replace(' ', '')))" "$work/zh.txt")
fi

seconds() {  # seconds of wall time of "$@"
  local start=$EPOCHREALTIME
  "$@" > /dev/null 2>&1
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.3f", b - a}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
train_speed() {  # the trainer's words/s for one epoch, build $1, level $2 ("" = default)
  local log
  log=$(SAWTAG_CPU=$2 "$1/app/sawtag" train --train "$work/train.conllu" --dev "$work/dev.conllu" \
          -o "$work/model.json" --epochs 1 -j 1 2>&1)
  sed -n 's/.*epoch 1: .*, \([0-9]*\) words\/s.*/\1/p' <<< "$log" | tail -1
}

levels=$("${builds[0]}/app/sawtag" info -m "$here/models/en_ewt.json" |
         sed -n 's/^kernels: .*(this CPU: \(.*\))$/\1/p')
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; levels: $levels"
echo "uptime before: $(uptime)"
for build in "${builds[@]}"; do
  "$build/app/sawtag" info -m "$here/models/en_ewt.json" | grep '^kernels'
done

declare -A tag_s train_w
for ((run = 1; run <= runs; ++run)); do
  for build in "${builds[@]}"; do
    for level in default $levels; do
      cpu=$([[ $level == default ]] && echo "" || echo "$level")
      tag_s[$build,$level]+="$(SAWTAG_CPU=$cpu seconds "$build/app/sawtag" -j 1 "$work/test.txt") "
      train_w[$build,$level]+="$(train_speed "$build" "$cpu") "
    done
  done
done
printf '%-40s %-12s %14s %16s\n' build level "tag words/s" "train words/s"
for build in "${builds[@]}"; do
  for level in default $levels; do
    t=$(tr ' ' '\n' <<< "${tag_s[$build,$level]}" | grep . | median)
    w=$(tr ' ' '\n' <<< "${train_w[$build,$level]}" | grep . | median)
    printf '%-40s %-12s %14.0f %16.0f\n' "$build" "$level" "$(awk -v w="$test_words" -v s="$t" 'BEGIN{print w / s}')" "$w"
  done
done

build=${builds[0]}
declare -A long_s
for ((run = 1; run <= runs; ++run)); do
  for threads in 1 2; do
    long_s[line,$threads]+="$(seconds "$build/app/sawtag" -j "$threads" "$work/line.txt") "
    long_s[text,$threads]+="$(seconds "$build/app/sawtag" -j "$threads" "$work/test.txt") "
    if (( have_zh )); then
      long_s[zh,$threads]+="$(seconds "$build/app/sawtag" -m "$here/models/zh_gsd.json" -j "$threads" "$work/zh-line.txt") "
      long_s[zhtext,$threads]+="$(seconds "$build/app/sawtag" -m "$here/models/zh_gsd.json" -j "$threads" "$work/zh.txt") "
    fi
  done
done
echo "long lines ($build, default level), median of $runs:"
for threads in 1 2; do
  t=$(tr ' ' '\n' <<< "${long_s[line,$threads]}" | grep . | median)
  u=$(tr ' ' '\n' <<< "${long_s[text,$threads]}" | grep . | median)
  printf '  -j %s: 100,000-word line %.0f words/s; EWT test text x5 %.0f words/s\n' "$threads" \
    "$(awk -v s="$t" 'BEGIN{print 100000 / s}')" "$(awk -v w="$test_words" -v s="$u" 'BEGIN{print w / s}')"
  if (( have_zh )); then
    z=$(tr ' ' '\n' <<< "${long_s[zh,$threads]}" | grep . | median)
    g=$(tr ' ' '\n' <<< "${long_s[zhtext,$threads]}" | grep . | median)
    printf '  -j %s: 30,000 Chinese characters, no punctuation, %.0f chars/s; GSD train text %.0f chars/s\n' \
      "$threads" "$(awk -v s="$z" 'BEGIN{print 30000 / s}')" "$(awk -v c="$zh_chars" -v s="$g" 'BEGIN{print c / s}')"
  fi
done
echo "uptime after: $(uptime)"
