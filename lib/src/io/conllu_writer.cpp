#include <ostream>
#include <string>

#include "sawtag/conllu.hpp"

namespace sawtag {
namespace {

// One line: the ID, then the nine other columns.
void write_line(std::ostream& out, const std::string& id, const Word& word) {
  out << id << '\t' << word.form << '\t' << word.lemma << '\t' << word.upos << '\t' << word.xpos
      << '\t' << word.feats << '\t' << word.head << '\t' << word.deprel << '\t' << word.deps << '\t'
      << word.misc << '\n';
}

}  // namespace

// Order of the lines, as in the UD treebanks and as ConlluReader insists: comments; empty nodes
// "0.k"; then per word w: the range "w-m" starting at it, the word, the empty nodes "w.k".
void write_conllu(std::ostream& out, const Sentence& sentence) {
  for (const std::string& comment : sentence.comments) out << comment << '\n';
  std::size_t next_token = 0;
  std::size_t next_empty = 0;
  const auto write_empty_nodes_after = [&](int after) {
    for (; next_empty < sentence.empty_nodes.size() &&
           sentence.empty_nodes[next_empty].after == after;
         ++next_empty) {
      const EmptyNode& empty = sentence.empty_nodes[next_empty];
      write_line(out, std::to_string(empty.after) + "." + std::to_string(empty.index), empty.node);
    }
  };
  write_empty_nodes_after(0);
  for (std::size_t i = 0; i < sentence.words.size(); ++i) {
    const int id = static_cast<int>(i) + 1;
    for (; next_token < sentence.multiword_tokens.size() &&
           sentence.multiword_tokens[next_token].first == id;
         ++next_token) {
      const MultiwordToken& token = sentence.multiword_tokens[next_token];
      write_line(out, std::to_string(token.first) + "-" + std::to_string(token.last), token.token);
    }
    write_line(out, std::to_string(id), sentence.words[i]);
    write_empty_nodes_after(id);
  }
  out << '\n';
}

}  // namespace sawtag
