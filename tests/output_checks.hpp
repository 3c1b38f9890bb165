// What every output format promises for any model that loads, whatever its tags and
// multi-word tokens hold: text and tsv write one line with one item per word, CoNLL-U rows
// have 10 columns and read back, json and jsonl parse. Used by test_model_strings.cpp and by
// the fuzz_model_file target.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"

namespace sawtag::testing {

// The parts of `text` between `separator`s: "a b" -> {"a", "b"}.
inline std::vector<std::string> split_text(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

// Writes `sentence`, tagged by `tagger`, in `format` with both tags, probabilities and top-3;
// "" when it is well-formed, else what is wrong.
inline std::string output_problem(const Tagger& tagger, Sentence sentence, OutputFormat format) {
  const std::vector<std::string> forms = word_forms(sentence);
  TagOptions tag_options;
  tag_options.top_k = 3;
  const TagResult result = tagger.tag(forms, tag_options);
  OutputOptions options;
  options.format = format;
  options.tags = TagColumns::both;
  options.probabilities = true;
  options.top_k = 3;
  if (format == OutputFormat::conllu) apply_tags(sentence, result, options);
  std::ostringstream out;
  const auto writer = make_output_writer(out, options);
  writer->write_line({TaggedSentence{&sentence, &result}});
  writer->finish();
  const std::string text = out.str();
  const std::size_t words = sentence.words.size();
  const std::vector<std::string> lines = split_text(text, '\n');
  switch (format) {
    case OutputFormat::text:
      if (lines.size() != 1 || text.back() != '\n') return "text: not one line";
      if (split_text(lines[0], ' ').size() != words) return "text: not one item per word";
      return "";
    case OutputFormat::tsv:
      if (lines.size() != 1 || text.back() != '\n') return "tsv: not one line";
      for (const std::string& cell : split_text(lines[0], '\t')) {
        if (split_text(cell, ' ').size() != words) return "tsv: a cell without one item per word";
      }
      return "";
    case OutputFormat::conllu: {
      for (const std::string& line : lines) {
        if (line.empty() || line[0] == '#') continue;
        if (std::count(line.begin(), line.end(), '\t') != 9)
          return "conllu: a row without 10 columns";
      }
      std::istringstream in(text);
      ConlluReader reader(in, "output");
      Sentence read;
      try {
        if (!reader.next(read) || read.words.size() != words) return "conllu: reads back wrong";
      } catch (const InputError& error) {
        return std::string("conllu: does not read back: ") + error.what();
      }
      return "";
    }
    case OutputFormat::json:
    case OutputFormat::jsonl:
      for (const std::string& line :
           format == OutputFormat::json ? std::vector<std::string>{text} : lines) {
        if (!nlohmann::json::accept(line)) return "json: not valid JSON";
      }
      return "";
  }
  return "";
}

}  // namespace sawtag::testing
