// The output formats of lib/src/io/output_writer.cpp, apply_tags and the attention file.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "io/json_text.hpp"
#include "sawtag/output.hpp"

namespace {

using sawtag::OutputFormat;
using sawtag::OutputOptions;
using sawtag::Sentence;
using sawtag::TagColumns;
using sawtag::TaggedSentence;
using sawtag::TagResult;

Sentence make_sentence(const std::vector<std::string>& forms) {
  Sentence sentence;
  for (const std::string& form : forms) {
    sawtag::Word word;
    word.form = form;
    sentence.words.push_back(word);
  }
  return sentence;
}

sawtag::WordTags word_tags(const std::string& upos, const std::string& xpos, float upos_p,
                           float xpos_p) {
  sawtag::WordTags tags;
  tags.upos = upos;
  tags.xpos = xpos;
  tags.upos_probability = upos_p;
  tags.xpos_probability = xpos_p;
  tags.upos_top = {{upos, upos_p}, {"X", 1.0f - upos_p}};
  tags.xpos_top = {{xpos, xpos_p}};
  return tags;
}

// "I saw a saw" with UPOS, XPOS and probabilities.
struct Example {
  Sentence sentence = make_sentence({"I", "saw", "a", "saw"});
  TagResult result;
  Example() {
    result.words = {word_tags("PRON", "PRP", 0.99f, 0.98f),
                    word_tags("VERB", "VBD", 0.982f, 0.951f), word_tags("DET", "DT", 0.97f, 0.96f),
                    word_tags("NOUN", "NN", 0.9f, 0.85f)};
  }
  TaggedSentence tagged() const { return {&sentence, &result}; }
};

std::string write(const OutputOptions& options,
                  const std::vector<std::vector<TaggedSentence>>& lines) {
  std::ostringstream out;
  auto writer = sawtag::make_output_writer(out, options);
  for (const auto& line : lines) writer->write_line(line);
  writer->finish();
  return out.str();
}

OutputOptions options_for(OutputFormat format, TagColumns tags = TagColumns::upos,
                          bool probabilities = false, int top_k = 0) {
  OutputOptions options;
  options.format = format;
  options.tags = tags;
  options.probabilities = probabilities;
  options.top_k = top_k;
  return options;
}

}  // namespace

TEST_CASE("text: word/TAG, one output line per input line", "[output]") {
  const Example example;
  CHECK(write(options_for(OutputFormat::text), {{example.tagged()}}) ==
        "I/PRON saw/VERB a/DET saw/NOUN\n");
  CHECK(write(options_for(OutputFormat::text, TagColumns::xpos), {{example.tagged()}}) ==
        "I/PRP saw/VBD a/DT saw/NN\n");
  // Two sentences of one line share it; an empty line stays empty.
  CHECK(write(options_for(OutputFormat::text), {{example.tagged(), example.tagged()}, {}, {}}) ==
        "I/PRON saw/VERB a/DET saw/NOUN I/PRON saw/VERB a/DET saw/NOUN\n\n\n");
}

TEST_CASE("text: both tags and probabilities", "[output]") {
  const Example example;
  const std::string text =
      write(options_for(OutputFormat::text, TagColumns::both, true), {{example.tagged()}});
  CHECK(text ==
        "I/PRON/PRP|0.990|0.980 saw/VERB/VBD|0.982|0.951 a/DET/DT|0.970|0.960 "
        "saw/NOUN/NN|0.900|0.850\n");
}

TEST_CASE("text and tsv: a space inside a word becomes U+00A0", "[output]") {
  Example example;
  example.sentence.words[2].form = "a b";
  CHECK(write(options_for(OutputFormat::text), {{example.tagged()}}) ==
        "I/PRON saw/VERB a\xC2\xA0"
        "b/DET saw/NOUN\n");
}

TEST_CASE("tsv: aligned columns, one row per line", "[output]") {
  const Example example;
  CHECK(write(options_for(OutputFormat::tsv), {{example.tagged()}, {}}) ==
        "I saw a saw\tPRON VERB DET NOUN\n\n");
  CHECK(write(options_for(OutputFormat::tsv, TagColumns::both, true), {{example.tagged()}}) ==
        "I saw a saw\tPRON VERB DET NOUN\tPRP VBD DT NN\t0.990 0.982 0.970 0.900\t"
        "0.980 0.951 0.960 0.850\n");
}

