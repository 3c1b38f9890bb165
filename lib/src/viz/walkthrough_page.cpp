// The walkthrough page (`sawtag walkthrough --html FILE`): one self-contained HTML document.
// The C++ here writes what does not move (title, the tagged words, the layer and head
// selectors) and the numbers as the walkthrough's JSON, cut to the first columns of wide
// matrices; the script in walkthrough_page_assets.hpp draws the steps from that JSON.
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/error.hpp"
#include "sawtag/walkthrough_view.hpp"
#include "viz/display_text.hpp"
#include "viz/markup.hpp"
#include "viz/walkthrough_page_assets.hpp"

namespace sawtag {
namespace {

using viz::escape_markup;
using viz::printable;

// Columns of each matrix (and rows of each weight matrix) the page carries and shows.
constexpr int kPageColumns = 8;

constexpr const char* kAbout =
    "Every step of self-attention as the textbook names it, with this model's own numbers. "
    "Click a word to follow it through the steps; choose a layer and a head above. Wide "
    "matrices show their first columns (<code>sawtag walkthrough -f json</code> has every "
    "number). Lines marked <b>Model</b> say where this tagger differs from the textbook.";

// <select id="layer"> with one option per layer (or head) of the walkthrough, numbered from 1.
void write_select(std::ostream& out, const char* what, const std::vector<int>& numbers) {
  out << "<label>" << what << " <select id=\"" << what << "\">";
  for (std::size_t k = 0; k < numbers.size(); ++k) {
    out << "<option value=\"" << k << "\">" << numbers[k] + 1 << "</option>";
  }
  out << "</select></label>";
}

// The words with their tags under them, each a button that follows the word.
void write_tagged_words(std::ostream& out, const Walkthrough& walk) {
  out << "<p class=\"tagged\">";
  for (std::size_t i = 0; i < walk.words.size(); ++i) {
    out << "<span class=\"token\" role=\"button\" tabindex=\"0\" data-word=\"" << i
        << "\"><span class=\"form\">" << escape_markup(printable(walk.words[i]))
        << "</span><span class=\"tag\">" << escape_markup(printable(walk.tags[i]))
        << "</span></span>";
  }
  out << "</p>\n";
}

// `json` in <script type="application/json">, made safe there: "<", ">" and "&" occur in JSON
// only within strings, where \u003c, \u003e and \u0026 mean the same.
void write_json_script(std::ostream& out, const std::string& json) {
  out << "<script type=\"application/json\" id=\"sawtag-walkthrough\">";
  for (const char c : json) {
    if (c == '<') {
      out << "\\u003c";
    } else if (c == '>') {
      out << "\\u003e";
    } else if (c == '&') {
      out << "\\u0026";
    } else {
      out << c;
    }
  }
  out << "</script>\n";
}

}  // namespace

void write_walkthrough_page(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughPageOptions& options) {
  if (walk.layers.empty() || walk.layers.front().heads.empty() || walk.words.empty()) {
    throw InputError("walkthrough page: no layer, head or word to show");
  }
  check_followed_word(walk, options.word);
  const int word =
      options.word == kLastWord ? static_cast<int>(walk.words.size()) - 1 : options.word;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << escape_markup(printable(options.title)) << "</title>\n"
      << "<style>" << viz::kWalkthroughStyle << "</style>\n</head>\n<body data-word=\"" << word
      << "\">\n<h1>" << escape_markup(printable(options.title)) << "</h1>\n<p class=\"about\">"
      << kAbout << "</p>\n";
  write_tagged_words(out, walk);
  std::vector<int> layers;
  for (const LayerSteps& layer : walk.layers) layers.push_back(layer.layer);
  std::vector<int> heads;
  for (const HeadSteps& head : walk.layers.front().heads) heads.push_back(head.head);
  out << "<div class=\"controls\">";
  write_select(out, "layer", layers);
  write_select(out, "head", heads);
  out << "</div>\n<p id=\"summary\"></p>\n<div id=\"steps\"></div>\n";
  std::ostringstream json;
  WalkthroughJsonOptions cut;
  cut.max_columns = kPageColumns;
  write_walkthrough_json(json, walk, cut);
  write_json_script(out, json.str());
  out << "<script>" << viz::kWalkthroughScript << "</script>\n</body>\n</html>\n";
}

}  // namespace sawtag
