#include "sawtag/tensor.hpp"

#include <string>

namespace sawtag {

Tensor::Tensor(Shape tensor_shape)
    : shape(std::move(tensor_shape)), data(static_cast<std::size_t>(element_count(shape))) {}

std::int64_t element_count(const Shape& shape) {
  std::int64_t count = 1;
  for (std::int64_t dim : shape) count *= dim;
  return count;
}

std::string to_string(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace sawtag
