// A whole model: config, vocabularies, tag sets, tokenizer tables, training record and weights,
// and its file format (docs/model-format.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sawtag/config.hpp"
#include "sawtag/parameters.hpp"
#include "sawtag/quantized_rows.hpp"
#include "sawtag/task_runner.hpp"
#include "sawtag/vocabulary.hpp"

namespace sawtag {

// "sawtag-model" files of this version are written; older ones are upgraded on load.
inline constexpr const char* kModelFormat = "sawtag-model";
// 2 added dtype "int8", 3 "calibration" and "learned_tokenizer", 4 config.edge_char_dim,
// 5 "ensemble", 6 the morphology heads (tag_sets.feats and tag_sets.lemma_rules), 7
// "lemma_casing" and "lemma_deletions", 8 "lemma_dictionary".
inline constexpr int kModelVersion = 8;
// Written for a model with Model::lemma_casing or lemma_deletions and no lemma_dictionary.
inline constexpr int kModelVersionWithoutLemmaDictionary = 7;
// Written for a model with morphology heads and neither Model::lemma_casing nor
// Model::lemma_deletions.
inline constexpr int kModelVersionWithoutLemmaCasing = 6;
// Written for a model without morphology heads that has an ensemble.
inline constexpr int kModelVersionWithoutMorphology = 5;
// Written for a model of one tagger (no Model::ensemble) with first- and last-character
// embeddings.
inline constexpr int kModelVersionWithoutEnsemble = 4;
// Written for a model without first- and last-character embeddings (edge_char_dim 0) that has a
// calibration or a learned tokenizer.
inline constexpr int kModelVersionWithoutEdgeChars = 3;
// Written for a model with neither a calibration (temperatures of 1) nor a learned tokenizer:
// the lowest version that holds it, so that a sawtag of version 2 still reads every such model.
inline constexpr int kModelVersionWithoutOptionalSections = 2;

// Reserved entries at the start of the vocabularies.
inline constexpr int kUnknownWord = 0;  // words[0] == "<unk>"
inline constexpr int kPaddingChar = 0;  // chars[0] == "<pad>"
inline constexpr int kUnknownChar = 1;  // chars[1] == "<unk>"
inline constexpr int kWordStartChar = 2;  // chars[2] == "<w>"
inline constexpr int kWordEndChar = 3;    // chars[3] == "</w>"

struct Model;

// The most taggers one model file holds: the model and 15 further ones (Model::ensemble).
inline constexpr std::size_t kMaxEnsembleTaggers = 16;

// Tables the tokenizer learns from a treebank.
struct TokenizerData {
  // Lower-cased surface token -> its words: "don't" -> {"do", "n't"}.
  std::map<std::string, std::vector<std::string>> multiword_tokens;
  // Words ending in "." that do not end a sentence: "Mr.", "e.g.".
  std::vector<std::string> abbreviations;
  // A learned tokenizer: a model over characters whose "words" are single characters and whose
  // tags say where words and sentences end (lib/src/text/learned_tokenizer.hpp). When set, it
  // splits raw text instead of the English rules; the tables above still split multi-word
  // tokens. Stored in the file's "learned_tokenizer" section; null for English models.
  std::shared_ptr<const Model> character_model;
};

// How the model was made. Free-form values; shown by `sawtag info`.
struct TrainingRecord {
  std::map<std::string, std::string> fields;  // corpus, command, seed, epochs, dev_upos, date...
};

// Temperatures that make the reported probabilities honest: p = softmax(logits / T), fitted on
// held-out data (a T below 1 sharpens what label smoothing flattened). The best tag does not
// depend on them.
struct Calibration {
  float upos_temperature = 1.0f;
  float xpos_temperature = 1.0f;
  float feats_temperature = 1.0f;  // of the morphology heads, when the model has them
  float lemma_temperature = 1.0f;
};

// A word of the training treebank whose lemma the lemma head's rules need not guess: when the
// tagger gives a word this form, UPOS and XPOS, its lemma is this one.
struct LemmaLexiconEntry {
  std::string form;  // as written: "was"
  std::string upos;  // "AUX"
  std::string xpos;  // "VBD"
  std::string lemma; // "be"
};

// A character the training treebank's lemmas drop from every word of a UPOS that holds it
// ("NUM", ",": "12,000" -> "12000"), learned by `sawtag train` (Model::lemma_deletions).
struct LemmaDeletion {
  std::string upos;       // "NUM"
  std::string character;  // one code point: ","
};

// A word of a dictionary of the language (LemmaDictionary): "fled", "VERB", "flee".
struct LemmaDictionaryEntry {
  std::string form;
  std::string upos;
  std::string lemma;
};

// What a dictionary of the language from outside the training treebank says of the lemmas of
// the UPOS it covers (`sawtag lemma-tables --dictionary`, sawtag/lemma_dictionary.hpp): the
// lemma head's rules guess a word's ending, the dictionary knows which lemmas are words.
struct LemmaDictionary {
  // Per UPOS: the lemmas known to be of that class, lower-cased and separated by single
  // spaces, "able about ..." (the dictionary's that are words of the model's vocabulary, and
  // the training treebank's). One string each, as the file holds it, so that loading stays fast.
  std::map<std::string, std::string> lemmas;
  // Irregular forms (lower-cased) that the training treebank does not have with that UPOS.
  std::vector<LemmaDictionaryEntry> forms;
  // The dictionary's comment lines (its source and licence), kept with what came from it.
  std::string notice;

