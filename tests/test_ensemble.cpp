#include <catch2/catch.hpp>
#include <memory>

#include "fixtures.hpp"
#include "sawtag/ensemble.hpp"
#include "sawtag/error.hpp"

namespace sawtag {
namespace {

Sentence words_of(const std::vector<std::string>& forms) {
  Sentence sentence;
  for (const std::string& form : forms) {
    Word word;
    word.form = form;
    word.lemma = form + "-lemma";  // the columns besides the tags are kept
    sentence.words.push_back(word);
  }
  return sentence;
}

std::vector<Sentence> sample_sentences() {
  return {words_of({"I", "saw", "a", "saw", "."}), words_of({"the", "dog", "do", "n't", "see"}),
          words_of({"it"}), words_of({"zebra", ",", "I", "saw", "it", "."})};
}

// The mean over `taggers` of each tag's probability, from the public API (top_k = every tag).
std::vector<double> mean_probabilities(const std::vector<const Tagger*>& taggers,
                                       const std::vector<std::string>& forms, std::size_t word,
                                       bool upos) {
  const Vocabulary& tags = upos ? taggers.front()->model().upos : taggers.front()->model().xpos;
  std::vector<double> mean(static_cast<std::size_t>(tags.size()), 0.0);
  TagOptions options;
  options.top_k = 100;
  for (const Tagger* tagger : taggers) {
    const TagResult tagged = tagger->tag(forms, options);
    const WordTags& result = tagged.words[word];
    for (const TagCandidate& candidate : upos ? result.upos_top : result.xpos_top) {
      mean[static_cast<std::size_t>(tags.find(candidate.tag))] +=
          candidate.probability / static_cast<double>(taggers.size());
    }
  }
  return mean;
}

}  // namespace

TEST_CASE("An ensemble of one model tags as that model does", "[ensemble]") {
  const Tagger tagger(std::make_shared<const Model>(testing::make_random_model()));
  std::vector<Sentence> sentences = sample_sentences();
  const EnsembleReport report = ensemble_tag({&tagger}, sentences, {});
  CHECK(report.words == 17);
  CHECK(report.upos_kept == 17);
  CHECK(report.xpos_kept == 17);
  for (const Sentence& sentence : sentences) {
    const std::vector<std::string> forms = word_forms(sentence);
    const TagResult result = tagger.tag(forms);
    for (std::size_t i = 0; i < forms.size(); ++i) {
      CHECK(sentence.words[i].upos == result.words[i].upos);
      CHECK(sentence.words[i].xpos == result.words[i].xpos);
      CHECK(sentence.words[i].lemma == forms[i] + "-lemma");
    }
  }
}

TEST_CASE("An ensemble takes the tag of highest mean calibrated probability", "[ensemble]") {
  Model first = testing::make_random_model(testing::tiny_config(), 1);
  Model second = testing::make_random_model(testing::tiny_config(), 2);
  Model third = testing::make_random_model(testing::tiny_config(), 3);
  second.calibration.upos_temperature = 0.5f;  // each model's own temperatures count
  third.calibration.xpos_temperature = 3.0f;
  const Tagger a(std::make_shared<const Model>(first));
  const Tagger b(std::make_shared<const Model>(second));
  const Tagger c(std::make_shared<const Model>(third));
  const std::vector<const Tagger*> taggers = {&a, &b, &c};
  std::vector<Sentence> sentences = sample_sentences();
  EnsembleOptions options;
  options.threads = 3;  // more threads than some shares have sentences
  ensemble_tag(taggers, sentences, options);
  std::size_t disagreements = 0;  // the models must disagree somewhere for this to test much
  for (const Sentence& sentence : sentences) {
    const std::vector<std::string> forms = word_forms(sentence);
    for (std::size_t i = 0; i < forms.size(); ++i) {
      for (const bool upos : {true, false}) {
        const std::vector<double> mean = mean_probabilities(taggers, forms, i, upos);
        const auto best = std::max_element(mean.begin(), mean.end()) - mean.begin();
        const Vocabulary& tags = upos ? first.upos : first.xpos;
        CHECK((upos ? sentence.words[i].upos : sentence.words[i].xpos) ==
              tags.at(static_cast<int>(best)));
      }
      if (a.tag(forms).words[i].upos != b.tag(forms).words[i].upos) ++disagreements;
    }
  }
  CHECK(disagreements > 0);
}

TEST_CASE("Ensemble tags below --min-prob become _, and the report counts them", "[ensemble]") {
  const Tagger a(
      std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 1)));
  const Tagger b(
      std::make_shared<const Model>(testing::make_random_model(testing::tiny_config(), 2)));
  const std::vector<const Tagger*> taggers = {&a, &b};
  // The threshold: between the two middle words' winning mean UPOS probabilities (so that float
  // rounding cannot put a word on the other side).
  std::vector<double> best_of_word;
  for (const Sentence& sentence : sample_sentences()) {
    const std::vector<std::string> forms = word_forms(sentence);
    for (std::size_t i = 0; i < forms.size(); ++i) {
      const std::vector<double> mean = mean_probabilities(taggers, forms, i, true);
      best_of_word.push_back(*std::max_element(mean.begin(), mean.end()));
    }
  }
  std::vector<double> sorted = best_of_word;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t middle = sorted.size() / 2;
  REQUIRE(sorted[middle] - sorted[middle - 1] > 1e-4);
  const float threshold = static_cast<float>((sorted[middle - 1] + sorted[middle]) / 2);

  std::vector<Sentence> sentences = sample_sentences();
  EnsembleOptions options;
  options.min_probability = threshold;
  const EnsembleReport report = ensemble_tag(taggers, sentences, options);
  std::size_t word = 0;
  std::size_t upos_kept = 0;
  for (const Sentence& sentence : sentences) {
    for (const Word& tagged : sentence.words) {
      const bool sure = best_of_word[word++] >= static_cast<double>(threshold);
      CHECK((tagged.upos == "_") == !sure);
      if (sure) ++upos_kept;
    }
  }
  CHECK(report.upos_kept == upos_kept);
  CHECK(upos_kept > 0);
  CHECK(upos_kept < report.words);
}

TEST_CASE("An ensemble refuses models with other tag sets, and no models", "[ensemble]") {
  Model other = testing::make_random_model();
  other.xpos = Vocabulary({"PRP", "VBD", "DT", "NN", ".", "VBP", "RB", "VB", ","}, "xpos");
  const Tagger a(std::make_shared<const Model>(testing::make_random_model()));
  const Tagger b(std::make_shared<const Model>(other));
  std::vector<Sentence> sentences = sample_sentences();
  CHECK_THROWS_WITH(ensemble_tag({&a, &b}, sentences, {}),
                    "model 2 of the ensemble has other tag sets than the first");
  CHECK_THROWS_AS(ensemble_tag({}, sentences, {}), InputError);
}

}  // namespace sawtag
