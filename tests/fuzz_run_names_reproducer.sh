#!/usr/bin/env bash
# tests/fuzz/run.sh names the file where libFuzzer saved a crashing input, and how to replay it.
# A stand-in fuzz_tokenizer prints what libFuzzer prints on a crash (the artifact line does not
# start the line) and fails; the real targets need clang and -DSAWTAG_FUZZ=ON.
#   fuzz_run_names_reproducer.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sawtag-fuzz-run-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tests/fuzz"
cat > "$scratch/tests/fuzz/fuzz_tokenizer" <<'FAKE'
#!/usr/bin/env bash
for argument in "$@"; do
  case $argument in -artifact_prefix=*) prefix=${argument#-artifact_prefix=} ;; esac
done
echo "==42== ERROR: libFuzzer: deadly signal"
echo "MS: 1 ChangeByte-; base unit: 0000"
echo "artifact_prefix='$prefix'; Test unit written to ${prefix}crash-5f3a"
exit 1
FAKE
chmod +x "$scratch/tests/fuzz/fuzz_tokenizer"
status=0
output=$("$source_dir/tests/fuzz/run.sh" "$scratch" 1 tokenizer 2>&1) || status=$?
echo "$output"
expected="fuzz: tokenizer: reproducer $scratch/fuzz-artifacts/tokenizer/crash-5f3a"
if [ "$status" -ne 1 ]; then
  echo "FAIL: expected exit status 1, got $status" >&2
  exit 1
fi
if ! grep -qxF "$expected" <<< "$output"; then
  echo "FAIL: no line '$expected'" >&2
  exit 1
fi
if ! grep -qxF "fuzz: tokenizer: replay with $scratch/tests/fuzz/fuzz_tokenizer $scratch/fuzz-artifacts/tokenizer/crash-5f3a" <<< "$output"; then
  echo "FAIL: no replay command" >&2
  exit 1
fi
echo "ok"
