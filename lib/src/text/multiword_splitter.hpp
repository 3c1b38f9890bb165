// One token -> its syntactic words, as UD English EWT splits contractions and possessives.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sawtag::text {

// The words of `token`, or an empty vector when it is a single word. The table (lower-cased
// token -> lower-cased words) is tried first, then the rules for clitics; each word keeps the
// token's own spelling and casing where the words spell the token:
// "Don't" -> "Do" "n't", "I'M" -> "I" "'M", "Bush's" -> "Bush" "'s", "parents'" -> "parents" "'",
// "cannot" -> "can" "not" (from the table), "can't" -> "ca" "n't", "havent" -> "have" "nt",
// "o'clock" -> {}.
std::vector<std::string> split_multiword(
    const std::string& token, const std::map<std::string, std::vector<std::string>>& table);

// "its" written for "it's": true when the word after it is one that follows "it is" but
// hardly ever the possessive ("its a deal", "its not", "its really"). In EWT "its" before
// these words is the multi-word token "it" "s".
bool its_means_it_is(const std::string& next_word_lowercase);

}  // namespace sawtag::text
