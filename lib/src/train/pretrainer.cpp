// `sawtag pretrain`: the masked-vector and masked-word objectives (train/masked_vectors.hpp)
// over raw text.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "nn/network.hpp"
#include "sawtag/error.hpp"
#include "sawtag/initialize.hpp"
#include "sawtag/pretraining.hpp"
#include "sawtag/tokenizer.hpp"
#include "sawtag/features.hpp"
#include "train/adam.hpp"
#include "train/checkpoint.hpp"
#include "train/derive_seed.hpp"
#include "train/masked_vectors.hpp"
#include "train/on_threads.hpp"
#include "train/parameter_list.hpp"
#include "train/pretrained_vectors.hpp"
#include "train/schedule.hpp"

namespace sawtag {
namespace {

using Clock = std::chrono::steady_clock;
// Version 2 adds the objective; a version 1 checkpoint is of the masked-vector objective.
constexpr const char* kMagic = "sawtag-pretrain-checkpoint 2";
constexpr const char* kMagicVersion1 = "sawtag-pretrain-checkpoint 1";
// Seed purposes (train/derive_seed.hpp), apart from the trainer's.
constexpr std::uint64_t kInitialWeights = 100;
constexpr std::uint64_t kSentenceMasks = 101;
constexpr std::uint64_t kCandidateWords = 102;

const char* objective_name(PretrainObjective objective) {
  return objective == PretrainObjective::word ? "word" : "vector";
}

// Everything a stopped run needs to continue exactly.
struct PretrainState {
  PretrainObjective objective = PretrainObjective::vector;
  Model model;
  LinearParameters head;  // [d_model, word_dim]
  Parameters first_moments;
  Parameters second_moments;
  LinearParameters head_first_moments;
  LinearParameters head_second_moments;
  std::int64_t steps = 0;
  std::int64_t words_done = 0;
  std::int64_t lines_done = 0;      // lines of text consumed, over all passes
  std::int64_t sentences_done = 0;  // numbers each sentence's random generator
};

std::string tensor_bytes(const std::vector<const Tensor*>& tensors) {
  std::string bytes;
  for (const Tensor* tensor : tensors) {
    bytes.append(reinterpret_cast<const char*>(tensor->data.data()),
                 tensor->data.size() * sizeof(float));
  }
  return bytes;
}

void tensors_from_bytes(const std::string& bytes, const std::vector<Tensor*>& tensors,
                        const std::string& path) {
  std::size_t offset = 0;
  for (Tensor* tensor : tensors) {
    const std::size_t size = tensor->data.size() * sizeof(float);
    if (offset + size > bytes.size()) throw InputError(path + ": checkpoint head ends early");
    std::copy_n(bytes.data() + offset, size, reinterpret_cast<char*>(tensor->data.data()));
    offset += size;
  }
  if (offset != bytes.size()) throw InputError(path + ": checkpoint head has extra bytes");
}

LinearParameters zero_head(const ModelConfig& config) {
  LinearParameters head;
  head.weight = Tensor({config.d_model, config.word_dim});
  head.bias = Tensor({config.word_dim});
  return head;
}

std::vector<const Tensor*> head_tensors(const LinearParameters& head) {
  return {&head.weight, &head.bias};
}
std::vector<Tensor*> head_tensors(LinearParameters& head) { return {&head.weight, &head.bias}; }

void save_state(const PretrainState& state, const std::string& path) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(temporary + ": cannot write the checkpoint");
    out << kMagic << '\n'
        << "steps " << state.steps << '\n'
        << "words_done " << state.words_done << '\n'
        << "lines_done " << state.lines_done << '\n'
        << "sentences_done " << state.sentences_done << '\n'
        << "objective " << objective_name(state.objective) << '\n';
    const ModelConfig& config = state.model.config;
    train::write_blob(out, "model", serialize_model(state.model));
    train::write_blob(out, "first_moments", train::parameter_bytes(state.first_moments, config));
    train::write_blob(out, "second_moments", train::parameter_bytes(state.second_moments, config));
    train::write_blob(out, "head", tensor_bytes(head_tensors(state.head)));
    train::write_blob(out, "head_first_moments", tensor_bytes(head_tensors(state.head_first_moments)));
    train::write_blob(out, "head_second_moments",
                      tensor_bytes(head_tensors(state.head_second_moments)));
    out.flush();
    if (!out) throw OutputError(temporary + ": writing the checkpoint failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw OutputError(path + ": cannot rename the checkpoint into place");
  }
}

PretrainState load_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the checkpoint");
  std::string magic;
  std::getline(in, magic);
  if (magic != kMagic && magic != kMagicVersion1) {
    throw InputError(path + ": not a sawtag pre-training checkpoint (expected '" +
                     std::string(kMagic) + "')");
  }
  PretrainState state;
  std::string key;
  const auto read_counter = [&](const char* expected_key, std::int64_t& value) {
    if (!(in >> key >> value) || key != expected_key) {
      throw InputError(path + ": damaged checkpoint: expected '" + expected_key + "'");
    }
  };
  read_counter("steps", state.steps);
  read_counter("words_done", state.words_done);
  read_counter("lines_done", state.lines_done);
  read_counter("sentences_done", state.sentences_done);
  if (magic == kMagic) {
    std::string name;
    if (!(in >> key >> name) || key != "objective" || (name != "vector" && name != "word")) {
      throw InputError(path + ": damaged checkpoint: expected 'objective vector' or 'objective word'");
    }
    state.objective = name == "word" ? PretrainObjective::word : PretrainObjective::vector;
  }
  in.get();
  state.model = parse_model(train::read_blob(in, "model", path), path + " (model)");
  const ModelConfig& config = state.model.config;
  state.first_moments =
      train::parameters_from_bytes(train::read_blob(in, "first_moments", path), config, path);
  state.second_moments =
      train::parameters_from_bytes(train::read_blob(in, "second_moments", path), config, path);
  state.head = zero_head(config);
  state.head_first_moments = zero_head(config);
  state.head_second_moments = zero_head(config);
  tensors_from_bytes(train::read_blob(in, "head", path), head_tensors(state.head), path);
  tensors_from_bytes(train::read_blob(in, "head_first_moments", path),
                     head_tensors(state.head_first_moments), path);
  tensors_from_bytes(train::read_blob(in, "head_second_moments", path),
                     head_tensors(state.head_second_moments), path);
  return state;
}

