// Which x86-64 instruction set level this process runs its kernels at (infer/kernels.hpp).
//
// A level is a set of instruction-set extensions its kernels are compiled for
// (lib/CMakeLists.txt); a CPU supports it when it has all of them. The levels are not a chain:
// avxvnni (AVX2 + AVX-VNNI) is on Intel's hybrid cores, which lack AVX-512, and AMD Zen 4 and
// Intel Cascade Lake have AVX-512 VNNI but not AVX-VNNI. The CPU and the operating system are
// asked once (cpuid, and XGETBV for the registers the OS saves); SAWTAG_CPU may then ask for
// another level the CPU supports, e.g. to compare levels or to reproduce another machine's
// results. On other architectures only `baseline` exists.
#pragma once

#include <string>
#include <vector>

namespace sawtag::infer {

// In the enum's order every level from avx2 on has AVX2 + FMA + F16C, and every level from
// avx512 on has AVX-512 F, BW, DQ and VL (nn/products.cpp and io/base64.cpp compare levels so).
enum class CpuLevel {
  baseline,    // what the compiler targets for every file (x86-64: SSE2)
  avx2,        // AVX2 + FMA + F16C (Haswell, Zen 1 and later)
  avxvnni,     // + AVX-VNNI: 256-bit vpdpbusd, int8 products (Alder Lake, Sierra Forest, Zen 5)
  avx512,      // AVX2's + AVX-512 F, BW, DQ, VL (Skylake-SP, Zen 4 and later)
  avx512vnni,  // + AVX512_VNNI: vpdpbusd, int8 products (Cascade Lake, Zen 4 and later)
  avx512bf16,  // avx512's + AVX512_BF16: vdpbf16ps (Cooper Lake, Zen 4 and later)
  amx,         // + AMX tiles in bfloat16 (Sapphire Rapids and later)
};

// "baseline", "avx2", "avxvnni", "avx512", "avx512vnni", "avx512bf16", "amx".
const char* cpu_level_name(CpuLevel level);

// The instruction-set extensions that decide which levels a CPU supports, each also saved by
// the operating system (ymm, zmm or tile registers) where it needs that.
struct CpuFeatures {
  bool avx2 = false;         // AVX2, FMA, F16C, with the ymm registers saved
  bool avx_vnni = false;     // AVX-VNNI (cpuid 7.1 EAX bit 4)
  bool avx512 = false;       // AVX-512 F, BW, DQ, VL, with the zmm registers saved
  bool avx512_vnni = false;  // AVX512_VNNI
  bool avx512_bf16 = false;  // AVX512_BF16
  bool amx = false;          // AMX-TILE, AMX-BF16, the tile registers saved and granted
};

// What this CPU and OS have (all false off x86-64).
CpuFeatures cpu_features();

// Every level a CPU with `features` can run, in the enum's order (always starts with baseline).
// E.g. Alder Lake: baseline, avx2, avxvnni; Zen 4: baseline, avx2, avx512, avx512vnni,
// avx512bf16; Zen 5: all but amx.
std::vector<CpuLevel> levels_supported_by(const CpuFeatures& features);

// levels_supported_by(cpu_features()).
std::vector<CpuLevel> supported_cpu_levels();

// The level named by `requested` (SAWTAG_CPU's value; empty: the last of `supported`, the
// highest). Throws Error for an unknown name or one not in `supported`, saying what it has.
CpuLevel choose_cpu_level(const std::string& requested, const std::vector<CpuLevel>& supported);

// This CPU's model as cpuid names it: vendor, family, model, stepping and brand string, e.g.
// "AuthenticAMD 25.17.1 AMD EPYC 9654 96-Core Processor"; "unknown" off x86-64. What the
// measured level is remembered under (infer/level_choice.hpp).
std::string cpu_model();

}  // namespace sawtag::infer
