#include "attention_input.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "line_source.hpp"
#include "model_locator.hpp"
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

CLI::Validator counted_from_one() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          if (std::stoi(value) >= 1) return "";
        } catch (const std::logic_error&) {
        }
        return "'" + value + "': counted from 1, expected 1 or more";
      },
      "N>=1");
}

void check_layer_and_head(int layer, int head, const ModelConfig& config) {
  if (layer > config.num_layers) {
    throw CLI::ValidationError("--layer", std::to_string(layer) + ": the model has " +
                                              std::to_string(config.num_layers) + " layers");
  }
  if (head > config.num_heads) {
    throw CLI::ValidationError("--head", std::to_string(head) + ": the model has " +
                                             std::to_string(config.num_heads) + " heads per layer");
  }
}

AttentionInputKind input_kind_named(const std::string& name) {
  return name == "tokenized" ? AttentionInputKind::tokenized : AttentionInputKind::raw;
}

std::vector<std::string> text_arguments(const TextInputOptions& options,
                                        const std::string& command) {
  if (!options.texts.empty() || !options.files.empty()) return options.texts;
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

void add_text_input_options(CLI::App& command, TextInputOptions& options,
                            const std::string& float32_help) {
  command.add_option("text", options.texts,
                     "Text to tag (several arguments are joined by spaces); '-' reads stdin");
  command.add_option("--file", options.files, "Read text from FILE ('-': stdin); repeatable")
      ->allow_extra_args(false)  // `--file a.txt "more text"`: the text is not a file
      ->type_name("FILE");
  command.add_option("-m,--model", options.model,
                     "Model file (default: $SAWTAG_MODEL, else the installed en_ewt.json)");
  command.add_flag("--float32", options.float32, float32_help);
  command
      .add_option("--input", options.input_kind,
                  "raw: running text, split by the model's tokenizer; tokenized: one sentence "
                  "per line, words split on whitespace")
      ->capture_default_str()
      ->check(CLI::IsMember({"raw", "tokenized"}));
}

std::vector<FileArgument> input_files(const TextInputOptions& options) {
  std::vector<FileArgument> inputs{{"--model", locate_model(options.model)}};
  for (const std::string& file : options.files) inputs.push_back({"--file", file});
  return inputs;
}

TagPrecision tag_precision(const TextInputOptions& options) {
  return options.float32 ? TagPrecision::float32 : TagPrecision::fastest;
}

std::vector<Sentence> read_sentences(const TextInputOptions& options,
                                     const std::vector<std::string>& texts, const Model& model) {
  const Tokenizer tokenizer(model.tokenizer);
  return split_into_sentences(read_attention_texts(texts, options.files), tokenizer,
                              input_kind_named(options.input_kind));
}

}  // namespace sawtag::cli