// The encoder's model: the vectors' words (all frozen), the characters they are spelled with
// and the capital letters, placeholder tag sets.
Model initial_encoder(const PretrainOptions& options, const train::PretrainedVectors& vectors) {
  Model model;
  model.config = options.config;
  std::vector<std::string> words{"<unk>"};
  std::set<std::string> chars;
  for (const std::string& word : vectors.words) {
    if (word == "</s>" || word == "<unk>") continue;
    words.push_back(word);
    for (const std::string& character : word_characters(word)) chars.insert(character);
  }
  // The vectors' words are lower-cased; the text is not.
  for (char letter = 'A'; letter <= 'Z'; ++letter) chars.insert(std::string(1, letter));
  model.words = Vocabulary(std::move(words), "words");
  std::vector<std::string> char_items{"<pad>", "<unk>", "<w>", "</w>"};
  for (const std::string& character : chars) {
    if (std::find(char_items.begin(), char_items.end(), character) == char_items.end()) {
      char_items.push_back(character);
    }
  }
  model.chars = Vocabulary(std::move(char_items), "chars");
  model.upos = Vocabulary({"_"}, "upos");
  model.xpos = Vocabulary({"_"}, "xpos");
  sync_vocabulary_sizes(model);
  validate(model.config);
  model.parameters = zero_parameters(model.config);
  initialize_parameters(model.parameters, model.config,
                        train::derive_seed(options.seed, kInitialWeights));
  TensorData& table = model.parameters.encoder.word_embedding.data;
  const std::size_t dim = static_cast<std::size_t>(vectors.dim);
  for (std::size_t i = 0; i < vectors.words.size(); ++i) {
    const int row = model.words.find(vectors.words[i]);
    if (row <= 0) continue;
    std::copy_n(vectors.values.begin() + static_cast<std::ptrdiff_t>(i * dim), dim,
                table.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row) * dim));
  }
  return model;
}

