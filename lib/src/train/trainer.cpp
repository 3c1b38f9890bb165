#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <unordered_set>

#include "sawtag/calibration.hpp"
#include "sawtag/conllu.hpp"
#include "sawtag/error.hpp"
#include "sawtag/evaluation.hpp"
#include "sawtag/initialize.hpp"
#include "sawtag/pretraining.hpp"
#include "sawtag/soft_targets.hpp"
#include "sawtag/tagger.hpp"
#include "sawtag/tokenizer.hpp"
#include "sawtag/training.hpp"
#include "train/adam.hpp"
#include "train/batch_step.hpp"
#include "train/batching.hpp"
#include "train/checkpoint.hpp"
#include "train/morphology_targets.hpp"
#include "train/derive_seed.hpp"
#include "train/on_threads.hpp"
#include "train/parameter_list.hpp"
#include "train/pretrained_vectors.hpp"
#include "train/schedule.hpp"
#include "train/soft_examples.hpp"
#include "train/vocabulary_builder.hpp"

namespace sawtag {
namespace {

using Clock = std::chrono::steady_clock;

// `morphology`: the sentence's FEATS and LEMMA columns are gold (not a silver file's "_").
train::Example make_example(const Model& model, const Sentence& sentence, bool morphology = true) {
  train::Example example;
  for (const Word& word : sentence.words) {
    example.words.push_back(word_features(model, word.form));
    example.upos.push_back(model.upos.find(word.upos));
    example.xpos.push_back(model.xpos.find(word.xpos));
  }
  if (morphology) {
    example.feats = train::feats_targets(model, sentence);
    example.lemma = train::lemma_targets(model, sentence);
  }
  return example;
}

// The share of words whose FEATS string / lemma the tagger gets right, in percent.
struct MorphologyScores {
  double feats = 0.0;
  double lemmas = 0.0;
};

MorphologyScores score_morphology(const Tagger& tagger, const std::vector<Sentence>& dev,
                                  int threads) {
  const std::vector<TagResult> results = tag_gold_words(tagger, dev, threads);
  std::size_t words = 0, feats_right = 0, lemmas_right = 0;
  for (std::size_t s = 0; s < dev.size(); ++s) {
    for (std::size_t i = 0; i < dev[s].words.size() && i < results[s].words.size(); ++i) {
      const Word& gold = dev[s].words[i];
      const WordTags& tags = results[s].words[i];
      ++words;
      feats_right += tags.feats == train::canonical_feats(gold.feats);
      lemmas_right += gold.lemma == "_" || tags.lemma == gold.lemma;
    }
  }
  const double total = static_cast<double>(std::max<std::size_t>(1, words));
  return {100.0 * static_cast<double>(feats_right) / total,
          100.0 * static_cast<double>(lemmas_right) / total};
}

// The morphology heads' classes from `train`, where it has the columns.
void add_morphology_classes(const std::vector<Sentence>& train, const TrainOptions& options,
                            Model& model) {
  if (train::has_feats_column(train)) {
    model.feats = train::feats_classes(train, options.min_feats_count);
  }
  if (train::has_lemma_column(train)) {
    model.lemma_rules = train::lemma_rule_classes(train, options.min_lemma_rule_count);
    derive_lemma_tables(train, model);
  }
}

}  // namespace

void derive_lemma_tables(const std::vector<Sentence>& treebank, Model& model) {
  if (!model.has_lemmas()) throw InputError("the model has no lemma head");
  if (!train::has_lemma_column(treebank)) throw InputError("the treebank has no lemmas");
  model.lemma_lexicon = train::lemma_lexicon(treebank);
  model.lemma_deletions = train::lemma_deletions(treebank);
}

namespace {

// --base: the base model with fresh morphology heads; every other tensor as it was.
Model model_with_new_heads(const std::vector<Sentence>& train, const TrainOptions& options) {
  Model model = load_model(options.base_model_path);
  if (!model.ensemble.empty()) {
    throw InputError(options.base_model_path +
                     ": --base takes a model of one tagger, not an ensemble");
  }
  if (model.has_feats() || model.has_lemmas()) {
    throw InputError(options.base_model_path + ": the model already has morphology heads");
  }
  add_morphology_classes(train, options, model);
  if (!model.has_feats() && !model.has_lemmas()) {
    throw InputError("--base: the training treebank has neither a FEATS nor a LEMMA column, "
                     "so there is no head to learn");
  }
  sync_vocabulary_sizes(model);
  validate(model.config);
  Parameters fresh = zero_parameters(model.config);
  initialize_parameters(fresh, model.config, train::derive_seed(options.seed, 0));
  model.parameters.heads.feats = std::move(fresh.heads.feats);
  model.parameters.heads.lemma = std::move(fresh.heads.lemma);
  model.calibration.feats_temperature = 1.0f;
  model.calibration.lemma_temperature = 1.0f;
  return model;
}

// With --base, only the new heads train: every other tensor has no trainable element.
void freeze_all_but_morphology_heads(const Parameters& parameters, const ModelConfig& config,
                                     train::TrainableSizes& sizes) {
  const auto list = train::parameter_list(parameters, config);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const bool new_head = list[i].tensor == &parameters.heads.feats.weight ||
                          list[i].tensor == &parameters.heads.feats.bias ||
                          list[i].tensor == &parameters.heads.lemma.weight ||
                          list[i].tensor == &parameters.heads.lemma.bias;
    if (!new_head) sizes[i] = 0;
  }
}

// Replaces word ids by <unk> with probability alpha / (alpha + count): rare words are dropped
// more often, so the <unk> row learns what unseen words look like.
void drop_words(train::Example& example, const std::vector<int>& word_counts, float alpha,
                std::mt19937_64& rng) {
  if (alpha <= 0.0f) return;
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (WordFeatures& word : example.words) {
    if (word.word_id == kUnknownWord) continue;
    const float count = static_cast<float>(word_counts[static_cast<std::size_t>(word.word_id)]);
    if (uniform(rng) < alpha / (alpha + count)) word.word_id = kUnknownWord;
  }
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

// Training-record field: word-embedding rows from this index on came from pre-trained vectors
// and stay frozen; the rows before it (the treebank's words, or with --freeze-vectors those
// without a vector) are fine-tuned.
constexpr const char* kTrainableWordRows = "trainable_word_rows";

// The treebank's `words` and the pre-trained vectors' words ("</s>" of fastText skipped) in
// one vocabulary whose trainable rows come first; returns how many rows are trainable. With
// `freeze_vectors`, only the treebank words without a vector are trainable (they come first,
// then every word of the vectors file); otherwise all treebank words are, followed by the
// vectors' words the treebank lacks.
int merge_vocabularies(Vocabulary& words, const std::vector<std::string>& vector_words,
                       bool freeze_vectors) {
  std::unordered_set<std::string> with_vector(vector_words.begin(), vector_words.end());
  with_vector.erase("</s>");
  std::vector<std::string> items;
  for (const std::string& word : words.items()) {
    if (!freeze_vectors || with_vector.count(word) == 0) items.push_back(word);
  }
  const int trainable_rows = static_cast<int>(items.size());
  std::unordered_set<std::string> seen(items.begin(), items.end());
  for (const std::string& word : vector_words) {
    if (word != "</s>" && seen.insert(word).second) items.push_back(word);
  }
  words = Vocabulary(std::move(items), "words");
  return trainable_rows;
}

// Copies each pre-trained vector into its word's row as it is, after scaling the randomly
// initialised table so that its standard deviation matches the vectors': all rows on one
// scale. (Shrinking the vectors to the random rows' scale instead, as sawtag first did, makes
// AdamW's steps relatively larger and moves the fine-tuned rows away from the frozen rows'
// geometry: with the EWT recipe, dev UPOS / XPOS 94.80 / 94.16 against 94.95 / 94.23.)
void copy_vectors(const train::PretrainedVectors& vectors, Model& model) {
  TensorData& table = model.parameters.encoder.word_embedding.data;
  const auto standard_deviation = [](const auto& values) {
    double sum = 0.0, squares = 0.0;
    for (float value : values) {
      sum += value;
      squares += static_cast<double>(value) * value;
    }
    const double mean = sum / static_cast<double>(values.size());
    return std::sqrt(std::max(1e-12, squares / static_cast<double>(values.size()) - mean * mean));
  };
  const float factor =
      static_cast<float>(standard_deviation(vectors.values) / standard_deviation(table));
  for (float& value : table) value *= factor;
  const std::size_t dim = static_cast<std::size_t>(vectors.dim);
  for (std::size_t i = 0; i < vectors.words.size(); ++i) {
    const int row = model.words.find(vectors.words[i]);
    if (row < 0) continue;
    std::copy_n(vectors.values.begin() + static_cast<std::ptrdiff_t>(i * dim), dim,
                table.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row) * dim));
  }
}

