#include "infer/input_cache.hpp"

#include <algorithm>
#include <utility>

namespace sawtag::infer {

InputCache::InputCache(int width, std::size_t capacity, Compute compute)
    : width_(width),
      shard_capacity_((capacity + kShards - 1) / kShards),
      compute_(std::move(compute)) {}

void InputCache::row(std::string_view form, float* out) const {
  Shard& shard = shards_[std::hash<std::string_view>{}(form) % kShards];
  {
    const std::lock_guard<std::mutex> lock(shard.mutex);
    const auto found = shard.index.find(std::string(form));
    if (found != shard.index.end()) {
      std::copy_n(shard.rows.data() + found->second, width_, out);
      return;
    }
  }
  compute_(form, out);  // outside the lock: other threads keep going
  const std::lock_guard<std::mutex> lock(shard.mutex);
  if (shard.index.size() >= shard_capacity_) return;
  // Reserved whole at once (only pages written count as memory), so rows never move.
  if (shard.rows.capacity() == 0) shard.rows.reserve(shard_capacity_ * width_);
  const auto [position, added] = shard.index.emplace(std::string(form), shard.rows.size());
  if (added) shard.rows.insert(shard.rows.end(), out, out + width_);
}

}  // namespace sawtag::infer
