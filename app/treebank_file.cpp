#include "treebank_file.hpp"

#include <sys/stat.h>

#include <fstream>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"

namespace sawtag::cli {

std::vector<Sentence> read_treebank(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode)) {
    throw InputError(path + ": is a directory, expected a CoNLL-U file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the file");
  ConlluReader reader(in, path);
  std::vector<Sentence> sentences;
  Sentence sentence;
  while (reader.next(sentence)) sentences.push_back(std::move(sentence));
  if (in.bad()) throw InputError(path + ": read error");
  return sentences;
}

}  // namespace sawtag::cli
