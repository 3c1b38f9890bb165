#include "tag_command.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "batch_output.hpp"
#include "huge_page_heap.hpp"
#include "model_locator.hpp"
#include "overwrite_check.hpp"
#include "sawtag/error.hpp"
#include "tag_session.hpp"

namespace sawtag::cli {
namespace {

const std::map<std::string, InputKind> kInputKinds{
    {"raw", InputKind::raw}, {"tokenized", InputKind::tokenized}, {"conllu", InputKind::conllu}};
const std::map<std::string, OutputFormat> kFormats{{"text", OutputFormat::text},
                                                   {"tsv", OutputFormat::tsv},
                                                   {"conllu", OutputFormat::conllu},
                                                   {"json", OutputFormat::json},
                                                   {"jsonl", OutputFormat::jsonl}};
// --tags: a comma list of these; "both" = upos,xpos; "all" = every column the model predicts.
const std::vector<std::string> kTagNames{"upos", "xpos", "lemma", "feats", "both", "all"};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// "" when every item of the list is a known name, else the message.
std::string check_tag_list(const std::string& list) {
  for (const std::string& item : split_commas(list)) {
    if (std::find(kTagNames.begin(), kTagNames.end(), item) == kTagNames.end()) {
      return "'" + item + "' is not one of upos, xpos, lemma, feats, both, all";
    }
  }
  return "";
}

// The columns --tags asks for, against what `model` predicts. No --tags: UPOS, except CoNLL-U,
// which gets every column the model predicts (as UDPipe fills them).
void choose_columns(const std::string& list, const Model& model, OutputOptions& output) {
  std::string names = list;
  if (names.empty()) names = output.format == OutputFormat::conllu ? "all" : "upos";
  bool upos = false, xpos = false;
  for (const std::string& item : split_commas(names)) {
    const bool all = item == "all";
    upos |= item == "upos" || item == "both" || all;
    xpos |= item == "xpos" || item == "both" || all;
    if (item == "lemma" && !model.has_lemmas()) {
      throw InputError("--tags lemma: this model has no lemma head (see `sawtag info`)");
    }
    if (item == "feats" && !model.has_feats()) {
      throw InputError("--tags feats: this model has no FEATS head (see `sawtag info`)");
    }
    output.lemmas |= item == "lemma" || (all && model.has_lemmas());
    output.feats |= item == "feats" || (all && model.has_feats());
  }
  output.tags = upos && xpos ? TagColumns::both
                : upos       ? TagColumns::upos
                : xpos       ? TagColumns::xpos
                             : TagColumns::none;
}

const std::map<OutputFormat, std::string> kExtensions{{OutputFormat::text, ".txt"},
                                                       {OutputFormat::tsv, ".tsv"},
                                                       {OutputFormat::conllu, ".conllu"},
                                                       {OutputFormat::json, ".json"},
                                                       {OutputFormat::jsonl, ".jsonl"}};

int default_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

template <class Value>
std::vector<std::string> names_of(const std::map<std::string, Value>& values) {
  std::vector<std::string> names;
  for (const auto& entry : values) names.push_back(entry.first);
  return names;
}

struct TagCommandOptions {
  std::vector<std::string> inputs;  // "-" is stdin; none means stdin
  std::string model;
  int threads = default_threads();
  bool float32 = false;
  std::string output_dir;
  std::string input_kind = "raw";  // names checked by CLI11 against the maps above
  std::string format = "text";
  std::string tags;  // --tags as given; "" = the format's default (choose_columns)
  std::string output = "-";
  std::string attention;
  TagSessionOptions session;
};

// Fails before any output is written when an input cannot be read.
void check_inputs_exist(const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    if (input == "-") continue;
    struct stat status {};
    if (::stat(input.c_str(), &status) != 0) {
      throw InputError(input + ": cannot open: " + std::strerror(errno));
    }
    if (S_ISDIR(status.st_mode)) throw InputError(input + ": is a directory, expected a file");
  }
}

// Every output this run would write, against every file it reads (the model too): throws
// OutputError before anything is written when one would overwrite another.
void refuse_overwriting(const TagCommandOptions& options, const std::string& model_path) {
  std::vector<FileArgument> inputs{{"--model", model_path}};
  for (const std::string& input : options.inputs) inputs.push_back({"", input});
  std::vector<FileArgument> outputs;
  if (options.output_dir.empty()) {
    outputs = {{"-o", options.output}, {"--attention", options.attention}};
    refuse_shared_outputs(outputs);
  } else {  // two inputs with one output name are reported by tag_into_directory
    const std::string extension = kExtensions.at(kFormats.at(options.format));
    for (const std::string& input : options.inputs) {
      outputs.push_back(
          {"--output-dir",
           (std::filesystem::path(options.output_dir) / output_name(input, extension)).string()});
    }
  }
  refuse_output_over_input(inputs, outputs);
}

// All inputs into one output (stdout or -o FILE), sent_id numbers running on.
void tag_into_one_output(const Tagger& tagger, const TagCommandOptions& options,
                         ThreadPool* pool) {
  OutputFile output(options.output);
  std::unique_ptr<OutputFile> attention;
  if (!options.attention.empty()) attention = std::make_unique<OutputFile>(options.attention);
  TagSession session(tagger, options.session, output, attention.get(), pool);
  for (const std::string& input : options.inputs) {
    LineSource source(input);
    session.tag(source);
  }
  session.finish();
  output.close();
  if (attention) attention->close();
}

// Throws CLI::ValidationError (exit 2) for option combinations that make no sense.
void check_batch_options(const TagCommandOptions& options) {
  if (options.output_dir.empty()) return;
  if (options.output != "-") throw CLI::ValidationError("--output-dir", "cannot be used with -o");
  if (!options.attention.empty()) {
    throw CLI::ValidationError("--output-dir", "cannot be used with --attention");
  }
  for (const std::string& input : options.inputs) {
    if (input == "-") {
      throw CLI::ValidationError("--output-dir", "needs input files; stdin ('-') has no name");
    }
  }
}

void run_tag_command(TagCommandOptions options) {
  if (options.inputs.empty()) options.inputs.push_back("-");
  check_batch_options(options);
  options.session.input = kInputKinds.at(options.input_kind);
  options.session.output.format = kFormats.at(options.format);
  const OutputFormat format = options.session.output.format;
  if (options.session.output.top_k > 0 && format != OutputFormat::json &&
      format != OutputFormat::jsonl) {
    spdlog::warn("--top-k candidates are written only by -f json and -f jsonl");
  }
  if (options.session.sentence_per_line && options.session.input != InputKind::raw) {
    spdlog::warn("--sentence-per-line applies only to --input raw");
  }
  if (options.output_dir.empty()) check_inputs_exist(options.inputs);
  refuse_overwriting(options, locate_model(options.model));
  // Before any thread starts: the heap backed by 2 MiB pages, for the model's and the tagging's
  // fresh memory.
  if (options.threads <= kHugePageHeapMaxThreads) use_huge_page_heap();
  // One thread tags on the main thread; more get a pool, and the main thread reads and writes.
  // The pool first loads the model: an ensemble's taggers, the tensors and the networks are
  // read and built as its tasks.
  std::unique_ptr<ThreadPool> pool;
  if (options.threads > 1) pool = std::make_unique<ThreadPool>(options.threads);
  const TaskRunner run_tasks = tasks_of(pool.get());
  const Tagger tagger(load_located_model(options.model, run_tasks),
                      options.float32 ? TagPrecision::float32 : TagPrecision::fastest, run_tasks);
  choose_columns(options.tags, tagger.model(), options.session.output);

  if (options.output_dir.empty()) {
    tag_into_one_output(tagger, options, pool.get());
    return;
  }
  BatchOutputOptions batch;
  batch.directory = options.output_dir;
  batch.extension = kExtensions.at(format);
  batch.show_progress = ::isatty(STDERR_FILENO) == 1;
  if (tag_into_directory(tagger, options.session, pool.get(), options.inputs, batch) > 0) {
    throw BatchFailed();
  }
}

}  // namespace

