// A bounded, thread-safe memo of the encoder's input row for each word form.
//
// The input row of a word (its embeddings and character CNN, projected to d_model) depends on
// the form alone. Forms repeat (Zipf), so the first `capacity` distinct forms seen are kept;
// later new forms are computed each time. Rows are stored exactly as computed, so a hit gives
// the same floats as a miss and the cache never changes a result.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sawtag::infer {

class InputCache {
 public:
  InputCache(int width, std::size_t capacity);

  // Copies the row of `form` to out[0, width) and returns true, or returns false.
  bool find(std::string_view form, float* out) const;
  // Keeps `row` (width floats) for `form`, unless the cache is full or has it already.
  void insert(std::string_view form, const float* row) const;

 private:
  static constexpr std::size_t kShards = 16;  // locks split so threads rarely wait
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, std::size_t> index;  // form -> first float in rows
    std::vector<float> rows;
  };
  Shard& shard_of(std::string_view form) const;

  int width_;
  std::size_t shard_capacity_;
  mutable std::array<Shard, kShards> shards_;
};

}  // namespace sawtag::infer
