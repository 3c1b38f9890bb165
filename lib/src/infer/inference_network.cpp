#include "infer/inference_network.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "infer/head_attention.hpp"
#include "nn/embedding.hpp"
#include "nn/matrix.hpp"
#include "sawtag/error.hpp"
#include "sawtag/features.hpp"

namespace sawtag::infer {

namespace {

// The windows' length: the model's trained length, but never so long that one window's
// position table or attention scores could exhaust memory (a model file may ask for 10^6).
constexpr int kLongestWindow = 1024;
static_assert(kLongestWindow <= kMaxAttentionWords, "attention_weights' longest window");
// Distinct word forms whose input rows are kept (each d_model floats: 1 KB at d_model 256).
constexpr std::size_t kInputCacheForms = 16384;

using Array = Eigen::Array<float, 1, Eigen::Dynamic>;
using ArrayMap = Eigen::Map<Array>;
using ConstArrayMap = Eigen::Map<const Array>;

// out = LayerNorm(x) over rows of `dim` floats, `stride` apart in x and out, as
// nn/layer_norm.cpp computes it, by the CPU level's kernel.
void layer_norm(const Kernels& kernels, const LayerNormParameters& norm, float epsilon,
                const float* x, int rows, int dim, int stride, float* out) {
  LayerNormCall call;
  call.x = x;
  call.out = out;
  call.rows = rows;
  call.dim = dim;
  call.stride = stride;
  call.gamma = norm.gamma.data.data();
  call.beta = norm.beta.data.data();
  call.epsilon = epsilon;
  kernels.code.layer_norm(call);
}

// Adds the first `columns` of each row of `from` into `to` (row strides from_stride, to_stride).
void add_rows(const float* from, int from_stride, int rows, int columns, float* to, int to_stride) {
  for (int r = 0; r < rows; ++r) {
    ArrayMap(to + static_cast<std::size_t>(r) * to_stride, columns) +=
        ConstArrayMap(from + static_cast<std::size_t>(r) * from_stride, columns);
  }
}

}  // namespace

struct InferenceNetwork::Layer {
  const LayerNormParameters* attention_norm = nullptr;
  PackedLinear query_key_value;  // [d_model, 3 d_model]: Q, K and V side by side
  PackedLinear attention_output;
  const Tensor* relative_bias = nullptr;  // [num_heads, 2 max_relative_distance + 1], or none
  const LayerNormParameters* feed_forward_norm = nullptr;
  PackedLinear feed_forward_hidden;
  PackedLinear feed_forward_output;
};

// Per-thread buffers, grown to the largest batch seen and reused. They are 64-byte aligned and
// every row starts on a 64-byte boundary (rows of d_model floats are `width_` apart), so that
// Eigen's vectorised code, which treats an unaligned start differently, computes a row the
// same way wherever it sits in the batch and whichever thread runs it.
struct InferenceNetwork::Workspace {
  TensorData x;          // [rows, width_]: the residual stream
  TensorData normed;     // [rows, width_]
  TensorData projected;  // [rows, widest PackedLinear stride]
  TensorData heads;      // [rows, width_]: the heads' outputs side by side
  TensorData hidden;     // [rows, feed-forward stride]
  struct Miss {
    const std::string* form;
    int row;
  };
  std::vector<Miss> misses;  // words of the batch not in the input cache
  TensorData features;       // [misses, input_dim]
  TensorData keys_t;         // [head_dim, n rounded up to 16]: one head's keys, transposed
  TensorData values;         // [n, head_dim]: one head's values
  TensorData scores;         // [n, n rounded up to 16]: one head's attention, row by row
};

InferenceNetwork::InferenceNetwork(const Model& model, Precision precision, const Kernels& kernels)
    : model_(model), kernels_(kernels), char_encoder_(model) {
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  if (config.d_model % config.num_heads != 0) {
    throw ModelError("d_model " + std::to_string(config.d_model) +
                     " is not a multiple of num_heads " + std::to_string(config.num_heads));
  }
  // The last layer is where the unwanted rows stop (Window::unwanted_before).
  if (encoder.layers.empty()) throw ModelError("InferenceNetwork: a model without encoder layers");
  // The input rows are computed once per word form and cached, and the heads are small: both
  // stay float32. Precision only applies to the encoder layers, where the work is.
  input_projection_ = PackedLinear({&encoder.input_projection}, Precision::float32, kernels);
  const HeadParameters& heads = model.parameters.heads;
  heads_ = PackedLinear({&heads.upos, &heads.xpos}, Precision::float32, kernels);
  // The morphology heads have hundreds of classes (EWT: 230 FEATS strings, 323 lemma rules):
  // in float32 they would cost a quarter of the encoder's time, so they run at the encoder's
  // precision. The UPOS and XPOS logits are the same as without them.
  std::vector<const LinearParameters*> morphology;
  if (config.num_feats > 0) morphology.push_back(&heads.feats);
  if (config.num_lemma_rules > 0) morphology.push_back(&heads.lemma);
  if (!morphology.empty()) morphology_heads_ = PackedLinear(morphology, precision, kernels);
  for (const EncoderLayerParameters& parameters : encoder.layers) {
    Layer layer;
    layer.attention_norm = &parameters.attention_norm;
    layer.query_key_value = PackedLinear(
        {&parameters.attention.query, &parameters.attention.key, &parameters.attention.value},
        precision, kernels);
    layer.attention_output = PackedLinear({&parameters.attention.output}, precision, kernels);
    if (config.relative_position) layer.relative_bias = &parameters.attention.relative_bias;
    layer.feed_forward_norm = &parameters.feed_forward_norm;
    layer.feed_forward_hidden = PackedLinear({&parameters.feed_forward.hidden}, precision, kernels);
    layer.feed_forward_output = PackedLinear({&parameters.feed_forward.output}, precision, kernels);
    layers_.push_back(std::move(layer));
  }
  width_ = padded_length(config.d_model);
  const nn::Matrix positions = nn::sinusoidal_positions(
      std::min(config.max_sequence_length, kLongestWindow), config.d_model);
  positions_.assign(positions.data(), positions.data() + positions.size());
  input_cache_ = std::make_unique<InputCache>(config.d_model, kInputCacheForms);
}

InferenceNetwork::~InferenceNetwork() = default;

int InferenceNetwork::max_window() const {
  return std::min(model_.config.max_sequence_length, kLongestWindow);
}

void InferenceNetwork::input_features(std::string_view form, float* out) const {
  const ModelConfig& config = model_.config;
  const EncoderParameters& encoder = model_.parameters.encoder;
  const WordFeatures features = word_features(model_, form);
  if (model_.word_embedding_int8) {
    widen_row(*model_.word_embedding_int8, features.word_id, out);
  } else {
    std::copy_n(encoder.word_embedding.data.data() +
                    static_cast<std::size_t>(features.word_id) * config.word_dim,
                config.word_dim, out);
  }
  char_encoder_.encode(features.char_ids, out + config.word_dim);
  const int shape_offset = config.word_dim + config.char_feature_dim();
  std::copy_n(encoder.shape_embedding.data.data() +
                  static_cast<std::size_t>(features.shape) * config.shape_dim,
              config.shape_dim, out + shape_offset);
  const auto edge_dim = static_cast<std::size_t>(config.edge_char_dim);
  if (edge_dim > 0) {
    const EdgeChars edges = edge_chars(features);
    float* edge_out = out + shape_offset + config.shape_dim;
    std::copy_n(
        encoder.first_char_embedding.data.data() + static_cast<std::size_t>(edges.first) * edge_dim,
        edge_dim, edge_out);
    std::copy_n(
        encoder.last_char_embedding.data.data() + static_cast<std::size_t>(edges.last) * edge_dim,
        edge_dim, edge_out + edge_dim);
  }
}

// a_i = [word ; chars ; shape (; first ; last char)] W_in + b_in (nn/embedding.cpp), positions
// added by the caller.
void InferenceNetwork::input_rows(const std::vector<Window>& windows, Workspace& work) const {
  const int d = model_.config.d_model;
  const int input_dim = model_.config.input_dim();
  work.misses.clear();
  int row = 0;
  for (const Window& window : windows) {
    for (int i = 0; i < window.count; ++i, ++row) {
      const std::string& form = (*window.words)[static_cast<std::size_t>(window.first + i)];
      if (!input_cache_->find(form, work.x.data() + static_cast<std::size_t>(row) * width_)) {
        work.misses.push_back({&form, row});
      }
    }
  }
  if (work.misses.empty()) return;
  const auto misses = static_cast<int>(work.misses.size());
  work.features.resize(static_cast<std::size_t>(misses) * input_dim);
  for (int m = 0; m < misses; ++m) {
    input_features(*work.misses[static_cast<std::size_t>(m)].form,
                   work.features.data() + static_cast<std::size_t>(m) * input_dim);
  }
  const int stride = input_projection_.stride();
  work.projected.resize(std::max(work.projected.size(), static_cast<std::size_t>(misses) * stride));
  input_projection_.apply(work.features.data(), input_dim, misses, work.projected.data());
  for (int m = 0; m < misses; ++m) {
    const float* projected = work.projected.data() + static_cast<std::size_t>(m) * stride;
    const Workspace::Miss& miss = work.misses[static_cast<std::size_t>(m)];
    std::copy_n(projected, d, work.x.data() + static_cast<std::size_t>(miss.row) * width_);
    input_cache_->insert(*miss.form, projected);
  }
}

void InferenceNetwork::forward(const std::vector<Window>& windows, std::vector<float>& logits,
                               bool morphology) const {
  thread_local Workspace work;
  const ModelConfig& config = model_.config;
  const int d = config.d_model;
  int rows = 0;
  for (const Window& window : windows) {
    if (window.count > max_window()) throw Error("InferenceNetwork: window too long");
    if (window.unwanted_before < 0 || window.unwanted_after < 0 || window.wanted() < 0 ||
        (window.attention != nullptr && window.wanted() != window.count)) {
      throw Error("InferenceNetwork: wanted rows out of the window, or attention of some rows");
    }
    rows += window.count;
  }
  const auto size = [rows](int width) { return static_cast<std::size_t>(rows) * width; };
  work.x.resize(size(width_));
  work.normed.resize(size(width_));
  work.heads.resize(size(width_));

  input_rows(windows, work);
  float* x = work.x.data();
  for (const Window& window : windows) {
    for (int i = 0; i < window.count; ++i, x += width_) {
      ArrayMap(x, d) += ConstArrayMap(positions_.data() + static_cast<std::size_t>(i) * d, d);
    }
  }
  int kept = rows;
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    kept = run_layer(layers_[l], static_cast<int>(l), windows, rows, work);
  }
  logits.resize(static_cast<std::size_t>(kept) * num_logits());
  write_logits(kept, work, logits.data(), morphology);
}

