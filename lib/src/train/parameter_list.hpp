// The tensors of a Parameters as a flat list, in for_each_parameter's order, so that several
// Parameters of the same config (weights, gradients, Adam moments) can be walked side by side.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "sawtag/parameters.hpp"

namespace sawtag::train {

// `T` is Tensor or const Tensor.
template <class T>
struct NamedTensor {
  std::string name;
  T* tensor;
};

// P is Parameters or const Parameters.
template <class P>
auto parameter_list(P& parameters, const ModelConfig& config) {
  using TensorType = std::conditional_t<std::is_const_v<P>, const Tensor, Tensor>;
  std::vector<NamedTensor<TensorType>> list;
  for_each_parameter(parameters, config, [&list](const std::string& name, TensorType& tensor,
                                                 const Shape&) { list.push_back({name, &tensor}); });
  return list;
}

// Sets every element to zero, keeping the shapes.
inline void zero(Parameters& parameters, const ModelConfig& config) {
  for (const auto& entry : parameter_list(parameters, config)) {
    std::fill(entry.tensor->data.begin(), entry.tensor->data.end(), 0.0f);
  }
}

}  // namespace sawtag::train
