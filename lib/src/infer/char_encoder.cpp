#include "infer/char_encoder.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sawtag::infer {

namespace {
using Row = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using ConstRow = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const Matrix>;

// a b + c, rounded as Eigen's matrix products round it: once where the build has FMA.
inline float multiply_add(float a, float b, float c) {
#ifdef EIGEN_VECTORIZE_FMA
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

// e: [char_dim], weight: [char_dim][filters] -> out[filters] = e weight, each float summed over
// char_dim in order, one multiply_add a term: the order and rounding of the main kernel of
// Eigen's matrix product. Eigen's product of a whole table sums the filters that fall in its
// kernel for a single SIMD register's rows in two halves instead (even and odd terms), which
// ones depending on the SIMD width and the blocking it picks. Checked on models/zh_gsd.json's
// four character CNNs, every float: the same as the whole table's in an AVX-512 build and in a
// portable one (SSE2, no FMA); in an AVX2 build the last 8 filters of each differ in the last
// bits. models/en_ewt.json's last 16 of 64 differ in an AVX-512 build (kWholeTableBytes).
void product_row(const float* e, const float* weight, int char_dim, int filters, float* out) {
  std::fill_n(out, filters, 0.0f);
  for (int d = 0; d < char_dim; ++d) {
    const float* weight_row = weight + static_cast<std::size_t>(d) * filters;
    for (int f = 0; f < filters; ++f) out[f] = multiply_add(e[d], weight_row[f], out[f]);
  }
}
}  // namespace

CharEncoder::CharEncoder(const Model& model, std::size_t whole_table_bytes)
    : embedding_(model.parameters.encoder.char_embedding.data.data()),
      char_dim_(model.config.char_dim),
      filters_(model.config.char_filters),
      vocabulary_(model.config.char_vocab_size),
      widths_(model.config.char_widths),
      products_(new std::atomic<float*>[static_cast<std::size_t>(model.config.char_vocab_size)]) {
  const EncoderParameters& encoder = model.parameters.encoder;
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    const LinearParameters& convolution = encoder.char_convolutions[c];
    biases_.push_back(convolution.bias.data.data());
    first_offset_.push_back(static_cast<int>(weights_.size()));
    widest_ = std::max(widest_, widths_[c]);
    for (int k = 0; k < widths_[c]; ++k) {
      weights_.push_back(convolution.weight.data.data() +
                         static_cast<std::size_t>(k) * char_dim_ * filters_);
    }
  }
  for (int c = 0; c < vocabulary_; ++c) products_[static_cast<std::size_t>(c)].store(nullptr);
  const std::size_t table_bytes =
      sizeof(float) * static_cast<std::size_t>(vocabulary_) * weights_.size() * filters_;
  if (table_bytes <= whole_table_bytes) compute_all_products();
}

CharEncoder::~CharEncoder() {
  for (int c = 0; c < vocabulary_; ++c) delete[] products_[static_cast<std::size_t>(c)].load();
}

void CharEncoder::compute_all_products() {
  const std::size_t row_floats = weights_.size() * static_cast<std::size_t>(filters_);
  for (int c = 0; c < vocabulary_; ++c) {
    products_[static_cast<std::size_t>(c)].store(new float[row_floats]);
  }
  const ConstMatrixMap embedding(embedding_, vocabulary_, char_dim_);
  Matrix offset_products(vocabulary_, filters_);
  for (std::size_t k = 0; k < weights_.size(); ++k) {
    // [vocabulary, char_dim] x [char_dim, filters]: every character at offset k.
    offset_products.noalias() = embedding * ConstMatrixMap(weights_[k], char_dim_, filters_);
    for (int c = 0; c < vocabulary_; ++c) {
      std::copy_n(offset_products.row(c).data(), filters_,
                  products_[static_cast<std::size_t>(c)].load() + k * filters_);
    }
  }
}

const float* CharEncoder::products(int char_id) const {
  const float* computed =
      products_[static_cast<std::size_t>(char_id)].load(std::memory_order_acquire);
  return computed != nullptr ? computed : compute_products(char_id);
}

const float* CharEncoder::compute_products(int char_id) const {
  std::unique_ptr<float[]> rows(new float[weights_.size() * static_cast<std::size_t>(filters_)]);
  const float* e = embedding_ + static_cast<std::size_t>(char_id) * char_dim_;
  for (std::size_t k = 0; k < weights_.size(); ++k) {
    product_row(e, weights_[k], char_dim_, filters_, rows.get() + k * filters_);
  }
  float* published = nullptr;
  if (products_[static_cast<std::size_t>(char_id)].compare_exchange_strong(
          published, rows.get(), std::memory_order_acq_rel, std::memory_order_acquire)) {
    return rows.release();
  }
  return published;  // another thread's, the same floats; ours is freed
}

int CharEncoder::characters_computed() const {
  int count = 0;
  for (int c = 0; c < vocabulary_; ++c) {
    if (products_[static_cast<std::size_t>(c)].load(std::memory_order_acquire) != nullptr) ++count;
  }
  return count;
}

void CharEncoder::encode(const std::vector<int>& char_ids, float* out) const {
  // Each position's products; a word shorter than the widest width padded with <pad> (id 0).
  std::vector<const float*> positions(std::max(char_ids.size(), static_cast<std::size_t>(widest_)));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    positions[i] = products(i < char_ids.size() ? char_ids[i] : 0);
  }
  Eigen::Array<float, 1, Eigen::Dynamic> response(filters_);
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    const int width = widths_[c];
    Row pooled(out + c * static_cast<std::size_t>(filters_), filters_);
    pooled.setConstant(-std::numeric_limits<float>::infinity());
    for (std::size_t p = 0; p + width <= positions.size(); ++p) {
      response = ConstRow(biases_[c], filters_);
      for (int k = 0; k < width; ++k) {
        const std::size_t row = static_cast<std::size_t>(first_offset_[c] + k);
        response += ConstRow(positions[p + k] + row * filters_, filters_);
      }
      pooled = pooled.max(response);
    }
    pooled = pooled.max(0.0f);
  }
}

}  // namespace sawtag::infer
