#include "model_info.hpp"

#include <cstdint>
#include <utility>
#include <vector>

#include "sawtag/cpu_kernels.hpp"
#include "sawtag/parameters.hpp"

namespace py = pybind11;

namespace sawtag::python {
namespace {

py::list list_of(const std::vector<std::string>& items) {
  py::list list;
  for (const std::string& item : items) list.append(item);
  return list;
}

py::dict architecture_of(const ModelConfig& config) {
  py::dict architecture;
  architecture["num_layers"] = config.num_layers;
  architecture["d_model"] = config.d_model;
  architecture["num_heads"] = config.num_heads;
  architecture["head_dim"] = config.head_dim();
  architecture["d_ff"] = config.d_ff;
  architecture["relative_position"] = config.relative_position;
  architecture["max_relative_distance"] = config.max_relative_distance;
  architecture["word_dim"] = config.word_dim;
  architecture["char_dim"] = config.char_dim;
  architecture["char_widths"] = py::cast(config.char_widths);
  architecture["char_filters"] = config.char_filters;
  architecture["max_word_chars"] = config.max_word_chars;
  architecture["shape_dim"] = config.shape_dim;
  architecture["edge_char_dim"] = config.edge_char_dim;
  architecture["max_sequence_length"] = config.max_sequence_length;
  architecture["layer_norm_epsilon"] = config.layer_norm_epsilon;
  return architecture;
}

// "encoder.layers.2.attention.query.weight" -> "encoder.layers", in visiting order.
py::dict parameter_groups(const Model& model) {
  std::vector<std::pair<std::string, std::int64_t>> groups;
  for_each_parameter(model.parameters, model.config,
                     [&](const std::string& name, const Tensor&, const Shape& shape) {
                       const std::size_t first = name.find('.');
                       const std::string group = first == std::string::npos
                                                     ? name
                                                     : name.substr(0, name.find('.', first + 1));
                       if (groups.empty() || groups.back().first != group)
                         groups.emplace_back(group, 0);
                       groups.back().second += element_count(shape);
                     });
  py::dict dict;
  for (const auto& [group, count] : groups) dict[py::str(group)] = count;
  return dict;
}

// The further taggers of an ensemble (Model::ensemble); empty for one tagger.
py::list ensemble_of(const Model& model) {
  py::list taggers;
  for (const std::shared_ptr<const Model>& member : model.ensemble) {
    py::dict tagger;
    tagger["num_layers"] = member->config.num_layers;
    tagger["d_model"] = member->config.d_model;
    tagger["num_heads"] = member->config.num_heads;
    tagger["d_ff"] = member->config.d_ff;
    tagger["parameters"] = parameter_count(member->config);
    tagger["words"] = member->words.size();
    taggers.append(tagger);
  }
  return taggers;
}

}  // namespace

py::dict model_info(const Model& model, const std::string& path) {
  py::dict info;
  info["model"] = path;
  const auto licence = model.training.fields.find("license");
  info["licence"] = licence == model.training.fields.end() ? py::object(py::none())
                                                           : py::object(py::str(licence->second));
  info["kernels"] = cpu_kernels();
  info["cpu_kernels"] = list_of(supported_cpu_kernels());
  info["architecture"] = architecture_of(model.config);
  info["parameters"] = parameter_count(model.config);
  info["parameter_groups"] = parameter_groups(model);
  info["ensemble"] = ensemble_of(model);
  py::dict vocabulary;
  vocabulary["words"] = model.words.size();
  vocabulary["characters"] = model.chars.size();
  info["vocabulary"] = vocabulary;
  info["upos"] = list_of(model.upos.items());
  info["xpos"] = list_of(model.xpos.items());
  py::dict tokenizer;
  tokenizer["multiword_tokens"] = model.tokenizer.multiword_tokens.size();
  tokenizer["abbreviations"] = model.tokenizer.abbreviations.size();
  tokenizer["learned"] = model.tokenizer.character_model != nullptr;
  info["tokenizer"] = tokenizer;
  py::dict calibration;
  calibration["upos_temperature"] = model.calibration.upos_temperature;
  calibration["xpos_temperature"] = model.calibration.xpos_temperature;
  info["calibration"] = calibration;
  info["self_tests"] = model.self_tests.size();
  py::dict training;
  for (const auto& [key, value] : model.training.fields) training[py::str(key)] = value;
  info["training"] = training;
  return info;
}

}  // namespace sawtag::python
