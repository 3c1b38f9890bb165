#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "sawtag/error.hpp"

namespace sawtag::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBufferSize = 1 << 16;

// The temporary files being written (-o and --attention at once), for the signal handler to
// remove. Fixed buffers: the handler may only make async-signal-safe calls (unlink, signal,
// raise). Slots are taken and given back by the main thread only.
constexpr std::size_t kGuardedFiles = 4;
char g_temporary_paths[kGuardedFiles][4096];
std::atomic<bool> g_slot_used[kGuardedFiles];

extern "C" void remove_temporaries_and_die(int signal_number) {
  bool removed = false;
  for (std::size_t slot = 0; slot < kGuardedFiles; ++slot) {
    if (!g_slot_used[slot].load()) continue;
    ::unlink(g_temporary_paths[slot]);
    removed = true;
  }
  if (removed) {
    static const char kMessage[] =
        "sawtag: error: interrupted; the unfinished output was removed\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// Where `path` is finally written: through a symbolic link, the file it leads to, so the link
// stays a link. "" when the output is no regular file (a device, a pipe, a dangling link):
// that is written directly.
std::string final_target(const std::string& path) {
  std::error_code error;
  const fs::file_status link_status = fs::symlink_status(path, error);
  if (fs::is_symlink(link_status)) {
    const fs::path target = fs::canonical(path, error);
    return !error && fs::is_regular_file(target, error) ? target.string() : std::string();
  }
  if (!fs::exists(link_status)) return path;
  return fs::is_regular_file(link_status) ? path : std::string();
}

}  // namespace

// While alive, an interrupt (Ctrl-C), SIGTERM or SIGHUP removes `path` before the process
// dies; afterwards `path` is removed if it is still there (an error path: no rename happened).
class TemporaryFileGuard {
 public:
  explicit TemporaryFileGuard(const std::string& path) : path_(path) {
    if (path.size() >= sizeof g_temporary_paths[0]) return;  // not guarded; still never a result
    for (std::size_t slot = 0; slot < kGuardedFiles; ++slot) {
      if (g_slot_used[slot].load()) continue;
      std::memcpy(g_temporary_paths[slot], path.c_str(), path.size() + 1);
      g_slot_used[slot].store(true);
      slot_ = static_cast<int>(slot);
      break;
    }
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
      std::signal(signal_number, remove_temporaries_and_die);
    }
  }
  ~TemporaryFileGuard() {
    if (slot_ >= 0) g_slot_used[slot_].store(false);
    ::unlink(path_.c_str());  // after a successful rename there is nothing left to remove
  }
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

 private:
  std::string path_;
  int slot_ = -1;
};

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
    final_path_ = final_target(path);
    if (!final_path_.empty()) {
      const fs::path target(final_path_);
      temporary_path_ = (target.parent_path() /
                         ("." + target.filename().string() + ".part-" + std::to_string(::getpid())))
                            .string();
      guard_ = std::make_unique<TemporaryFileGuard>(temporary_path_);
    }
    const std::string& opened = final_path_.empty() ? path : temporary_path_;
    fd_ = ::open(opened.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      throw OutputError(path + ": cannot open for writing: " + std::strerror(errno));
    }
    owns_fd_ = true;
    struct stat previous {};  // a replaced file keeps its permissions
    if (!final_path_.empty() && ::stat(final_path_.c_str(), &previous) == 0) {
      ::fchmod(fd_, previous.st_mode & 07777);
    }
  }
  buffer_ = std::make_unique<DescriptorBuffer>(fd_);
  stream_.rdbuf(buffer_.get());
}

// On an error path (close() not reached) what was produced so far is still written out to
// stdout or a device, as far as it takes it, and a temporary file is removed (by guard_);
// failures here are not reported again.
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
  if (temporary_path_.empty()) return;
  if (std::rename(temporary_path_.c_str(), final_path_.c_str()) != 0) {
    throw OutputError(name_ + ": cannot rename " + temporary_path_ +
                      " to it: " + std::strerror(errno));
  }
  guard_.reset();
}

}  // namespace sawtag::cli