void InferenceNetwork::write_logits(int rows, Workspace& work, float* logits,
                                    bool morphology) const {
  const ModelConfig& config = model_.config;
  layer_norm(kernels_, model_.parameters.encoder.final_norm, config.layer_norm_epsilon,
             work.x.data(), rows, config.d_model, width_, work.normed.data());
  const int columns = num_logits();
  const int tagging_columns = config.num_upos + config.num_xpos;
  work.projected.resize(static_cast<std::size_t>(rows) * heads_.stride());
  heads_.apply(work.normed.data(), width_, rows, work.projected.data());
  for (int r = 0; r < rows; ++r) {
    std::copy_n(work.projected.data() + static_cast<std::size_t>(r) * heads_.stride(),
                tagging_columns, logits + static_cast<std::size_t>(r) * columns);
  }
  if (columns == tagging_columns) return;
  if (!morphology) {
    for (int r = 0; r < rows; ++r) {
      std::fill_n(logits + static_cast<std::size_t>(r) * columns + tagging_columns,
                  columns - tagging_columns, 0.0f);
    }
    return;
  }
  const int stride = morphology_heads_.stride();
  work.projected.resize(static_cast<std::size_t>(rows) * stride);
  morphology_heads_.apply(work.normed.data(), width_, rows, work.projected.data());
  for (int r = 0; r < rows; ++r) {
    std::copy_n(work.projected.data() + static_cast<std::size_t>(r) * stride,
                columns - tagging_columns,
                logits + static_cast<std::size_t>(r) * columns + tagging_columns);
  }
}

