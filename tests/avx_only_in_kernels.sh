#!/usr/bin/env bash
# A portable build (SAWTAG_NATIVE=OFF) must run on any x86-64 CPU: every AVX instruction (any
# VEX/EVEX-encoded one, mnemonic starting with 'v') must sit in a function of the CPU-level
# kernels (lib/src/infer/kernels/level_*.cpp, lib/src/io/decode_avx2.cpp, and training's
# products, lib/src/nn/levels/products_*.cpp, in their own Eigen namespaces), which run only
# when cpuid says the CPU has them. Lists any other function that has one, and fails.
#   tests/avx_only_in_kernels.sh BINARY   (exit 77: skipped, no objdump)
set -euo pipefail
binary=$1
command -v objdump > /dev/null || { echo "skipped: objdump not found"; exit 77; }
kernel_functions='sawtag::infer::\(anonymous namespace\)::(multiply_tile|multiply_pass|linear_float32|layer_norm|gelu|attention_weights|head_scores|weighted_values|linear_bfloat16|bfloat16_tile|to_bfloat16_rows|linear_int8|int8_tile|quantize_rows|first_lanes|exp_clamped|erf_rational|configure_this_thread)\(|sawtag::decode_avx2::|sawtag::nn::\(anonymous namespace\)::(multiply|add_transposed_times|times_transposed)\(|sawtag_eigen_(avx2|avx512)::'
found=$(objdump -d --no-show-raw-insn -C "$binary" |
  awk '/^[0-9a-f]+ <.*>:$/ {f = $0} $2 ~ /^v[a-z]/ && $2 != "verw" && !(f in s) {s[f] = 1; print f}' |
  grep -Ev "$kernel_functions" || true)
all=$(objdump -d --no-show-raw-insn -C "$binary" |
  awk '/^[0-9a-f]+ <.*>:$/ {f = $0} $2 ~ /^v[a-z]/ && $2 != "verw" && !(f in s) {s[f] = 1; print f}' |
  wc -l)
if [[ -n $found ]]; then
  echo "AVX instructions outside the CPU-level kernels:"
  echo "$found"
  exit 1
fi
# The kernels themselves must be there (else the check above proves nothing).
(( all > 0 )) || { echo "no AVX instruction at all: were the level files compiled?"; exit 1; }
echo "AVX instructions only in the kernels ($all functions)"
