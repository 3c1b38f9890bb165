// A fast reader for one JSON array of strings, such as a model's 100,000-word vocabulary, which
// a general JSON parser reads a character at a time into a tree of values.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sawtag::json {

// Called with each 4 MiB of the text a reader is done with (cut_document.hpp's Release). May be
// empty.
using ReleaseText = std::function<void(std::string_view done)>;

// The strings of the JSON array that starts at text[begin] (a '['), and the position just after
// its ']' in *end: ["a", "b\"c"] -> {"a", "b\"c"}. Returns std::nullopt for anything that is not
// such an array, and for what it leaves to a full parser: "\u" escapes, and strings with
// invalid UTF-8 or what no string of a model may hold (model_strings.hpp): a control
// character, raw or escaped ("\t"), or U+2028, U+2029 (a full parser and the loader's checks
// then say what is wrong). So what it accepts needs no further check, and a JSON parser reads
// it as the same strings. `expected_count` (count_string_array's) sizes the list at once.
std::optional<std::vector<std::string>> read_string_array(std::string_view text, std::size_t begin,
                                                          std::size_t* end,
                                                          std::size_t expected_count = 0,
                                                          const ReleaseText& release = {});

// The number of strings of the array read_string_array would read at text[begin], and the
// position after its ']' in *end; std::nullopt where read_string_array's is. Nothing is copied.
std::optional<std::size_t> count_string_array(std::string_view text, std::size_t begin,
                                              std::size_t* end, const ReleaseText& release = {});

// Reads the JSON array at text[begin] whose every element is an array of `width` strings, each
// read as read_string_array reads one, calling take(row) with each row once it is read (the same
// vector each time: take may move its strings away), and sets *end after its ']':
// [["a", "b"], ["c", "d"]] -> take({"a", "b"}), take({"c", "d"}). False for anything else, a
// row of another width included (a full parser and the loader's checks then say what is
// wrong); the rows before the one refused have then been taken.
bool for_each_string_row(std::string_view text, std::size_t begin, std::size_t width,
                         std::size_t* end,
                         const std::function<void(std::vector<std::string>&)>& take,
                         const ReleaseText& release = {});

// The number of rows for_each_string_row would read at text[begin], and the position after its
// ']' in *end; std::nullopt where it returns false (and for a width of 0). Nothing is copied.
std::optional<std::size_t> count_string_rows(std::string_view text, std::size_t begin,
                                             std::size_t width, std::size_t* end,
                                             const ReleaseText& release = {});

// The first string of such an array (count_string_array accepted it and counted at least one);
// when `text` ends inside it, what is there of it.
std::string first_of_string_array(std::string_view text, std::size_t begin);

// The first string of such an array equal to an earlier one: ["a", "b", "a"] -> {2, "a"};
// std::nullopt when all differ. Holds a 64-bit hash of each string (8 bytes a string of
// `count`, count_string_array's), not the strings.
struct RepeatedString {
  std::size_t index = 0;
  std::string text;
};
std::optional<RepeatedString> first_repeated_string(std::string_view text, std::size_t begin,
                                                    std::size_t count,
                                                    const ReleaseText& release = {});

}  // namespace sawtag::json
