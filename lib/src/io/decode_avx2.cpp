#include "io/decode_avx2.hpp"

#if defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>
#define SAWTAG_DECODE_AVX2 1
#endif

namespace sawtag::decode_avx2 {

#ifdef SAWTAG_DECODE_AVX2

bool compiled() { return true; }

// Decodes 32 characters into 24 bytes at a time (W. Mula and D. Lemire, "Faster Base64
// Encoding and Decoding Using AVX2 Instructions", 2018): nibble lookups validate and
// translate each character, two multiply-adds pack four 6-bit values into three bytes.
// Stops before the first block holding a character outside the alphabet, so that the scalar
// loop finds and reports it. Writes 32 bytes per block (8 past the 24 decoded): the caller
// keeps `chars` at least 8 bytes short of the end. Returns the characters consumed.
std::size_t base64_blocks(const unsigned char* chars, std::size_t size, unsigned char*& out) {
  const __m256i lut_low =
      _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B,
                       0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                       0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i lut_high =
      _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  const __m256i lut_roll =
      _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4, -65,
                       -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i mask_2f = _mm256_set1_epi8(0x2F);
  const __m256i pack_shuffle =
      _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10,
                       9, 8, 14, 13, 12, -1, -1, -1, -1);
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
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(is_slash, high_nibbles));
    const __m256i values = _mm256_add_epi8(in, roll);
    const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
    const __m256i triples = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    const __m256i bytes =
        _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(triples, pack_shuffle), pack_lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
    out += 24;
  }
  return i;
}

std::size_t float16_blocks(const std::uint16_t* halves, std::size_t count, float* out) {
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(halves + i));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(packed));
  }
  return i;
}

#else

bool compiled() { return false; }
std::size_t base64_blocks(const unsigned char*, std::size_t, unsigned char*&) { return 0; }
std::size_t float16_blocks(const std::uint16_t*, std::size_t, float*) { return 0; }

#endif

}  // namespace sawtag::decode_avx2
