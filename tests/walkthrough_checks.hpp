// The identities a walkthrough file (docs/walkthrough-format.md) must satisfy, checked from its
// JSON numbers alone in double precision: input a = projected + position, position the
// sinusoidal vectors, and in each head q = a W_q + b_q (k, v alike), scores = q k^T / sqrt(d),
// weights = row softmax of scores + position_bias, b = weights v, concat = the heads' b side by
// side, output = concat W_o + b_o. Shared by test_walkthrough.cpp and test_cli_walkthrough.cpp.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

namespace sawtag::testing {

using Rows = std::vector<std::vector<double>>;

inline Rows rows_of(const nlohmann::json& matrix) { return matrix.get<Rows>(); }

// |actual - expected| <= tolerance * max(1, |expected|), element by element.
inline void check_close(const Rows& actual, const Rows& expected, double tolerance,
                        const std::string& what) {
  INFO(what);
  REQUIRE(actual.size() == expected.size());
  for (std::size_t r = 0; r < actual.size(); ++r) {
    REQUIRE(actual[r].size() == expected[r].size());
    for (std::size_t c = 0; c < actual[r].size(); ++c) {
      const double allowed = tolerance * std::max(1.0, std::fabs(expected[r][c]));
      if (std::fabs(actual[r][c] - expected[r][c]) > allowed) {
        FAIL(what << "[" << r << "][" << c << "] = " << actual[r][c] << ", expected "
                  << expected[r][c]);
      }
    }
  }
}

// x W + b: [n, in] x [in, out] + [out].
inline Rows affine(const Rows& x, const Rows& w, const std::vector<double>& b) {
  Rows y(x.size(), std::vector<double>(b.size(), 0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t c = 0; c < b.size(); ++c) {
      double sum = b[c];
      for (std::size_t k = 0; k < w.size(); ++k) sum += x[i][k] * w[k][c];
      y[i][c] = sum;
    }
  }
  return y;
}

inline Rows product_transposed(const Rows& x, const Rows& y, double scale) {
  Rows out(x.size(), std::vector<double>(y.size(), 0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = 0; j < y.size(); ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < x[i].size(); ++k) sum += x[i][k] * y[j][k];
      out[i][j] = scale * sum;
    }
  }
  return out;
}

inline Rows product(const Rows& x, const Rows& y) {
  Rows out(x.size(), std::vector<double>(y.front().size(), 0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t k = 0; k < y.size(); ++k) {
      for (std::size_t c = 0; c < y[k].size(); ++c) out[i][c] += x[i][k] * y[k][c];
    }
  }
  return out;
}

inline Rows softmax_of_sum(const Rows& scores, const Rows& bias) {
  Rows out = scores;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    double top = -INFINITY;
    for (std::size_t j = 0; j < scores[i].size(); ++j) {
      out[i][j] = scores[i][j] + bias[i][j];
      top = std::max(top, out[i][j]);
    }
    double sum = 0;
    for (double& value : out[i]) sum += (value = std::exp(value - top));
    for (double& value : out[i]) value /= sum;
  }
  return out;
}

// e[pos][2k] = sin(pos / 10000^(2k / d)), e[pos][2k + 1] = cos(...).
inline Rows sinusoids(std::size_t n, std::size_t d_model) {
  Rows e(n, std::vector<double>(d_model));
  for (std::size_t pos = 0; pos < n; ++pos) {
    for (std::size_t c = 0; c < d_model; ++c) {
      const double angle = pos / std::pow(10000.0, static_cast<double>(c - c % 2) / d_model);
      e[pos][c] = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
    }
  }
  return e;
}

// Every identity of the document, to `tolerance`; shapes exact.
inline void check_walkthrough_identities(const nlohmann::json& document, double tolerance) {
  REQUIRE(document["format"] == "sawtag-walkthrough");
  REQUIRE(document["version"] == 1);
  const std::size_t n = document["words"].size();
  const auto& model = document["model"];
  const std::size_t d_model = model["d_model"];
  const std::size_t d = model["head_dim"];
  REQUIRE(document["tags"].size() == n);
  const auto& input = document["input"];
  const Rows projected = rows_of(input["projected"]);
  const Rows position = rows_of(input["position"]);
  Rows sum = projected;
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(projected[i].size() == d_model);
    for (std::size_t c = 0; c < d_model; ++c) sum[i][c] += position[i][c];
  }
  check_close(rows_of(input["a"]), sum, tolerance, "input.a = projected + position");
  check_close(position, sinusoids(n, d_model), tolerance, "input.position");
  for (const auto& layer : document["layers"]) {
    const Rows a = rows_of(layer["a"]);
    const Rows concat = rows_of(layer["concat"]);
    REQUIRE(concat.size() == n);
    for (const auto& head : layer["heads"]) {
      const std::size_t first = (head["head"].get<std::size_t>() - 1) * d;
      const Rows q = rows_of(head["q"]);
      const Rows k = rows_of(head["k"]);
      const Rows v = rows_of(head["v"]);
      REQUIRE(head["W_q"].size() == d_model);
      REQUIRE(head["W_q"][0].size() == d);
      check_close(q, affine(a, rows_of(head["W_q"]), head["b_q"]), tolerance, "q = a W_q + b_q");
      check_close(k, affine(a, rows_of(head["W_k"]), head["b_k"]), tolerance, "k = a W_k + b_k");
      check_close(v, affine(a, rows_of(head["W_v"]), head["b_v"]), tolerance, "v = a W_v + b_v");
      const Rows scores = rows_of(head["scores"]);
      check_close(scores, product_transposed(q, k, 1.0 / std::sqrt(static_cast<double>(d))),
                  tolerance, "scores = q k^T / sqrt(d)");
      const Rows weights = rows_of(head["weights"]);
      check_close(weights, softmax_of_sum(scores, rows_of(head["position_bias"])), tolerance,
                  "weights = softmax(scores + position_bias)");
      const Rows b = rows_of(head["b"]);
      check_close(b, product(weights, v), tolerance, "b = weights v");
      Rows columns(n);
      for (std::size_t i = 0; i < n; ++i) {
        columns[i].assign(concat[i].begin() + static_cast<std::ptrdiff_t>(first),
                          concat[i].begin() + static_cast<std::ptrdiff_t>(first + d));
      }
      check_close(columns, b, tolerance, "concat's columns of the head = b");
    }
    check_close(rows_of(layer["output"]), affine(concat, rows_of(layer["W_o"]), layer["b_o"]),
                tolerance, "output = concat W_o + b_o");
  }
}

}  // namespace sawtag::testing
