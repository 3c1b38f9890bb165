// Word vectors in the word2vec / fastText text format:
//   first line "<count> <dim>", then one line per word: "<word> <dim numbers>", most frequent
//   words first (as fastText writes them).
#pragma once

#include <string>
#include <vector>

namespace sawtag::train {

struct PretrainedVectors {
  int dim = 0;
  std::vector<std::string> words;  // in file order
  std::vector<float> values;       // [words.size(), dim], row-major
};

// Reads the first `max_words` vectors of `path`. Throws InputError naming the file and line
// for a malformed line or a wrong number of values.
PretrainedVectors read_pretrained_vectors(const std::string& path, int max_words);

}  // namespace sawtag::train