TEST_CASE("text and tsv: a line's words in several calls make the same line", "[output]") {
  const Example example;
  for (const OutputFormat format : {OutputFormat::text, OutputFormat::tsv}) {
    const OutputOptions options = options_for(format, TagColumns::both, true);
    const std::string whole =
        write(options, {{example.tagged(), example.tagged(), example.tagged()}, {}});
    std::ostringstream out;
    auto writer = sawtag::make_output_writer(out, options);
    writer->continue_line({example.tagged()});
    writer->continue_line({});
    writer->continue_line({example.tagged()});
    CHECK(out.str().empty());  // nothing until the line ends
    writer->write_line({example.tagged()});
    writer->write_line({});
    CHECK(out.str() == whole);
  }
}

TEST_CASE("json: a writer that continues a document begins with a comma", "[output]") {
  const Example example;
  const OutputOptions options = options_for(OutputFormat::json);
  const std::string whole = write(options, {{example.tagged()}, {example.tagged()}});
  // Two writers, one per part, joined: the second was told of the first's sentence.
  std::ostringstream first_part;
  auto first = sawtag::make_output_writer(first_part, options);
  first->continue_after(0);
  first->write_line({example.tagged()});
  std::ostringstream second_part;
  auto second = sawtag::make_output_writer(second_part, options);
  second->continue_after(1);
  second->write_line({example.tagged()});
  second->finish();
  CHECK(second_part.str().rfind(",\n{", 0) == 0);
  CHECK(first_part.str() + second_part.str() == whole);
  // A writer that only ends a document of other writers' sentences.
  std::ostringstream end;
  auto closing = sawtag::make_output_writer(end, options);
  closing->continue_after(2);
  closing->finish();
  CHECK(end.str() == "\n]\n");
}

TEST_CASE("json: one array, streamed, parses", "[output]") {
  Example example;
  example.sentence.comments = {"# sent_id = 7", "# text = I saw a saw"};
  const std::string text = write(options_for(OutputFormat::json, TagColumns::both, true, 2),
                                 {{example.tagged()}, {}, {example.tagged()}});
  const auto document = nlohmann::json::parse(text);
  REQUIRE(document.is_array());
  REQUIRE(document.size() == 2);
  const auto& first = document[0];
  CHECK(first["sent_id"] == "7");
  CHECK(first["text"] == "I saw a saw");
  REQUIRE(first["words"].size() == 4);
  const auto& saw = first["words"][1];
  CHECK(saw["id"] == 2);
  CHECK(saw["form"] == "saw");
  CHECK(saw["upos"] == "VERB");
  CHECK(saw["xpos"] == "VBD");
  CHECK(saw["upos_prob"].get<double>() == Approx(0.982).margin(1e-4));
  REQUIRE(saw["upos_top"].size() == 2);
  CHECK(saw["upos_top"][0]["tag"] == "VERB");
  CHECK(saw["upos_top"][1]["tag"] == "X");
  CHECK(saw["xpos_top"][0]["prob"].get<double>() == Approx(0.951).margin(1e-4));
}

TEST_CASE("json: empty input is an empty array; upos only has no xpos keys", "[output]") {
  CHECK(nlohmann::json::parse(write(options_for(OutputFormat::json), {})) ==
        nlohmann::json::array());
  const Example example;
  const auto document =
      nlohmann::json::parse(write(options_for(OutputFormat::json), {{example.tagged()}}));
  const auto& word = document[0]["words"][0];
  CHECK(word.contains("upos"));
  CHECK_FALSE(word.contains("xpos"));
  CHECK_FALSE(word.contains("upos_prob"));
  CHECK_FALSE(word.contains("upos_top"));
}

TEST_CASE("jsonl: one object per sentence per line, with multi-word tokens", "[output]") {
  Example example;
  example.sentence.multiword_tokens.push_back({3, 4, sawtag::Word{"asaw"}});
  const std::string text = write(options_for(OutputFormat::jsonl, TagColumns::xpos),
                                 {{example.tagged(), example.tagged()}, {}});
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    const auto object = nlohmann::json::parse(line);
    CHECK(object["words"][3]["xpos"] == "NN");
    CHECK_FALSE(object["words"][3].contains("upos"));
    CHECK(object["multiword_tokens"][0]["first"] == 3);
    CHECK(object["multiword_tokens"][0]["form"] == "asaw");
    ++count;
  }
  CHECK(count == 2);
}

