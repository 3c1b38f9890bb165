#include <filesystem>
#include <string>
#include <vector>

#include "sawtag/training.hpp"

namespace sawtag {
namespace {

bool is_path(const std::string& argument) {
  if (argument.empty() || argument[0] == '-' || argument.find('/') == std::string::npos) {
    return false;
  }
  std::error_code error;
  const std::filesystem::path path(argument);
  return std::filesystem::exists(path, error) || std::filesystem::is_directory(path.parent_path(), error);
}

bool plain(const std::string& argument) {
  if (argument.empty()) return false;
  for (unsigned char c : argument) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string("_./:=,+-@%").find(static_cast<char>(c)) != std::string::npos ||
                      c >= 0x80;
    if (!safe) return false;
  }
  return true;
}

std::string quoted(const std::string& argument) {
  std::string result = "'";
  for (char c : argument) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
}

}  // namespace

std::string recorded_command_line(const std::vector<std::string>& arguments_of_run) {
  std::string command_line;
  for (const std::string& original : arguments_of_run) {
    const std::string argument =
        is_path(original) ? std::filesystem::path(original).filename().string() : original;
    command_line += (command_line.empty() ? "" : " ") + (plain(argument) ? argument : quoted(argument));
  }
  return command_line;
}

}  // namespace sawtag
