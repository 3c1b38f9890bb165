// A tensor's "base64:..." payloads: the length checked against the values expected before
// any buffer is made, decoded (a big file's a window at a time, each window released once
// decoded), and dtype "int8"'s rows of bytes and their float32 scales.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "io/base64.hpp"
#include "io/model_file_format.hpp"
#include "io/model_reader.hpp"

namespace sawtag::model_file {

// The base64 characters after "base64:" in a string of the file.
std::string_view ModelReader::payload(const std::string& text) const {
  const json::CutDocument::Cut* cut = cut_of(text);
  if (cut != nullptr && cut->kind == json::CutDocument::Kind::payload) return cut->raw;
  return std::string_view(text).substr(kBase64Prefix.size());
}

// The payload of a "base64:..." string, once its length is checked against `expected_count`
// values of `value_bytes` each. One over 64 KiB written with escapes ("\/": not cut out as a
// payload) is unescaped into *storage, which must outlive the view.
std::string_view ModelReader::checked_base64_payload(const std::string& parsed,
                                                     const std::string& path,
                                                     std::int64_t expected_count,
                                                     std::size_t value_bytes,
                                                     std::string* storage) const {
  const json::CutDocument::Cut* cut = cut_of(parsed);
  if (cut != nullptr && cut->kind == json::CutDocument::Kind::string) {
    *storage = restore(parsed, true);  // tensor data, paid for by the file, not the tree's
  }
  const std::string& text =
      cut != nullptr && cut->kind == json::CutDocument::Kind::string ? *storage : parsed;
  if (text.compare(0, kBase64Prefix.size(), kBase64Prefix) != 0) {
    fail(path + ": data string must start with \"base64:\", got " + quote(text));
  }
  const std::string_view encoded = payload(text);
  const std::optional<std::size_t> actual_bytes = base64::decoded_size(encoded);
  if (!actual_bytes) {
    fail(path + ": base64 data of length " + std::to_string(encoded.size()) +
         " is malformed: the length must be a multiple of 4, with at most two '=' at the end");
  }
  const std::size_t expected_bytes = static_cast<std::size_t>(expected_count) * value_bytes;
  if (*actual_bytes != expected_bytes) {
    fail(path + ": expected " + std::to_string(expected_count) + " values (" +
         std::to_string(expected_bytes) + " bytes of base64 data), got " +
         std::to_string(*actual_bytes) + " bytes");
  }
  return encoded;
}

// Decodes a payload that checked_base64_payload let through into `out`, which has room. A
// big file's payload is decoded a window at a time, each released once decoded.
void ModelReader::decode_base64_payload(std::string_view encoded, const std::string& path,
                                        unsigned char* out) const {
  constexpr std::size_t kWindow = std::size_t{4} << 20;  // a multiple of 4
  const std::size_t step = release_ ? kWindow : std::max<std::size_t>(encoded.size(), 1);
  for (std::size_t begin = 0; begin < encoded.size(); begin += step) {
    const std::string_view part = encoded.substr(begin, step);
    decode_window(part, begin, begin + step >= encoded.size(), path, out + begin / 4 * 3);
    if (release_) release_(part);
  }
}

// Decodes `part`, which starts at character `begin` of a payload, into `out`. Only the last
// part may end with '='.
void ModelReader::decode_window(std::string_view part, std::size_t begin, bool is_last,
                                const std::string& path, unsigned char* out) const {
  std::size_t bad = base64::decode(part, out);
  if (!is_last) {
    if (part[part.size() - 2] == '=') bad = std::min(bad, part.size() - 2);
    if (part.back() == '=') bad = std::min(bad, part.size() - 1);
  }
  if (bad != std::string_view::npos) {
    fail(path + ": invalid base64 character " + quote(part.substr(bad, 1)) + " at position " +
         std::to_string(begin + bad) + " of its data");
  }
}

// dtype "int8": value (r, c) = scales[r] * data[r * cols + c], where data holds one signed
// byte a value and scales one little-endian float32 a row (rows = the first dimension).
QuantizedRows ModelReader::read_int8_rows(const Json& entry, const Json& data,
                                          const std::string& path, const Shape& shape) const {
  const Json& scales_text = member(entry, "scales", path);
  if (!scales_text.is_string() || !data.is_string() || numbers_cut(data) != nullptr) {
    fail(path + ": an int8 tensor needs \"base64:...\" strings for scales and data");
  }
  QuantizedRows table;
  const std::int64_t count = element_count(shape);
  table.rows = shape.empty() ? 1 : shape[0];
  table.cols = table.rows == 0 ? 0 : count / table.rows;
  // Both payloads' lengths are checked before either buffer is made.
  std::string scales_storage, values_storage;  // for payloads written with escapes
  const std::string_view encoded_scales =
      checked_base64_payload(scales_text.get_ref<const std::string&>(), path + " scales",
                             table.rows, sizeof(float), &scales_storage);
  const std::string_view encoded_values =
      checked_base64_payload(data.get_ref<const std::string&>(), path, count, 1, &values_storage);
  table.scales.resize(static_cast<std::size_t>(table.rows));
  decode_base64_payload(encoded_scales, path + " scales",
                        reinterpret_cast<unsigned char*>(table.scales.data()));
  if (!is_little_endian()) swap_bytes(table.scales);
  const std::size_t bad = first_non_finite(table.scales.data(), table.scales.size());
  if (bad < table.scales.size()) {
    fail(path + " has a non-finite scale at row " + std::to_string(bad));
  }
  table.values.resize(static_cast<std::size_t>(count));
  decode_base64_payload(encoded_values, path,
                        reinterpret_cast<unsigned char*>(table.values.data()));
  require_finite_products(table, path);
  return table;
}

// A finite scale times a byte overflows to Inf only when the scale is above FLT_MAX / 128:
// such rows are widened here value by value, so that a kept table can never widen to Inf and
// both Int8WordTable choices refuse the same files with the same message.
void ModelReader::require_finite_products(const QuantizedRows& table,
                                          const std::string& path) const {
  constexpr float kSafeScale = std::numeric_limits<float>::max() / 128.0f;
  const auto cols = static_cast<std::size_t>(table.cols);
  for (std::size_t r = 0; r < table.scales.size(); ++r) {
    if (std::fabs(table.scales[r]) <= kSafeScale) continue;
    for (std::size_t c = 0; c < cols; ++c) {
      if (!std::isfinite(table.scales[r] * static_cast<float>(table.values[r * cols + c]))) {
        fail(path + " has a non-finite value (Inf) at index " + std::to_string(r * cols + c));
      }
    }
  }
}

}  // namespace sawtag::model_file
