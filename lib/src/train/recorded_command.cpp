#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
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
  return std::filesystem::exists(path, error) ||
         std::filesystem::is_directory(path.parent_path(), error);
}

// Nothing in it that a shell would split or expand.
bool plain(const std::string& argument) {
  constexpr std::string_view kSafePunctuation = "_./:=,+-@%";
  return !argument.empty() &&
         std::all_of(argument.begin(), argument.end(), [&](char c) {
           const auto byte = static_cast<unsigned char>(c);
           const bool letter_or_digit = (byte >= 'a' && byte <= 'z') ||
                                        (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9');
           return letter_or_digit || byte >= 0x80 ||
                  kSafePunctuation.find(c) != std::string_view::npos;
         });
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
    command_line += (command_line.empty() ? "" : " ");
    command_line += plain(argument) ? argument : quoted(argument);
  }
  return command_line;
}

}  // namespace sawtag
