// Which CPU kernels this process tags with. One binary carries kernels for several x86-64
// levels (baseline, avx2, avxvnni, avx512, avx512vnni, avx512bf16, amx) and runs the one that
// was fastest on this CPU's encoder products, timed at the first run on a machine and remembered in
// $XDG_CACHE_HOME/sawtag/ (else ~/.cache/sawtag/); the environment variable SAWTAG_CPU may
// name one instead (e.g. SAWTAG_CPU=avx2).
#pragma once

#include <string>
#include <vector>

namespace sawtag {

// The kernels in use, e.g. "avx512vnni (float32: AVX-512; reduced precision: int8,
// AVX512_VNNI)". Throws
// Error when SAWTAG_CPU names an unknown level or one this CPU lacks.
std::string cpu_kernels();

// Why that level runs: "forced (SAWTAG_CPU=avx2)", "measured (avx512bf16 0.310 ms, avx512
// 0.620 ms, ...; remembered in PATH)", "cached (...)" or "only". Throws as cpu_kernels() does.
std::string cpu_kernels_choice();

// The levels this CPU supports, in the order above, e.g. {"baseline", "avx2", "avxvnni"} (Intel
// Alder Lake: AVX-VNNI but no AVX-512).
std::vector<std::string> supported_cpu_kernels();

}  // namespace sawtag
