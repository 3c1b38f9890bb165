#include "io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sawtag/error.hpp"

namespace sawtag {

MappedFile::MappedFile(const std::string& path, std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open the model file: " + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    throw InputError(path + ": cannot read the model file: " + std::strerror(error));
  }
  if (static_cast<std::uint64_t>(status.st_size) > max_bytes) {
    ::close(fd);
    throw ModelError(path + ": the file has " + std::to_string(status.st_size) +
                     " bytes, more than a model file may have (" + std::to_string(max_bytes) + ")");
  }
  size_ = static_cast<std::size_t>(status.st_size);
  if (size_ > 0) {
    void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      throw InputError(path + ": cannot read the model file: " + std::strerror(error));
    }
    data_ = static_cast<const char*>(data);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(std::string_view part) const {
  if (data_ == nullptr) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(data_);
  const auto from = std::max(reinterpret_cast<std::uintptr_t>(part.data()), first);
  const auto to =
      std::min(reinterpret_cast<std::uintptr_t>(part.data()) + part.size(), first + size_);
  if (to <= from) return;
  const auto begin = (from + page - 1) / page * page;
  const auto end = to / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace sawtag
