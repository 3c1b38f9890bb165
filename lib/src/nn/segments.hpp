// The sentences of a batch, stacked in the rows of one matrix: sentence s owns rows
// [offset(s), offset(s) + length(s)) of every activation matrix. Row-wise steps (linear maps,
// layer norm, the feed-forward network, the loss) run on all rows at once, as one matrix
// product each; only attention, positions and dropout look at where a sentence starts.
//   lengths {3, 2} -> rows 0-2 are sentence 0, rows 3-4 sentence 1.
#pragma once

#include <vector>

namespace sawtag::nn {

class Segments {
 public:
  Segments() = default;
  explicit Segments(std::vector<int> lengths) : lengths_(std::move(lengths)) {
    offsets_.reserve(lengths_.size());
    for (int length : lengths_) {
      offsets_.push_back(rows_);
      rows_ += length;
    }
  }
  // One sentence of n words.
  static Segments single(int n) { return Segments(std::vector<int>{n}); }

  int count() const { return static_cast<int>(lengths_.size()); }
  int rows() const { return rows_; }
  int length(int s) const { return lengths_[static_cast<std::size_t>(s)]; }
  int offset(int s) const { return offsets_[static_cast<std::size_t>(s)]; }
  int longest() const {
    int longest = 0;
    for (int length : lengths_) longest = length > longest ? length : longest;
    return longest;
  }

 private:
  std::vector<int> lengths_;
  std::vector<int> offsets_;
  int rows_ = 0;
};

}  // namespace sawtag::nn
