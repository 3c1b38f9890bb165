// Input for the CLI, one line at a time: a file or stdin, with invalid UTF-8 repaired.
#pragma once

#include <cstdio>
#include <exception>
#include <streambuf>
#include <string>

namespace sawtag::cli {

// Replaces each byte that is not part of valid UTF-8 with U+FFFD; true when it replaced any.
// "a\xFFb" -> "a\xEF\xBF\xBDb"
bool repair_utf8(std::string& text);

class LineSource {
 public:
  // "-" is stdin. Throws InputError when the file is missing, a directory or unreadable.
  explicit LineSource(const std::string& path);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line without its line break ("\n" or "\r\n"); false at the end. Invalid UTF-8 is
  // replaced and reported once per source as a warning naming file:line. Throws InputError on
  // a read error.
  bool next(std::string& line);

  std::size_t line_number() const { return line_number_; }  // of the last line read, 1-based
  const std::string& name() const { return name_; }         // for messages; "<stdin>" for "-"
  bool is_terminal() const;

 private:
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::string name_;
  std::size_t line_number_ = 0;
  bool warned_ = false;
  char* buffer_ = nullptr;  // getline(3)'s buffer
  std::size_t capacity_ = 0;
};

// Presents a LineSource as a stream (for ConlluReader): each line followed by "\n".
// Streams swallow exceptions from their buffer, so a read error is kept here: call
// rethrow_error() when the stream ends.
class LineSourceBuffer : public std::streambuf {
 public:
  explicit LineSourceBuffer(LineSource& source) : source_(source) {}

  void rethrow_error() const {
    if (error_) std::rethrow_exception(error_);
  }

 protected:
  int_type underflow() override;

 private:
  LineSource& source_;
  std::string line_;
  std::exception_ptr error_;
};

}  // namespace sawtag::cli
