// `sawtag tag --output-dir DIR FILES...`: one output per input, each written to a hidden
// temporary file in DIR and renamed to its final name only when complete, so an interrupted
// run never leaves a half-written file under a result's name. A bad input is reported and
// skipped; the others are still tagged.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "tag_session.hpp"
#include "thread_pool.hpp"

namespace sawtag::cli {

// Some inputs of a batch failed; each was reported already. main exits with status 1.
class BatchFailed : public std::exception {
 public:
  const char* what() const noexcept override { return "some inputs failed"; }
};

struct BatchOutputOptions {
  std::string directory;  // created when missing
  std::string extension;  // of the outputs, with its dot: ".conllu"
  bool show_progress = false;
};

// The output name of `input`: its file name with the extension replaced, "a/b.txt" -> "b.conllu".
std::string output_name(const std::string& input, const std::string& extension);

// Tags each input into the directory; returns how many inputs failed (each reported on
// stderr, then a summary line).
int tag_into_directory(const Tagger& tagger, const TagSessionOptions& session_options,
                       ThreadPool* pool, const std::vector<std::string>& inputs,
                       const BatchOutputOptions& options);

}  // namespace sawtag::cli
