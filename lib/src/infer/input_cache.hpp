// A bounded, thread-safe memo of the encoder's input row for each word form.
//
// The input row of a word (its embeddings and character CNN, projected to d_model) depends on
// the form alone, and computing it costs more than all the attention layers for that word. Forms
// repeat (Zipf), so the first `capacity` distinct forms seen are kept; later new forms are
// computed each time. A hit returns exactly the floats a miss computes, so the cache never
// changes a result.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sawtag::infer {

class InputCache {
 public:
  // compute(form, out) writes `width` floats.
  using Compute = std::function<void(std::string_view form, float* out)>;

  InputCache(int width, std::size_t capacity, Compute compute);

  // Writes the row of `form` to out[0, width).
  void row(std::string_view form, float* out) const;

 private:
  static constexpr std::size_t kShards = 16;  // locks split so threads rarely wait
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, std::size_t> index;  // form -> first float in rows
    std::vector<float> rows;
  };

  int width_;
  std::size_t shard_capacity_;
  Compute compute_;
  mutable std::array<Shard, kShards> shards_;
};

}  // namespace sawtag::infer
