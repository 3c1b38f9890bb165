// Tags words with a loaded model. The model is read-only while tagging, so one Tagger can be
// used from many threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sawtag/lemma_rule.hpp"
#include "sawtag/model.hpp"

namespace sawtag {

struct TagOptions {
  int top_k = 0;                   // also return the k most likely tags of each word
  bool capture_attention = false;  // fill TagResult::attention
  bool logits = false;  // fill WordTags::upos_logits and xpos_logits (feats_, lemma_logits)
  // Fill WordTags::lemma_probability and feats_probability (an exponential per class of the
  // morphology heads: hundreds of them; they are 0 otherwise).
  bool morphology_probabilities = false;
  // Fill WordTags::lemma and feats where the model has those heads. false leaves them empty and
  // skips their classifiers (hundreds of classes): a caller that shows only UPOS and XPOS tags
  // as fast as with a model without the heads.
  bool morphology = true;
  // tag_batch() runs about this many words through the network at a time (at least one
  // window). It changes speed and memory, never a result. 256 keeps a batch's activations in a
  // core's L2 cache (256 x d_ff 512 floats = 512 KB): EWT train text tagged 9 % faster than
  // with 1024 on the development machine (docs/performance.md).
  int batch_words = 256;
  // A sentence of more than long_sentence words (or more than Tagger::max_window()) is tagged
  // in overlapping windows of long_sentence_window words (at most that many) starting every
  // long_sentence_step words; each word's tags come from one window and depend only on its
  // words. The models learned from sentences (EWT train: 99.9 % under 88 words, the longest
  // 159; GSD's 111) and tag longer runs of text badly: EWT dev run together as one 25,147-word
  // sentence gets UPOS 95.31 in windows of 32 words every 28 (92.40 in windows of 256 every
  // 128; 95.67 as its own sentences), and is tagged 1.8 times as fast (docs/performance.md,
  // "Long sentences"). With capture_attention, a sentence up to max_window() words is tagged
  // whole, to have its attention maps (its tags may then differ from those without).
  int long_sentence = 64;
  int long_sentence_window = 32;
  int long_sentence_step = 28;
};

struct TagCandidate {
  std::string tag;
  float probability = 0.0f;
};

struct WordTags {
  std::string upos;
  std::string xpos;
  // softmax(logits / temperature) of the chosen tag, with the model's Calibration.
  float upos_probability = 0.0f;
  float xpos_probability = 0.0f;
  std::vector<TagCandidate> upos_top;  // top_k candidates, most likely first
  std::vector<TagCandidate> xpos_top;
  // With TagOptions::logits: the classifiers' raw scores, one per tag in tag-set order.
  std::vector<float> upos_logits;
  std::vector<float> xpos_logits;
  std::vector<float> feats_logits;  // one per Model::feats class, when the model has the head
  std::vector<float> lemma_logits;  // one per Model::lemma_rules rule (both: with morphology)
  // The lemma and the features (CoNLL-U's LEMMA and FEATS columns) when the model has those
  // heads (Model::has_lemmas(), has_feats()); empty otherwise. lemma is the form rewritten by
  // the most likely lemma rule that applies to it (sawtag/lemma_rule.hpp); feats is "_" for no
  // features, else "Name=Value|..." sorted as UD requires.
  std::string lemma;
  std::string feats;
  // Calibrated, of the chosen rule (0 when no rule applied) and FEATS string; only with
  // TagOptions::morphology_probabilities.
  float lemma_probability = 0.0f;
  float feats_probability = 0.0f;
};

// Attention probabilities of every layer and head: weights[((layer * num_heads + head) *
// num_words + i) * num_words + j] is how much word i attends to word j; each row sums to 1.
struct AttentionMaps {
  int num_layers = 0;
  int num_heads = 0;
  int num_words = 0;
  std::vector<float> weights;

  float at(int layer, int head, int i, int j) const {
    return weights[((static_cast<std::size_t>(layer) * num_heads + head) * num_words + i) *
                       num_words + j];
  }
};

struct TagResult {
  std::vector<WordTags> words;
  // Empty unless TagOptions::capture_attention, and also empty for a sentence longer than
  // Tagger::max_window(): such a sentence is tagged in overlapping windows, and no single
  // n x n map describes it.
  AttentionMaps attention;
};

namespace infer {
class NetworkEnsemble;
}
class LemmaChooser;

// How the encoder's matrix products are computed.
enum class TagPrecision {
  // The CPU level's reduced-precision products where it has them, the level chosen at run time
  // by timing (sawtag/cpu_kernels.hpp): int8 summed exactly in int32 (vpdpbusd with
  // AVX512_VNNI: Intel Cascade Lake and later, AMD Zen 4/5), or bfloat16 summed in float32
  // (AMX tiles on Intel Sapphire Rapids and later; vdpbf16ps with AVX512_BF16); float32
  // otherwise. Faster; EWT test accuracy moves by at most a few hundredths of a point
  // (docs/performance.md).
  fastest,
  float32,  // float32 everywhere, on every CPU
};

class Tagger {
 public:
  // Runs the model's self-tests and throws ModelError when one fails. The model's word
  // embedding may be float32 or kept as int8 rows (load_model with Int8WordTable::keep, a
  // quarter of the memory): a row is widened when a word form is first seen, to the same floats,
  // so the output is the same either way. A model with further taggers (Model::ensemble) tags
  // with the mean of their logits and its own. With `run_tasks`, the taggers' networks are
  // built as tasks of it (on several threads): the same networks, the same errors.
  explicit Tagger(std::shared_ptr<const Model> model,
                  TagPrecision precision = TagPrecision::fastest, const TaskRunner& run_tasks = {});

  TagResult tag(const std::vector<std::string>& words, const TagOptions& options = {}) const;

  // Tags many sentences at once, much faster than one by one; result s is of sentences[s], and
  // exactly what tag(sentences[s]) gives.
  std::vector<TagResult> tag_batch(const std::vector<std::vector<std::string>>& sentences,
                                   const TagOptions& options = {}) const;

  // Sentences longer than this many words (or TagOptions::long_sentence) are tagged in
  // overlapping windows: time and memory stay linear in the sentence length.
  int max_window() const;

  const Model& model() const { return *model_; }

 private:
  friend struct TaggerInternals;  // lib/src/tagging/tagger_internals.hpp: the library's own access
  std::shared_ptr<const Model> model_;
  std::shared_ptr<const infer::NetworkEnsemble> network_;  // every tagger's network
  std::shared_ptr<const LemmaChooser> lemmas_;  // lib/src/tagging/lemma_choice.hpp
};

}  // namespace sawtag
