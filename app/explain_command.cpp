#include "explain_command.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "attention_input.hpp"
#include "model_locator.hpp"
#include "output_file.hpp"
#include "overwrite_check.hpp"
#include "sawtag/error.hpp"
#include "sawtag/explanation.hpp"
#include "sawtag/explanation_view.hpp"
#include "sawtag/tagger.hpp"
#include "terminal_shading.hpp"

namespace sawtag::cli {
namespace {

int default_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

struct ExplainCommandOptions {
  TextInputOptions input;
  int threads = default_threads();
  std::string format = "text";
  std::string tags = "upos";
  int word = 0;  // counted from 1; 0: every word
  std::string color = "auto";
  std::string output = "-";
};

TagColumns tag_columns_named(const std::string& name) {
  if (name == "xpos") return TagColumns::xpos;
  return name == "both" ? TagColumns::both : TagColumns::upos;
}

// The input's sentences, refused (InputError) before any is explained when one is longer than
// the model's window or has no word --word: "sentence 2: 300 words, ...".
// `texts`: the TEXT arguments (text_arguments).
std::vector<Sentence> explained_sentences(const ExplainCommandOptions& options,
                                          const std::vector<std::string>& texts, const Model& model,
                                          int max_window) {
  std::vector<Sentence> sentences = read_sentences(options.input, texts, model);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const auto n = static_cast<int>(sentences[s].words.size());
    const std::string where = "sentence " + std::to_string(s + 1) + ": ";
    if (n > max_window) {
      throw InputError(where + std::to_string(n) + " words, more than the model's window of " +
                       std::to_string(max_window) +
                       ": sawtag explain explains sentences that fit one window; split it");
    }
    if (options.word > n) {
      throw InputError(where + "--word " + std::to_string(options.word) + ": the sentence has " +
                       std::to_string(n) + (n == 1 ? " word" : " words"));
    }
  }
  return sentences;
}

void run_explain_command(const ExplainCommandOptions& options) {
  ExplanationViewOptions view;
  view.tags = tag_columns_named(options.tags);
  view.word = options.word == 0 ? kEveryWord : options.word - 1;
  view.shading = terminal_shading(options.color, options.output);
  const std::vector<std::string> texts = text_arguments(options.input, "sawtag explain");
  refuse_output_over_input(input_files(options.input), {{"-o", options.output}});
  const std::shared_ptr<const Model> model = load_located_model(options.input.model);
  const Tagger tagger(model, tag_precision(options.input));
  const std::vector<Sentence> sentences =
      explained_sentences(options, texts, *model, tagger.max_window());
  OutputFile output(options.output);
  std::unique_ptr<ExplanationWriter> writer;
  if (options.format == "json") writer = std::make_unique<ExplanationWriter>(output.stream(), view);
  ExplainOptions explain_options;
  explain_options.threads = options.threads;
  explain_options.word = options.word - 1;  // -1: every word
  Explainer explainer(tagger, explain_options);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const SentenceExplanation explanation = explainer.explain(word_forms(sentences[s]));
    if (writer) {
      writer->write(sentences[s], explanation);
    } else {
      if (s > 0) output.stream() << '\n';
      write_explanation_view(output.stream(), sentences[s], explanation, static_cast<int>(s + 1),
                             view);
    }
    output.check();
  }
  if (writer) writer->finish();
  output.close();
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "explain",
      "Show which words each tag depends on: how much each word's tag loses in probability "
      "when another word is masked (`sawtag explain \"I saw a saw\"`)");
  add_text_input_options(*command, options->input,
                         "float32 matrix products even where int8 or bfloat16 ones (AVX512_VNNI, "
                         "AVX512_BF16, AMX) are available, as for sawtag tag");
  command
      ->add_option("-j,--threads", options->threads,
                   "Threads a sentence's masked copies are split over (default: the number of "
                   "cores); the output is the same for any number")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("-f,--format", options->format, "text (bars) or json (docs/explain-format.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  command->add_option("--tags", options->tags, "Which tags to explain")
      ->capture_default_str()
      ->check(CLI::IsMember({"upos", "xpos", "both"}));
  command->add_option("--word", options->word, "Explain only word N of each sentence, from 1")
      ->check(CLI::PositiveNumber);
  command->add_option("--color", options->color, "Colours in the terminal view")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command->add_option("-o,--output", options->output, "Write to FILE instead of stdout");
  command->callback([options] { run_explain_command(*options); });
}

}  // namespace sawtag::cli
