#include "walkthrough_command.hpp"

#include <memory>
#include <string>
#include <vector>

#include "attention_input.hpp"
#include "model_locator.hpp"
#include "output_file.hpp"
#include "overwrite_check.hpp"
#include "sawtag/error.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/walkthrough.hpp"
#include "sawtag/walkthrough_view.hpp"
#include "terminal_shading.hpp"

namespace sawtag::cli {
namespace {

struct WalkthroughCommandOptions {
  TextInputOptions input;
  std::string format;  // "text" or "json"; "": text, unless --html is given
  int layer = 0;       // counted from 1; 0: every layer (the terminal view: the first)
  int head = 0;        // counted from 1; 0: every head (the terminal view: the first)
  int word = 0;        // counted from 1; 0: the last
  std::string color = "auto";
  std::string html;
  std::string output = "-";
};

// --layer and --head must exist in the model: a usage error (exit 2) otherwise.
WalkthroughOptions walkthrough_options(const WalkthroughCommandOptions& options,
                                       const ModelConfig& config) {
  check_layer_and_head(options.layer, options.head, config);
  WalkthroughOptions chosen;
  chosen.layer = options.layer == 0 ? kEveryLayer : options.layer - 1;
  chosen.head = options.head == 0 ? kEveryHead : options.head - 1;
  return chosen;
}

// The first sentence of the text: its words. InputError when the text has none.
std::vector<std::string> first_sentence(const WalkthroughCommandOptions& options,
                                        const std::vector<std::string>& texts, const Model& model) {
  const std::vector<Sentence> sentences = read_sentences(options.input, texts, model);
  if (sentences.empty() || sentences.front().words.empty()) {
    throw InputError("sawtag walkthrough: the text has no words");
  }
  return word_forms(sentences.front());
}

// "sawtag walkthrough: I saw a saw", its first words (a long sentence ends in "…").
std::string page_title(const std::vector<std::string>& words) {
  constexpr std::size_t kMaxTitleWords = 10;
  std::string title = "sawtag walkthrough:";
  for (std::size_t i = 0; i < words.size() && i < kMaxTitleWords; ++i) title += " " + words[i];
  if (words.size() > kMaxTitleWords) title += " …";
  return title;
}

void run_walkthrough_command(const WalkthroughCommandOptions& options) {
  const Shading shading = terminal_shading(options.color, options.output);
  const std::vector<std::string> texts = text_arguments(options.input, "sawtag walkthrough");
  const std::vector<FileArgument> outputs{{"--html", options.html}, {"-o", options.output}};
  refuse_shared_outputs(outputs);
  refuse_output_over_input(input_files(options.input), outputs);
  const std::shared_ptr<const Model> model = load_located_model(options.input.model);
  const WalkthroughOptions chosen = walkthrough_options(options, model->config);
  // The tags as `sawtag tag` gives them, at the same precision; the steps are float32 always.
  const Tagger tagger(model, tag_precision(options.input));
  const std::vector<std::string> words = first_sentence(options, texts, *model);
  const Walkthrough walk = walk_through(tagger, words, chosen);
  const int word = options.word == 0 ? kLastWord : options.word - 1;
  check_followed_word(walk, word);
  if (!options.html.empty()) {
    WalkthroughPageOptions page;
    page.title = page_title(words);
    page.word = word;
    OutputFile output(options.html);
    write_walkthrough_page(output.stream(), walk, page);
    output.close();
  }
  if (options.format.empty() && !options.html.empty()) return;
  OutputFile output(options.output);
  if (options.format == "json") {
    write_walkthrough_json(output.stream(), walk);
  } else {
    WalkthroughViewOptions view;
    view.word = word;
    view.shading = shading;
    write_walkthrough_view(output.stream(), walk, view);
  }
  output.close();
}

}  // namespace

void add_walkthrough_command(CLI::App& app) {
  auto options = std::make_shared<WalkthroughCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "walkthrough",
      "Show every step of self-attention (q, k, v, scores, softmax, heads, W^o) with the "
      "model's own numbers, for the first sentence of the text "
      "(`sawtag walkthrough \"I saw a saw\"`)");
  add_text_input_options(
      *command, options->input,
      "Tag in float32 even where int8 or bfloat16 products (AVX512_VNNI, "
      "AVX512_BF16, AMX) are available, as sawtag tag --float32 (the steps are float32 always)");
  command
      ->add_option("-f,--format", options->format,
                   "On stdout: text (the steps, the default) or json "
                   "(docs/walkthrough-format.md); with --html and no --format, nothing")
      ->check(CLI::IsMember({"text", "json"}));
  command
      ->add_option("--layer", options->layer,
                   "Only this layer, from 1 (default: every layer; the terminal view shows "
                   "layer 1)")
      ->check(counted_from_one());
  command
      ->add_option("--head", options->head,
                   "Only this head of each layer, from 1 (default: every head; the terminal "
                   "view shows head 1)")
      ->check(counted_from_one());
  command
      ->add_option("--word", options->word,
                   "The word to follow through the steps, from 1 (default: the last)")
      ->check(counted_from_one());
  command->add_option("--color", options->color, "Colours in the terminal view")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command->add_option("--html", options->html,
                      "Write a self-contained HTML page of every layer and head to FILE");
  command->add_option("-o,--output", options->output, "Write to FILE instead of stdout");
  command->callback([options] { run_walkthrough_command(*options); });
}

}  // namespace sawtag::cli
