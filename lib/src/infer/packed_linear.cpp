#include "infer/packed_linear.hpp"

#include <algorithm>
#include <cstring>

#include "infer/amx.hpp"
#include "sawtag/error.hpp"

namespace sawtag::infer {

namespace {

// A tile is kRows rows x kColumns columns of output, kept in registers while the kernel walks
// the input dimension. Plain loops: the compiler vectorises the column loop, and never
// reorders the sums over k (that would need -ffast-math), so every output element is
// bias + x_0 w_0 + x_1 w_1 + ... in this order.
constexpr int kRows = 4;
constexpr int kColumns = 64;

// y[r][c] = bias[c] + sum_k x[r][k] w[k][c] for kRows rows and the column block at `column`.
void multiply_tile(const float* x, int x_stride, int in, const float* weight, int stride,
                   const float* bias, int column, float* y) {
  float sums[kRows][kColumns];
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kColumns; ++c) sums[r][c] = bias[column + c];
  }
  for (int k = 0; k < in; ++k) {
    const float* w = weight + static_cast<std::size_t>(k) * stride + column;
    for (int r = 0; r < kRows; ++r) {
      const float value = x[static_cast<std::size_t>(r) * x_stride + k];
      for (int c = 0; c < kColumns; ++c) sums[r][c] += value * w[c];
    }
  }
  for (int r = 0; r < kRows; ++r) {
    std::memcpy(y + static_cast<std::size_t>(r) * stride + column, sums[r], sizeof sums[r]);
  }
}

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

PackedLinear::PackedLinear(const std::vector<const LinearParameters*>& parts,
                           Precision precision) {
  if (parts.empty()) throw Error("PackedLinear: no parts");
  in_ = static_cast<int>(parts.front()->weight.rows());
  for (const LinearParameters* part : parts) {
    if (part->weight.rows() != in_) throw Error("PackedLinear: parts differ in input size");
    out_ += static_cast<int>(part->weight.cols());
  }
  stride_ = round_up(std::max(out_, 1), kColumns);
  weight_.assign(static_cast<std::size_t>(in_) * stride_, 0.0f);
  bias_.assign(static_cast<std::size_t>(stride_), 0.0f);
  int offset = 0;
  for (const LinearParameters* part : parts) {
    const int cols = static_cast<int>(part->weight.cols());
    for (int k = 0; k < in_; ++k) {
      std::copy_n(part->weight.data.data() + static_cast<std::size_t>(k) * cols, cols,
                  weight_.data() + static_cast<std::size_t>(k) * stride_ + offset);
    }
    std::copy_n(part->bias.data.data(), cols, bias_.data() + offset);
    offset += cols;
  }
  if (precision == Precision::bfloat16 && amx::available()) {
    bfloat16_ = amx::pack_weights(weight_.data(), in_, stride_);
    weight_ = TensorData();
  }
}

void PackedLinear::apply(const float* x, int x_stride, int rows, float* y) const {
  if (!bfloat16_.empty()) {
    amx::multiply(x, x_stride, rows, in_, bfloat16_, bias_.data(), stride_, y);
    return;
  }
  const int full_rows = rows / kRows * kRows;
  // Column blocks outside, rows inside: a block of weights stays in cache across all rows.
  for (int column = 0; column < stride_; column += kColumns) {
    for (int row = 0; row < full_rows; row += kRows) {
      multiply_tile(x + static_cast<std::size_t>(row) * x_stride, x_stride, in_, weight_.data(),
                    stride_, bias_.data(), column, y + static_cast<std::size_t>(row) * stride_);
    }
  }
  if (full_rows == rows) return;
  // The last rows go through the same tile, padded with zero rows, so that they are computed
  // exactly as they would be in a full tile.
  const int left = rows - full_rows;
  std::vector<float> padded_x(static_cast<std::size_t>(kRows) * in_, 0.0f);
  std::vector<float> padded_y(static_cast<std::size_t>(kRows) * stride_);
  for (int r = 0; r < left; ++r) {
    std::copy_n(x + static_cast<std::size_t>(full_rows + r) * x_stride, in_,
                padded_x.data() + static_cast<std::size_t>(r) * in_);
  }
  for (int column = 0; column < stride_; column += kColumns) {
    multiply_tile(padded_x.data(), in_, in_, weight_.data(), stride_, bias_.data(), column,
                  padded_y.data());
  }
  std::copy_n(padded_y.data(), static_cast<std::size_t>(left) * stride_,
              y + static_cast<std::size_t>(full_rows) * stride_);
}

}  // namespace sawtag::infer
