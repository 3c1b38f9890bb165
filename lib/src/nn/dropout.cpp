#include "nn/dropout.hpp"

#include <cstdint>
#include <random>
#include <string>

#include "sawtag/error.hpp"

namespace sawtag::nn {

Matrix dropout_forward(const Matrix& x, const Segments& segments, const ForwardOptions& options,
                       Matrix* mask) {
  if (!options.training()) {
    if (mask != nullptr) mask->resize(0, 0);
    return x;
  }
  if (options.random.size() != static_cast<std::size_t>(segments.count())) {
    throw Error("dropout_forward: " + std::to_string(options.random.size()) +
                " random generators for " + std::to_string(segments.count()) + " sentences");
  }
  if (!(options.dropout_rate < 1.0f)) {
    throw Error("dropout_forward: dropout_rate must be below 1");
  }
  const float keep_scale = 1.0f / (1.0f - options.dropout_rate);
  // An element is dropped when a uniform 32-bit number is below rate * 2^32; each 64-bit draw
  // serves two elements (a std::bernoulli_distribution per element cost 3 % of training).
  const auto threshold = static_cast<std::uint64_t>(
      static_cast<double>(options.dropout_rate) * 4294967296.0);
  const auto dropped = [threshold](std::uint64_t bits) { return (bits & 0xffffffffu) < threshold; };
  Matrix factors(x.rows(), x.cols());
  for (int s = 0; s < segments.count(); ++s) {
    std::mt19937_64* random = options.random[static_cast<std::size_t>(s)];
    if (random == nullptr) throw Error("dropout_forward: no random generator");
    float* first = factors.data() + static_cast<Eigen::Index>(segments.offset(s)) * x.cols();
    const Eigen::Index count = static_cast<Eigen::Index>(segments.length(s)) * x.cols();
    for (Eigen::Index i = 0; i < count; i += 2) {
      const std::uint64_t bits = (*random)();
      first[i] = dropped(bits) ? 0.0f : keep_scale;
      if (i + 1 < count) first[i + 1] = dropped(bits >> 32) ? 0.0f : keep_scale;
    }
  }
  Matrix y = x.cwiseProduct(factors);
  if (mask != nullptr) *mask = std::move(factors);
  return y;
}

Matrix dropout_backward(const Matrix& d_y, const Matrix& mask) {
  if (mask.size() == 0) return d_y;
  return d_y.cwiseProduct(mask);
}

}  // namespace sawtag::nn
