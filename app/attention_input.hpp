// What `sawtag attention` and `sawtag explain` read: text given on the command line, stdin ("-")
// and files, split into sentences the way `sawtag tag` splits them.
#pragma once

#include <string>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/tokenizer.hpp"

namespace sawtag::cli {

enum class AttentionInputKind {
  raw,       // running text, through the model's tokenizer
  tokenized  // one sentence per line, words separated by whitespace
};

// "raw" or "tokenized" (the --input option, checked by CLI11).
AttentionInputKind input_kind_named(const std::string& name);

// The TEXT arguments of `command` ("sawtag attention"); none (and no --file) means stdin ("-"),
// unless stdin is a terminal: then a usage error (CLI::ValidationError).
std::vector<std::string> text_arguments(const std::vector<std::string>& texts,
                                        const std::vector<std::string>& files,
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

}  // namespace sawtag::cli
