// Choosing one map out of every layer and head: select_map, most_attended.
#include "viz/attention_map.hpp"

#include "sawtag/error.hpp"

namespace sawtag {
namespace viz {

bool has_maps(const AttentionMaps& maps) {
  return maps.num_layers > 0 && maps.num_heads > 0 && maps.num_words > 0 &&
         maps.weights.size() == static_cast<std::size_t>(maps.num_layers) * maps.num_heads *
                                    maps.num_words * maps.num_words;
}

MapChoice resolve(const AttentionMaps& maps, MapChoice choice) {
  if (!has_maps(maps)) throw InputError(std::string("attention: ") + kNoMapsNote);
  if (choice.layer == kLastLayer) choice.layer = maps.num_layers - 1;
  if (choice.layer < 0 || choice.layer >= maps.num_layers) {
    throw InputError("attention: layer " + std::to_string(choice.layer + 1) +
                     " does not exist: the model has " + std::to_string(maps.num_layers) +
                     " layers");
  }
  if (choice.head != kAverageOfHeads && (choice.head < 0 || choice.head >= maps.num_heads)) {
    throw InputError("attention: head " + std::to_string(choice.head + 1) +
                     " does not exist: the model has " + std::to_string(maps.num_heads) +
                     " heads per layer");
  }
  return choice;
}

std::string describe(const AttentionMaps& maps, MapChoice choice) {
  choice = resolve(maps, choice);
  std::string name =
      "layer " + std::to_string(choice.layer + 1) + " of " + std::to_string(maps.num_layers) + ", ";
  if (choice.head == kAverageOfHeads) {
    return name + "mean of " + std::to_string(maps.num_heads) + " heads";
  }
  return name + "head " + std::to_string(choice.head + 1) + " of " + std::to_string(maps.num_heads);
}

}  // namespace viz

AttentionMatrix select_map(const AttentionMaps& maps, MapChoice choice) {
  choice = viz::resolve(maps, choice);
  const int first_head = choice.head == kAverageOfHeads ? 0 : choice.head;
  const int last_head = choice.head == kAverageOfHeads ? maps.num_heads - 1 : choice.head;
  const float share = 1.0f / static_cast<float>(last_head - first_head + 1);
  AttentionMatrix matrix;
  matrix.num_words = maps.num_words;
  matrix.weights.assign(static_cast<std::size_t>(maps.num_words) * maps.num_words, 0.0f);
  for (int head = first_head; head <= last_head; ++head) {
    for (int i = 0; i < maps.num_words; ++i) {
      for (int j = 0; j < maps.num_words; ++j) {
        matrix.weights[static_cast<std::size_t>(i) * maps.num_words + j] +=
            share * maps.at(choice.layer, head, i, j);
      }
    }
  }
  return matrix;
}

std::vector<int> most_attended(const AttentionMatrix& map) {
  std::vector<int> targets(static_cast<std::size_t>(map.num_words), 0);
  for (int i = 0; i < map.num_words; ++i) {
    for (int j = 1; j < map.num_words; ++j) {
      if (map.at(i, j) > map.at(i, targets[i])) targets[i] = j;
    }
  }
  return targets;
}

}  // namespace sawtag