// Copy j of the sentence differs from it in row j alone until the first layer's attention mixes
// the rows, so the first layer's norm and Q/K/V product are computed for the sentence's n rows
// and the masked row of each copy, and a copy's rows are gathered from those. Each row goes
// through the same kernels as in forward() (every kernel's row result depends on its row only),
// so the logits are forward()'s, bit for bit.
void InferenceNetwork::forward_masked(const std::vector<std::string>& words,
                                      const MaskedCopies& copies,
                                      std::vector<float>& logits) const {
  thread_local Workspace work;
  thread_local Workspace shared;  // the first layer's rows: the sentence's, then the masked ones
  const ModelConfig& config = model_.config;
  const int d = config.d_model;
  const auto n = static_cast<int>(words.size());
  const int masked = copies.last - copies.first;
  if (n == 0 || n > max_window()) throw Error("InferenceNetwork: window too long or empty");
  if (copies.first < 0 || copies.last > n || masked < 0) {
    throw Error("InferenceNetwork: masked words out of range");
  }
  const bool one_word = copies.only_word >= 0;
  if (copies.only_word >= n || (one_word && copies.with_sentence)) {
    throw Error("InferenceNetwork: only_word out of range, or with the sentence");
  }
  const int shared_rows = n + masked;
  const auto shared_size = [shared_rows](int width) {
    return static_cast<std::size_t>(shared_rows) * width;
  };
  shared.x.resize(shared_size(width_));
  shared.normed.resize(shared_size(width_));
  const std::vector<std::string> masked_forms(static_cast<std::size_t>(masked),
                                              std::string(kMaskedWord));
  std::vector<Window> inputs{Window{&words, 0, n, nullptr}};
  if (masked > 0) inputs.push_back(Window{&masked_forms, 0, masked, nullptr});
  input_rows(inputs, shared);
  for (int r = 0; r < shared_rows; ++r) {
    const int position = r < n ? r : copies.first + (r - n);
    ArrayMap(shared.x.data() + static_cast<std::size_t>(r) * width_, d) +=
        ConstArrayMap(positions_.data() + static_cast<std::size_t>(position) * d, d);
  }
  const Layer& first_layer = layers_.front();
  layer_norm(kernels_, *first_layer.attention_norm, config.layer_norm_epsilon, shared.x.data(),
             shared_rows, d, width_, shared.normed.data());
  const int qkv_stride = first_layer.query_key_value.stride();
  shared.projected.resize(shared_size(qkv_stride));
  first_layer.query_key_value.apply(shared.normed.data(), width_, shared_rows,
                                    shared.projected.data());

  // The sentence (when asked), then the copies, about copies.batch_words rows at a time.
  const int total = (copies.with_sentence ? 1 : 0) + masked;
  const int per_batch = std::max(1, copies.batch_words / n);
  const int columns = num_logits();
  const int rows_out = one_word ? 1 : n;  // logit rows per window
  logits.resize(static_cast<std::size_t>(total) * rows_out * columns);
  std::vector<Window> windows;
  for (int first = 0; first < total; first += per_batch) {
    const int count = std::min(per_batch, total - first);
    const int rows = count * n;
    const auto size = [rows](int width) { return static_cast<std::size_t>(rows) * width; };
    work.x.resize(size(width_));
    work.normed.resize(size(width_));
    work.heads.resize(size(width_));
    work.projected.resize(std::max(work.projected.size(), size(qkv_stride)));
    Window window{&words, 0, n, nullptr};
    if (one_word) {
      window.unwanted_before = copies.only_word;
      window.unwanted_after = n - 1 - copies.only_word;
    }
    windows.assign(static_cast<std::size_t>(count), window);
    for (int w = 0; w < count; ++w) {
      // -1: the sentence as it is; else the masked word.
      const int copy = first + w - (copies.with_sentence ? 1 : 0);
      const int masked_word = copy < 0 ? -1 : copies.first + copy;
      for (int i = 0; i < n; ++i) {
        const int from = i == masked_word ? n + copy : i;
        const std::size_t to = static_cast<std::size_t>(w) * n + i;
        std::copy_n(shared.x.data() + static_cast<std::size_t>(from) * width_, width_,
                    work.x.data() + to * width_);
        std::copy_n(shared.projected.data() + static_cast<std::size_t>(from) * qkv_stride,
                    qkv_stride, work.projected.data() + to * qkv_stride);
      }
    }
    int kept = rows;  // rows that go on
    for (std::size_t l = 0; l < layers_.size(); ++l) {
      const Layer& layer = layers_[l];
      if (l > 0) project(layer, rows, work);
      kept = attend_windows(layer, static_cast<int>(l), windows, work);
      after_attention(layer, kept, work);
    }
    write_logits(kept, work, logits.data() + static_cast<std::size_t>(first) * rows_out * columns);
  }
}

