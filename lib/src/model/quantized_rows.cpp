#include "sawtag/quantized_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace sawtag {

void widen_row(const QuantizedRows& table, std::int64_t row, float* out) {
  const auto cols = static_cast<std::size_t>(table.cols);
  const float scale = table.scales[static_cast<std::size_t>(row)];
  const std::int8_t* values = table.values.data() + static_cast<std::size_t>(row) * cols;
  for (std::size_t c = 0; c < cols; ++c) out[c] = scale * static_cast<float>(values[c]);
}

void widen_rows(const QuantizedRows& table, float* out) {
  for (std::int64_t r = 0; r < table.rows; ++r) {
    widen_row(table, r, out + static_cast<std::size_t>(r) * static_cast<std::size_t>(table.cols));
  }
}

QuantizedRows quantize_rows(const Tensor& tensor) {
  QuantizedRows table;
  table.rows = tensor.shape.empty() ? 1 : tensor.shape[0];
  table.cols = table.rows == 0 ? 0 : static_cast<std::int64_t>(tensor.data.size()) / table.rows;
  const auto rows = static_cast<std::size_t>(table.rows);
  const auto cols = static_cast<std::size_t>(table.cols);
  table.scales.resize(rows);
  table.values.resize(tensor.data.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = tensor.data.data() + r * cols;
    float largest = 0.0f;
    for (std::size_t c = 0; c < cols; ++c) largest = std::max(largest, std::fabs(row[c]));
    const float scale = static_cast<float>(largest / 127.0);
    table.scales[r] = scale;
    for (std::size_t c = 0; c < cols && largest > 0.0f; ++c) {
      const long rounded = std::lround(static_cast<double>(row[c]) / scale);
      table.values[r * cols + c] = static_cast<std::int8_t>(std::clamp(rounded, -127L, 127L));
    }
  }
  return table;
}

}  // namespace sawtag
