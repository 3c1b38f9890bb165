#include "train/checkpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sawtag/error.hpp"
#include "train/parameter_list.hpp"

namespace sawtag::train {
namespace {
constexpr const char* kMagic = "sawtag-checkpoint 2";
}  // namespace

void write_blob(std::ostream& out, const std::string& key, const std::string& bytes) {
  out << key << ' ' << bytes.size() << '\n';
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out << '\n';
}

std::string read_blob(std::istream& in, const std::string& expected_key, const std::string& path) {
  std::string actual_key;
  std::size_t size = 0;
  if (!(in >> actual_key >> size) || actual_key != expected_key || in.get() != '\n') {
    throw InputError(path + ": damaged checkpoint: expected the '" + expected_key + "' section");
  }
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size)) || in.get() != '\n') {
    throw InputError(path + ": checkpoint is truncated in the '" + expected_key + "' section");
  }
  return bytes;
}

std::string parameter_bytes(const Parameters& parameters, const ModelConfig& config) {
  std::string bytes;
  for (const auto& entry : parameter_list(parameters, config)) {
    bytes.append(reinterpret_cast<const char*>(entry.tensor->data.data()),
                 entry.tensor->data.size() * sizeof(float));
  }
  return bytes;
}

Parameters parameters_from_bytes(const std::string& bytes, const ModelConfig& config,
                                 const std::string& path) {
  Parameters parameters = zero_parameters(config);
  std::size_t offset = 0;
  for (const auto& entry : parameter_list(parameters, config)) {
    const std::size_t size = entry.tensor->data.size() * sizeof(float);
    if (offset + size > bytes.size()) {
      throw InputError(path + ": checkpoint tensors end early at " + entry.name);
    }
    std::copy_n(bytes.data() + offset, size, reinterpret_cast<char*>(entry.tensor->data.data()));
    offset += size;
  }
  if (offset != bytes.size()) throw InputError(path + ": checkpoint tensors have extra bytes");
  return parameters;
}

void save_checkpoint(const Checkpoint& checkpoint, const std::string& path) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(temporary + ": cannot write the checkpoint");
    out << kMagic << '\n'
        << "steps " << checkpoint.steps << '\n'
        << "epochs_done " << checkpoint.epochs_done << '\n'
        << "best_epoch " << checkpoint.best_epoch << '\n';
    out.precision(17);
    out << "best_score " << checkpoint.best_score << '\n'
        << "epochs_without_improvement " << checkpoint.epochs_without_improvement << '\n';
    write_blob(out, "current", serialize_model(checkpoint.current));
    write_blob(out, "best", serialize_model(checkpoint.best));
    const ModelConfig& config = checkpoint.current.config;
    write_blob(out, "first_moments",
               parameter_bytes(checkpoint.first_moments, config));
    write_blob(out, "second_moments",
               parameter_bytes(checkpoint.second_moments, config));
    write_blob(out, "averaged",
               checkpoint.averaged ? parameter_bytes(*checkpoint.averaged, config) : std::string());
    out.flush();
    if (!out) throw OutputError(temporary + ": writing the checkpoint failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw OutputError(path + ": cannot rename the checkpoint into place");
  }
}

Checkpoint load_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the checkpoint");
  std::string magic;
  std::getline(in, magic);
  if (magic != kMagic) throw InputError(path + ": not a sawtag checkpoint (expected '" +
                                        std::string(kMagic) + "')");
  Checkpoint checkpoint;
  std::string key;
  const auto read_counter = [&](const char* expected_key, auto& value) {
    if (!(in >> key >> value) || key != expected_key) {
      throw InputError(path + ": damaged checkpoint: expected '" + expected_key + "'");
    }
  };
  read_counter("steps", checkpoint.steps);
  read_counter("epochs_done", checkpoint.epochs_done);
  read_counter("best_epoch", checkpoint.best_epoch);
  read_counter("best_score", checkpoint.best_score);
  read_counter("epochs_without_improvement", checkpoint.epochs_without_improvement);
  in.get();  // the newline after the last counter
  checkpoint.current = parse_model(read_blob(in, "current", path), path + " (current model)");
  checkpoint.best = parse_model(read_blob(in, "best", path), path + " (best model)");
  const ModelConfig& config = checkpoint.current.config;
  checkpoint.first_moments = parameters_from_bytes(read_blob(in, "first_moments", path), config, path);
  checkpoint.second_moments =
      parameters_from_bytes(read_blob(in, "second_moments", path), config, path);
  const std::string averaged = read_blob(in, "averaged", path);
  if (!averaged.empty()) checkpoint.averaged = parameters_from_bytes(averaged, config, path);
  return checkpoint;
}

}  // namespace sawtag::train