void add_tag_command(CLI::App& app) {
  auto options = std::make_shared<TagCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "tag",
      "Tag text with parts of speech (the default command: `echo \"I saw a saw\" | sawtag`)");
  command->add_option("files", options->inputs, "Input files; '-' or none reads stdin");
  command->add_option("-m,--model", options->model,
                      "Model file (default: $SAWTAG_MODEL, else the installed en_ewt.json)");
  command
      ->add_option("--input", options->input_kind,
                   "raw: running text, paragraphs separated by blank lines (a sentence may "
                   "continue on the next line); tokenized: one sentence per line, words split "
                   "on whitespace; conllu: CoNLL-U, only the columns of --tags are filled")
      ->capture_default_str()
      ->check(CLI::IsMember(names_of(kInputKinds)));
  command->add_flag("--sentence-per-line", options->session.sentence_per_line,
                    "Raw input: every line break ends a sentence (each line is tokenized alone)");
  command->add_option("-f,--format", options->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember(names_of(kFormats)));
  command
      ->add_option("--tags", options->tags,
                   "Which columns to write, a comma list of upos, xpos, lemma, feats; both = "
                   "upos,xpos; all = every column the model predicts (default: upos; for "
                   "-f conllu, all)")
      ->check(CLI::Validator(check_tag_list, "LIST", "tag list"));
  command->add_flag("--probs", options->session.output.probabilities,
                    "Write each tag's probability");
  command
      ->add_option("--top-k", options->session.output.top_k,
                   "json/jsonl: also write the K most likely tags of each word")
      ->check(CLI::Range(0, 100));
  command->add_option("--attention", options->attention,
                      "Write every sentence's attention weights as JSON to FILE "
                      "(docs/attention-format.md)");
  command->add_option("-o,--output", options->output, "Write to FILE instead of stdout");
  command
      ->add_option("--output-dir", options->output_dir,
                   "Batch mode: write one output per input file into DIR (same base name, the "
                   "format's extension), each complete or not at all; bad inputs are reported "
                   "and skipped")
      ->type_name("DIR");
  command
      ->add_option("-j,--threads", options->threads,
                   "Tagging threads (default: the number of cores); the output is the same "
                   "for any number")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command->add_flag("--float32", options->float32,
                    "float32 matrix products even where int8 or bfloat16 ones (AVX512_VNNI, AVX512_BF16, "
                    "AMX) are available (slower; tags differ in a few words in 10,000)");
  command
      ->add_option("--batch-size", options->session.batch_words,
                   "Words per pass through the network (speed and memory only; the output "
                   "does not change)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  command->callback([options] { run_tag_command(*options); });
}

}  // namespace sawtag::cli
