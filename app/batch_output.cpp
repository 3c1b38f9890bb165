#include "batch_output.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include "output_file.hpp"
#include "progress_bar.hpp"
#include "sawtag/error.hpp"

namespace sawtag::cli {
namespace {

namespace fs = std::filesystem;

std::uintmax_t size_or_zero(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  return error ? 0 : size;
}

// Draws "files 2/5 [####   ] 40%  21533 words/s  ETA 0:00:12" as tagging goes.
class BatchProgress {
 public:
  BatchProgress(bool enabled, std::size_t files, std::uintmax_t total_bytes)
      : enabled_(enabled), files_(files), total_bytes_(total_bytes) {}

  void start_file(std::size_t index) {
    file_ = index;
    file_start_bytes_ = bytes_;
    file_start_words_ = words_;
  }
  void update(std::size_t words_in_file, std::size_t bytes_in_file) {
    words_ = file_start_words_ + words_in_file;
    bytes_ = file_start_bytes_ + bytes_in_file;
    if (!enabled_) return;
    const double seconds = elapsed();
    const double fraction =
        total_bytes_ == 0 ? 1.0 : static_cast<double>(bytes_) / static_cast<double>(total_bytes_);
    const double remaining = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
    char details[128];
    std::snprintf(details, sizeof details, "%.0f words/s  ETA %s",
                  static_cast<double>(words_) / std::max(seconds, 1e-9),
                  format_duration(remaining).c_str());
    draw_progress_bar("files " + std::to_string(file_ + 1) + "/" + std::to_string(files_),
                      fraction, details);
  }
  // The next message takes the bar's line.
  void clear() {
    if (enabled_) clear_progress_bar();
  }
  // Input bytes of the files done so far, read or skipped.
  void finish_file(std::uintmax_t bytes_so_far) { bytes_ = bytes_so_far; }

  std::size_t words() const { return words_; }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  bool enabled_;
  std::size_t files_;
  std::uintmax_t total_bytes_;
  std::size_t file_ = 0;
  std::size_t words_ = 0, file_start_words_ = 0;
  std::uintmax_t bytes_ = 0, file_start_bytes_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Tags `input` into `final_path`, through a temporary file next to it (OutputFile).
void tag_one(const Tagger& tagger, const TagSessionOptions& session_options, ThreadPool* pool,
             const std::string& input, const fs::path& final_path, BatchProgress& progress) {
  LineSource source(input);  // throws InputError for a missing file or a directory
  OutputFile output(final_path.string());
  TagSession session(tagger, session_options, output, nullptr, pool);
  session.on_progress(
      [&progress](std::size_t words, std::size_t bytes) { progress.update(words, bytes); });
  session.tag(source);
  session.finish();
  output.close();
}

}  // namespace

std::string output_name(const std::string& input, const std::string& extension) {
  return fs::path(input).stem().string() + extension;
}

int tag_into_directory(const Tagger& tagger, const TagSessionOptions& session_options,
                       ThreadPool* pool, const std::vector<std::string>& inputs,
                       const BatchOutputOptions& options) {
  std::error_code error;
  fs::create_directories(options.directory, error);
  if (error || !fs::is_directory(options.directory)) {
    throw OutputError(options.directory + ": cannot create the output directory" +
                      (error ? ": " + error.message() : std::string()));
  }
  std::uintmax_t total_bytes = 0;
  for (const std::string& input : inputs) total_bytes += size_or_zero(input);
  BatchProgress progress(options.show_progress, inputs.size(), total_bytes);

  std::map<std::string, std::string> claimed;  // output name -> the input that has it
  std::vector<std::string> failed;
  std::uintmax_t bytes_before = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& input = inputs[i];
    const std::string name = output_name(input, options.extension);
    progress.start_file(i);
    try {
      const auto [owner, added] = claimed.emplace(name, input);
      if (!added) {
        throw InputError(input + ": its output name " + name + " is already taken by " +
                         owner->second + "; rename one of them");
      }
      tag_one(tagger, session_options, pool, input, fs::path(options.directory) / name,
              progress);
    } catch (const OutputClosed&) {
      throw;
    } catch (const Error& failure) {
      progress.clear();
      spdlog::error("{} (skipped)", failure.what());
      failed.push_back(input);
    }
    bytes_before += size_or_zero(input);
    progress.finish_file(bytes_before);
  }
  progress.clear();
  const std::size_t tagged = inputs.size() - failed.size();
  if (!failed.empty()) {
    std::string names;
    for (const std::string& input : failed) names += (names.empty() ? "" : ", ") + input;
    spdlog::error("tagged {} of {} files into {}; {} failed: {}", tagged, inputs.size(),
                  options.directory, failed.size(), names);
  } else if (options.show_progress) {
    spdlog::info("tagged {} files ({} words) into {} in {}", tagged, progress.words(),
                 options.directory, format_duration(progress.elapsed()));
  }
  return static_cast<int>(failed.size());
}

}  // namespace sawtag::cli
