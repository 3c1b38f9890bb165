// The attention pictures of lib/src/viz: choosing a map, the terminal view, the SVG heat map and
// the HTML page's static part (the page as a browser draws it is tested in
// test_cli_attention.cpp with headless Chromium).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "sawtag/attention_view.hpp"
#include "sawtag/error.hpp"
#include "text_count.hpp"

namespace {

using sawtag::AttentionMaps;
using sawtag::MapChoice;
using sawtag::testing::count_of;

// Two words, one layer of two heads:
//   head 0: [[0.9, 0.1], [0.02, 0.98]]    head 1: [[0.4, 0.6], [0.16, 0.84]]
AttentionMaps two_heads() {
  AttentionMaps maps;
  maps.num_layers = 1;
  maps.num_heads = 2;
  maps.num_words = 2;
  maps.weights = {0.9f, 0.1f, 0.02f, 0.98f, 0.4f, 0.6f, 0.16f, 0.84f};
  return maps;
}

// "<b>x</b> saw" tagged X VERB, with the maps of two_heads().
struct Example {
  sawtag::Sentence sentence;
  sawtag::TagResult result;
  Example() {
    for (const char* form : {"<b>x</b>", "saw"}) {
      sawtag::Word word;
      word.form = form;
      sentence.words.push_back(word);
    }
    sentence.comments.push_back("# text = <b>x</b> saw");
    result.words.resize(2);
    result.words[0].upos = "X";
    result.words[1].upos = "VERB";
    result.attention = two_heads();
  }
  sawtag::TaggedSentence tagged() const { return {&sentence, &result}; }
};

}  // namespace

TEST_CASE("attention select_map: one head, the mean of heads, the last layer", "[attention]") {
  const AttentionMaps maps = two_heads();
  const sawtag::AttentionMatrix head1 = sawtag::select_map(maps, MapChoice{0, 1});
  REQUIRE(head1.num_words == 2);
  CHECK(head1.at(1, 0) == Approx(0.16f));
  const sawtag::AttentionMatrix mean = sawtag::select_map(maps, MapChoice{});
  CHECK(mean.at(0, 0) == Approx(0.65f));  // (0.9 + 0.4) / 2
  CHECK(mean.at(1, 1) == Approx(0.91f));  // (0.98 + 0.84) / 2
  CHECK(mean.at(1, 0) + mean.at(1, 1) == Approx(1.0f));
  CHECK(sawtag::most_attended(head1) == std::vector<int>{1, 1});
  CHECK(sawtag::most_attended(sawtag::select_map(maps, MapChoice{0, 0})) == std::vector<int>{0, 1});
}

TEST_CASE("attention select_map: a layer or head that does not exist is an InputError",
          "[attention]") {
  const AttentionMaps maps = two_heads();
  CHECK_THROWS_MATCHES(sawtag::select_map(maps, MapChoice{1, 0}), sawtag::InputError,
                       Catch::Message("attention: layer 2 does not exist: the model has 1 layers"));
  CHECK_THROWS_MATCHES(
      sawtag::select_map(maps, MapChoice{0, 2}), sawtag::InputError,
      Catch::Message("attention: head 3 does not exist: the model has 2 heads per layer"));
  CHECK_THROWS_AS(sawtag::select_map(AttentionMaps{}, MapChoice{}), sawtag::InputError);
}