// The pre-trained vectors of the fine-tuned word rows that have one (--vector-anchor).
struct VectorAnchors {
  std::vector<int> rows;
  std::vector<float> vectors;  // [rows.size(), word_dim]
};

// Reads the vectors file again (also when resuming, so checkpoints need not carry them).
VectorAnchors read_vector_anchors(const Model& model, const TrainOptions& options) {
  VectorAnchors anchors;
  const auto found = model.training.fields.find(kTrainableWordRows);
  if (options.vector_anchor <= 0.0f || found == model.training.fields.end()) return anchors;
  if (options.pretrained_embeddings.empty()) {
    throw InputError("--vector-anchor needs the --pretrained-embeddings file the model was "
                     "started with (also with --resume), or --vector-anchor 0");
  }
  const int trainable_rows = std::stoi(found->second);
  const train::PretrainedVectors vectors =
      train::read_pretrained_vectors(options.pretrained_embeddings, options.pretrained_max_words);
  const std::size_t dim = static_cast<std::size_t>(vectors.dim);
  for (std::size_t i = 0; i < vectors.words.size(); ++i) {
    const int row = model.words.find(vectors.words[i]);
    if (row < 0 || row >= trainable_rows) continue;
    anchors.rows.push_back(row);
    const auto first = vectors.values.begin() + static_cast<std::ptrdiff_t>(i * dim);
    anchors.vectors.insert(anchors.vectors.end(), first, first + static_cast<std::ptrdiff_t>(dim));
  }
  return anchors;
}

