#include "nn/char_cnn.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "sawtag/error.hpp"
#include "sawtag/model.hpp"

namespace sawtag::nn {

namespace {

int widest_convolution(const ModelConfig& config) {
  return config.char_widths.empty()
             ? 1
             : *std::max_element(config.char_widths.begin(), config.char_widths.end());
}

// Rows [k * char_dim, (k + 1) * char_dim) of a width's weight: W[k], [char_dim, filters].
ConstMatrixMap offset_weight(const LinearParameters& convolution, int k, int char_dim,
                             int filters) {
  return ConstMatrixMap(convolution.weight.data.data() +
                            static_cast<std::size_t>(k) * char_dim * filters,
                        char_dim, filters);
}

MatrixMap offset_weight(LinearParameters& convolution, int k, int char_dim, int filters) {
  return MatrixMap(convolution.weight.data.data() +
                       static_cast<std::size_t>(k) * char_dim * filters,
                   char_dim, filters);
}

}  // namespace

Matrix char_cnn_forward(const EncoderParameters& parameters, const ModelConfig& config,
                        const std::vector<WordFeatures>& words, CharCnnCache* cache) {
  const ConstMatrixMap embedding = as_matrix(parameters.char_embedding);
  const int filters = config.char_filters;
  const auto n = static_cast<Eigen::Index>(words.size());
  CharCnnCache local;
  CharCnnCache& state = cache != nullptr ? *cache : local;
  state.char_ids.clear();
  state.word_start.assign(1, 0);
  const std::size_t widest = static_cast<std::size_t>(widest_convolution(config));
  for (const WordFeatures& word : words) {
    for (int id : word.char_ids) {
      if (id < 0 || id >= embedding.rows()) {
        throw Error("embedding: char id " + std::to_string(id) + " is outside [0, " +
                    std::to_string(embedding.rows()) + ")");
      }
      state.char_ids.push_back(id);
    }
    for (std::size_t i = word.char_ids.size(); i < widest; ++i) state.char_ids.push_back(kPaddingChar);
    state.word_start.push_back(static_cast<int>(state.char_ids.size()));
  }

  Matrix output(n, config.char_feature_dim());
  state.best_position.assign(config.char_widths.size(), {});
  for (std::size_t c = 0; c < config.char_widths.size(); ++c) {
    const int width = config.char_widths[c];
    const LinearParameters& convolution = parameters.char_convolutions[c];
    std::vector<Matrix> tables;  // T_k = E W[k]: [char_vocab, filters]
    for (int k = 0; k < width; ++k) {
      tables.emplace_back(embedding * offset_weight(convolution, k, config.char_dim, filters));
    }
    const float* bias = convolution.bias.data.data();
    std::vector<int>& best = state.best_position[c];
    best.assign(static_cast<std::size_t>(n) * filters, -1);
    std::vector<float> response(static_cast<std::size_t>(filters));
    for (Eigen::Index i = 0; i < n; ++i) {
      const int* ids = state.char_ids.data() + state.word_start[static_cast<std::size_t>(i)];
      const int positions =
          state.word_start[static_cast<std::size_t>(i) + 1] -
          state.word_start[static_cast<std::size_t>(i)] - width + 1;
      float* pooled = output.row(i).data() + c * static_cast<std::size_t>(filters);
      int* best_of_word = best.data() + static_cast<std::size_t>(i) * filters;
      std::fill(pooled, pooled + filters, -std::numeric_limits<float>::infinity());
      for (int p = 0; p < positions; ++p) {
        std::copy_n(bias, filters, response.data());
        for (int k = 0; k < width; ++k) {
          const float* row = tables[static_cast<std::size_t>(k)].row(ids[p + k]).data();
          for (int f = 0; f < filters; ++f) response[static_cast<std::size_t>(f)] += row[f];
        }
        for (int f = 0; f < filters; ++f) {
          if (response[static_cast<std::size_t>(f)] > pooled[f]) {
            pooled[f] = response[static_cast<std::size_t>(f)];
            best_of_word[f] = p;
          }
        }
      }
      // ReLU; a filter whose maximum is not above 0 passes no gradient.
      for (int f = 0; f < filters; ++f) {
        if (!(pooled[f] > 0.0f)) {
          pooled[f] = 0.0f;
          best_of_word[f] = -1;
        }
      }
    }
  }
  return output;
}

void char_cnn_backward(const EncoderParameters& parameters, const ModelConfig& config,
                       const CharCnnCache& cache, const Matrix& d_output,
                       EncoderParameters& gradients) {
  const ConstMatrixMap embedding = as_matrix(parameters.char_embedding);
  MatrixMap d_embedding = as_matrix(gradients.char_embedding);
  const int filters = config.char_filters;
  const Eigen::Index n = d_output.rows();
  for (std::size_t c = 0; c < config.char_widths.size(); ++c) {
    const int width = config.char_widths[c];
    const std::vector<int>& best = cache.best_position[c];
    float* d_bias = gradients.char_convolutions[c].bias.data.data();
    std::vector<Matrix> d_tables(static_cast<std::size_t>(width),
                                 Matrix::Zero(embedding.rows(), filters));
    for (Eigen::Index i = 0; i < n; ++i) {
      const int* ids = cache.char_ids.data() + cache.word_start[static_cast<std::size_t>(i)];
      const float* d_pooled = d_output.row(i).data() + c * static_cast<std::size_t>(filters);
      const int* best_of_word = best.data() + static_cast<std::size_t>(i) * filters;
      for (int f = 0; f < filters; ++f) {
        const int p = best_of_word[f];
        if (p < 0) continue;
        d_bias[f] += d_pooled[f];
        for (int k = 0; k < width; ++k) d_tables[static_cast<std::size_t>(k)](ids[p + k], f) += d_pooled[f];
      }
    }
    for (int k = 0; k < width; ++k) {
      const Matrix& d_table = d_tables[static_cast<std::size_t>(k)];
      // T_k = E W[k]: d_E += d_T_k W[k]^T, d_W[k] += E^T d_T_k.
      d_embedding.noalias() +=
          d_table * offset_weight(parameters.char_convolutions[c], k, config.char_dim, filters)
                        .transpose();
      offset_weight(gradients.char_convolutions[c], k, config.char_dim, filters).noalias() +=
          embedding.transpose() * d_table;
    }
  }
}

}  // namespace sawtag::nn
