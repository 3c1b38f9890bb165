// The walkthrough file, docs/walkthrough-format.md: every step of self-attention for one
// sentence, each matrix a list of rows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "io/json_text.hpp"
#include "sawtag/walkthrough_view.hpp"

namespace sawtag {
namespace {

// 7 significant digits, enough for float32 identities to hold to about 1e-6 relative:
// 0.41270113 -> "0.4127011", 3.2e-9 -> "3.2e-09". JSON has no NaN or infinity: null.
void append_number(std::string& json, float value) {
  if (!std::isfinite(value)) {
    json += "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.7g", static_cast<double>(value));
  json += buffer;
}

class DocumentBuilder {
 public:
  explicit DocumentBuilder(const WalkthroughJsonOptions& options) : options_(options) {}

  // "name":[[...],...] with the matrix's rows (cut as the options say; `weights`: a W matrix).
  void matrix(const char* name, const StepMatrix& matrix, bool weights = false) {
    key(name);
    const int rows = weights ? cut(matrix.rows) : matrix.rows;
    const int cols = cut(matrix.cols);
    json_ += '[';
    for (int r = 0; r < rows; ++r) {
      json_ += r > 0 ? ",[" : "[";
      for (int c = 0; c < cols; ++c) {
        if (c > 0) json_ += ',';
        append_number(json_, matrix.at(r, c));
      }
      json_ += ']';
    }
    json_ += ']';
  }
  // "name":[...] with a one-row matrix's values (a bias).
  void vector(const char* name, const StepMatrix& row) {
    key(name);
    json_ += '[';
    for (int c = 0; c < cut(row.cols); ++c) {
      if (c > 0) json_ += ',';
      append_number(json_, row.at(0, c));
    }
    json_ += ']';
  }
  void number(const char* name, double value) {
    key(name);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.7g", value);
    json_ += buffer;
  }
  void boolean(const char* name, bool value) {
    key(name);
    json_ += value ? "true" : "false";
  }
  void string(const char* name, const std::string& value) {
    key(name);
    append_json_string(json_, value);
  }
  void strings(const char* name, const std::vector<std::string>& values) {
    key(name);
    json_ += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) json_ += ',';
      append_json_string(json_, values[i]);
    }
    json_ += ']';
  }
  void numbers(const char* name, const std::vector<float>& values) {
    key(name);
    json_ += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) json_ += ',';
      append_number(json_, values[i]);
    }
    json_ += ']';
  }
  // Opens "name":{ or "name":[ (or, with no name, a bare { in a list); close() ends it.
  void open(const char* name, char bracket) {
    if (name != nullptr) {
      key(name);
    } else if (!first_) {
      json_ += ',';
    }
    json_ += bracket;
    first_ = true;
  }
  void close(char bracket) {
    json_ += bracket;
    first_ = false;
  }
  void raw_line_break() { json_ += '\n'; }
  const std::string& text() const { return json_; }

 private:
  void key(const char* name) {
    if (!first_) json_ += ',';
    first_ = false;
    append_json_string(json_, name);
    json_ += ':';
  }
  int cut(int count) const {
    return options_.max_columns > 0 ? std::min(count, options_.max_columns) : count;
  }

  const WalkthroughJsonOptions& options_;
  std::string json_;
  bool first_ = true;  // no member written yet in the innermost object or list
};

void write_model(DocumentBuilder& document, const WalkthroughModel& model) {
  document.open("model", '{');
  document.number("d_model", model.d_model);
  document.number("num_heads", model.num_heads);
  document.number("head_dim", model.head_dim);
  document.number("num_layers", model.num_layers);
  document.boolean("relative_position", model.relative_position);
  document.number("max_relative_distance", model.max_relative_distance);
  document.number("layer_norm_epsilon", model.layer_norm_epsilon);
  document.number("num_taggers", model.num_taggers);
  document.close('}');
}

void write_head(DocumentBuilder& document, const HeadSteps& head) {
  document.open(nullptr, '{');
  document.number("head", head.head + 1);
  document.matrix("W_q", head.w_q, true);
  document.vector("b_q", head.b_q);
  document.matrix("W_k", head.w_k, true);
  document.vector("b_k", head.b_k);
  document.matrix("W_v", head.w_v, true);
  document.vector("b_v", head.b_v);
  document.matrix("q", head.q);
  document.matrix("k", head.k);
  document.matrix("v", head.v);
  document.matrix("scores", head.scores);
  document.matrix("position_bias", head.position_bias);
  document.matrix("weights", head.weights);
  document.matrix("b", head.b);
  document.close('}');
}

void write_layer(DocumentBuilder& document, const LayerSteps& layer) {
  document.open(nullptr, '{');
  document.number("layer", layer.layer + 1);
  document.matrix("a", layer.a);
  document.open("heads", '[');
  for (const HeadSteps& head : layer.heads) {
    document.raw_line_break();
    write_head(document, head);
  }
  document.close(']');
  document.matrix("concat", layer.concat);
  document.matrix("W_o", layer.w_o, true);
  document.vector("b_o", layer.b_o);
  document.matrix("output", layer.output);
  document.close('}');
}

}  // namespace

void write_walkthrough_json(std::ostream& out, const Walkthrough& walk,
                            const WalkthroughJsonOptions& options) {
  DocumentBuilder document(options);
  document.open(nullptr, '{');
  document.string("format", "sawtag-walkthrough");
  document.number("version", 1);
  if (options.max_columns > 0) document.number("shown_columns", options.max_columns);
  write_model(document, walk.model);
  document.strings("words", walk.words);
  document.strings("tags", walk.tags);
  document.numbers("probabilities", walk.probabilities);
  document.raw_line_break();
  document.open("input", '{');
  document.matrix("projected", walk.projected);
  document.matrix("position", walk.position);
  document.matrix("a", walk.a);
  document.close('}');
  document.open("layers", '[');
  for (const LayerSteps& layer : walk.layers) {
    document.raw_line_break();
    write_layer(document, layer);
  }
  document.close(']');
  document.close('}');
  out << document.text() << '\n';
}

}  // namespace sawtag
