#include "infer/packed_linear.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

#include "sawtag/error.hpp"

namespace sawtag::infer {

namespace {

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

PackedLinear::PackedLinear(const std::vector<const LinearParameters*>& parts, Precision precision,
                           const Kernels& kernels)
    : kernels_(&kernels) {
  if (parts.empty()) throw Error("PackedLinear: no parts");
  in_ = static_cast<int>(parts.front()->weight.rows());
  for (const LinearParameters* part : parts) {
    if (part->weight.rows() != in_) throw Error("PackedLinear: parts differ in input size");
    out_ += static_cast<int>(part->weight.cols());
  }
  stride_ = round_up(std::max(out_, 1), kTileColumns);
  const bool packs = precision == Precision::reduced && (kernels.code.linear_int8 != nullptr ||
                                                         kernels.code.linear_bfloat16 != nullptr);
  // W, [in, stride]: kept in weight_ for the float32 kernel; for a reduced-precision kernel, a
  // buffer packed and dropped at once, never zero-filled first (each row is written whole:
  // the parts side by side, then zeros).
  const std::size_t count = static_cast<std::size_t>(in_) * stride_;
  std::unique_ptr<float[]> unpacked;
  float* weight = nullptr;
  if (packs) {
    unpacked.reset(new float[count]);
    weight = unpacked.get();
  } else {
    weight_.resize(count);
    weight = weight_.data();
  }
  for (int k = 0; k < in_; ++k) {
    float* row = weight + static_cast<std::size_t>(k) * stride_;
    for (const LinearParameters* part : parts) {
      const auto cols = static_cast<std::size_t>(part->weight.cols());
      row = std::copy_n(part->weight.data.data() + static_cast<std::size_t>(k) * cols, cols, row);
    }
    std::fill(row, weight + static_cast<std::size_t>(k + 1) * stride_, 0.0f);
  }
  bias_.assign(static_cast<std::size_t>(stride_), 0.0f);
  int offset = 0;
  for (const LinearParameters* part : parts) {
    const int cols = static_cast<int>(part->weight.cols());
    std::copy_n(part->bias.data.data(), cols, bias_.data() + offset);
    offset += cols;
  }
  if (!packs) return;
  if (kernels.code.linear_int8 != nullptr) {
    int8_ = pack_int8(weight, in_, stride_);
  } else {
    bfloat16_ = pack_bfloat16(kernels, weight, in_, stride_);
  }
}

void PackedLinear::apply(const float* x, int x_stride, int rows, float* y) const {
  LinearCall call;
  call.x = x;
  call.x_stride = x_stride;
  call.in = in_;
  call.bias = bias_.data();
  call.stride = stride_;
  call.y = y;
  if (!int8_.quads.empty()) {
    thread_local std::vector<std::uint8_t> scratch;
    scratch.resize(std::max(scratch.size(), int8_scratch_size(rows, in_)));
    call.rows = rows;
    kernels_->code.linear_int8(call, int8_.view(), scratch.data());
    return;
  }
  if (!bfloat16_.empty()) {
    thread_local std::vector<std::uint16_t> scratch;
    scratch.resize(std::max(scratch.size(), bfloat16_scratch_size(rows, in_)));
    call.rows = rows;
    kernels_->code.linear_bfloat16(call, bfloat16_.data(), scratch.data());
    return;
  }
  call.rows = rows / kTileRows * kTileRows;
  if (call.rows > 0) kernels_->code.linear_float32(call, weight_.data());
  if (call.rows == rows) return;
  // The last rows go through the same tile, padded with zero rows, so that they are computed
  // exactly as they would be in a full tile.
  const int full_rows = call.rows;
  const int left = rows - full_rows;
  std::vector<float> padded_x(static_cast<std::size_t>(kTileRows) * in_, 0.0f);
  std::vector<float> padded_y(static_cast<std::size_t>(kTileRows) * stride_);
  for (int r = 0; r < left; ++r) {
    std::copy_n(x + static_cast<std::size_t>(full_rows + r) * x_stride, in_,
                padded_x.data() + static_cast<std::size_t>(r) * in_);
  }
  call.x = padded_x.data();
  call.x_stride = in_;
  call.rows = kTileRows;
  call.y = padded_y.data();
  kernels_->code.linear_float32(call, weight_.data());
  std::copy_n(padded_y.data(), static_cast<std::size_t>(left) * stride_,
              y + static_cast<std::size_t>(full_rows) * stride_);
}

}  // namespace sawtag::infer
