// A named block of float32 weights. Storage is row-major: for shape [rows, cols], element
// (r, c) is data[r * cols + c]. The math code maps these onto Eigen row-major matrices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sawtag {

using Shape = std::vector<std::int64_t>;

struct Tensor {
  Shape shape;
  std::vector<float> data;  // size() == product of shape

  Tensor() = default;
  explicit Tensor(Shape tensor_shape);  // zero-filled

  std::int64_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::int64_t cols() const { return shape.size() < 2 ? 1 : shape[1]; }
};

// Product of the dimensions (1 for a scalar shape []).
std::int64_t element_count(const Shape& shape);

// "[3, 4]"
std::string to_string(const Shape& shape);

}  // namespace sawtag
