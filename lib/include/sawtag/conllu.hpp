// Reading and writing CoNLL-U (https://universaldependencies.org/format.html).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "sawtag/sentence.hpp"

namespace sawtag {

// Reads sentences one at a time from a stream, so memory is bounded by the longest sentence.
// Malformed input throws InputError "<source>:<line>: <problem>: '<the line>'".
class ConlluReader {
 public:
  // `in` must outlive the reader; `source_name` names it in error messages ("-" for stdin).
  ConlluReader(std::istream& in, std::string source_name);

  // Reads the next sentence into `sentence`; false at the end of the input.
  bool next(Sentence& sentence);

  // 1-based number of the last line read.
  std::size_t line_number() const { return line_number_; }

 private:
  std::istream& in_;
  std::string source_name_;
  std::size_t line_number_ = 0;
};

// Writes one sentence followed by its blank line. A sentence read by ConlluReader is written
// back byte for byte.
void write_conllu(std::ostream& out, const Sentence& sentence);

}  // namespace sawtag
