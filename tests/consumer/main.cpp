// Uses the installed sawtag library: reads a CoNLL-U sentence, tokenizes raw text, builds a
// vocabulary and writes JSON output. Prints "ok" and exits 0 when all agree.
#include <iostream>
#include <sstream>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tokenizer.hpp"
#include "sawtag/vocabulary.hpp"

int main() {
  try {
    std::istringstream conllu(
        "# text = I saw\n"
        "1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
        "2\tsaw\tsee\tVERB\tVBD\t_\t0\troot\t_\t_\n\n");
    sawtag::ConlluReader reader(conllu, "<consumer>");
    sawtag::Sentence sentence;
    if (!reader.next(sentence) || sentence.words.size() != 2 || sentence.words[1].upos != "VERB") {
      std::cerr << "consumer: CoNLL-U sentence not read back\n";
      return 1;
    }

    const sawtag::Vocabulary tags({"PRON", "VERB"}, "upos");
    if (tags.find("VERB") != 1) {
      std::cerr << "consumer: vocabulary lookup failed\n";
      return 1;
    }

    const sawtag::Tokenizer tokenizer;
    const std::vector<sawtag::Sentence> tokenized = tokenizer.tokenize("I saw a saw.");
    if (tokenized.empty() || tokenized[0].words.size() != 5) {
      std::cerr << "consumer: tokenizer gave an unexpected result\n";
      return 1;
    }

    sawtag::TagResult result;
    for (const sawtag::Word& word : sentence.words) {
      sawtag::WordTags tags_of_word;
      tags_of_word.upos = word.upos;
      result.words.push_back(tags_of_word);
    }
    sawtag::OutputOptions options;
    std::ostringstream text;
    auto writer = sawtag::make_output_writer(text, options);
    writer->write_line({sawtag::TaggedSentence{&sentence, &result}});
    writer->finish();
    if (text.str() != "I/PRON saw/VERB\n") {
      std::cerr << "consumer: unexpected text output: " << text.str();
      return 1;
    }
  } catch (const sawtag::Error& error) {
    std::cerr << "consumer: " << error.what() << "\n";
    return 1;
  }
  std::cout << "ok\n";
  return 0;
}
