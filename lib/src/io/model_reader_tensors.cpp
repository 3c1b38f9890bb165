// The tensors of a model document: each one present, known, of the right shape, dtype and
// count, and finite, read into the Model's parameters (the word embedding on a second thread);
// for a big file, or one with arrays of numbers, every tensor checked before any is made. The
// base64 payloads themselves are decoded in model_reader_payloads.cpp.
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/base64.hpp"
#include "io/float16.hpp"
#include "io/model_file_format.hpp"
#include "io/model_reader.hpp"
#include "sawtag/error.hpp"
#include "sawtag/parameters.hpp"

namespace sawtag::model_file {

void ModelReader::read_tensors(const Json& section, Model& model) const {
  require_type(section, Json::value_t::object, "tensors");
  std::set<std::string, std::less<>> expected_names;
  for_each_parameter(
      model.parameters, model.config,
      [&](const std::string& name, Tensor&, const Shape&) { expected_names.insert(name); });
  for (const auto& item : section.items()) {
    if (expected_names.count(item.key()) == 0) {
      fail("unknown tensor " + quote(name_of(item.key())) +
           " (not part of a model with this config)");
    }
  }
  if (release_ || has_cut_numbers_) check_tensors(section, model);
  // The word embedding, most of a model's bytes, is decoded on a second thread while the
  // others are decoded on this one. Errors are reported in file order all the same: the word
  // embedding's first. Stored as int8, it is kept so when the caller asked.
  std::future<void> word_embedding;
  std::exception_ptr later_error;
  try {
    for_each_parameter(
        model.parameters, model.config,
        [&](const std::string& name, Tensor& tensor, const Shape& expected_shape) {
          const auto found = section.find(name);
          if (found == section.end()) {
            fail("missing tensor '" + name + "' of shape " + to_string(expected_shape));
          }
          if (&tensor == &model.parameters.encoder.word_embedding) {
            std::optional<QuantizedRows>* kept =
                word_table_ == Int8WordTable::keep ? &model.word_embedding_int8 : nullptr;
            word_embedding =
                std::async(std::launch::async, [this, found, name, expected_shape, &tensor, kept] {
                  read_tensor(*found, name, expected_shape, tensor, kept);
                });
          } else {
            read_tensor(*found, name, expected_shape, tensor);
          }
        });
  } catch (const ModelError&) {
    later_error = std::current_exception();
  }
  if (word_embedding.valid()) word_embedding.get();
  if (later_error) std::rethrow_exception(later_error);
}

// Reads `entry` into `tensor`; an int8 one into *kept_rows instead, as it is, when
// kept_rows is given (`tensor` then stays empty).
void ModelReader::read_tensor(const Json& entry, const std::string& name,
                              const Shape& expected_shape, Tensor& tensor,
                              std::optional<QuantizedRows>* kept_rows) const {
  const std::string path = "tensor '" + name + "'";
  const std::string_view type = checked_dtype(entry, path, expected_shape);
  const std::int64_t expected_count = element_count(expected_shape);
  const Json& data = member(entry, "data", path);
  if (type == kInt8 && kept_rows != nullptr) {
    *kept_rows = read_int8_rows(entry, data, path, expected_shape);
    return;
  }
  tensor.shape = expected_shape;
  if (type == kInt8) {
    const QuantizedRows table = read_int8_rows(entry, data, path, expected_shape);
    widen_rows(table, static_cast<float*>(allocate(tensor, false)));
  } else if (const json::CutDocument::Cut* numbers = numbers_cut(data)) {
    tensor.data.resize(numbers->count == static_cast<std::size_t>(expected_count) ? numbers->count
                                                                                  : 0);
    read_cut_numbers(*numbers, path, expected_count, tensor.data.data());
  } else if (data.is_string()) {
    // The payload's length is checked before the buffer is made: a few bytes may not cost
    // a gigabyte.
    std::string storage;
    const std::string_view encoded =
        checked_base64_payload(data.get_ref<const std::string&>(), path, expected_count,
                               type == kFloat16 ? sizeof(std::uint16_t) : sizeof(float), &storage);
    decode_base64_payload(encoded, path,
                          reinterpret_cast<unsigned char*>(allocate(tensor, type == kFloat16)));
    if (type == kFloat16) widen_float16(tensor);
    if (!is_little_endian() && type == kFloat32) swap_bytes(tensor.data);
  } else if (data.is_array()) {
    read_array_data(data, name, path, expected_count, tensor);
  } else {
    fail(path + ": data must be a \"base64:...\" string or an array of numbers, got " +
         data.type_name());
  }
  const std::size_t bad = first_non_finite(tensor.data.data(), tensor.data.size());
  if (bad < tensor.data.size()) {
    fail(path + " has a non-finite value (" + (std::isnan(tensor.data[bad]) ? "NaN" : "Inf") +
         ") at index " + std::to_string(bad));
  }
}

// The dtype of `entry`, once its fields, shape and dtype are checked.
std::string_view ModelReader::checked_dtype(const Json& entry, const std::string& path,
                                            const Shape& expected_shape) const {
  require_type(entry, Json::value_t::object, path);
  check_known_fields(entry, path, {"shape", "dtype", "data", "scales"});

  const Json& shape = member(entry, "shape", path);
  require_type(shape, Json::value_t::array, path + " shape");
  Shape actual_shape;
  for (const Json& dimension : shape) {
    if (!dimension.is_number_integer()) {
      fail(path + ": shape " + quote(shape.dump()) + " is not a list of integers");
    }
    actual_shape.push_back(dimension.get<std::int64_t>());
  }
  if (actual_shape != expected_shape) {
    fail(path + ": expected shape " + to_string(expected_shape) + ", got " +
         to_string(actual_shape));
  }

  const Json& dtype = member(entry, "dtype", path);
  const std::string_view type =
      dtype.is_string() ? std::string_view(dtype.get_ref<const std::string&>()) : "";
  if (type != kFloat32 && type != kFloat16 && type != kInt8) {
    fail(path + ": expected dtype \"" + std::string(kFloat32) + "\", \"" + std::string(kFloat16) +
         "\" or \"" + std::string(kInt8) + "\", got " + quote(dtype.dump()));
  }

  member(entry, "data", path);
  if (type != kInt8 && entry.contains("scales")) {
    fail(path + ": only an int8 tensor has 'scales'");
  }
  return type;
}

// For a big file (release_ set), every base64 tensor is checked before any is made: its
// values decoded a window at a time into a small buffer, with read_tensor's errors in its
// order. So a file refused for its last value has not first cost the memory of the others
// (a float16 model's floats take 1.5 times its size). So is every tensor of a file that has
// a tensor's array of numbers cut out, whatever the file's size: "0," is 2 bytes of the file
// and 4 of floats.
void ModelReader::check_tensors(const Json& section, Model& model) const {
  for_each_parameter(
      model.parameters, model.config,
      [&](const std::string& name, Tensor&, const Shape& expected_shape) {
        const auto found = section.find(name);
        if (found == section.end()) {
          fail("missing tensor '" + name + "' of shape " + to_string(expected_shape));
        }
        check_values(*found, name, expected_shape);
      });
}

void ModelReader::check_values(const Json& entry, const std::string& name,
                               const Shape& expected_shape) const {
  constexpr std::size_t kWindow = std::size_t{64} << 10;  // characters, a multiple of 4
  const std::string path = "tensor '" + name + "'";
  const std::string_view type = checked_dtype(entry, path, expected_shape);
  const std::int64_t count = element_count(expected_shape);
  const Json& data = member(entry, "data", path);
  if (const json::CutDocument::Cut* numbers = numbers_cut(data); numbers && type != kInt8) {
    read_cut_numbers(*numbers, path, count, nullptr);
    return;
  }
  std::vector<float> scales;  // int8: one a row
  std::int64_t cols = 0;
  std::string scales_storage, storage;  // for payloads written with escapes
  if (type == kInt8) {
    const Json& scales_text = member(entry, "scales", path);
    if (!scales_text.is_string() || !data.is_string() || numbers_cut(data) != nullptr) {
      return;  // read_tensor says so
    }
    const std::int64_t rows = expected_shape.empty() ? 1 : expected_shape[0];
    cols = rows == 0 ? 0 : count / rows;
    const std::string_view encoded_scales =
        checked_base64_payload(scales_text.get_ref<const std::string&>(), path + " scales", rows,
                               sizeof(float), &scales_storage);
    checked_base64_payload(data.get_ref<const std::string&>(), path, count, 1, &storage);
    scales.resize(static_cast<std::size_t>(rows));
    decode_base64_payload(encoded_scales, path + " scales",
                          reinterpret_cast<unsigned char*>(scales.data()));
    if (!is_little_endian()) swap_bytes(scales);
    const std::size_t bad = first_non_finite(scales.data(), scales.size());
    if (bad < scales.size()) fail(path + " has a non-finite scale at row " + std::to_string(bad));
  } else if (!data.is_string() || numbers_cut(data) != nullptr) {
    return;  // numbers, or not data: read_tensor checks them
  }
  const std::size_t value_bytes = type == kInt8 ? 1 : type == kFloat16 ? 2 : 4;
  const std::string_view encoded = checked_base64_payload(data.get_ref<const std::string&>(), path,
                                                          count, value_bytes, &storage);
  // The first non-finite value is told only once every character is known to be valid, as
  // read_tensor decodes them all before it looks at the values.
  std::optional<std::pair<std::size_t, bool>> first_bad;  // index, is NaN
  std::vector<unsigned char> window(kWindow / 4 * 3);
  constexpr float kSafeScale = std::numeric_limits<float>::max() / 128.0f;
  for (std::size_t begin = 0; begin < encoded.size(); begin += kWindow) {
    const std::string_view part = encoded.substr(begin, kWindow);
    decode_window(part, begin, begin + kWindow >= encoded.size(), path, window.data());
    const std::size_t bytes = base64::decoded_size(part).value_or(0);
    for (std::size_t i = 0; i + value_bytes <= bytes && !first_bad; i += value_bytes) {
      const std::size_t index = (begin / 4 * 3 + i) / value_bytes;
      const auto byte = [&](std::size_t k) { return std::uint32_t{window[i + k]}; };
      if (value_bytes == 4) {
        const std::uint32_t bits = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
        if ((bits & 0x7f800000u) == 0x7f800000u) first_bad = {{index, (bits & 0x7fffffu) != 0}};
      } else if (value_bytes == 2) {
        const std::uint32_t half = byte(0) | byte(1) << 8;
        if ((half & 0x7c00u) == 0x7c00u) first_bad = {{index, (half & 0x3ffu) != 0}};
      } else {
        const float scale =
            scales[static_cast<std::size_t>(index) / static_cast<std::size_t>(cols)];
        if (std::fabs(scale) > kSafeScale &&
            !std::isfinite(scale * static_cast<float>(static_cast<std::int8_t>(window[i])))) {
          first_bad = {{index, false}};
        }
      }
    }
    if (release_) release_(part);
  }
  if (first_bad) {
    fail(path + " has a non-finite value (" + (first_bad->second ? "NaN" : "Inf") + ") at index " +
         std::to_string(first_bad->first));
  }
}

// Sizes `tensor` for its shape and returns where its raw values are to be decoded: the start
// of the buffer for float32, its back half for float16 (widened in place afterwards).
void* ModelReader::allocate(Tensor& tensor, bool is_float16) {
  tensor.data.resize(static_cast<std::size_t>(element_count(tensor.shape)));
  auto* halves = reinterpret_cast<std::uint16_t*>(tensor.data.data());
  return is_float16 ? static_cast<void*>(halves + tensor.data.size()) : tensor.data.data();
}

// The halves sit in the back half of the float buffer and are widened front to back: each
// block of halves is read before the floats it becomes are written, and those never reach
// the halves not yet read.
void ModelReader::widen_float16(Tensor& tensor) {
  const std::size_t count = tensor.data.size();
  auto* halves = reinterpret_cast<std::uint16_t*>(tensor.data.data()) + count;
  if (!is_little_endian()) {
    for (std::size_t i = 0; i < count; ++i) {
      halves[i] = static_cast<std::uint16_t>(halves[i] << 8 | halves[i] >> 8);
    }
  }
  float16::to_float(halves, count, tensor.data.data());
}

void ModelReader::read_array_data(const Json& data, const std::string& name,
                                  const std::string& path, std::int64_t expected_count,
                                  Tensor& tensor) const {
  const auto parsed = array_data_.find(name);
  if (parsed != array_data_.end() && data.empty()) {  // its numbers, taken while parsing
    if (parsed->second.size() != static_cast<std::size_t>(expected_count)) {
      fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
           std::to_string(parsed->second.size()));
    }
    tensor.data = std::move(parsed->second);
    return;
  }
  if (data.size() != static_cast<std::size_t>(expected_count)) {
    fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
         std::to_string(data.size()));
  }
  tensor.data.resize(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (!data[i].is_number()) {
      fail(path + ": value at index " + std::to_string(i) + " is " + data[i].type_name() +
           ", expected a number");
    }
    tensor.data[i] = static_cast<float>(data[i].get<double>());
  }
}