// The lines of the text file, from the start again when it ends.
class TextLines {
 public:
  explicit TextLines(std::string path) : path_(std::move(path)) { open(); }

  void skip(std::int64_t lines) {
    std::string line;
    for (std::int64_t i = 0; i < lines; ++i) next(line);
  }

  void next(std::string& line) {
    if (!std::getline(in_, line)) {
      if (lines_in_pass_ == 0) throw InputError(path_ + ": no text to learn from");
      open();
      if (!std::getline(in_, line)) throw InputError(path_ + ": no text to learn from");
    }
    ++lines_in_pass_;
  }

 private:
  void open() {
    in_ = std::ifstream(path_, std::ios::binary);
    if (!in_) throw InputError(path_ + ": cannot open the text");
    lines_in_pass_ = 0;
  }

  std::string path_;
  std::ifstream in_;
  std::int64_t lines_in_pass_ = 0;  // lines read since the file was last opened
};

// One sentence as the step sees it.
struct MaskedSentence {
  std::vector<WordFeatures> words;  // hidden words already replaced
  std::vector<int> hidden;          // positions
  std::vector<int> hidden_ids;      // their word ids
  std::vector<int> hidden_columns;  // PretrainObjective::word: their columns of the candidates
  std::uint64_t seed = 0;           // for the dropout masks
};

// The words a step's hidden words are chosen among (PretrainObjective::word): the hidden words,
// then `negatives` words drawn uniformly from the vocabulary (row 0, the unknown word, never),
// each once. Sets every sentence's hidden_columns; returns the candidates' word ids.
std::vector<int> candidate_words(std::vector<MaskedSentence>& sentences, int vocabulary_size,
                                 int negatives, std::mt19937_64& random,
                                 std::vector<int>& column_of_word) {
  std::vector<int> candidates;
  const auto column = [&](int word) {
    int& found = column_of_word[static_cast<std::size_t>(word)];
    if (found < 0) {
      found = static_cast<int>(candidates.size());
      candidates.push_back(word);
    }
    return found;
  };
  for (MaskedSentence& sentence : sentences) {
    sentence.hidden_columns.clear();
    for (int word : sentence.hidden_ids) sentence.hidden_columns.push_back(column(word));
  }
  if (vocabulary_size > 1) {
    std::uniform_int_distribution<int> pick(1, vocabulary_size - 1);
    for (int i = 0; i < negatives; ++i) column(pick(random));
  }
  for (int word : candidates) column_of_word[static_cast<std::size_t>(word)] = -1;
  return candidates;
}

