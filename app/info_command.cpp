// sawtag info -m models/en_ewt.json
//   model: models/en_ewt.json
//   architecture: 3 layers, d_model 256, 8 heads of 32, d_ff 512, relative positions (clip 16)
//   parameters: 2345678 (9.4 MB as float32)
//   ...
#include "info_command.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "model_locator.hpp"
#include "output_file.hpp"
#include "sawtag/cpu_kernels.hpp"
#include "sawtag/lemma_dictionary.hpp"
#include "sawtag/model.hpp"

namespace sawtag::cli {
namespace {

struct InfoCommandOptions {
  std::string model;
  bool tensors = false;
};

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string joined;
  for (const std::string& item : items) {
    if (!joined.empty()) joined += separator;
    joined += item;
  }
  return joined;
}

// "encoder.layers.2.attention.query.weight" -> "encoder.layers"
std::string parameter_group(const std::string& name) {
  const std::size_t first = name.find('.');
  if (first == std::string::npos) return name;
  return name.substr(0, name.find('.', first + 1));
}

void write_architecture(std::ostream& out, const ModelConfig& config) {
  out << "architecture: " << config.num_layers << " layers, d_model " << config.d_model << ", "
      << config.num_heads << " heads of " << config.head_dim() << ", d_ff " << config.d_ff;
  if (config.relative_position) {
    out << ", relative positions (clip " << config.max_relative_distance << ")";
  } else {
    out << ", no relative positions";
  }
  out << "\n";
  std::vector<std::string> widths;
  for (int width : config.char_widths) widths.push_back(std::to_string(width));
  out << "  word_dim " << config.word_dim << ", char_dim " << config.char_dim << ", char_widths "
      << join(widths, ",") << " x " << config.char_filters << " filters, max_word_chars "
      << config.max_word_chars << ", shape_dim " << config.shape_dim;
  if (config.edge_char_dim > 0) out << ", edge_char_dim " << config.edge_char_dim;
  out << "\n";
  out << "  max_sequence_length " << config.max_sequence_length << ", layer_norm_epsilon "
      << config.layer_norm_epsilon << "\n";
}

void write_parameters(std::ostream& out, const Model& model, bool each_tensor) {
  const std::int64_t total = parameter_count(model.config);
  char megabytes[32];
  std::snprintf(megabytes, sizeof megabytes, "%.1f", static_cast<double>(total) * 4.0 / 1e6);
  out << "parameters: " << total << " (" << megabytes << " MB as float32)\n";
  std::vector<std::pair<std::string, std::int64_t>> groups;  // in visiting order
  for_each_parameter(model.parameters, model.config,
                     [&](const std::string& name, const Tensor& tensor, const Shape& shape) {
                       const std::int64_t count = element_count(shape);
                       if (each_tensor) {
                         // The loader checked every shape; a kept int8 table has no Tensor.
                         const bool int8 = model.word_embedding_int8 &&
                                           &tensor == &model.parameters.encoder.word_embedding;
                         out << "  " << name << " " << to_string(shape) << " " << count
                             << (int8 ? " int8" : "") << "\n";
                         return;
                       }
                       const std::string group = parameter_group(name);
                       if (groups.empty() || groups.back().first != group) {
                         groups.emplace_back(group, 0);
                       }
                       groups.back().second += count;
                     });
  for (const auto& [group, count] : groups) out << "  " << group << " " << count << "\n";
}

// A model's licence follows from its training data's; the training record says which
// ("license"), else a model trained before the field existed says nothing of it.
void write_licence(std::ostream& out, const Model& model) {
  const auto licence = model.training.fields.find("license");
  out << "licence: "
      << (licence == model.training.fields.end() ? "not stated in the model file" : licence->second)
      << "\n";
}

// The further taggers of an ensemble (Model::ensemble), one line each.
void write_ensemble(std::ostream& out, const Model& model) {
  if (model.ensemble.empty()) return;
  out << "ensemble: " << model.ensemble.size() + 1
      << " taggers, tagging with the mean of their logits (the sizes above are the first's)\n";
  for (std::size_t m = 0; m < model.ensemble.size(); ++m) {
    const Model& member = *model.ensemble[m];
    const ModelConfig& config = member.config;
    out << "  tagger " << m + 2 << ": " << config.num_layers << " layers, d_model "
        << config.d_model << ", " << config.num_heads << " heads, d_ff " << config.d_ff << ", "
        << parameter_count(config) << " parameters, " << member.words.size() << " words\n";
  }
}

void run_info_command(const InfoCommandOptions& options) {
  const std::string path = locate_model(options.model);
  const Model model = load_model(path, Int8WordTable::keep);  // only shapes are shown
  OutputFile output("-");
  std::ostream& out = output.stream();
  out << "model: " << path << "\n";
  write_licence(out, model);
  out << "kernels: " << cpu_kernels() << " (this CPU: " << join(supported_cpu_kernels(), " ")
      << ")\n";
  out << "kernels chosen: " << cpu_kernels_choice() << "\n";
  write_architecture(out, model.config);
  write_parameters(out, model, options.tensors);
  write_ensemble(out, model);
  out << "vocabulary: " << model.words.size() << " words, " << model.chars.size()
      << " characters\n";
  out << "upos (" << model.upos.size() << "): " << join(model.upos.items(), " ") << "\n";
  out << "xpos (" << model.xpos.size() << "): " << join(model.xpos.items(), " ") << "\n";
  out << "heads: upos, xpos" << (model.has_lemmas() ? ", lemma" : "")
      << (model.has_feats() ? ", feats" : "") << "\n";
  if (model.has_feats()) {
    out << "feats: " << model.feats.size() << " feature strings (the most frequent: "
        << model.feats.at(0) << ")\n";
  }
  if (model.has_lemmas()) {
    out << "lemma: " << model.lemma_rules.size() << " lemma rules, "
        << model.lemma_lexicon.size() << " lexicon entries, "
        << (model.lemma_casing.empty()
                ? 0
                : std::count(model.lemma_casing.begin(), model.lemma_casing.end(), ' ') + 1)
        << " usual spellings";
    for (const LemmaDeletion& deletion : model.lemma_deletions) {
      out << "; " << deletion.upos << " drops '" << deletion.character << "'";
    }
    out << "\n";
    if (!model.lemma_dictionary.empty()) {
      out << "lemma dictionary: " << describe(model.lemma_dictionary) << "\n";
      if (!model.lemma_dictionary.notice.empty()) {
        out << "lemma dictionary notice: " << model.lemma_dictionary.notice << "\n";
      }
    }
  }
  out << "tokenizer: " << model.tokenizer.multiword_tokens.size() << " multi-word tokens, "
      << model.tokenizer.abbreviations.size() << " abbreviations\n";
  if (const auto& characters = model.tokenizer.character_model) {
    out << "splits raw text with: a learned tokenizer (a character model of "
        << characters->config.num_layers << " layers, d_model " << characters->config.d_model
        << ", " << characters->words.size() << " character pairs)\n";
  } else {
    out << "splits raw text with: the UD English rules\n";
  }
  out << "probabilities: softmax(logits / T) with T = " << model.calibration.upos_temperature
      << " (UPOS), " << model.calibration.xpos_temperature << " (XPOS)"
      << (model.calibration.upos_temperature == 1.0f && model.calibration.xpos_temperature == 1.0f
              ? ", not calibrated"
              : ", calibrated");
  if (model.has_lemmas()) out << "; " << model.calibration.lemma_temperature << " (lemma)";
  if (model.has_feats()) out << "; " << model.calibration.feats_temperature << " (feats)";
  out << "\n";
  out << "self-tests: " << model.self_tests.size() << " sentences\n";
  out << "training:" << (model.training.fields.empty() ? " (no record)" : "") << "\n";
  for (const auto& [key, value] : model.training.fields)
    out << "  " << key << ": " << value << "\n";
  output.close();
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto options = std::make_shared<InfoCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "info", "Show a model's architecture, sizes, tag sets and training record");
  command->add_option("-m,--model", options->model,
                      "Model file (default: $SAWTAG_MODEL, else the installed en_ewt.json)");
  command->add_flag("--tensors", options->tensors, "List every tensor with its shape");
  command->callback([options] { run_info_command(*options); });
}

}  // namespace sawtag::cli
