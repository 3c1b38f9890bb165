#include "overwrite_check.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <optional>

#include "sawtag/error.hpp"

namespace sawtag::cli {
namespace {

namespace fs = std::filesystem;

bool is_standard_stream(const std::string& path) { return path.empty() || path == "-"; }

// The device and inode of the regular file `path` leads to (links followed), when it exists.
// Devices and pipes (/dev/null, a FIFO) can be read and written at once without loss.
std::optional<std::pair<dev_t, ino_t>> identity_of(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  return std::make_pair(status.st_dev, status.st_ino);
}

bool exists(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0;
}

// "-o notes.txt", or "notes.txt" for a positional argument.
std::string described(const FileArgument& argument) {
  return argument.option.empty() ? argument.path : argument.option + " " + argument.path;
}

// The same file: one inode, or, for names that do not exist yet, one normalised path.
bool same_file(const std::string& first, const std::string& second) {
  if (exists(first) || exists(second)) {
    const auto first_identity = identity_of(first);
    return first_identity && first_identity == identity_of(second);
  }
  std::error_code error;
  const fs::path first_path = fs::weakly_canonical(fs::absolute(first), error);
  const fs::path second_path = fs::weakly_canonical(fs::absolute(second), error);
  return !error && first_path == second_path;
}

}  // namespace

void refuse_output_over_input(const std::vector<FileArgument>& inputs,
                              const std::vector<FileArgument>& outputs) {
  for (const FileArgument& output : outputs) {
    if (is_standard_stream(output.path)) continue;
    const auto output_identity = identity_of(output.path);
    if (!output_identity) continue;  // written new: cannot be anything we read
    for (const FileArgument& input : inputs) {
      if (is_standard_stream(input.path) || identity_of(input.path) != output_identity) continue;
      const std::string how = input.path == output.path ? "" : " (the same file)";
      throw OutputError(described(output) + ": would overwrite the input " + input.path + how +
                        "; choose another output");
    }
  }
}

void refuse_shared_outputs(const std::vector<FileArgument>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (is_standard_stream(outputs[i].path)) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (is_standard_stream(outputs[j].path) || !same_file(outputs[i].path, outputs[j].path)) {
        continue;
      }
      throw OutputError(described(outputs[j]) + ": is the same file as " + described(outputs[i]) +
                        "; one would replace the other");
    }
  }
}

void refuse_training_overwrites(const std::vector<FileArgument>& inputs,
                                const FileArgument& resumed, const FileArgument& output,
                                const FileArgument& checkpoint) {
  const std::vector<FileArgument> written{output, checkpoint};
  refuse_shared_outputs(written);
  refuse_output_over_input(inputs, written);
  std::vector<FileArgument> inputs_and_resumed = inputs;
  inputs_and_resumed.push_back(resumed);
  refuse_output_over_input(inputs_and_resumed, {output});
}

}  // namespace sawtag::cli
