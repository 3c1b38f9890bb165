// What `sawtag attention`, `explain` and `walkthrough` read: text given on the command line,
// stdin ("-") and files, split into sentences the way `sawtag tag` splits them.
#pragma once

#include <string>
#include <vector>

#include "overwrite_check.hpp"
#include "sawtag/model.hpp"
#include "sawtag/sentence.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace sawtag::cli {

// The options the three commands share: where the text and the model come from, and how the
// text is tagged.
struct TextInputOptions {
  std::vector<std::string> texts;  // words of text; "-" is stdin
  std::vector<std::string> files;
  std::string model;
  bool float32 = false;
  std::string input_kind = "raw";
};

// Adds TEXT, --file, -m/--model, --float32 (described by `float32_help`) and --input.
void add_text_input_options(CLI::App& command, TextInputOptions& options,
                            const std::string& float32_help);

// The files the command reads, for refuse_output_over_input: the model (located as
// load_located_model will find it) and each --file.
std::vector<FileArgument> input_files(const TextInputOptions& options);

// The precision `sawtag tag` uses with the same --float32, so both give the same numbers.
TagPrecision tag_precision(const TextInputOptions& options);

// A CLI11 check for an option counted from 1 (--layer, --head, --word, --sentence): "0" ->
// "'0': counted from 1, expected 1 or more".
CLI::Validator counted_from_one();

// --layer and --head (counted from 1; 0: the command's default) must exist in a model of
// `config`: CLI::ValidationError (a usage error, exit 2) otherwise.
void check_layer_and_head(int layer, int head, const ModelConfig& config);

enum class AttentionInputKind {
  raw,       // running text, through the model's tokenizer
  tokenized  // one sentence per line, words separated by whitespace
};

// "raw" or "tokenized" (the --input option, checked by CLI11).
AttentionInputKind input_kind_named(const std::string& name);

// The TEXT arguments of `command` ("sawtag attention"); none (and no --file) means stdin ("-"),
// unless stdin is a terminal: then a usage error (CLI::ValidationError).
std::vector<std::string> text_arguments(const TextInputOptions& options,
                                        const std::string& command);

// One text to split: a run of command-line arguments, stdin or a file.
struct AttentionText {
  std::string name;  // for messages: "<command line>", "<stdin>" or the file's path
  std::string text;
};

// The texts in order: each run of arguments other than "-" joined by spaces as one text
// ("I" "saw" "a" "saw" -> "I saw a saw"), "-" as stdin, then each of `files` ("-" is stdin).
// Invalid UTF-8 is replaced by U+FFFD. Throws InputError when a file cannot be read or the
// texts come to more than 1 MB (the attention command is for a few sentences; `sawtag tag
// --attention` streams a corpus).
std::vector<AttentionText> read_attention_texts(const std::vector<std::string>& arguments,
                                                const std::vector<std::string>& files);

// The sentences of all texts, numbered with "# sent_id = 1", "2", ... across them, as
// `sawtag tag` numbers them (so both write the same attention file).
std::vector<Sentence> split_into_sentences(const std::vector<AttentionText>& texts,
                                           const Tokenizer& tokenizer, AttentionInputKind kind);

// The sentences of `texts` (text_arguments) and the --file files, split by `model`'s tokenizer
// or, with --input tokenized, on whitespace.
std::vector<Sentence> read_sentences(const TextInputOptions& options,
                                     const std::vector<std::string>& texts, const Model& model);

}  // namespace sawtag::cli
