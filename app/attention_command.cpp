#include "attention_command.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_input.hpp"
#include "model_locator.hpp"
#include "output_file.hpp"
#include "overwrite_check.hpp"
#include "sawtag/attention_view.hpp"
#include "sawtag/explanation.hpp"
#include "sawtag/output.hpp"
#include "sawtag/tagger.hpp"
#include "terminal_shading.hpp"

namespace sawtag::cli {
namespace {

struct AttentionCommandOptions {
  TextInputOptions input;
  std::string format;  // "text" or "json"; "" : text, unless --html or --svg is given
  int layer = 0;       // counted from 1; 0: the last
  int head = 0;        // counted from 1; 0: the mean of the layer's heads
  std::string words;   // "FROM-TO", counted from 1
  std::string color = "auto";
  std::string html;
  std::string svg;
  int sentence = 1;  // the sentence --svg draws, counted from 1
  std::string output = "-";
};

// The sentences and what the tagger said about each.
struct TaggedInput {
  std::vector<Sentence> sentences;
  std::vector<TagResult> results;
  // For --html, one per sentence: its explanation, or none (num_words 0) for a sentence too
  // long to explain or to have maps.
  std::vector<SentenceExplanation> explanations;

  std::vector<TaggedSentence> tagged() const {
    std::vector<TaggedSentence> pairs;
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      pairs.push_back({&sentences[s], &results[s]});
    }
    return pairs;
  }
};

// --layer and --head must exist in the model: a usage error (exit 2) otherwise.
MapChoice map_choice(const AttentionCommandOptions& options, const ModelConfig& config) {
  check_layer_and_head(options.layer, options.head, config);
  return MapChoice{options.layer == 0 ? kLastLayer : options.layer - 1,
                   options.head == 0 ? kAverageOfHeads : options.head - 1};
}

// "41-80" -> words 40..79 (counted from 0) of the terminal view.
void apply_word_window(const std::string& words, TerminalViewOptions& view) {
  view.window_hint = "choose others with --words FROM-TO, or see all with --html FILE";
  if (words.empty()) return;
  const std::size_t dash = words.find('-');
  int first = 0;
  int last = 0;
  try {
    std::size_t used = 0;
    first = std::stoi(words.substr(0, dash), &used);
    if (dash == std::string::npos || used != dash) throw std::invalid_argument(words);
    last = std::stoi(words.substr(dash + 1), &used);
    if (used != words.size() - dash - 1) throw std::invalid_argument(words);
  } catch (const std::logic_error&) {
    throw CLI::ValidationError("--words", "'" + words + "': expected FROM-TO, e.g. 41-80");
  }
  if (first < 1 || last < first) {
    throw CLI::ValidationError("--words", "'" + words + "': expected 1 <= FROM <= TO");
  }
  view.first_word = first - 1;
  view.max_words = last - first + 1;
}

// `texts`: the TEXT arguments (text_arguments).
TaggedInput tag_input(const AttentionCommandOptions& options, const std::vector<std::string>& texts,
                      const std::shared_ptr<const Model>& model) {
  TaggedInput input;
  input.sentences = read_sentences(options.input, texts, *model);
  const Tagger tagger(model, tag_precision(options.input));
  TagOptions tag_options;
  tag_options.capture_attention = true;
  for (const Sentence& sentence : input.sentences) {
    const std::vector<std::string> forms = word_forms(sentence);
    input.results.push_back(tagger.tag(forms, tag_options));
    if (options.html.empty()) continue;
    const bool fits = static_cast<int>(forms.size()) <= tagger.max_window();
    input.explanations.push_back(fits ? explain_tags(tagger, forms) : SentenceExplanation{});
  }
  return input;
}

void write_stdout_view(const AttentionCommandOptions& options, const TaggedInput& input,
                       TerminalViewOptions view) {
  OutputFile output(options.output);
  const std::vector<TaggedSentence> tagged = input.tagged();
  if (options.format == "json") {
    AttentionWriter writer(output.stream());
    for (const TaggedSentence& sentence : tagged) {
      writer.write(*sentence.sentence, *sentence.result);
    }
    writer.finish();
  } else {
    for (std::size_t s = 0; s < tagged.size(); ++s) {
      if (s > 0) output.stream() << '\n';
      write_terminal_view(output.stream(), tagged[s], static_cast<int>(s + 1), view);
      output.check();
    }
  }
  output.close();
}

// "sawtag attention: I saw a saw", the first sentence's first words (a long one ends in "…").
std::string page_title(const std::vector<Sentence>& sentences) {
  constexpr std::size_t kMaxTitleWords = 10;
  std::string title = "sawtag attention";
  if (sentences.empty()) return title;
  const std::vector<Word>& words = sentences.front().words;
  title += ":";
  for (std::size_t i = 0; i < words.size() && i < kMaxTitleWords; ++i) title += " " + words[i].form;
  if (words.size() > kMaxTitleWords || sentences.size() > 1) title += " …";
  return title;
}

void write_html(const std::string& path, const TaggedInput& input, MapChoice choice) {
  HtmlPageOptions page;
  page.title = page_title(input.sentences);
  page.first_shown = choice;
  page.explanations = &input.explanations;
  OutputFile output(path);
  write_attention_page(output.stream(), input.tagged(), page);
  output.close();
}

void write_svg(const AttentionCommandOptions& options, const TaggedInput& input, MapChoice choice) {
  const int count = static_cast<int>(input.sentences.size());
  if (options.sentence > count) {
    throw CLI::ValidationError("--sentence", std::to_string(options.sentence) + ": the input has " +
                                                 std::to_string(count) + " sentences");
  }
  const std::size_t index = static_cast<std::size_t>(options.sentence - 1);
  OutputFile output(options.svg);
  write_attention_svg(output.stream(), {&input.sentences[index], &input.results[index]}, choice);
  output.close();
}

// Options are checked before the model is loaded, then against it, before any input is read.
void run_attention_command(const AttentionCommandOptions& options) {
  TerminalViewOptions view;
  apply_word_window(options.words, view);
  view.shading = terminal_shading(options.color, options.output);
  const std::vector<std::string> texts = text_arguments(options.input, "sawtag attention");
  const std::vector<FileArgument> outputs{
      {"--html", options.html}, {"--svg", options.svg}, {"-o", options.output}};
  refuse_shared_outputs(outputs);
  refuse_output_over_input(input_files(options.input), outputs);
  const std::shared_ptr<const Model> model = load_located_model(options.input.model);
  view.map = map_choice(options, model->config);
  const TaggedInput input = tag_input(options, texts, model);
  if (!options.html.empty()) write_html(options.html, input, view.map);
  if (!options.svg.empty()) write_svg(options, input, view.map);
  const bool pictures_only =
      options.format.empty() && (!options.html.empty() || !options.svg.empty());
  if (!pictures_only) write_stdout_view(options, input, view);
}

}  // namespace

