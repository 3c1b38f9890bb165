#include "train/soft_examples.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "sawtag/error.hpp"
#include "sawtag/features.hpp"
#include "sawtag/soft_targets.hpp"

namespace sawtag::train {
namespace {

// For each of the file's classes of one head, the student's index (-1: the student lacks it).
std::vector<int> student_indices(const std::vector<std::string>& classes,
                                 const Vocabulary& student) {
  std::vector<int> indices;
  indices.reserve(classes.size());
  for (const std::string& name : classes) indices.push_back(student.find(name));
  return indices;
}

// Appends one word's row: the student's classes, q^(1/T) renormalised.
void add_row(const std::vector<SoftClass>& teacher, const std::vector<int>& indices,
             double inverse_temperature, nn::SparseDistributions& row) {
  double total = 0.0;
  const std::size_t first = row.classes.size();
  for (const SoftClass& each : teacher) {
    const int index = indices[static_cast<std::size_t>(each.index)];
    if (index < 0) continue;
    const double softened = std::pow(static_cast<double>(each.probability), inverse_temperature);
    row.add(index, static_cast<float>(softened));
    total += softened;
  }
  for (std::size_t k = first; k < row.classes.size(); ++k) {
    row.probabilities[k] = static_cast<float>(row.probabilities[k] / total);
  }
  row.end_row();
}

}  // namespace

std::vector<Example> read_soft_examples(const Model& model, const std::string& path,
                                        float temperature) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the silver data");
  SoftTargetsReader reader(in, path);
  const SoftTargetsHeader& header = reader.header();
  // Per head: the student's vocabulary of that head, or none (the student lacks the head).
  const std::array<const Vocabulary*, kSoftHeads> student = {
      &model.upos, &model.xpos, model.has_feats() ? &model.feats : nullptr,
      model.has_lemmas() ? &model.lemma_rules : nullptr};
  std::array<std::vector<int>, kSoftHeads> indices;
  for (std::size_t h = 0; h < kSoftHeads; ++h) {
    if (student[h] != nullptr) indices[h] = student_indices(header.classes[h], *student[h]);
  }
  const double inverse_temperature = 1.0 / static_cast<double>(temperature);
  std::vector<Example> examples;
  SoftSentence sentence;
  while (reader.next(sentence)) {
    Example example;
    for (const SoftWord& word : sentence) example.words.push_back(word_features(model, word.form));
    example.upos.assign(sentence.size(), -1);
    example.xpos.assign(sentence.size(), -1);
    for (std::size_t h = 0; h < kSoftHeads; ++h) {
      // A head the student lacks, or the file does not fill for every word, stays without rows.
      const bool filled = std::all_of(sentence.begin(), sentence.end(), [h](const SoftWord& word) {
        return !word.heads[h].empty();
      });
      if (student[h] == nullptr || !filled) continue;
      for (const SoftWord& word : sentence) {
        add_row(word.heads[h], indices[h], inverse_temperature, example.soft[h]);
      }
    }
    examples.push_back(std::move(example));
  }
  if (examples.empty()) throw InputError(path + ": no silver sentences");
  return examples;
}

}  // namespace sawtag::train