// Adds the gradient of one thread's share of a step into `gradients` and `head_gradient`.
// `candidates` ([candidate words, word_dim]) for PretrainObjective::word, else null.
double share_gradients(const PretrainState& state, const std::vector<const MaskedSentence*>& share,
                       const nn::Matrix* candidates, float dropout, float scale,
                       Parameters& gradients, LinearParameters& head_gradient) {
  const Model& model = state.model;
  std::vector<WordFeatures> words;
  std::vector<int> lengths;
  std::vector<int> rows;
  std::vector<int> ids;
  std::vector<std::mt19937_64> generators;
  generators.reserve(share.size());
  for (const MaskedSentence* sentence : share) {
    const int offset = static_cast<int>(words.size());
    words.insert(words.end(), sentence->words.begin(), sentence->words.end());
    lengths.push_back(static_cast<int>(sentence->words.size()));
    for (std::size_t k = 0; k < sentence->hidden.size(); ++k) {
      rows.push_back(offset + sentence->hidden[k]);
      ids.push_back(candidates != nullptr ? sentence->hidden_columns[k] : sentence->hidden_ids[k]);
    }
    generators.emplace_back(sentence->seed);
  }
  if (words.empty()) return 0.0;
  const nn::Segments segments(lengths);
  nn::ForwardOptions options;
  options.dropout_rate = dropout;
  for (auto& generator : generators) options.random.push_back(&generator);
  nn::EncoderCache cache;
  const nn::Matrix encoded = nn::encoder_forward(model.parameters.encoder, model.config, words,
                                                 segments, options, &cache, nullptr);
  nn::Matrix d_encoded = nn::Matrix::Zero(encoded.rows(), encoded.cols());
  double loss = 0.0;
  if (candidates != nullptr) {
    loss = train::masked_word_loss(state.head, encoded, rows, ids, *candidates, scale, &d_encoded,
                                   &head_gradient);
  } else {
    const nn::ConstMatrixMap table = nn::as_matrix(model.parameters.encoder.word_embedding);
    nn::Matrix targets(static_cast<Eigen::Index>(ids.size()), model.config.word_dim);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      targets.row(static_cast<Eigen::Index>(k)) = table.row(ids[k]);
    }
    loss = train::masked_vector_loss(state.head, encoded, rows, targets, scale, &d_encoded,
                                     &head_gradient);
  }
  nn::encoder_backward(model.parameters.encoder, model.config, cache, d_encoded,
                       gradients.encoder);
  return loss;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

}  // namespace

