// Just enough JSON text for the output writers, so that only the model file's reader and writer
// (io/model_file.cpp, io/model_reader*, io/model_writer.cpp) include nlohmann/json.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sawtag/sentence.hpp"

namespace sawtag {

// Length of the valid UTF-8 sequence starting at text[i] (1 for ASCII), or 0 when it is
// invalid: bad lead byte, missing continuation, overlong form, surrogate, beyond U+10FFFF.
std::size_t valid_sequence_length(std::string_view text, std::size_t i);

// Appends `text` as a JSON string literal: "say \"hi\"\n" -> "\"say \\\"hi\\\"\\n\"".
// Invalid UTF-8 bytes become U+FFFD so the document stays valid.
void append_json_string(std::string& out, std::string_view text);

// A probability or weight as a JSON number with 4 decimals: 0.98213 -> "0.9821".
std::string format_number(float value);

// Appends `"sent_id":"..",` and `"text":"..",` for those of the sentence's comments it has:
// the opening fields of a sentence object in the JSON outputs and the attention file.
void append_sentence_fields(std::string& out, const Sentence& sentence);

}  // namespace sawtag
