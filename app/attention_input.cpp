#include "attention_input.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstddef>
#include <utility>

#include "line_source.hpp"
#include "sawtag/error.hpp"
#include "tokenized_line.hpp"

namespace sawtag::cli {
namespace {

constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;

// Reads a whole file ("-": stdin), its lines joined by "\n".
AttentionText read_whole(const std::string& path) {
  LineSource source(path);
  AttentionText text{source.name(), ""};
  std::string line;
  bool first = true;
  while (source.next(line)) {
    if (!first) text.text += '\n';
    text.text += line;
    first = false;
    if (text.text.size() > kMaxInputBytes) {
      throw InputError(source.name() + ":" + std::to_string(source.line_number()) +
                       ": more than 1 MB of text: sawtag attention is for a few sentences; "
                       "use sawtag tag --attention FILE for a corpus");
    }
  }
  return text;
}

std::vector<Sentence> split_lines(const std::string& text) {
  std::vector<Sentence> sentences;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    if (!is_blank(line)) sentences.push_back(split_on_whitespace(line));
    begin = end + 1;
  }
  return sentences;
}

}  // namespace

AttentionInputKind input_kind_named(const std::string& name) {
  return name == "tokenized" ? AttentionInputKind::tokenized : AttentionInputKind::raw;
}

std::vector<std::string> text_arguments(const std::vector<std::string>& texts,
                                        const std::vector<std::string>& files,
                                        const std::string& command) {
  if (!texts.empty() || !files.empty()) return texts;
  if (::isatty(0) == 1) {
    throw CLI::ValidationError(command, "no text: give TEXT, '-' for stdin, or --file FILE");
  }
  return {"-"};
}

std::vector<AttentionText> read_attention_texts(const std::vector<std::string>& arguments,
                                                const std::vector<std::string>& files) {
  std::vector<AttentionText> texts;
  std::size_t total_bytes = 0;
  const auto add = [&](AttentionText text) {
    total_bytes += text.text.size();
    if (total_bytes > kMaxInputBytes) {
      throw InputError(text.name +
                       ": more than 1 MB of text in all: sawtag attention is for a "
                       "few sentences; use sawtag tag --attention FILE for a corpus");
    }
    texts.push_back(std::move(text));
  };
  AttentionText words{"<command line>", ""};
  for (const std::string& argument : arguments) {
    if (argument != "-") {
      words.text += (words.text.empty() ? "" : " ") + argument;
      continue;
    }
    if (!words.text.empty()) add(std::exchange(words, AttentionText{"<command line>", ""}));
    add(read_whole("-"));
  }
  if (!words.text.empty()) add(std::move(words));
  for (const std::string& file : files) add(read_whole(file));
  for (AttentionText& text : texts) repair_utf8(text.text);
  return texts;
}

std::vector<Sentence> split_into_sentences(const std::vector<AttentionText>& texts,
                                           const Tokenizer& tokenizer, AttentionInputKind kind) {
  std::vector<Sentence> sentences;
  for (const AttentionText& text : texts) {
    std::vector<Sentence> found =
        kind == AttentionInputKind::raw ? tokenizer.tokenize(text.text) : split_lines(text.text);
    for (Sentence& sentence : found) sentences.push_back(std::move(sentence));
  }
  std::size_t next_id = 1;
  for (Sentence& sentence : sentences) {
    sentence.comments.insert(sentence.comments.begin(), "# sent_id = " + std::to_string(next_id++));
  }
  return sentences;
}

}  // namespace sawtag::cli
