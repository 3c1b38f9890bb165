#include "treebank_file.hpp"

#include <sys/stat.h>

#include <fstream>
#include <string>

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

std::vector<Sentence> read_tagged_treebank(const std::string& path) {
  std::vector<Sentence> sentences = read_treebank(path);
  std::size_t words = 0;
  for (const Sentence& sentence : sentences) {
    words += sentence.words.size();
    for (const Word& word : sentence.words) {
      if (word.upos != "_") return sentences;
    }
  }
  if (words == 0) throw InputError(path + ": no words: an empty treebank");
  throw InputError(path + ": no UPOS tags: column 4 is _ in all " + std::to_string(words) +
                   " words (a treebank to train on or score against needs its tags)");
}

}  // namespace sawtag::cli