  bool empty() const { return lemmas.empty() && forms.empty(); }
};

// A sentence with the tags the model must give it; checked when a Tagger is built.
struct SelfTest {
  std::vector<std::string> words;
  std::vector<std::string> upos;
};

struct Model {
  ModelConfig config;
  Vocabulary words;  // lower-cased word forms, "<unk>" first
  Vocabulary chars;  // single code points as UTF-8, the four reserved entries first
  Vocabulary upos;   // UPOS tag set
  Vocabulary xpos;   // XPOS tag set
  // The morphology heads' classes, empty when the model has no such head: whole FEATS strings
  // as the treebank writes them ("_" for none, "Number=Plur", ...), and lemma rules as
  // sawtag::to_string(LemmaRule) writes them (sawtag/lemma_rule.hpp).
  Vocabulary feats;
  Vocabulary lemma_rules;
  // Only with lemma_rules: the (form, UPOS, XPOS) of train whose most frequent lemma is neither
  // the form nor the form lower-cased, with that lemma ("was" AUX VBD -> "be"). Stored in the
  // file's "lemma_lexicon" section.
  std::vector<LemmaLexiconEntry> lemma_lexicon;
  // Only with lemma_rules: characters the lemmas of a UPOS drop, which no lemma rule can (a rule
  // edits the front and the end of a form): a word tagged that UPOS has them deleted from its
  // lemma, before the lemma lexicon is looked at. Stored in the file's "lemma_deletions".
  std::vector<LemmaDeletion> lemma_deletions;
  // Only with lemma_rules: how words are usually written in running text, where that is not
  // lower-case, learned from unlabelled text (sawtag/lemma_casing.hpp): spellings separated by
  // single spaces, "Kerala NASA iPhone", sawtag casing writes them in the order of their
  // lower-cased forms, one each (where there are several, the first counts). A lemma in another
  // casing than its word's usual one is taken only when the lemma head gives it a fair chance
  // ("kerala" -> "Kerala"). One string, as the file's "lemma_casing" section holds it, so that
  // loading stays as fast; empty = no such preference.
  std::string lemma_casing;
  // Only with lemma_rules: a dictionary's irregular forms and known lemmas; empty = none.
  // Stored in the file's "lemma_dictionary" section.
  LemmaDictionary lemma_dictionary;
  TokenizerData tokenizer;
  TrainingRecord training;
  Calibration calibration;
  std::vector<SelfTest> self_tests;
  Parameters parameters;
  // The word embedding as the file stores it, when it is int8 there and the model was loaded
  // with Int8WordTable::keep; parameters.encoder.word_embedding is then empty (no shape, no
  // values). A Tagger reads either; code that reads or changes the float table (training, the
  // nn:: forward pass) calls widen_word_embedding() first.
  std::optional<QuantizedRows> word_embedding_int8;
  // Further taggers (`sawtag ensemble`): the Tagger runs each one's network beside this model's
  // and averages their logits, which this model's calibration then turns into probabilities.
  // Each has its own config, vocabularies and weights, and this model's tag sets; only its
  // network is used (not its tokenizer, calibration or self-tests), and it has no ensemble or
  // learned tokenizer of its own. Stored in the file's "ensemble" section; empty for one tagger.
  std::vector<std::shared_ptr<const Model>> ensemble;

