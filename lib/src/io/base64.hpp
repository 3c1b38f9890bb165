// Base64 (RFC 4648, standard alphabet, '=' padding) for tensor data in model files.
// Internal to the library: the model-file code is its only user.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sawtag::base64 {

// Appends the encoding of `size` bytes to `out`: "abc" -> "YWJj", "ab" -> "YWI=".
void encode_append(const void* data, std::size_t size, std::string& out);

// Number of bytes `text` decodes to; std::nullopt when its length is not a multiple of 4 or its
// '=' padding is malformed. Does not look at the other characters: decode() does.
std::optional<std::size_t> decoded_size(std::string_view text);

// Decodes `text`, for which decoded_size() succeeded, into `out` (decoded_size() bytes).
// Returns the position of the first character outside the alphabet, or std::string_view::npos
// when every character was valid.
std::size_t decode(std::string_view text, unsigned char* out);

}  // namespace sawtag::base64