// The tensor data array a parsed string stands for, or nullptr.
const json::CutDocument::Cut* ModelReader::numbers_cut(const Json& data) const {
  return cut_of(data, json::CutDocument::Kind::numbers);
}

// A tensor's data array cut out: its numbers read as the parser would read them, into
// `values` (sized for them), or only checked when `values` is nullptr: then a value that is
// no float (Inf) is refused here, as read_tensor refuses it once the tensor is made.
void ModelReader::read_cut_numbers(const json::CutDocument::Cut& cut, const std::string& path,
                                   std::int64_t expected_count, float* values) const {
  if (cut.count != static_cast<std::size_t>(expected_count)) {
    fail(path + ": expected " + std::to_string(expected_count) + " values, got " +
         std::to_string(cut.count));
  }
  const std::string_view raw = cut.raw;
  std::size_t at = 1;  // after '['
  std::size_t released = 0;
  std::optional<std::size_t> first_infinite;
  for (std::size_t i = 0; i < cut.count; ++i) {
    while (raw[at] != '-' && (raw[at] < '0' || raw[at] > '9')) ++at;  // whitespace, ','
    const std::size_t end = json::json_number_end(raw, at);
    const std::string_view number = raw.substr(at, end - at);
    const std::optional<double> parsed = json::json_number_value(number);
    if (!parsed) fail("not valid JSON: number overflow parsing '" + std::string(number) + "'");
    const auto value = static_cast<float>(*parsed);
    if (values != nullptr) {
      values[i] = value;
    } else if (!first_infinite && !std::isfinite(value)) {
      first_infinite = i;
    }
    at = end;
    if (release_ && at - released >= (std::size_t{4} << 20)) {
      release_(raw.substr(released, at - released));
      released = at;
    }
  }
  if (first_infinite) {
    fail(path + " has a non-finite value (Inf) at index " + std::to_string(*first_infinite));
  }
}

}  // namespace sawtag::model_file
