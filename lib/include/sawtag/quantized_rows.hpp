// A table kept as one signed byte a value and one float32 scale a row: how a model file stores
// a tensor of dtype "int8" (docs/model-format.md). A quarter of float32's memory; the tagger
// keeps the word embedding this way and widens a row only when it needs it.
#pragma once

#include <cstdint>
#include <vector>

#include "sawtag/tensor.hpp"

namespace sawtag {

// Allocated as tensors are (tensor.hpp): a big table is backed by huge pages, so loading
// the shipped model's 13 MB of word rows takes a few page faults instead of thousands.
using QuantizedValues = std::vector<std::int8_t, AlignedAllocator<std::int8_t, kTensorAlignment>>;

// Value (r, c) is scales[r] * values[r * cols + c]; storage is row-major.
struct QuantizedRows {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  QuantizedValues values;     // [rows * cols]
  std::vector<float> scales;  // [rows]
};

// Row `row` as float32: out[c] = scales[row] * values[row * cols + c] for c in [0, cols).
// These are the floats widen_rows() and a model loaded with Int8WordTable::widen hold, to the
// bit: the tagger gives the same output whichever it reads.
void widen_row(const QuantizedRows& table, std::int64_t row, float* out);

// Every row, into out[0, rows * cols).
void widen_rows(const QuantizedRows& table, float* out);

// `tensor` as int8 rows (rows = its first dimension): each row's scale makes its largest
// magnitude 127, and each value is rounded to the nearest step, so it is off by at most half its
// row's scale. A row of zeros gets scale 0.
QuantizedRows quantize_rows(const Tensor& tensor);

}  // namespace sawtag
