// What the training tests share: gold sentences written inline, and the options of a tiny model
// that learns a handful of sentences in a second.
#pragma once

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "sawtag/sentence.hpp"
#include "sawtag/training.hpp"

namespace sawtag::testing {

// "form/UPOS/XPOS/lemma/FEATS ..." -> a gold sentence (FEATS may hold "|" but not "/").
inline Sentence gold_with_morphology(const std::string& line) {
  Sentence sentence;
  std::istringstream in(line);
  std::string item;
  while (in >> item) {
    std::vector<std::string> parts;
    std::istringstream fields(item);
    std::string part;
    while (std::getline(fields, part, '/')) parts.push_back(part);
    REQUIRE(parts.size() == 5);
    Word word;
    word.form = parts[0];
    word.upos = parts[1];
    word.xpos = parts[2];
    word.lemma = parts[3];
    word.feats = parts[4];
    sentence.words.push_back(word);
  }
  return sentence;
}

// A 1-layer model of width 16 without dropout, label smoothing, weight averaging or a vector
// anchor (each has its own tests), every word in the vocabulary; change epochs, threads and
// seed as a test needs.
inline TrainOptions tiny_train_options() {
  TrainOptions options;
  options.config.word_dim = 16;
  options.config.char_dim = 8;
  options.config.char_widths = {2, 3};
  options.config.char_filters = 8;
  options.config.shape_dim = 4;
  options.config.d_model = 16;
  options.config.num_heads = 2;
  options.config.num_layers = 1;
  options.config.d_ff = 32;
  options.config.max_relative_distance = 4;
  options.min_word_count = 1;
  options.epochs = 40;
  options.batch_size = 2;
  options.learning_rate = 1e-2f;
  options.warmup_steps = 5;
  options.dropout = 0.0f;
  options.word_dropout = 0.0f;
  options.label_smoothing = 0.0f;
  options.patience = 1000;
  options.average_decay = 0.0f;
  options.vector_anchor = 0.0f;
  options.threads = 2;
  options.seed = 42;
  return options;
}

}  // namespace sawtag::testing
