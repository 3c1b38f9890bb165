#include "infer/char_encoder.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <limits>

namespace sawtag::infer {

namespace {
using Row = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using ConstRow = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const Matrix>;
}  // namespace

CharEncoder::CharEncoder(const Model& model)
    : widths_(model.config.char_widths),
      filters_(model.config.char_filters),
      vocabulary_(model.config.char_vocab_size) {
  const ModelConfig& config = model.config;
  const EncoderParameters& encoder = model.parameters.encoder;
  int offsets = 0;
  for (int width : widths_) {
    first_offset_.push_back(offsets);
    offsets += width;
  }
  table_.resize(static_cast<std::size_t>(offsets) * vocabulary_ * filters_);
  const ConstMatrixMap embedding(encoder.char_embedding.data.data(), vocabulary_, config.char_dim);
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    const LinearParameters& convolution = encoder.char_convolutions[c];
    biases_.push_back(convolution.bias.data.data());
    for (int k = 0; k < widths_[c]; ++k) {
      // [vocabulary, char_dim] x [char_dim, filters]: every character at offset k.
      const ConstMatrixMap weight(convolution.weight.data.data() +
                                      static_cast<std::size_t>(k) * config.char_dim * filters_,
                                  config.char_dim, filters_);
      Eigen::Map<Matrix>(table_.data() + static_cast<std::size_t>(first_offset_[c] + k) *
                                             vocabulary_ * filters_,
                         vocabulary_, filters_)
          .noalias() = embedding * weight;
    }
  }
}

const float* CharEncoder::product(int width_index, int offset, int char_id) const {
  return table_.data() +
         (static_cast<std::size_t>(first_offset_[static_cast<std::size_t>(width_index)] + offset) *
              vocabulary_ +
          static_cast<std::size_t>(char_id)) *
             filters_;
}

void CharEncoder::encode(const std::vector<int>& char_ids, float* out) const {
  std::vector<int> ids = char_ids;
  const int widest = widths_.empty() ? 1 : *std::max_element(widths_.begin(), widths_.end());
  if (static_cast<int>(ids.size()) < widest) ids.resize(static_cast<std::size_t>(widest), 0);
  Eigen::Array<float, 1, Eigen::Dynamic> response(filters_);
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    const int width = widths_[c];
    Row pooled(out + c * static_cast<std::size_t>(filters_), filters_);
    pooled.setConstant(-std::numeric_limits<float>::infinity());
    for (int p = 0; p + width <= static_cast<int>(ids.size()); ++p) {
      response = ConstRow(biases_[c], filters_);
      for (int k = 0; k < width; ++k) {
        response += ConstRow(product(static_cast<int>(c), k, ids[static_cast<std::size_t>(p + k)]),
                             filters_);
      }
      pooled = pooled.max(response);
    }
    pooled = pooled.max(0.0f);
  }
}

}  // namespace sawtag::infer
