#include "train/pretrained_vectors.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sawtag/error.hpp"

namespace sawtag::train {

PretrainedVectors read_pretrained_vectors(const std::string& path, int max_words) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the word vectors");
  PretrainedVectors vectors;
  std::string line;
  long declared_count = 0;
  if (!std::getline(in, line) || !(std::istringstream(line) >> declared_count >> vectors.dim) ||
      vectors.dim <= 0 || vectors.dim > 4096) {
    throw InputError(path + ":1: expected a header '<count> <dim>', got '" + line.substr(0, 80) +
                     "'");
  }
  std::size_t line_number = 1;
  while (static_cast<int>(vectors.words.size()) < max_words && std::getline(in, line)) {
    ++line_number;
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || space == 0) {
      throw InputError(path + ":" + std::to_string(line_number) + ": expected '<word> <numbers>'");
    }
    vectors.words.push_back(line.substr(0, space));
    const char* cursor = line.c_str() + space;
    for (int k = 0; k < vectors.dim; ++k) {
      char* end = nullptr;
      errno = 0;
      const float value = std::strtof(cursor, &end);
      if (end == cursor || errno == ERANGE || !std::isfinite(value)) {
        throw InputError(path + ":" + std::to_string(line_number) + ": expected " +
                         std::to_string(vectors.dim) + " numbers, got " + std::to_string(k));
      }
      vectors.values.push_back(value);
      cursor = end;
    }
  }
  return vectors;
}

}  // namespace sawtag::train
