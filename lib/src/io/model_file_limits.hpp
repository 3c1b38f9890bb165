// What a model file may hold: the limits the reader holds every file to, so that a hostile or
// broken file is refused with a message before it costs much memory or time
// (docs/robustness.md measures each). The limits of the config itself (sizes, the parameter
// count, the tables derived at load) are validate()'s, in lib/src/model/config.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sawtag/model.hpp"

namespace sawtag::model_file {

// What the parser's document tree may hold (estimated: a value's bytes and 64 for each value
// and key), with the strings over 64 KiB the loader restores (the learned tokenizer's document
// aside), the words and the numbers of tensor data arrays aside: sawtag's models need less
// than 1 MB; a vocabulary the fast reader cannot read (written with "\u" escapes) takes about
// 72 bytes a word.
inline constexpr std::size_t kMaxTreeBytes = std::size_t{16} << 20;
inline constexpr std::size_t kValueCost = 64;
// Bigger files are refused before they are read: 250 M float32 parameters (config.cpp's
// limit) are 1.33 GB of base64.
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{2} << 30;
// Files bigger than this have their pages released as they are read (MappedFile::release).
inline constexpr std::size_t kReleasePagesAbove = std::size_t{32} << 20;
// Entries of one JSON array or object, checked while parsing, before the document tree holds
// them (a tree node costs 16 bytes or more). The vocabularies may be as long as config.cpp
// allows; tables (multi-word tokens, abbreviations, training fields...) are far shorter.
inline constexpr std::size_t kMaxVocabularyEntries = 5'000'000;
inline constexpr std::size_t kMaxTableEntries = std::size_t{1} << 16;
// Each self-test is tagged when a Tagger is built: 15,000 take 4 s.
inline constexpr std::size_t kMaxSelfTests = 1024;
// A vocabulary of more words than this, or more bytes of them, is read only once the rest of
// the file is known to be right (check_deferred_words): a word read costs ~50 bytes. The
// shipped models have 20,000 to 60,000 words.
inline constexpr std::size_t kEagerWords = std::size_t{1} << 18;
inline constexpr std::size_t kEagerWordBytes = std::size_t{8} << 20;
// A learned tokenizer's document, as the file writes it (escapes and all): it is copied before
// it is read. The shipped Chinese model's is 5 MB (a character model of 20,000 words, float16).
inline constexpr std::size_t kMaxLearnedTokenizerBytes = std::size_t{16} << 20;
// An ensemble's further taggers (Model::ensemble): 16 taggers in all, each document at most
// this long in the file. The shipped Chinese model's are 5.5 MB each (int8 words).
inline constexpr std::size_t kMaxEnsembleMembers = kMaxEnsembleTaggers - 1;
inline constexpr std::size_t kMaxEnsembleMemberBytes = std::size_t{256} << 20;
// The most entries of "lemma_lexicon" (EWT train gives 6,500).
inline constexpr std::size_t kMaxLemmaLexiconEntries = 10'000'000;

}  // namespace sawtag::model_file