TEST_CASE("attention terminal view: tags, labelled heat map, most attended per head",
          "[attention]") {
  const Example example;
  std::ostringstream out;
  sawtag::write_terminal_view(out, example.tagged(), 1, sawtag::TerminalViewOptions{});
  const std::string expected =
      "sentence 1: <b>x</b> saw\n"
      "<b>x</b>/X saw/VERB\n"
      "\n"
      "layer 1 of 1, mean of 2 heads (row: the word attending, column: the word attended to)\n"
      "          ┌ <b>x</b>\n"
      "          │  ┌ saw\n"
      "<b>x</b>  ██ ▒▒\n"
      "     saw  ░░ ██\n"
      "shading: blank < 0.05 ≤ ░ < 0.2 ≤ ▒ < 0.4 ≤ ▓ < 0.6 ≤ █ (weights from 0 to 1)\n"
      "\n"
      "most attended word in each head of layer 1:\n"
      "          head 1    head 2\n"
      "<b>x</b>  <b>x</b>  saw\n"
      "     saw  saw       saw\n";
  CHECK(out.str() == expected);
}

TEST_CASE("attention terminal view: colours, windows, control characters", "[attention]") {
  Example example;
  example.sentence.words[1].form = "s\x1b[31maw\u202E";  // and a RIGHT-TO-LEFT OVERRIDE
  sawtag::TerminalViewOptions options;
  options.shading = sawtag::Shading::colors256;
  options.first_word = 1;
  options.max_words = 1;
  options.window_hint = "try --words";
  std::ostringstream out;
  sawtag::write_terminal_view(out, example.tagged(), 2, options);
  const std::string view = out.str();
  CHECK(view.find("\x1b[48;5;") != std::string::npos);           // a coloured cell
  CHECK(view.find("\x1b[31m") == std::string::npos);             // not the word's own escape
  CHECK(view.find("s\xEF\xBF\xBD[31maw") != std::string::npos);  // shown as U+FFFD
  CHECK(view.find("aw\xEF\xBF\xBD") != std::string::npos);        // nor may it reorder the line
  CHECK(view.find("\u202E") == std::string::npos);
  CHECK(view.find("words 2-2 of 2 shown (attention to the others is left out); try --words\n") !=
        std::string::npos);
}

TEST_CASE("attention terminal view: a sentence without maps says why", "[attention]") {
  Example example;
  example.result.attention = AttentionMaps{};
  std::ostringstream out;
  sawtag::write_terminal_view(out, example.tagged(), 1, sawtag::TerminalViewOptions{});
  CHECK(out.str().find("no attention maps for this sentence") != std::string::npos);
}

TEST_CASE("attention SVG: n x n cells with titles, escaped words", "[attention]") {
  const Example example;
  std::ostringstream out;
  sawtag::write_attention_svg(out, example.tagged(), MapChoice{0, 1});
  const std::string svg = out.str();
  CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=", 0) == 0);
  CHECK(count_of(svg, "</title></rect>") == 4);  // the cells
  CHECK(count_of(svg, "<title>") == 5);          // the document's and one per cell
  CHECK(svg.find("layer 1 of 1, head 2 of 2") != std::string::npos);
  CHECK(svg.find("<title>saw → &lt;b&gt;x&lt;/b&gt;: 0.1600</title>") != std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
}

TEST_CASE("attention HTML page: self-contained, escaped, one section per sentence", "[attention]") {
  const Example example;
  sawtag::Sentence empty;
  sawtag::TagResult no_result;
  std::ostringstream out;
  sawtag::HtmlPageOptions options;
  options.title = "saw <i>";
  sawtag::write_attention_page(out, {example.tagged(), {&empty, &no_result}, example.tagged()},
                               options);
  const std::string page = out.str();
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(count_of(page, "<section class=\"sentence\" data-index=") == 2);
  CHECK(page.find("<title>saw &lt;i&gt;</title>") != std::string::npos);
  CHECK(page.find("<span class=\"form\">&lt;b&gt;x&lt;/b&gt;</span>") != std::string::npos);
  CHECK(page.find("\\u003cb\\u003ex\\u003c/b\\u003e") != std::string::npos);  // in the JSON
  CHECK(page.find("<b>") == std::string::npos);
  // Nothing is fetched: no URL, no external script or style sheet.
  CHECK(count_of(page, "http") == count_of(page, "\"http://www.w3.org/2000/svg\""));
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
}
