#include "text/character_classes.hpp"

#include <utf8proc.h>

#include "text/utf8.hpp"

namespace sawtag::text {

namespace {

utf8proc_category_t category(char32_t value) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(value));
}

}  // namespace

bool is_space(char32_t value) {
  if (value == ' ' || (value >= '\t' && value <= '\r')) return true;
  const auto kind = category(value);
  return kind == UTF8PROC_CATEGORY_ZS || kind == UTF8PROC_CATEGORY_ZL ||
         kind == UTF8PROC_CATEGORY_ZP;
}

bool is_control(char32_t value) {
  return (value < 0x20 && !(value >= '\t' && value <= '\r')) || (value >= 0x7F && value < 0xA0);
}

bool is_invisible(char32_t value) {
  return is_control(value) || value == 0xFEFF || value == 0x200B || value == 0x200E ||
         value == 0x200F || value == 0x061C || (value >= 0x202A && value <= 0x202E) ||
         (value >= 0x2060 && value <= 0x2064) || (value >= 0x2066 && value <= 0x2069);
}

bool is_letter(char32_t value) {
  if (value < 0x80) return (value >= 'a' && value <= 'z') || (value >= 'A' && value <= 'Z');
  const auto kind = category(value);
  return kind >= UTF8PROC_CATEGORY_LU && kind <= UTF8PROC_CATEGORY_LO;
}

bool is_mark(char32_t value) {
  const auto kind = category(value);
  return kind >= UTF8PROC_CATEGORY_MN && kind <= UTF8PROC_CATEGORY_ME;
}

bool is_digit(char32_t value) {
  if (value < 0x80) return value >= '0' && value <= '9';
  return category(value) == UTF8PROC_CATEGORY_ND;
}

bool is_alphanumeric(char32_t value) {
  if (value < 0x80) {
    return (value >= 'a' && value <= 'z') || (value >= 'A' && value <= 'Z') ||
           (value >= '0' && value <= '9') || value == '_';
  }
  if (value == 0xFFFD) return true;  // a replaced byte is most likely a letter ("caf\xE9")
  const auto kind = category(value);
  return (kind >= UTF8PROC_CATEGORY_LU && kind <= UTF8PROC_CATEGORY_LO) ||
         (kind >= UTF8PROC_CATEGORY_MN && kind <= UTF8PROC_CATEGORY_NO);
}

bool is_upper(char32_t value) {
  const auto kind = category(value);
  return kind == UTF8PROC_CATEGORY_LU || kind == UTF8PROC_CATEGORY_LT;
}

bool is_punctuation_or_symbol(char32_t value) {
  const auto kind = category(value);
  return (kind >= UTF8PROC_CATEGORY_PC && kind <= UTF8PROC_CATEGORY_PO) ||
         (kind >= UTF8PROC_CATEGORY_SM && kind <= UTF8PROC_CATEGORY_SO);
}

char32_t to_lower(char32_t value) {
  return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(value)));
}

std::string to_lower(const std::string& text) {
  std::string result;
  result.reserve(text.size());
  for (const CodePoint& code_point : decode_utf8(text))
    append_utf8(result, to_lower(code_point.value));
  return result;
}

}  // namespace sawtag::text
