#include "output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sawtag/error.hpp"

namespace sawtag::cli {
namespace {
constexpr std::size_t kBufferSize = 1 << 16;
}

DescriptorBuffer::DescriptorBuffer(int fd) : fd_(fd), buffer_(kBufferSize) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool DescriptorBuffer::drain() {
  const char* data = pbase();
  std::size_t left = static_cast<std::size_t>(pptr() - pbase());
  while (left > 0 && error_ == 0) {
    const ssize_t written = ::write(fd_, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      break;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  // After an error the rest is dropped, so a failing output cannot grow memory.
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int DescriptorBuffer::sync() { return drain() ? 0 : -1; }

OutputFile::OutputFile(const std::string& path)
    : name_(path.empty() || path == "-" ? "<stdout>" : path), stream_(nullptr) {
  if (path.empty() || path == "-") {
    fd_ = STDOUT_FILENO;
  } else {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      throw OutputError(path + ": cannot open for writing: " + std::strerror(errno));
    }
    owns_fd_ = true;
  }
  buffer_ = std::make_unique<DescriptorBuffer>(fd_);
  stream_.rdbuf(buffer_.get());
}

// On an error path (close() not reached) what was produced so far is still written out, as
// far as the output takes it; failures here are not reported again.
OutputFile::~OutputFile() {
  stream_.flush();
  if (owns_fd_) ::close(fd_);
}

void OutputFile::check() {
  const int error = buffer_->error();
  if (error == 0) return;
  if (error == EPIPE) throw OutputClosed();
  throw OutputError(name_ + ": cannot write: " + std::strerror(error));
}

void OutputFile::flush() {
  stream_.flush();
  check();
}

void OutputFile::close() {
  flush();
  if (!owns_fd_) return;
  owns_fd_ = false;
  if (::close(fd_) != 0) throw OutputError(name_ + ": cannot write: " + std::strerror(errno));
}

}  // namespace sawtag::cli
