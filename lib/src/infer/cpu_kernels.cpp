#include "sawtag/cpu_kernels.hpp"

#include "infer/kernels.hpp"

namespace sawtag {

std::string cpu_kernels() { return infer::kernels().description; }

std::string cpu_kernels_choice() {
  const infer::LevelChoice& choice = infer::level_choice();
  std::string text = infer::level_reason_name(choice.reason);
  if (!choice.note.empty()) text += " (" + choice.note + ")";
  return text;
}

std::vector<std::string> supported_cpu_kernels() {
  std::vector<std::string> names;
  for (const infer::CpuLevel level : infer::supported_cpu_levels()) {
    names.emplace_back(infer::cpu_level_name(level));
  }
  return names;
}

}  // namespace sawtag