void InferenceNetwork::project(const Layer& layer, int rows, Workspace& work) const {
  const ModelConfig& config = model_.config;
  layer_norm(kernels_, *layer.attention_norm, config.layer_norm_epsilon, work.x.data(), rows,
             config.d_model, width_, work.normed.data());
  const std::size_t size = static_cast<std::size_t>(rows) * layer.query_key_value.stride();
  work.projected.resize(std::max(work.projected.size(), size));
  layer.query_key_value.apply(work.normed.data(), width_, rows, work.projected.data());
}

// x += attention(LN_1(x)); x += FFN(LN_2(x)), for all rows of the batch at once (in the last
// layer, past the attention, for the wanted rows alone).
int InferenceNetwork::run_layer(const Layer& layer, int layer_index,
                                const std::vector<Window>& windows, int rows,
                                Workspace& work) const {
  project(layer, rows, work);
  const int kept = attend_windows(layer, layer_index, windows, work);
  after_attention(layer, kept, work);
  return kept;
}

int InferenceNetwork::attend_windows(const Layer& layer, int layer_index,
                                     const std::vector<Window>& windows, Workspace& work) const {
  const bool last = layer_index + 1 == static_cast<int>(layers_.size());
  int first_row = 0;
  int kept = 0;
  for (const Window& window : windows) {
    attend(layer, layer_index, window, first_row, work);
    const int from = first_row + (last ? window.unwanted_before : 0);
    const int wanted = last ? window.wanted() : window.count;
    // kept <= from: std::copy moves the rows up before any is overwritten. The next window's
    // attention writes its own rows, past these.
    if (from != kept) {
      for (TensorData* buffer : {&work.x, &work.heads}) {
        float* data = buffer->data();
        std::copy(data + static_cast<std::size_t>(from) * width_,
                  data + static_cast<std::size_t>(from + wanted) * width_,
                  data + static_cast<std::size_t>(kept) * width_);
      }
    }
    kept += wanted;
    first_row += window.count;
  }
  return kept;
}

