#!/usr/bin/env bash
# Runs the libFuzzer targets one after the other, each for SECONDS, starting from its seeds and
# regression inputs in tests/fuzz/corpus/<target>/ (which are never written to: new inputs go to
# BUILD_DIR/fuzz-corpus/<target>/, and a crash, hang or leak to BUILD_DIR/fuzz-artifacts/).
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]   (targets: tokenizer conllu_reader
#                                                      model_file tag; default all)
# BUILD_DIR is configured with -DSAWTAG_FUZZ=ON. Exits 1 if any target found something.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
  exit 2
fi
build_dir=$(realpath "$1")
seconds=$2
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(tokenizer conllu_reader model_file tag)
fi
fuzz_dir=$(realpath "$(dirname "$0")")

failed=()
for target in "${targets[@]}"; do
  corpus="$build_dir/fuzz-corpus/$target"
  artifacts="$build_dir/fuzz-artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  dictionary=()
  if [ -f "$fuzz_dir/$target.dict" ]; then
    dictionary=(-dict="$fuzz_dir/$target.dict")
  fi
  echo "fuzz: $target for ${seconds}s"
  # Leaks are checked as well; one input at most 10 s and the process at most 2 GB.
  log="$build_dir/fuzz-$target.log"
  status=0
  "$build_dir/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts" "${dictionary[@]}" \
    "$corpus" "$fuzz_dir/corpus/$target" > "$log" 2>&1 || status=$?
  grep -E '^(Done |stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)|runtime error:' \
    "$log" || true
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    # libFuzzer writes "artifact_prefix='DIR/'; Test unit written to DIR/crash-SHA1" (one line,
    # not at its start): name each reproducer and the command that replays it.
    found=0
    while IFS= read -r artifact; do
      found=1
      echo "fuzz: $target: reproducer $artifact"
      echo "fuzz: $target: replay with $build_dir/tests/fuzz/fuzz_$target $artifact"
    done < <(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
    if [ "$found" -eq 0 ]; then
      echo "fuzz: $target: exit status $status and no reproducer written (see $log)"
    fi
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (logs in $build_dir/fuzz-<target>.log)" >&2
  exit 1
fi
echo "fuzz: all targets ran ${seconds}s without a finding"
