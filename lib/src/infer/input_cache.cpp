#include "infer/input_cache.hpp"

#include <algorithm>
#include <functional>

namespace sawtag::infer {

InputCache::InputCache(int width, std::size_t capacity)
    : width_(width), shard_capacity_((capacity + kShards - 1) / kShards) {}

InputCache::Shard& InputCache::shard_of(std::string_view form) const {
  return shards_[std::hash<std::string_view>{}(form) % kShards];
}

bool InputCache::find(std::string_view form, float* out) const {
  Shard& shard = shard_of(form);
  const std::lock_guard<std::mutex> lock(shard.mutex);
  const auto found = shard.index.find(std::string(form));
  if (found == shard.index.end()) return false;
  std::copy_n(shard.rows.data() + found->second, width_, out);
  return true;
}

void InputCache::insert(std::string_view form, const float* row) const {
  Shard& shard = shard_of(form);
  const std::lock_guard<std::mutex> lock(shard.mutex);
  if (shard.index.size() >= shard_capacity_) return;
  // Grown as rows come, not reserved whole: in a heap of 2 MiB pages (app/huge_page_heap.hpp)
  // the pages of a reserve that are never written would count as memory too. Rows are found
  // by their offset, under the lock, so they may move.
  const auto [position, added] = shard.index.emplace(std::string(form), shard.rows.size());
  if (added) shard.rows.insert(shard.rows.end(), row, row + width_);
}

}  // namespace sawtag::infer