TEST_CASE("json strings are escaped and stay valid UTF-8", "[output]") {
  std::string json;
  sawtag::append_json_string(json, "say \"hi\"\\\n\t\x01 caf\xC3\xA9 bad\xFF!");
  CHECK(json == "\"say \\\"hi\\\"\\\\\\n\\t\\u0001 caf\xC3\xA9 bad\xEF\xBF\xBD!\"");
  CHECK(nlohmann::json::parse(json) == "say \"hi\"\\\n\t\x01 caf\xC3\xA9 bad\xEF\xBF\xBD!");
  CHECK(sawtag::format_number(0.98213f) == "0.9821");
  CHECK(sawtag::format_number(std::nanf("")) == "null");
}

TEST_CASE("conllu: UPOS/XPOS filled, other columns and MISC kept", "[output]") {
  Example example;
  example.sentence.comments = {"# sent_id = 1"};
  example.sentence.words[0].xpos = "GOLD";
  example.sentence.words[0].misc = "SpaceAfter=No|UPOSProb=0.1";
  example.sentence.words[1].lemma = "see";

  Sentence filled = example.sentence;
  sawtag::apply_tags(filled, example.result,
                     options_for(OutputFormat::conllu, TagColumns::upos, true));
  CHECK(filled.comments == example.sentence.comments);
  CHECK(filled.words[0].upos == "PRON");
  CHECK(filled.words[0].xpos == "GOLD");  // --tags upos leaves XPOS alone
  CHECK(filled.words[0].misc == "SpaceAfter=No|UPOSProb=0.990");
  CHECK(filled.words[1].lemma == "see");
  CHECK(filled.words[1].misc == "UPOSProb=0.982");

  Sentence both = example.sentence;
  sawtag::apply_tags(both, example.result, options_for(OutputFormat::conllu, TagColumns::both));
  CHECK(both.words[0].xpos == "PRP");
  CHECK(both.words[0].misc == "SpaceAfter=No|UPOSProb=0.1");  // no --probs: MISC untouched
}

TEST_CASE("conllu writer: ten columns per word line", "[output]") {
  const Example example;
  const std::string text =
      write(options_for(OutputFormat::conllu, TagColumns::both), {{example.tagged()}});
  std::istringstream lines(text);
  std::string line;
  int words = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    CHECK(std::count(line.begin(), line.end(), '\t') == 9);
    ++words;
  }
  CHECK(words == 4);
  CHECK(text.find("2\tsaw\t_\tVERB\tVBD\t") != std::string::npos);
}

TEST_CASE("attention file: words, tags, layers x heads x n x n", "[output]") {
  Example example;
  example.sentence = make_sentence({"I", "saw"});
  example.result.words.resize(2);
  sawtag::AttentionMaps& maps = example.result.attention;
  maps.num_layers = 2;
  maps.num_heads = 3;
  maps.num_words = 2;
  for (int k = 0; k < 2 * 3 * 2 * 2; ++k) maps.weights.push_back(static_cast<float>(k) / 100.0f);

  std::ostringstream out;
  sawtag::AttentionWriter writer(out);
  writer.write(example.sentence, example.result);
  writer.write(example.sentence, example.result);
  writer.finish();
  const auto document = nlohmann::json::parse(out.str());
  CHECK(document["format"] == "sawtag-attention");
  CHECK(document["version"] == 1);
  REQUIRE(document["sentences"].size() == 2);
  const auto& sentence = document["sentences"][0];
  CHECK(sentence["words"] == nlohmann::json({"I", "saw"}));
  CHECK(sentence["tags"] == nlohmann::json({"PRON", "VERB"}));
  REQUIRE(sentence["layers"].size() == 2);
  REQUIRE(sentence["layers"][1].size() == 3);
  REQUIRE(sentence["layers"][1][2].size() == 2);
  // layer 1, head 2, i 1, j 0 -> ((1 * 3 + 2) * 2 + 1) * 2 + 0 = 22
  CHECK(sentence["layers"][1][2][1][0].get<double>() == Approx(0.22).margin(1e-4));

  std::ostringstream empty;
  sawtag::AttentionWriter empty_writer(empty);
  empty_writer.finish();
  CHECK(nlohmann::json::parse(empty.str())["sentences"].empty());
}