Model pretrain_encoder(const PretrainOptions& options, const PretrainObserver& observer) {
  const auto say = [&observer](const std::string& message) {
    if (observer.on_message) observer.on_message(message);
  };
  if (options.max_words <= 0) throw InputError("--max-words must be positive");
  PretrainState state;
  if (!options.resume_path.empty()) {
    state = load_state(options.resume_path);
    if (state.objective != options.objective) {
      throw InputError(options.resume_path + ": the checkpoint is of --objective " +
                       objective_name(state.objective) + ", not " +
                       objective_name(options.objective));
    }
    say("resumed from " + options.resume_path + " after " + std::to_string(state.words_done) +
        " words");
  } else {
    const train::PretrainedVectors vectors =
        train::read_pretrained_vectors(options.vectors_path, options.max_vector_words);
    if (vectors.dim != options.config.word_dim) {
      throw InputError(options.vectors_path + ": vectors have " + std::to_string(vectors.dim) +
                       " dimensions but --word-dim is " + std::to_string(options.config.word_dim));
    }
    state.objective = options.objective;
    state.model = initial_encoder(options, vectors);
    state.first_moments = zero_parameters(state.model.config);
    state.second_moments = zero_parameters(state.model.config);
    state.head = zero_head(state.model.config);
    std::mt19937_64 head_random(train::derive_seed(options.seed, kInitialWeights, 1));
    const float bound = std::sqrt(6.0f / static_cast<float>(state.model.config.d_model +
                                                           state.model.config.word_dim));
    std::uniform_real_distribution<float> uniform(-bound, bound);
    for (float& value : state.head.weight.data) value = uniform(head_random);
    state.head_first_moments = zero_head(state.model.config);
    state.head_second_moments = zero_head(state.model.config);
  }
  Model& model = state.model;
  const ModelConfig& config = model.config;

  // The word table stays as the vectors are; the placeholder tagging heads are not trained.
  train::TrainableSizes trainable = train::trainable_sizes(model.parameters, config, 0);
  {
    const auto list = train::parameter_list(model.parameters, config);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].name.rfind("heads.", 0) == 0) trainable[i] = 0;
    }
  }
  train::AdamW adam(config, {0.9f, 0.98f, 1e-8f, options.weight_decay});
  adam.first_moments() = std::move(state.first_moments);
  adam.second_moments() = std::move(state.second_moments);
  adam.set_steps(state.steps);
  const train::AdamOptions head_adam{0.9f, 0.98f, 1e-8f, options.weight_decay};

  TextLines lines(options.text_path);
  lines.skip(state.lines_done);
  const Tokenizer tokenizer;
  const std::size_t thread_count = static_cast<std::size_t>(std::max(1, options.threads));
  std::vector<Parameters> thread_gradients(thread_count, zero_parameters(config));
  std::vector<LinearParameters> thread_head_gradients(thread_count, zero_head(config));
  std::vector<double> thread_losses(thread_count);
  const std::int64_t total_steps =
      std::max<std::int64_t>(1, options.max_words / std::max(1, options.batch_words));
  const auto start = Clock::now();
  auto last_checkpoint = start;
  double recent_loss = 0.0;
  std::int64_t recent_hidden = 0;
  const std::int64_t words_at_start = state.words_done;
  std::string line;
  std::vector<int> column_of_word(static_cast<std::size_t>(model.words.size()), -1);
  nn::Matrix candidates;

  while (state.words_done < options.max_words) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (options.max_seconds > 0.0 && seconds >= options.max_seconds) {
      say("time budget reached after " + std::to_string(state.words_done) + " words");
      break;
    }
    // Whole lines until the step has batch_words words.
    std::vector<MaskedSentence> sentences;
    std::int64_t step_words = 0;
    std::size_t step_hidden = 0;
    while (step_words < options.batch_words) {
      lines.next(line);
      ++state.lines_done;
      for (const Sentence& sentence : tokenizer.tokenize(line)) {
        MaskedSentence masked;
        const std::size_t length = std::min<std::size_t>(
            sentence.words.size(), static_cast<std::size_t>(config.max_sequence_length));
        for (std::size_t i = 0; i < length; ++i) {
          masked.words.push_back(word_features(model, sentence.words[i].form));
        }
        step_words += static_cast<std::int64_t>(length);
        std::mt19937_64 random(train::derive_seed(
            options.seed, kSentenceMasks, static_cast<std::uint64_t>(state.sentences_done++)));
        masked.hidden = train::mask_words(masked.words, options.mask_rate, random, masked.hidden_ids);
        masked.seed = random();
        step_hidden += masked.hidden.size();
        if (!masked.hidden.empty()) sentences.push_back(std::move(masked));
      }
    }
    state.words_done += step_words;
    if (step_hidden == 0) continue;
    const std::int64_t step = adam.steps() + 1;
    const float scale = 1.0f / static_cast<float>(step_hidden);
    const bool word_objective = state.objective == PretrainObjective::word;
    if (word_objective) {
      std::mt19937_64 random(
          train::derive_seed(options.seed, kCandidateWords, static_cast<std::uint64_t>(step)));
      const std::vector<int> words = candidate_words(sentences, model.words.size(),
                                                     options.negatives, random, column_of_word);
      const nn::ConstMatrixMap table = nn::as_matrix(std::as_const(model.parameters.encoder.word_embedding));
      candidates.resize(static_cast<Eigen::Index>(words.size()), config.word_dim);
      for (std::size_t c = 0; c < words.size(); ++c) {
        candidates.row(static_cast<Eigen::Index>(c)) = table.row(words[c]);
      }
    }
    train::on_threads(thread_count, [&](std::size_t t) {
      train::zero(thread_gradients[t], config, trainable);
      for (Tensor* tensor : head_tensors(thread_head_gradients[t])) {
        std::fill(tensor->data.begin(), tensor->data.end(), 0.0f);
      }
      std::vector<const MaskedSentence*> share;
      for (std::size_t i = t; i < sentences.size(); i += thread_count) {
        share.push_back(&sentences[i]);
      }
      thread_losses[t] = share_gradients(state, share, word_objective ? &candidates : nullptr,
                                         options.dropout, scale, thread_gradients[t],
                                         thread_head_gradients[t]);
    });
    Parameters& gradients = thread_gradients[0];
    LinearParameters& head_gradient = thread_head_gradients[0];
    for (std::size_t t = 1; t < thread_count; ++t) {
      train::add_into(gradients, thread_gradients[t], config, trainable);
      const auto from = head_tensors(thread_head_gradients[t]);
      const auto to = head_tensors(head_gradient);
      for (std::size_t i = 0; i < to.size(); ++i) {
        for (std::size_t k = 0; k < to[i]->data.size(); ++k) to[i]->data[k] += from[i]->data[k];
      }
    }
    // Clip the global norm, head included.
    double squares = train::squared_norm(gradients, config, trainable);
    for (const Tensor* tensor : head_tensors(static_cast<const LinearParameters&>(head_gradient))) {
      for (float value : tensor->data) squares += static_cast<double>(value) * value;
    }
    const double norm = std::sqrt(squares);
    if (options.clip_norm > 0.0f && norm > options.clip_norm) {
      const auto factor = static_cast<float>(options.clip_norm / norm);
      train::scale(gradients, config, trainable, factor);
      for (Tensor* tensor : head_tensors(head_gradient)) {
        for (float& value : tensor->data) value *= factor;
      }
    }
    const float learning_rate = train::scheduled_learning_rate(
        options.learning_rate, step, options.warmup_steps, total_steps);
    adam.step(model.parameters, gradients, learning_rate, trainable);
    const auto weights = head_tensors(state.head);
    const auto grads = head_tensors(static_cast<const LinearParameters&>(head_gradient));
    const auto firsts = head_tensors(state.head_first_moments);
    const auto seconds_moments = head_tensors(state.head_second_moments);
    for (std::size_t i = 0; i < weights.size(); ++i) {
      train::adam_update(head_adam, step, learning_rate, i == 0, weights[i]->data.size(),
                         weights[i]->data, grads[i]->data, firsts[i]->data,
                         seconds_moments[i]->data);
    }
    state.steps = adam.steps();
    for (double loss : thread_losses) recent_loss += loss;
    recent_hidden += static_cast<std::int64_t>(step_hidden);

    const auto now = Clock::now();
    if (observer.on_progress) {
      const double elapsed = std::chrono::duration<double>(now - start).count();
      observer.on_progress({state.words_done, options.max_words,
                            recent_loss / static_cast<double>(std::max<std::int64_t>(1, recent_hidden)),
                            static_cast<double>(state.words_done - words_at_start) /
                                std::max(1e-9, elapsed),
                            elapsed});
    }
    recent_loss = 0.0;
    recent_hidden = 0;
    if (!options.checkpoint_path.empty() &&
        std::chrono::duration<double>(now - last_checkpoint).count() >= options.checkpoint_seconds) {
      state.first_moments = adam.first_moments();
      state.second_moments = adam.second_moments();
      save_state(state, options.checkpoint_path);
      last_checkpoint = now;
    }
  }
  if (!options.checkpoint_path.empty()) {
    state.first_moments = adam.first_moments();
    state.second_moments = adam.second_moments();
    save_state(state, options.checkpoint_path);
  }

  Model encoder = std::move(state.model);
  TrainingRecord& record = encoder.training;
  record.fields["kind"] = "encoder";
  record.fields["objective"] =
      state.objective == PretrainObjective::word ? "masked-word" : "masked-vector";
  record.fields["text"] = std::filesystem::path(options.text_path).filename().string();
  if (!options.vectors_path.empty()) {
    record.fields["vectors"] = std::filesystem::path(options.vectors_path).filename().string();
  }
  record.fields["words"] = std::to_string(state.words_done);
  record.fields["steps"] = std::to_string(state.steps);
  record.fields["seed"] = std::to_string(options.seed);
  record.fields["command"] = options.command;
  record.fields["date"] = today();
  return encoder;
}

}  // namespace sawtag
