#include "infer/cpu_level.hpp"

#include <algorithm>
#include <cstdint>

#include "sawtag/error.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SAWTAG_X86_64 1
#include <cpuid.h>
#endif
#if defined(SAWTAG_X86_64) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sawtag::infer {

namespace {

constexpr CpuLevel kAllLevels[] = {CpuLevel::baseline, CpuLevel::avx2,       CpuLevel::avxvnni,
                                   CpuLevel::avx512,   CpuLevel::avx512vnni, CpuLevel::avx512bf16,
                                   CpuLevel::amx};

// Whether a CPU with `features` has every extension `level`'s kernels are compiled with.
bool runs(CpuLevel level, const CpuFeatures& features) {
  switch (level) {
    case CpuLevel::baseline:
      return true;
    case CpuLevel::avx2:
      return features.avx2;
    case CpuLevel::avxvnni:
      return features.avx2 && features.avx_vnni;
    case CpuLevel::avx512:
      return features.avx2 && features.avx512;
    case CpuLevel::avx512vnni:
      return features.avx2 && features.avx512 && features.avx512_vnni;
    case CpuLevel::avx512bf16:
      return features.avx2 && features.avx512 && features.avx512_bf16;
    case CpuLevel::amx:
      return features.avx2 && features.avx512 && features.avx512_bf16 && features.amx;
  }
  return false;
}

#ifdef SAWTAG_X86_64

struct Registers {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Registers cpuid(unsigned leaf, unsigned subleaf) {
  Registers r;
  if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return Registers();
  return r;
}

bool bit(unsigned value, int index) { return ((value >> index) & 1u) != 0; }

// The register states the OS saves on a context switch (XCR0); only valid with OSXSAVE.
std::uint64_t saved_states() {
  unsigned low = 0, high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

// Linux hands out the AMX tile data registers only on request (arch_prctl, kernel 5.16+).
bool tile_data_granted() {
#ifdef __linux__
  constexpr long kRequestPermission = 0x1023;  // ARCH_REQ_XCOMP_PERM
  constexpr long kTileData = 18;               // XFEATURE_XTILEDATA
  return ::syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
#else
  return false;
#endif
}

CpuFeatures features_of_this_cpu() {
  CpuFeatures features;
  const Registers basic = cpuid(1, 0);
  if (!bit(basic.ecx, 27) || !bit(basic.ecx, 28)) return features;  // OSXSAVE, AVX
  const std::uint64_t states = saved_states();
  const Registers extended = cpuid(7, 0);
  const Registers extended_1 = cpuid(7, 1);
  const bool ymm = (states & 0x6) == 0x6;  // SSE and AVX state
  // FMA, F16C (the model file's float16), AVX2
  features.avx2 = ymm && bit(basic.ecx, 12) && bit(basic.ecx, 29) && bit(extended.ebx, 5);
  features.avx_vnni = ymm && bit(extended_1.eax, 4);
  const bool zmm = (states & 0xE6) == 0xE6;  // + opmask and both halves of the zmm registers
  features.avx512 = zmm && bit(extended.ebx, 16) && bit(extended.ebx, 17) &&
                    bit(extended.ebx, 30) && bit(extended.ebx, 31);  // F, DQ, BW, VL
  features.avx512_vnni = features.avx512 && bit(extended.ecx, 11);
  features.avx512_bf16 = features.avx512 && bit(extended_1.eax, 5);
  const bool tiles = bit(extended.edx, 24) && bit(extended.edx, 22);  // AMX-TILE, AMX-BF16
  const bool tile_states = (states & 0x60000) == 0x60000;             // XTILECFG, XTILEDATA
  // Asked last, and only of a CPU that could run the amx level: the request changes what the
  // OS saves for this process.
  features.amx =
      features.avx2 && features.avx512_bf16 && tiles && tile_states && tile_data_granted();
  return features;
}

// "AuthenticAMD 25.17.1 AMD EPYC ...": family and model with their extended fields added.
std::string model_of_this_cpu() {
  const Registers vendor = cpuid(0, 0);
  char text[13] = {};
  for (int i = 0; i < 4; ++i) {
    text[i] = static_cast<char>(vendor.ebx >> (8 * i));
    text[4 + i] = static_cast<char>(vendor.edx >> (8 * i));
    text[8 + i] = static_cast<char>(vendor.ecx >> (8 * i));
  }
  const unsigned signature = cpuid(1, 0).eax;
  unsigned family = (signature >> 8) & 0xF;
  unsigned model = (signature >> 4) & 0xF;
  if (family == 0xF) family += (signature >> 20) & 0xFF;
  if (family >= 6) model += ((signature >> 16) & 0xF) << 4;
  std::string name = std::string(text) + " " + std::to_string(family) + "." +
                     std::to_string(model) + "." + std::to_string(signature & 0xF);
  if (cpuid(0x80000000u, 0).eax >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf) {
      const Registers part = cpuid(0x80000002u + leaf, 0);
      const unsigned words[4] = {part.eax, part.ebx, part.ecx, part.edx};
      for (int w = 0; w < 4; ++w) {
        for (int b = 0; b < 4; ++b)
          brand[leaf * 16 + w * 4 + b] = static_cast<char>(words[w] >> (8 * b));
      }
    }
    std::string trimmed(brand);
    while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
    const std::size_t first = trimmed.find_first_not_of(' ');
    if (first != std::string::npos) name += " " + trimmed.substr(first);
  }
  return name;
}

#else

CpuFeatures features_of_this_cpu() { return CpuFeatures(); }

std::string model_of_this_cpu() { return "unknown"; }

#endif

}  // namespace

const char* cpu_level_name(CpuLevel level) {
  switch (level) {
    case CpuLevel::baseline:
      return "baseline";
    case CpuLevel::avx2:
      return "avx2";
    case CpuLevel::avxvnni:
      return "avxvnni";
    case CpuLevel::avx512:
      return "avx512";
    case CpuLevel::avx512vnni:
      return "avx512vnni";
    case CpuLevel::avx512bf16:
      return "avx512bf16";
    case CpuLevel::amx:
      return "amx";
  }
  return "unknown";
}

CpuFeatures cpu_features() {
  static const CpuFeatures features = features_of_this_cpu();
  return features;
}

std::vector<CpuLevel> levels_supported_by(const CpuFeatures& features) {
  std::vector<CpuLevel> levels;
  for (const CpuLevel level : kAllLevels) {
    if (runs(level, features)) levels.push_back(level);
  }
  return levels;
}

std::vector<CpuLevel> supported_cpu_levels() { return levels_supported_by(cpu_features()); }

std::string cpu_model() {
  static const std::string model = model_of_this_cpu();
  return model;
}

CpuLevel choose_cpu_level(const std::string& requested, const std::vector<CpuLevel>& supported) {
  if (requested.empty()) return supported.back();
  std::string names;
  for (const CpuLevel level : supported) {
    names += names.empty() ? "" : ", ";
    names += cpu_level_name(level);
  }
  std::string known;
  for (const CpuLevel level : kAllLevels) {
    known += known.empty() ? "" : ", ";
    known += cpu_level_name(level);
  }
  for (const CpuLevel level : kAllLevels) {
    if (requested != cpu_level_name(level)) continue;
    if (std::find(supported.begin(), supported.end(), level) == supported.end()) {
      throw Error("SAWTAG_CPU=" + requested + ": this CPU cannot run it (it can run: " + names +
                  ")");
    }
    return level;
  }
  throw Error("SAWTAG_CPU=" + requested + ": unknown level (known: " + known +
              "; this CPU: " + names + ")");
}

}  // namespace sawtag::infer
