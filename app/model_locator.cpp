#include "model_locator.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sawtag/error.hpp"

#ifndef SAWTAG_INSTALL_DATADIR
#define SAWTAG_INSTALL_DATADIR "share"
#endif
#ifndef SAWTAG_SOURCE_MODEL
#define SAWTAG_SOURCE_MODEL ""
#endif

namespace sawtag::cli {
namespace {

constexpr const char* kModelFileName = "en_ewt.json";

bool is_regular_file(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

// The directory holding the running executable ("" when /proc is not available).
std::string executable_directory() {
  std::vector<char> path(4096);
  const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return "";
  const std::string executable(path.data(), static_cast<std::size_t>(length));
  const std::size_t slash = executable.rfind('/');
  return slash == std::string::npos ? "" : executable.substr(0, slash);
}

// <prefix>/share/sawtag/en_ewt.json for a binary in <prefix>/bin.
std::string installed_model_path() {
  const std::string datadir = SAWTAG_INSTALL_DATADIR;
  if (!datadir.empty() && datadir.front() == '/') {
    return datadir + "/sawtag/" + kModelFileName;
  }
  const std::string directory = executable_directory();
  if (directory.empty()) return "";
  const std::filesystem::path path =
      std::filesystem::path(directory) / ".." / datadir / "sawtag" / kModelFileName;
  return path.lexically_normal().string();
}

}  // namespace

std::string locate_model(const std::string& model_option) {
  if (!model_option.empty()) return model_option;  // load_model reports a missing file
  if (const char* from_environment = std::getenv("SAWTAG_MODEL");
      from_environment != nullptr && *from_environment != '\0') {
    if (!is_regular_file(from_environment)) {
      throw InputError(std::string("SAWTAG_MODEL=") + from_environment +
                       ": no such model file; fix or unset SAWTAG_MODEL, or pass -m MODEL");
    }
    return from_environment;
  }
  std::string tried;
  for (const std::string& candidate : {installed_model_path(), std::string(SAWTAG_SOURCE_MODEL)}) {
    if (candidate.empty()) continue;
    if (is_regular_file(candidate)) return candidate;
    tried += ", " + candidate;
  }
  throw InputError("no model found (tried --model, $SAWTAG_MODEL" + tried +
                   "); pass -m MODEL or set SAWTAG_MODEL to a model file");
}

std::shared_ptr<const Model> load_located_model(const std::string& model_option,
                                                const TaskRunner& run_tasks) {
  return std::make_shared<const Model>(
      load_model(locate_model(model_option), Int8WordTable::keep, run_tasks));
}

}  // namespace sawtag::cli