void InferenceNetwork::after_attention(const Layer& layer, int rows, Workspace& work) const {
  const ModelConfig& config = model_.config;
  const int d = config.d_model;
  const auto size = [rows](int width) { return static_cast<std::size_t>(rows) * width; };
  const auto grow = [&size](TensorData& buffer, int width) {
    buffer.resize(std::max(buffer.size(), size(width)));
  };
  // The heads' outputs are read before `projected` is reused for W_o.
  grow(work.projected, layer.attention_output.stride());
  layer.attention_output.apply(work.heads.data(), width_, rows, work.projected.data());
  add_rows(work.projected.data(), layer.attention_output.stride(), rows, d, work.x.data(), width_);

  layer_norm(kernels_, *layer.feed_forward_norm, config.layer_norm_epsilon, work.x.data(), rows, d,
             width_, work.normed.data());
  const int hidden_stride = layer.feed_forward_hidden.stride();
  grow(work.hidden, hidden_stride);
  layer.feed_forward_hidden.apply(work.normed.data(), width_, rows, work.hidden.data());
  kernels_.code.gelu(work.hidden.data(), hidden_stride, rows, config.d_ff);
  grow(work.projected, layer.feed_forward_output.stride());
  layer.feed_forward_output.apply(work.hidden.data(), hidden_stride, rows, work.projected.data());
  add_rows(work.projected.data(), layer.feed_forward_output.stride(), rows, d, work.x.data(),
           width_);
}

