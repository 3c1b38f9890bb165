#include "sawtag/parameters.hpp"

namespace sawtag {

Parameters zero_parameters(const ModelConfig& config) {
  Parameters parameters;
  for_each_parameter(parameters, config, [](const std::string&, Tensor& tensor, const Shape& shape) {
    tensor = Tensor(shape);
  });
  return parameters;
}

std::int64_t parameter_count(const ModelConfig& config) {
  // Walk the shapes without allocating: the config may be untrusted and huge.
  std::int64_t count = 0;
  Parameters sized;
  sized.encoder.char_convolutions.resize(config.char_widths.size());
  sized.encoder.layers.resize(static_cast<std::size_t>(config.num_layers > 0 ? config.num_layers : 0));
  const Parameters& view = sized;
  for_each_parameter(view, config, [&count](const std::string&, const Tensor&, const Shape& shape) {
    count += element_count(shape);
  });
  return count;
}

}  // namespace sawtag
