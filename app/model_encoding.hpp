// How `calibrate` and `casing`, which read a model, change a section and write it again, write
// its tensors: as it was written where the loaded model tells (int8 word rows, kept by
// Int8WordTable::keep, mean float16 for the rest), else float16 when asked, else float32.
#pragma once

#include "sawtag/model.hpp"

namespace sawtag::cli {

inline TensorEncoding rewritten_model_encoding(const Model& model, bool float16) {
  return model.word_embedding_int8 ? TensorEncoding::base64_float16_int8_words
         : float16                 ? TensorEncoding::base64_float16
                                   : TensorEncoding::base64;
}

}  // namespace sawtag::cli
