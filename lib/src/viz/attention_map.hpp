// Helpers the three attention pictures share: which map a choice resolves to, and its name.
#pragma once

#include <string>

#include "sawtag/attention_view.hpp"

namespace sawtag::viz {

// Why a sentence may come without maps: it is empty, or the Tagger did not capture them.
inline constexpr const char* kNoMapsNote =
    "no attention maps for this sentence (one longer than the model's window is tagged in "
    "overlapping windows, and no single map describes it)";

// Whether `maps` holds every layer and head of a sentence with words.
bool has_maps(const AttentionMaps& maps);

// `choice` with kLastLayer replaced by the real layer (kAverageOfHeads stays). Throws
// InputError when `maps` is empty or the layer or head does not exist in it.
MapChoice resolve(const AttentionMaps& maps, MapChoice choice);

// The map's name as the pictures print it, counting from 1:
// "layer 2 of 3, head 5 of 8" or "layer 3 of 3, mean of 8 heads".
std::string describe(const AttentionMaps& maps, MapChoice choice);

}  // namespace sawtag::viz
