#include "io/base64.hpp"

#include <array>
#include <cstdint>

#ifdef __AVX2__
#include <immintrin.h>
#endif

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

#ifdef __AVX2__
namespace {

// Decodes 32 characters into 24 bytes at a time (W. Mula and D. Lemire, "Faster Base64
// Encoding and Decoding Using AVX2 Instructions", 2018): nibble lookups validate and
// translate each character, two multiply-adds pack four 6-bit values into three bytes.
// Stops before the first block holding a character outside the alphabet, so that the scalar
// loop finds and reports it. Writes 32 bytes per block (8 past the 24 decoded): the caller
// keeps `chars` at least 8 bytes short of the end. Returns the characters consumed.
std::size_t decode_blocks(const unsigned char* chars, std::size_t size, unsigned char*& out) {
  const __m256i lut_low = _mm256_setr_epi8(
      0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B,
      0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B,
      0x1B, 0x1A);
  const __m256i lut_high = _mm256_setr_epi8(
      0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
      0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
      0x10, 0x10);
  const __m256i lut_roll = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0,
                                            0, 0, 0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0,
                                            0, 0, 0, 0);
  const __m256i mask_2f = _mm256_set1_epi8(0x2F);
  const __m256i pack_shuffle = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1,
                                                -1, -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12,
                                                -1, -1, -1, -1);
  const __m256i pack_lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(chars + i));
    const __m256i high_nibbles = _mm256_and_si256(_mm256_srli_epi32(in, 4), mask_2f);
    const __m256i low_nibbles = _mm256_and_si256(in, mask_2f);
    const __m256i low = _mm256_shuffle_epi8(lut_low, low_nibbles);
    const __m256i high = _mm256_shuffle_epi8(lut_high, high_nibbles);
    if (!_mm256_testz_si256(low, high)) break;  // a character outside the alphabet
    const __m256i is_slash = _mm256_cmpeq_epi8(in, mask_2f);
    const __m256i roll =
        _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(is_slash, high_nibbles));
    const __m256i values = _mm256_add_epi8(in, roll);
    const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
    const __m256i triples = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    const __m256i bytes = _mm256_permutevar8x32_epi32(
        _mm256_shuffle_epi8(triples, pack_shuffle), pack_lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
    out += 24;
  }
  return i;
}

}  // namespace
#endif

std::size_t decode(std::string_view text, unsigned char* out) {
  const auto* chars = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  if (size == 0) return std::string_view::npos;
  // Every group but the last has no padding: decode those in the tight loops.
  const std::size_t full_end = size - 4;
  std::size_t start = 0;
#ifdef __AVX2__
  // Blocks write 8 bytes past their output; stopping 16 characters (12 bytes) short of the
  // last group keeps those writes inside `out`.
  if (full_end > 16) start = decode_blocks(chars, full_end - 16, out);
#endif
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
