#include "sawtag/cpu_kernels.hpp"

#include "infer/kernels.hpp"

namespace sawtag {

std::string cpu_kernels() { return infer::kernels().description; }

std::vector<std::string> supported_cpu_kernels() {
  std::vector<std::string> names;
  for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
    names.emplace_back(infer::cpu_level_name(level));
  }
  return names;
}

}  // namespace sawtag