// Every head of one window: softmax(Q K^T / sqrt(d_k) + relative bias) V into work.heads,
// row first_row + i for the window's row i: all rows, but in the last layer the wanted rows
// alone where that gives them the same floats (computes_rows_alone).
void InferenceNetwork::attend(const Layer& layer, int layer_index, const Window& window,
                              int first_row, Workspace& work) const {
  const ModelConfig& config = model_.config;
  const int d = config.d_model;
  const int head_dim = config.head_dim();
  const int n = window.count;
  const int padded = padded_length(n);  // row stride of keys_t and scores
  const int stride = layer.query_key_value.stride();
  const float* rows = work.projected.data() + static_cast<std::size_t>(first_row) * stride;
  const bool wanted_only =
      layer_index + 1 == static_cast<int>(layers_.size()) && computes_rows_alone(n);
  const int first_query = wanted_only ? window.unwanted_before : 0;
  const int queries = wanted_only ? window.wanted() : n;
  const int bias_width = 2 * config.max_relative_distance + 1;
  work.keys_t.assign(static_cast<std::size_t>(head_dim) * padded, 0.0f);
  work.values.resize(static_cast<std::size_t>(n) * head_dim);
  work.scores.resize(static_cast<std::size_t>(n) * padded);
  for (int head = 0; head < config.num_heads; ++head) {
    copy_keys_and_values(rows + d + head * head_dim, rows + 2 * d + head * head_dim, stride, n,
                         head_dim, padded, work.keys_t.data(), work.values.data());
    HeadCall call;
    call.queries = rows + static_cast<std::size_t>(first_query) * stride + head * head_dim;
    call.query_stride = stride;
    call.rows = queries;
    call.keys_t = work.keys_t.data();
    call.values = work.values.data();
    call.n = n;
    call.padded = padded;
    call.head_dim = head_dim;
    call.scores = work.scores.data();
    call.output = work.heads.data() + static_cast<std::size_t>(first_row + first_query) * width_ +
                  head * head_dim;
    call.output_stride = width_;
    head_scores(kernels_, call);
    const float* bias =
        layer.relative_bias == nullptr
            ? nullptr
            : layer.relative_bias->data.data() + static_cast<std::size_t>(head) * bias_width;
    SoftmaxCall softmax;
    softmax.scores = work.scores.data();
    softmax.n = n;
    softmax.padded = padded;
    softmax.first_row = first_query;
    softmax.rows = queries;
    softmax.scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
    softmax.bias = bias;
    softmax.reach = config.max_relative_distance;
    kernels_.code.attention_weights(softmax);
    weighted_values(kernels_, call);
    if (window.attention != nullptr) {
      const std::size_t map_size = static_cast<std::size_t>(n) * n;
      const std::size_t offset =
          (static_cast<std::size_t>(layer_index) * config.num_heads + head) * map_size;
      window.attention->resize(
          std::max(window.attention->size(), map_size * config.num_heads * config.num_layers));
      for (int i = 0; i < n; ++i) {
        std::copy_n(work.scores.data() + static_cast<std::size_t>(i) * padded, n,
                    window.attention->data() + offset + static_cast<std::size_t>(i) * n);
      }
    }
  }
}

}  // namespace sawtag::infer
