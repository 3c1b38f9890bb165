#include "sawtag/tensor.hpp"

#include <algorithm>
#include <new>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace sawtag {

namespace detail {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugePageThreshold = 2 * kHugePage;

std::size_t alignment_for(std::size_t bytes, std::size_t alignment) {
  return bytes >= kHugePageThreshold ? std::max(alignment, kHugePage) : alignment;
}

}  // namespace

void* allocate_aligned(std::size_t bytes, std::size_t alignment) {
  const std::size_t actual_alignment = alignment_for(bytes, alignment);
  void* pointer = ::operator new(bytes, std::align_val_t{actual_alignment});
#ifdef __linux__
  if (actual_alignment == kHugePage) {
    ::madvise(pointer, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // a hint; may fail
  }
#endif
  return pointer;
}

void free_aligned(void* pointer, std::size_t bytes, std::size_t alignment) {
  ::operator delete(pointer, std::align_val_t{alignment_for(bytes, alignment)});
}

}  // namespace detail

Tensor::Tensor(Shape tensor_shape)
    : shape(std::move(tensor_shape)), data(static_cast<std::size_t>(element_count(shape))) {}

std::int64_t element_count(const Shape& shape) {
  std::int64_t count = 1;
  for (std::int64_t dim : shape) count *= dim;
  return count;
}

std::string to_string(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace sawtag