// row -= rate * (row - vector): like weight decay, but towards the pre-trained vector, so the
// fine-tuned rows stay in the space of the fixed rows that words unseen in training get.
void pull_towards_vectors(const VectorAnchors& anchors, float rate, Model& model) {
  const std::size_t dim = static_cast<std::size_t>(model.config.word_dim);
  TensorData& table = model.parameters.encoder.word_embedding.data;
  for (std::size_t a = 0; a < anchors.rows.size(); ++a) {
    float* row = table.data() + static_cast<std::size_t>(anchors.rows[a]) * dim;
    const float* vector = anchors.vectors.data() + a * dim;
    for (std::size_t k = 0; k < dim; ++k) row[k] -= rate * (row[k] - vector[k]);
  }
}

// The words of the first self-test that a tagger gets wrong, or "" when all pass. Checked
// with every precision a loading machine may use, since a model that fails one cannot load.
std::string first_failed_self_test(const std::vector<const Tagger*>& taggers,
                                   const std::vector<SelfTest>& self_tests) {
  for (const SelfTest& test : self_tests) {
    for (const Tagger* tagger : taggers) {
      const TagResult result = tagger->tag(test.words);
      for (std::size_t i = 0; i < test.words.size(); ++i) {
        if (i >= result.words.size() || result.words[i].upos != test.upos[i]) {
          std::string words;
          for (const std::string& word : test.words) words += (words.empty() ? "" : " ") + word;
          return words;
        }
      }
    }
  }
  return "";
}

// average = d * average + (1 - d) * weights, with d smaller in the first steps so that the
// random initial weights are soon forgotten.
void update_average(Parameters& average, const Parameters& weights, const ModelConfig& config,
                    const train::TrainableSizes& sizes, float decay, std::int64_t step) {
  const float d = std::min(decay, static_cast<float>(1 + step) / static_cast<float>(10 + step));
  const auto average_list = train::parameter_list(average, config);
  const auto weight_list = train::parameter_list(weights, config);
  for (std::size_t i = 0; i < average_list.size(); ++i) {
    TensorData& to = average_list[i].tensor->data;
    const TensorData& from = weight_list[i].tensor->data;
    for (std::size_t k = 0; k < sizes[i]; ++k) to[k] = d * to[k] + (1.0f - d) * from[k];
  }
}

