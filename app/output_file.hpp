// Where the CLI writes data: stdout or a file, through a buffer that remembers why a write
// failed. A regular file is written to a hidden temporary file beside it and renamed over it
// only by close(), so an interrupted or failed run leaves the previous file (or none) under the
// name asked for, never a truncated one. A reader that went away (EPIPE: `sawtag tag big.txt |
// head`) is not an error: it throws OutputClosed, which main turns into a quiet exit 0. Other
// failures throw OutputError.
#pragma once

#include <exception>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace sawtag::cli {

// The reader of our output has gone; stop quietly.
class OutputClosed : public std::exception {
 public:
  const char* what() const noexcept override { return "output closed"; }
};

// A std::streambuf over a file descriptor that records errno of the first failed write.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd);
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool drain();

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

// Removes a temporary output when the process is interrupted (output_file.cpp).
class TemporaryFileGuard;

class OutputFile {
 public:
  // "-" (or "") is stdout. A regular file (new, or replaced: through a symbolic link, its
  // target) is written as ".NAME.part-PID" beside it until close(); a device or pipe
  // (/dev/null, a FIFO) directly. Throws OutputError.
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& name() const { return name_; }

  // Throws OutputClosed or OutputError when a write has failed so far.
  void check();
  // Writes out the buffer, then check().
  void flush();
  // flush(), then closes the file (not stdout) and renames a temporary file to its final name;
  // reports a failing close or rename.
  void close();

 private:
  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::string final_path_;  // where a temporary file is renamed to; "" when written directly
  std::string temporary_path_;
  std::unique_ptr<TemporaryFileGuard> guard_;
  std::unique_ptr<DescriptorBuffer> buffer_;
  std::ostream stream_;
};

}  // namespace sawtag::cli
