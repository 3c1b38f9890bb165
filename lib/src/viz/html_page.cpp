// The attention page (`sawtag attention --html FILE`): one self-contained HTML document. The
// C++ here writes what does not move (title, the tagged words, the layer and head selectors)
// and the weights as the attention file's JSON; the script in html_page_assets.hpp draws the
// heat maps and lines from that JSON.
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "sawtag/attention_view.hpp"
#include "sawtag/explanation_view.hpp"
#include "viz/attention_map.hpp"
#include "viz/display_text.hpp"
#include "viz/html_page_assets.hpp"
#include "viz/markup.hpp"

namespace sawtag {
namespace {

using viz::escape_markup;
using viz::printable;

constexpr const char* kAbout =
    "The thumbnails show every head of every layer (layer 1 is nearest the input); click one, or "
    "use the selectors, to see it large. In a heat map row <i>i</i> is how the word <i>i</i> "
    "spreads its attention over the sentence (each row sums to 1), darker is more; hover a cell "
    "for the two words and the weight. Beside it, the same head as lines from each word (left) to "
    "the words it attends to (right), the stronger the line the higher the weight; hover a word "
    "on the left to see only its lines.";

constexpr const char* kAboutExplanations =
    " Click a word to see which words its tag depends on: the bars show how much its tag's "
    "probability drops when each other word is masked (replaced by an unknown word), which "
    "measures an effect on the decision, where attention weights only show where heads look.";

// Where a sentence with maps stands in the page's JSON, and which map its selectors start at.
struct DrawnMaps {
  int index = 0;
  MapChoice shown;
};

void write_head(std::ostream& out, const std::string& title) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << escape_markup(printable(title)) << "</title>\n"
      << "<style>" << viz::kPageStyle << "</style>\n</head>\n";
}

// <select class="layer"> (or "head") with options 1..count, `selected` (0-based) chosen.
void write_select(std::ostream& out, const char* what, int count, int selected) {
  out << "<label>" << what << " <select class=\"" << what << "\">";
  for (int k = 0; k < count; ++k) {
    out << "<option value=\"" << k << '"' << (k == selected ? " selected" : "") << '>' << k + 1
        << "</option>";
  }
  out << "</select></label>";
}

// The words with their tags under them: <span class="token"><span class="form">saw</span>
// <span class="tag">VERB</span></span>.
void write_tagged_words(std::ostream& out, const TaggedSentence& tagged) {
  out << "<p class=\"tagged\">";
  for (std::size_t i = 0; i < tagged.sentence->words.size(); ++i) {
    out << "<span class=\"token\"><span class=\"form\">"
        << escape_markup(printable(tagged.sentence->words[i].form)) << "</span><span class=\"tag\">"
        << escape_markup(printable(tagged.result->words[i].upos)) << "</span></span>";
  }
  out << "</p>\n";
}

// A sentence's section: its number, the tagged words, and either the selectors and the places
// the script draws into (data-index: the sentence's place in the page's JSON), or why there are
// no maps.
void write_section(std::ostream& out, const TaggedSentence& tagged, int number,
                   const std::optional<DrawnMaps>& drawn) {
  out << "<section class=\"sentence\"";
  if (drawn) out << " data-index=\"" << drawn->index << '"';
  out << ">\n<h2>Sentence " << number << "</h2>\n";
  write_tagged_words(out, tagged);
  if (!drawn) {
    out << "<p class=\"note\">" << escape_markup(viz::kNoMapsNote) << "</p>\n</section>\n";
    return;
  }
  const AttentionMaps& maps = tagged.result->attention;
  const MapChoice shown = drawn->shown;
  out << "<div class=\"controls\">";
  write_select(out, "layer", maps.num_layers, shown.layer);
  write_select(out, "head", maps.num_heads, shown.head);
  out << "</div>\n<div class=\"overview-place\"></div>\n<div class=\"views\"><div "
         "class=\"heatmaps\"></div>"
      << "<div class=\"lines-view\"></div></div>\n</section>\n";
}

// `json` in <script type="application/json" id="`id`">, made safe there: "<", ">" and "&"
// occur in JSON only within strings, where \u003c, \u003e and \u0026 mean the same
// ("</script>" cannot end it).
void write_json_script(std::ostream& out, const char* id, const std::string& json) {
  out << "<script type=\"application/json\" id=\"" << id << "\">";
  for (const char c : json) {
    switch (c) {
      case '<':
        out << "\\u003c";
        break;
      case '>':
        out << "\\u003e";
        break;
      case '&':
        out << "\\u0026";
        break;
      default:
        out << c;
    }
  }
  out << "</script>\n";
}

// The sentences' attention file, and their explanations in the same order (an empty one for a
// sentence without).
void write_data(std::ostream& out, const std::vector<const TaggedSentence*>& sentences,
                const std::vector<const SentenceExplanation*>& explanations) {
  std::ostringstream json;
  AttentionWriter writer(json);
  for (const TaggedSentence* tagged : sentences) writer.write(*tagged->sentence, *tagged->result);
  writer.finish();
  write_json_script(out, "sawtag-attention", json.str());
  if (explanations.empty()) return;
  std::ostringstream explained;
  ExplanationViewOptions both;
  both.tags = TagColumns::both;
  ExplanationWriter explanation_writer(explained, both);
  const SentenceExplanation none;
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    explanation_writer.write(*sentences[s]->sentence,
                             explanations[s] != nullptr ? *explanations[s] : none);
  }
  explanation_writer.finish();
  write_json_script(out, "sawtag-explanations", explained.str());
}

}  // namespace

void write_attention_page(std::ostream& out, const std::vector<TaggedSentence>& sentences,
                          const HtmlPageOptions& options) {
  write_head(out, options.title);
  out << "<body>\n<h1>" << escape_markup(printable(options.title)) << "</h1>\n<p class=\"about\">"
      << kAbout << (options.explanations != nullptr ? kAboutExplanations : "") << "</p>\n";
  MapChoice first_shown = options.first_shown;
  if (first_shown.head == kAverageOfHeads) first_shown.head = 0;  // the page shows single heads
  std::vector<const TaggedSentence*> with_maps;                   // in the page's JSON
  std::vector<const SentenceExplanation*> explanations;           // of with_maps, if any
  int number = 0;
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const TaggedSentence& tagged = sentences[s];
    if (tagged.sentence->words.empty()) continue;
    std::optional<DrawnMaps> drawn;
    if (viz::has_maps(tagged.result->attention)) {
      drawn = DrawnMaps{static_cast<int>(with_maps.size()),
                        viz::resolve(tagged.result->attention, first_shown)};
      with_maps.push_back(&tagged);
      if (options.explanations != nullptr) {
        const SentenceExplanation& explanation = options.explanations->at(s);
        const bool explained =
            explanation.num_words == static_cast<int>(tagged.sentence->words.size());
        explanations.push_back(explained ? &explanation : nullptr);
      }
    }
    write_section(out, tagged, ++number, drawn);
  }
  if (number == 0) out << "<p class=\"note\">The input has no sentences.</p>\n";
  out << "<div id=\"tooltip\" role=\"tooltip\" hidden></div>\n";
  write_data(out, with_maps, explanations);
  out << "<script>" << viz::kPageScript << "</script>\n</body>\n</html>\n";
}

}  // namespace sawtag
