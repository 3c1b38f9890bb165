// A model file's bytes, mapped read-only: no copy of a model's tens of MB, and its pages come
// straight from the page cache. Nothing is read ahead (no MAP_POPULATE): a page is read when
// the loader gets to it, so a file refused at its first bytes costs those bytes only; and the
// loader may drop pages it is done with (release), so a big file need not stay in memory whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sawtag {

class MappedFile {
 public:
  // Throws InputError when `path` cannot be opened or read, ModelError when it has more than
  // `max_bytes` (then nothing is mapped).
  MappedFile(const std::string& path, std::uint64_t max_bytes);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {data_ == nullptr ? "" : data_, size_}; }

  // Drops the pages wholly inside `part` (of text()) from this process's memory: they are read
  // again from the page cache if they are needed again. Only pages of the file are ever
  // dropped: any part of `part` outside it is left alone.
  void release(std::string_view part) const;

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sawtag