// The sentences of the silver file as examples of `model` (the file is read a sentence at a
// time; only the examples are kept).
std::vector<train::Example> read_silver_examples(const Model& model, const std::string& path,
                                                 float distillation_temperature) {
  if (is_soft_targets_file(path)) {
    return train::read_soft_examples(model, path, distillation_temperature);
  }
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the silver data");
  ConlluReader reader(in, path);
  std::vector<Sentence> sentences;
  Sentence sentence;
  while (reader.next(sentence)) {
    if (!sentence.words.empty()) sentences.push_back(std::move(sentence));
  }
  // A silver file written by a model without morphology heads has "_" in those columns: not
  // gold "no features", so they stay out of the loss.
  const bool morphology = train::has_feats_column(sentences) || train::has_lemma_column(sentences);
  std::vector<train::Example> examples;
  for (const Sentence& each : sentences) examples.push_back(make_example(model, each, morphology));
  if (examples.empty()) throw InputError(path + ": no silver sentences");
  return examples;
}

// Which silver examples each epoch adds: about `words_per_epoch` words, in file order, each
// epoch starting where the one before stopped and wrapping at the end. A pure function of the
// data, so that a resumed run takes the same slices.
std::vector<std::vector<std::size_t>> silver_slices(const std::vector<train::Example>& silver,
                                                    double words_per_epoch, int epochs) {
  std::vector<std::vector<std::size_t>> slices(static_cast<std::size_t>(std::max(0, epochs)));
  if (silver.empty() || words_per_epoch <= 0.0) return slices;
  std::size_t next = 0;
  for (std::vector<std::size_t>& slice : slices) {
    double words = 0.0;
    while (words < words_per_epoch && slice.size() < silver.size()) {
      slice.push_back(next);
      words += static_cast<double>(silver[next].words.size());
      next = (next + 1) % silver.size();
    }
  }
  return slices;
}

// The first word-embedding row that training leaves as it is: the pre-trained rows after the
// trainable ones, or none.
std::size_t first_frozen_word_row(const Model& model) {
  const auto found = model.training.fields.find(kTrainableWordRows);
  if (found == model.training.fields.end()) {
    return static_cast<std::size_t>(model.config.word_vocab_size);
  }
  return static_cast<std::size_t>(std::stoul(found->second));
}

}  // namespace

Model initial_model(const std::vector<Sentence>& train, const TrainOptions& options) {
  if (train.empty()) throw InputError("the training treebank has no sentences");
  const train::TreebankCounts counts = train::count_treebank(train);
  Model model;
  model.config = options.config;
  std::optional<Model> encoder;
  if (!options.encoder_path.empty()) {
    // The architecture is the pre-trained encoder's (sawtag/pretraining.hpp).
    encoder = load_model(options.encoder_path);
    model.config = encoder->config;
  }
  model.words = train::build_vocabulary(counts.words, options.min_word_count, {"<unk>"}, "words");
  train::PretrainedVectors vectors;
  if (!options.pretrained_embeddings.empty()) {
    vectors = train::read_pretrained_vectors(options.pretrained_embeddings,
                                             options.pretrained_max_words);
    if (vectors.dim != model.config.word_dim) {
      throw InputError(options.pretrained_embeddings + ": vectors have " +
                       std::to_string(vectors.dim) + " dimensions but --word-dim is " +
                       std::to_string(model.config.word_dim));
    }
    const int trainable_rows = merge_vocabularies(model.words, vectors.words, options.freeze_vectors);
    model.training.fields[kTrainableWordRows] = std::to_string(trainable_rows);
  }
  model.chars = train::build_vocabulary(counts.chars, options.min_char_count,
                                        {"<pad>", "<unk>", "<w>", "</w>"}, "chars");
  model.upos = train::build_vocabulary(counts.upos, 1, {}, "upos");
  model.xpos = train::build_vocabulary(counts.xpos, 1, {}, "xpos");
  model.tokenizer = learn_tokenizer_data(train);
  add_morphology_classes(train, options, model);
  sync_vocabulary_sizes(model);
  validate(model.config);
  model.parameters = zero_parameters(model.config);
  initialize_parameters(model.parameters, model.config, train::derive_seed(options.seed, 0));
  if (!vectors.words.empty()) copy_vectors(vectors, model);
  if (encoder) load_encoder_into(*encoder, model);
  return model;
}

