#include "io/base64.hpp"

#include <array>
#include <cstdint>

#include "infer/kernels.hpp"
#include "io/decode_avx2.hpp"

namespace sawtag::decode_avx2 {

bool usable() {
  static const bool avx2 = compiled() && infer::kernels().level >= infer::CpuLevel::avx2;
  return avx2;
}

}  // namespace sawtag::decode_avx2

namespace sawtag::base64 {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kInvalid = 0xff;

// Character -> its 6-bit value, kInvalid for characters outside the alphabet.
constexpr std::array<std::uint8_t, 256> make_decode_table() {
  std::array<std::uint8_t, 256> table{};
  for (auto& value : table) value = kInvalid;
  for (std::uint8_t i = 0; i < 64; ++i) table[static_cast<unsigned char>(kAlphabet[i])] = i;
  return table;
}
constexpr std::array<std::uint8_t, 256> kDecodeTable = make_decode_table();

}  // namespace

void encode_append(const void* data, std::size_t size, std::string& out) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::size_t start = out.size();
  out.resize(start + (size + 2) / 3 * 4);
  char* dest = out.data() + start;
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t group =
        (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    *dest++ = kAlphabet[(group >> 18) & 63];
    *dest++ = kAlphabet[(group >> 12) & 63];
    *dest++ = kAlphabet[(group >> 6) & 63];
    *dest++ = kAlphabet[group & 63];
  }
  const std::size_t rest = size - i;
  if (rest > 0) {
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) group |= std::uint32_t{bytes[i + 1]} << 8;
    *dest++ = kAlphabet[(group >> 18) & 63];
    *dest++ = kAlphabet[(group >> 12) & 63];
    *dest++ = rest == 2 ? kAlphabet[(group >> 6) & 63] : '=';
    *dest++ = '=';
  }
}

std::optional<std::size_t> decoded_size(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') ++padding;
  if (text.size() >= 2 && text[text.size() - 2] == '=') {
    if (padding == 0) return std::nullopt;  // "AA=A"
    ++padding;
  }
  return text.size() / 4 * 3 - padding;
}

std::size_t decode(std::string_view text, unsigned char* out) {
  const auto* chars = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  if (size == 0) return std::string_view::npos;
  // Every group but the last has no padding: decode those in the tight loops.
  const std::size_t full_end = size - 4;
  std::size_t start = 0;
  // Blocks write 8 bytes past their output; stopping 16 characters (12 bytes) short of the
  // last group keeps those writes inside `out`.
  if (full_end > 16 && decode_avx2::usable()) {
    start = decode_avx2::base64_blocks(chars, full_end - 16, out);
  }
  for (std::size_t i = start; i < full_end; i += 4) {
    const std::uint8_t a = kDecodeTable[chars[i]];
    const std::uint8_t b = kDecodeTable[chars[i + 1]];
    const std::uint8_t c = kDecodeTable[chars[i + 2]];
    const std::uint8_t d = kDecodeTable[chars[i + 3]];
    if (((a | b | c | d) & 0xc0) != 0) {  // kInvalid has the high bits set
      for (std::size_t j = i; j < i + 4; ++j) {
        if (kDecodeTable[chars[j]] == kInvalid) return j;
      }
    }
    const std::uint32_t group =
        (std::uint32_t{a} << 18) | (std::uint32_t{b} << 12) | (std::uint32_t{c} << 6) | d;
    *out++ = static_cast<unsigned char>(group >> 16);
    *out++ = static_cast<unsigned char>(group >> 8);
    *out++ = static_cast<unsigned char>(group);
  }
  // The last group: "AAAA", "AAA=" or "AA==".
  std::uint32_t group = 0;
  int valid = 0;
  for (std::size_t j = full_end; j < size; ++j) {
    if (chars[j] == '=' && j >= size - 2 && (j == size - 1 || chars[size - 1] == '=')) break;
    const std::uint8_t value = kDecodeTable[chars[j]];
    if (value == kInvalid) return j;
    group |= std::uint32_t{value} << (18 - 6 * valid);
    ++valid;
  }
  if (valid < 2) return full_end + static_cast<std::size_t>(valid);  // "A===" or "===="
  *out++ = static_cast<unsigned char>(group >> 16);
  if (valid >= 3) *out++ = static_cast<unsigned char>(group >> 8);
  if (valid == 4) *out++ = static_cast<unsigned char>(group);
  return std::string_view::npos;
}

}  // namespace sawtag::base64
