// The fixture of the CLI tests: a tiny random model saved to a temp dir, and helpers to check
// sawtag's output and messages.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "fixtures.hpp"

namespace sawtag::testing {

// A random tiny model with "don't" -> "do" "n't" in its tokenizer table, saved in a temp dir.
struct CliFixture {
  TempDir dir;
  std::string model;
  CliFixture() {
    sawtag::Model tiny = make_random_model();
    tiny.tokenizer.multiword_tokens["don't"] = {"do", "n't"};
    model = dir.file("tiny-model.json");
    sawtag::save_model(tiny, model);
  }
  RunResult tag(std::vector<std::string> args, const std::string& input = "") const {
    args.insert(args.begin(), {"tag", "-m", model});
    return run_sawtag(args, input);
  }
};

inline bool is_upos(const std::string& tag) {
  const auto tags = upos_tags();
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

inline std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

// An error is reported as exactly one line on stderr, naming what it is about.
inline void check_one_line_error(const RunResult& result, int expected_exit,
                                 const std::string& needle) {
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == expected_exit);
  CHECK(result.out.empty());
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.err.find(needle) != std::string::npos);
}

}  // namespace sawtag::testing
