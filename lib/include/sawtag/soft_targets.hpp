// A teacher's probabilities over every word of a text, kept for distilling it into a student
// (`sawtag silver --soft K`, then `sawtag train --silver FILE`): for each word and each head
// (UPOS, XPOS, and FEATS and lemma rules where the teacher has them), the K most likely classes
// with the teacher's mean calibrated probability. A pass of the student over millions of words
// then needs the file, not the teacher. The format is in docs/distillation.md.
#pragma once

#include <array>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "sawtag/tagger.hpp"

namespace sawtag {

// The heads a soft-targets file can carry, in the order of its columns.
enum class SoftHead { upos, xpos, feats, lemma };
constexpr std::size_t kSoftHeads = 4;

// One class of a word's distribution: an index into the file's class list of that head.
struct SoftClass {
  int index = 0;
  float probability = 0.0f;
};

struct SoftWord {
  std::string form;
  // Per head (SoftHead order), the most likely classes first; empty where the teacher has no
  // such head.
  std::array<std::vector<SoftClass>, kSoftHeads> heads;
};
using SoftSentence = std::vector<SoftWord>;

// What each head's class indices refer to: the teacher's UPOS tags, XPOS tags, FEATS strings
// and lemma rules (in sawtag/lemma_rule.hpp's text form); empty for a head it does not have.
struct SoftTargetsHeader {
  std::array<std::vector<std::string>, kSoftHeads> classes;
};

// The class lists of `teacher`'s heads.
SoftTargetsHeader soft_targets_header(const Model& teacher);

struct SoftTargetOptions {
  int top_k = 4;             // classes kept per word and head (at least 1)
  int threads = 2;           // sentences are split between threads; the result does not depend on it
};

// For each word of `sentences`, each head's `top_k` most likely classes under the mean of the
// teachers' calibrated probabilities (softmax(logits / T), each teacher with its own T per
// head), probabilities as they are (not renormalised over the kept classes). The teachers must
// have the same classes for every head (InputError naming the first that differs); none is an
// InputError too.
std::vector<SoftSentence> teacher_distributions(
    const std::vector<const Tagger*>& teachers,
    const std::vector<std::vector<std::string>>& sentences, const SoftTargetOptions& options);

// Writing: the header once, then each sentence. Probabilities are written with four decimals;
// a class whose probability rounds to 0 is left out, except a word's most likely one.
void write_soft_targets_header(std::ostream& out, const SoftTargetsHeader& header);
void write_soft_sentence(std::ostream& out, const SoftSentence& sentence);

// True when the file at `path` starts as a soft-targets file does (else it is CoNLL-U, say).
bool is_soft_targets_file(const std::string& path);

// Reads a soft-targets file a sentence at a time. Anything malformed is an InputError naming
// `name` and the line.
class SoftTargetsReader {
 public:
  // Reads the header.
  SoftTargetsReader(std::istream& in, std::string name);
  const SoftTargetsHeader& header() const { return header_; }
  // The next sentence into `sentence`; false at the end of the file.
  bool next(SoftSentence& sentence);

 private:
  std::istream& in_;
  std::string name_;
  long long line_number_ = 0;
  SoftTargetsHeader header_;
};

}  // namespace sawtag