  bool has_feats() const { return feats.size() > 0; }
  bool has_lemmas() const { return lemma_rules.size() > 0; }
};

// Whether two models tag with the same UPOS, XPOS, FEATS and lemma-rule lists, in the same
// order (so that their logits can be averaged column by column).
bool same_tag_sets(const Model& a, const Model& b);

// What loading does with a word embedding stored as int8 rows (dtype "int8", as in the shipped
// model). Every other tensor is always float32 in memory.
enum class Int8WordTable {
  // Widened to float32 into parameters.encoder.word_embedding, as every tensor is: what
  // training and any code reading the weights need.
  widen,
  // Kept as stored in Model::word_embedding_int8: a quarter of the memory, and faster to load.
  // Enough to tag; widen_word_embedding() gives the float32 table later.
  keep
};

enum class TensorEncoding {
  base64,     // base64 of little-endian float32: compact and fast to load (the default)
  json_array,  // plain JSON numbers: readable, easy to produce from any framework
  // base64 of little-endian IEEE binary16 (dtype "float16"): half the size of base64, about
  // three significant digits; loaded back into float32.
  base64_float16,
  // base64_float16, except the word embedding (most of a model's weights), which is stored as
  // one signed byte a value with a float32 scale per row (dtype "int8"): a quarter of float32.
  base64_float16_int8_words
};

// Loads and fully validates a model file. Throws InputError when the file cannot be read and
// ModelError naming the file and the problem otherwise. With `run_tasks`, a learned tokenizer's
// model, an ensemble's taggers, the lemma tables and the tensors are read as tasks of it (on
// several threads): the same model, and the same error for a bad file (the first in the file's
// order).
Model load_model(const std::string& path, Int8WordTable word_table = Int8WordTable::widen,
                 const TaskRunner& run_tasks = {});

// The same from the file's text; `source_name` names it in messages.
Model parse_model(std::string_view text, const std::string& source_name,
                  Int8WordTable word_table = Int8WordTable::widen,
                  const TaskRunner& run_tasks = {});

// Moves a kept int8 word embedding (Model::word_embedding_int8) into
// parameters.encoder.word_embedding as float32: the same floats Int8WordTable::widen loads, to
// the bit. Does nothing when the model holds no int8 table.
void widen_word_embedding(Model& model);

// The model as a JSON document / written to `path` (via a temporary file and a rename). A kept
// int8 word embedding is written as it is with base64_float16_int8_words (the file's bytes come
// back unchanged) and widened for the other encodings.
std::string serialize_model(const Model& model, TensorEncoding encoding = TensorEncoding::base64);
void save_model(const Model& model, const std::string& path,
                TensorEncoding encoding = TensorEncoding::base64);

// Sets config's vocabulary sizes from the model's lists.
void sync_vocabulary_sizes(Model& model);

}  // namespace sawtag
