// The attention file, docs/attention-format.md. layers[l][h][i][j] is how much word i attends
// to word j in head h of layer l; each row sums to 1.
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "io/json_text.hpp"
#include "sawtag/output.hpp"

namespace sawtag {
namespace {

// A weight with 7 significant digits, so that a row read back still sums to 1 within 1e-5
// (4 decimals could be off by up to n * 5e-5): 0.41270113 -> "0.4127011", 3.2e-9 -> "3.2e-09".
std::string format_weight(float value) {
  if (!std::isfinite(value)) return "null";  // JSON has no NaN or infinity
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.7g", static_cast<double>(value));
  return buffer;
}

}  // namespace

AttentionWriter::AttentionWriter(std::ostream& out) : out_(out) {
  out_ << "{\"format\":\"sawtag-attention\",\"version\":1,\"sentences\":[";
}

void AttentionWriter::write(const Sentence& sentence, const TagResult& result) {
  const AttentionMaps& maps = result.attention;
  std::string json = first_ ? "\n{" : ",\n{";
  first_ = false;
  append_sentence_fields(json, sentence);
  json += "\"words\":[";
  for (std::size_t i = 0; i < sentence.words.size(); ++i) {
    if (i > 0) json += ',';
    append_json_string(json, sentence.words[i].form);
  }
  json += "],\"tags\":[";
  for (std::size_t i = 0; i < result.words.size(); ++i) {
    if (i > 0) json += ',';
    append_json_string(json, result.words[i].upos);
  }
  json += "],\"layers\":[";
  for (int layer = 0; layer < maps.num_layers; ++layer) {
    json += layer > 0 ? ",[" : "[";
    for (int head = 0; head < maps.num_heads; ++head) {
      json += head > 0 ? ",[" : "[";
      for (int i = 0; i < maps.num_words; ++i) {
        json += i > 0 ? ",[" : "[";
        for (int j = 0; j < maps.num_words; ++j) {
          if (j > 0) json += ',';
          json += format_weight(maps.at(layer, head, i, j));
        }
        json += ']';
      }
      json += ']';
    }
    json += ']';
  }
  json += "]}";
  out_ << json;
}

void AttentionWriter::finish() {
  if (finished_) return;
  out_ << (first_ ? "]}\n" : "\n]}\n");
  finished_ = true;
}

}  // namespace sawtag
