// A named block of float32 weights. Storage is row-major: for shape [rows, cols], element
// (r, c) is data[r * cols + c]. The math code maps these onto Eigen row-major matrices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace sawtag {

using Shape = std::vector<std::int64_t>;

namespace detail {
// `bytes` aligned to `alignment`; blocks of several MB are aligned to 2 MB and asked to be
// backed by huge pages (Linux), which makes loading a model's big tables several times cheaper
// in page faults. free_aligned takes the same bytes and alignment.
void* allocate_aligned(std::size_t bytes, std::size_t alignment);
void free_aligned(void* pointer, std::size_t bytes, std::size_t alignment);
}  // namespace detail

// Allocates with a fixed alignment. Tensors are 64-byte aligned so that vectorised math
// over them always splits its work the same way: the same inputs give bit-identical results
// wherever the allocator happens to place the data (that is what makes a training seed
// reproducible to the byte).
template <class T, std::size_t kAlignment>
struct AlignedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, kAlignment>;
  };
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, kAlignment>&) {}

  T* allocate(std::size_t count) {
    return static_cast<T*>(detail::allocate_aligned(count * sizeof(T), kAlignment));
  }
  void deallocate(T* pointer, std::size_t count) {
    detail::free_aligned(pointer, count * sizeof(T), kAlignment);
  }
  template <class U>
  bool operator==(const AlignedAllocator<U, kAlignment>&) const { return true; }
  template <class U>
  bool operator!=(const AlignedAllocator<U, kAlignment>&) const { return false; }
};

inline constexpr std::size_t kTensorAlignment = 64;
using TensorData = std::vector<float, AlignedAllocator<float, kTensorAlignment>>;

struct Tensor {
  Shape shape;
  TensorData data;  // size() == product of shape

  Tensor() = default;
  explicit Tensor(Shape tensor_shape);  // zero-filled

  std::int64_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::int64_t cols() const { return shape.size() < 2 ? 1 : shape[1]; }
};

// Product of the dimensions (1 for a scalar shape []).
std::int64_t element_count(const Shape& shape);

// "[3, 4]"
std::string to_string(const Shape& shape);

}  // namespace sawtag