void add_attention_command(CLI::App& app) {
  auto options = std::make_shared<AttentionCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "attention",
      "Show the attention weights of every layer and head: a heat map in the terminal, JSON, "
      "an HTML page or an SVG (`sawtag attention \"I saw a saw\" --html saw.html`)");
  add_text_input_options(
      *command, options->input,
      "float32 matrix products even where int8 or bfloat16 ones (AVX512_VNNI, "
      "AVX512_BF16, AMX) are available, as for sawtag tag (the weights then do not depend on "
      "the CPU)");
  command
      ->add_option("-f,--format", options->format,
                   "On stdout: text (a heat map, the default) or json (docs/attention-format.md); "
                   "with --html or --svg and no --format, nothing")
      ->check(CLI::IsMember({"text", "json"}));
  command->add_option("--layer", options->layer, "Layer to draw, from 1 (default: the last)")
      ->check(counted_from_one());
  command
      ->add_option("--head", options->head,
                   "Head to draw, from 1 (default: the mean of the layer's heads; the page "
                   "opens on head 1)")
      ->check(counted_from_one());
  command->add_option("--words", options->words,
                      "Terminal view: words FROM-TO of a long sentence (default: the first 40)");
  command->add_option("--color", options->color, "Colours in the terminal view")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command->add_option("--html", options->html,
                      "Write a self-contained HTML page of every layer and head to FILE");
  command->add_option("--svg", options->svg, "Write the chosen heat map as an SVG to FILE");
  command->add_option("--sentence", options->sentence, "The sentence --svg draws, from 1")
      ->capture_default_str()
      ->check(counted_from_one());
  command->add_option("-o,--output", options->output, "Write to FILE instead of stdout");
  command->callback([options] { run_attention_command(*options); });
}

}  // namespace sawtag::cli