Model train_model(const std::vector<Sentence>& train, const std::vector<Sentence>& dev,
                  const TrainOptions& options, const TrainObserver& observer) {
  const auto say = [&observer](const std::string& message) {
    if (observer.on_message) observer.on_message(message);
  };
  train::Checkpoint state;
  if (!options.resume_path.empty()) {
    state = train::load_checkpoint(options.resume_path);
    say("resumed from " + options.resume_path + " after epoch " +
        std::to_string(state.epochs_done));
  } else {
    state.current = options.base_model_path.empty() ? initial_model(train, options)
                                                    : model_with_new_heads(train, options);
    state.best = state.current;
    state.first_moments = zero_parameters(state.current.config);
    state.second_moments = zero_parameters(state.current.config);
  }
  Model& model = state.current;
  const ModelConfig& config = model.config;
  if (options.average_decay > 0.0f && !state.averaged) state.averaged = model.parameters;
  const bool from_base = !options.base_model_path.empty();
  const bool heads_only = from_base && !options.fine_tune_base;
  const VectorAnchors anchors = heads_only ? VectorAnchors{} : read_vector_anchors(model, options);

  std::vector<train::Example> examples;
  std::size_t total_words = 0;
  for (const Sentence& sentence : train) {
    if (sentence.words.empty()) continue;
    examples.push_back(make_example(model, sentence));
    total_words += sentence.words.size();
  }
  const std::vector<train::Example> silver =
      options.silver_path.empty() ? std::vector<train::Example>{}
                                  : read_silver_examples(model, options.silver_path,
                                                         options.distillation_temperature);
  const auto silver_of_epoch =
      silver_slices(silver, options.silver_ratio * static_cast<double>(total_words), options.epochs);
  // Word dropout counts a word over everything trained on, silver included: a word seen only
  // in silver data would otherwise have count 0 and always be dropped.
  std::vector<int> word_counts(static_cast<std::size_t>(model.words.size()), 0);
  using Examples = std::vector<train::Example>;
  for (const Examples* set : std::initializer_list<const Examples*>{&examples, &silver}) {
    for (const train::Example& example : *set) {
      for (const WordFeatures& word : example.words) {
        ++word_counts[static_cast<std::size_t>(word.word_id)];
      }
    }
  }
  // Epoch e trains on the treebank and silver_of_epoch[e - 1]: example k of the epoch is
  // examples[k], then silver[slice[k - examples.size()]].
  const auto epoch_examples = [&](int epoch) {
    std::vector<const train::Example*> chosen;
    for (const train::Example& example : examples) chosen.push_back(&example);
    for (std::size_t index : silver_of_epoch[static_cast<std::size_t>(epoch - 1)]) {
      chosen.push_back(&silver[index]);
    }
    return chosen;
  };

  train::AdamW adam(config, {options.beta1, options.beta2, options.adam_epsilon,
                             options.weight_decay});
  adam.first_moments() = std::move(state.first_moments);
  adam.second_moments() = std::move(state.second_moments);
  adam.set_steps(state.steps);

  const std::size_t batch_size = static_cast<std::size_t>(std::max(1, options.batch_size));
  std::int64_t total_steps = 0;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    const std::size_t sentences =
        examples.size() + silver_of_epoch[static_cast<std::size_t>(epoch - 1)].size();
    total_steps += static_cast<std::int64_t>((sentences + batch_size - 1) / batch_size);
  }
  const std::size_t thread_count = static_cast<std::size_t>(std::max(1, options.threads));
  std::vector<Parameters> thread_gradients(thread_count, zero_parameters(config));
  train::TrainableSizes trainable =
      train::trainable_sizes(model.parameters, config, first_frozen_word_row(model));
  if (heads_only) freeze_all_but_morphology_heads(model.parameters, config, trainable);
  const train::LearningRateFactors learning_rate_factors =
      train::learning_rate_factors(model.parameters, config, options.encoder_lr_scale);
  std::vector<double> thread_losses(thread_count);
  train::StepOptions step_options;
  step_options.dropout = options.dropout;
  step_options.label_smoothing = options.label_smoothing;
  step_options.distillation_temperature = options.distillation_temperature;
  step_options.lemma_weight = options.lemma_weight;
  step_options.morphology_heads_only = heads_only;

  for (int epoch = state.epochs_done + 1; epoch <= options.epochs; ++epoch) {
    if (state.epochs_without_improvement >= options.patience) break;
    const auto epoch_start = Clock::now();
    const std::vector<const train::Example*> chosen = epoch_examples(epoch);
    std::vector<std::size_t> lengths;
    for (const train::Example* example : chosen) lengths.push_back(example->words.size());
    const auto batches = train::make_batches(lengths, options.batch_size,
                                             train::derive_seed(options.seed, 1, epoch));
    double epoch_loss = 0.0;
    std::size_t epoch_words = 0;
    std::size_t sentences_done = 0;
    for (const std::vector<std::size_t>& batch : batches) {
      const std::int64_t step = adam.steps() + 1;
      // Thread t takes the batch's sentences t, t + T, ...: a fixed split, so the sums (and the
      // model) do not depend on timing.
      train::on_threads(thread_count, [&](std::size_t t) {
        train::zero(thread_gradients[t], config, trainable);
        // Each sentence has its own generator, for its word dropout and then its dropout
        // masks: the same draws as if it were run alone.
        std::vector<train::Example> thread_examples;
        std::vector<std::mt19937_64> generators;
        for (std::size_t i = t; i < batch.size(); i += thread_count) {
          generators.emplace_back(
              train::derive_seed(options.seed, 2 + static_cast<std::uint64_t>(step), i));
          thread_examples.push_back(*chosen[batch[i]]);
          drop_words(thread_examples.back(), word_counts, options.word_dropout,
                     generators.back());
        }
        std::vector<const train::Example*> pointers;
        std::vector<std::mt19937_64*> random;
        for (std::size_t k = 0; k < thread_examples.size(); ++k) {
          pointers.push_back(&thread_examples[k]);
          random.push_back(&generators[k]);
        }
        thread_losses[t] = train::accumulate_gradients(model, pointers, step_options, random,
                                                       thread_gradients[t]);
      });
      std::size_t batch_words = 0;
      for (std::size_t index : batch) batch_words += lengths[index];
      for (std::size_t t = 1; t < thread_count; ++t) {
        train::add_into(thread_gradients[0], thread_gradients[t], config, trainable);
      }
      for (double loss : thread_losses) epoch_loss += loss;
      epoch_words += batch_words;

      // Mean loss per word; then clip the global norm.
      Parameters& gradients = thread_gradients[0];
      train::scale(gradients, config, trainable, 1.0f / static_cast<float>(batch_words));
      if (options.clip_norm > 0.0f) {
        const double norm = std::sqrt(train::squared_norm(gradients, config, trainable));
        if (norm > options.clip_norm) {
          train::scale(gradients, config, trainable, static_cast<float>(options.clip_norm / norm));
        }
      }
      const float learning_rate = train::scheduled_learning_rate(
          options.learning_rate, step, options.warmup_steps, total_steps);
      adam.step(model.parameters, gradients, learning_rate, trainable, learning_rate_factors);
      pull_towards_vectors(anchors, learning_rate * options.encoder_lr_scale * options.vector_anchor,
                           model);
      if (state.averaged) {
        update_average(*state.averaged, model.parameters, config, trainable,
                       options.average_decay, step);
      }
      sentences_done += batch.size();
      if (observer.on_progress) {
        const double seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
        observer.on_progress({epoch, options.epochs, sentences_done, chosen.size(),
                              epoch_loss / static_cast<double>(std::max<std::size_t>(1, epoch_words)),
                              sentences_done / std::max(1e-9, seconds)});
      }
    }

    EpochSummary summary;
    summary.epoch = epoch;
    summary.seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
    summary.loss = epoch_loss / static_cast<double>(std::max<std::size_t>(1, epoch_words));
    summary.words_per_second = static_cast<double>(epoch_words) / std::max(1e-9, summary.seconds);
    // The model scored on dev and kept when best: the averaged weights when averaging.
    Model scored = model;
    if (state.averaged) scored.parameters = *state.averaged;
    {
      Model tagged = scored;
      tagged.self_tests.clear();
      const auto shared = std::make_shared<const Model>(std::move(tagged));
      const Tagger tagger(shared);
      const Evaluation evaluation = evaluate(tagger, dev, static_cast<int>(thread_count));
      summary.dev_upos = evaluation.upos.accuracy();
      summary.dev_xpos = evaluation.xpos.accuracy();
      summary.has_feats = scored.has_feats();
      summary.has_lemmas = scored.has_lemmas();
      if (summary.has_feats || summary.has_lemmas) {
        const MorphologyScores morphology =
            score_morphology(tagger, dev, static_cast<int>(thread_count));
        summary.dev_feats = morphology.feats;
        summary.dev_lemmas = morphology.lemmas;
      }
      const Tagger float32_tagger(shared, TagPrecision::float32);
      summary.failed_self_test =
          first_failed_self_test({&tagger, &float32_tagger}, options.self_tests);
    }
    const double score =
        summary.dev_upos + summary.dev_xpos + summary.dev_feats + summary.dev_lemmas;
    summary.improved = score > state.best_score && summary.failed_self_test.empty();
    if (summary.improved) {
      state.best_score = score;
      state.best_epoch = epoch;
      state.best = std::move(scored);
      state.best.training.fields["dev_upos"] = std::to_string(summary.dev_upos);
      state.best.training.fields["dev_xpos"] = std::to_string(summary.dev_xpos);
      if (summary.has_feats) {
        state.best.training.fields["dev_feats"] = std::to_string(summary.dev_feats);
      }
      if (summary.has_lemmas) {
        state.best.training.fields["dev_lemmas"] = std::to_string(summary.dev_lemmas);
      }
      state.best.training.fields[from_base ? "morphology_best_epoch" : "best_epoch"] =
          std::to_string(epoch);
      state.epochs_without_improvement = 0;
    } else if (summary.failed_self_test.empty()) {
      ++state.epochs_without_improvement;  // refused epochs (early ones, typically) do not count
    }
    state.epochs_done = epoch;
    state.steps = adam.steps();
    if (!options.checkpoint_path.empty()) {
      state.first_moments = adam.first_moments();
      state.second_moments = adam.second_moments();
      train::save_checkpoint(state, options.checkpoint_path);
    }
    if (observer.on_epoch) observer.on_epoch(summary);
  }

  if (state.best_epoch == 0) {
    throw InputError("no epoch gave a model that passes every --self-test; none was written");
  }
  Model best = std::move(state.best);
  if (!dev.empty()) {
    // Temperatures fitted on dev, after the model is chosen (sawtag/calibration.hpp).
    const Tagger tagger(std::make_shared<const Model>(best));
    best.calibration = fit_calibration(tagger, dev, static_cast<int>(thread_count));
  }
  TrainingRecord& record = best.training;
  // With --base, the base model's record stays as it is (how its network was made), and this
  // run's fields are added beside it with a "morphology_" prefix.
  const std::string prefix = from_base ? "morphology_" : "";
  record.fields[prefix + "corpus"] = options.corpus;
  record.fields[prefix + "command"] = options.command;
  record.fields[prefix + "seed"] = std::to_string(options.seed);
  record.fields[prefix + "epochs"] = std::to_string(state.epochs_done);
  record.fields[prefix + "train_sentences"] = std::to_string(examples.size());
  record.fields[prefix + "train_words"] = std::to_string(total_words);
  if (!options.silver_path.empty()) {
    // By file name only: the record must not name a path on the training machine.
    record.fields["silver"] = std::filesystem::path(options.silver_path).filename().string();
    record.fields["silver_sentences"] = std::to_string(silver.size());
    record.fields["silver_ratio"] = std::to_string(options.silver_ratio);
    if (is_soft_targets_file(options.silver_path)) {
      record.fields["distillation_temperature"] = std::to_string(options.distillation_temperature);
    }
  }
  if (from_base) {
    record.fields["morphology_heads_base"] =
        std::filesystem::path(options.base_model_path).filename().string();
  }
  record.fields[prefix + "date"] = today();
  best.self_tests = options.self_tests;
  return best;
}

}  // namespace sawtag
