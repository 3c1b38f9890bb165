#include "line_source.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sawtag/error.hpp"

namespace sawtag::cli {
namespace {

// Length of the valid UTF-8 sequence at text[i], 0 when invalid (bad lead or continuation
// byte, truncated, overlong, surrogate, beyond U+10FFFF).
std::size_t sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

bool repair_utf8(std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  if (i == text.size()) return false;  // plain ASCII, the common case
  std::string repaired = text.substr(0, i);
  bool replaced = false;
  while (i < text.size()) {
    const std::size_t length = sequence_length(text, i);
    if (length == 0) {
      repaired += "\xEF\xBF\xBD";
      replaced = true;
      ++i;
    } else {
      repaired.append(text, i, length);
      i += length;
    }
  }
  if (replaced) text = std::move(repaired);
  return replaced;
}

LineSource::LineSource(const std::string& path) {
  if (path == "-") {
    file_ = stdin;
    name_ = "<stdin>";
    return;
  }
  name_ = path;
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) throw InputError(path + ": cannot open: " + std::strerror(errno));
  owns_file_ = true;
  struct stat status {};
  if (::fstat(::fileno(file_), &status) == 0 && S_ISDIR(status.st_mode)) {
    std::fclose(file_);
    file_ = nullptr;
    throw InputError(path + ": is a directory, expected a file");
  }
}

LineSource::~LineSource() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
  std::free(buffer_);
}

bool LineSource::is_terminal() const { return ::isatty(::fileno(file_)) == 1; }

bool LineSource::next(std::string& line) {
  errno = 0;
  const ssize_t length = ::getline(&buffer_, &capacity_, file_);
  if (length < 0) {
    if (std::ferror(file_)) {
      throw InputError(name_ + ":" + std::to_string(line_number_ + 1) +
                       ": cannot read: " + std::strerror(errno));
    }
    return false;
  }
  ++line_number_;
  line.assign(buffer_, static_cast<std::size_t>(length));
  if (!line.empty() && line.back() == '\n') line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (repair_utf8(line) && !warned_) {
    warned_ = true;
    spdlog::warn(
        "{}:{}: invalid UTF-8 replaced by U+FFFD (later lines of this file are not "
        "reported)",
        name_, line_number_);
  }
  return true;
}

LineSourceBuffer::int_type LineSourceBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  try {
    if (error_ || !source_.next(line_)) return traits_type::eof();
  } catch (...) {
    error_ = std::current_exception();
    return traits_type::eof();
  }
  line_ += '\n';
  setg(line_.data(), line_.data(), line_.data() + line_.size());
  return traits_type::to_int_type(*gptr());
}

}  // namespace sawtag::cli
