// Which x86-64 instruction set level this process runs its kernels at (infer/kernels.hpp).
//
// Levels are ordered: each includes the ones before it. The CPU and the operating system are
// asked once (cpuid, and XGETBV for the registers the OS saves); SAWTAG_CPU may then ask for a
// lower level, e.g. to compare levels or to reproduce another machine's results. On other
// architectures only `baseline` exists.
#pragma once

#include <string>
#include <vector>

namespace sawtag::infer {

enum class CpuLevel {
  baseline,    // what the compiler targets for every file (x86-64: SSE2)
  avx2,        // AVX2 + FMA + F16C (Haswell, Zen 1 and later)
  avx512,      // AVX-512 F, BW, DQ, VL (Skylake-SP, Zen 4 and later)
  avx512vnni,  // + AVX512_VNNI: vpdpbusd, int8 products (Cascade Lake, Zen 4 and later)
  avx512bf16,  // + AVX512_BF16: vdpbf16ps (Cooper Lake, Zen 4 and later; all have VNNI)
  amx,         // + AMX tiles in bfloat16 (Sapphire Rapids and later)
};

// "baseline", "avx2", "avx512", "avx512vnni", "avx512bf16", "amx".
const char* cpu_level_name(CpuLevel level);

// Every level this CPU and OS can run, lowest first (always starts with baseline).
std::vector<CpuLevel> supported_cpu_levels();

// The level named by `requested` (SAWTAG_CPU's value; empty: the highest supported). Throws
// Error for an unknown name or one this CPU lacks, saying what it has.
CpuLevel choose_cpu_level(const std::string& requested, const std::vector<CpuLevel>& supported);

// This CPU's model as cpuid names it: vendor, family, model, stepping and brand string, e.g.
// "AuthenticAMD 25.17.1 AMD EPYC 9654 96-Core Processor"; "unknown" off x86-64. What the
// measured level is remembered under (infer/level_choice.hpp).
std::string cpu_model();

}  // namespace sawtag::infer
