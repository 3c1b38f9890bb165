// The model file: one JSON document, described in docs/model-format.md. This file holds the
// entry points and the file handling: load_model maps the file (a big one's pages released as
// they are read) and parse_model reads text, both with a ModelReader; save_model writes what
// serialize_model gives through a temporary file. The rest, one job a file:
//   model_file_format.hpp            names, the config fields, float byte order; reader and writer
//   model_file_limits.hpp            what a file may hold: the reader's limits
//   model_reader.hpp                 the reader, ModelReader, shared by its parts:
//   model_reader.cpp                   the order of the sections, the parse and its errors,
//                                      the format tag and upgrade() of older versions
//   model_reader_parse_checks.cpp      the checks made while parsing, before the tree holds
//                                      what they refuse
//   model_reader_fields.cpp            typed access to the parsed document, strings checked
//   model_reader_sections.cpp          config, vocabularies, tag sets, tokenizer, training,
//                                      calibration, lemma lexicon, self-tests
//   model_reader_big_vocabulary.cpp    a vocabulary too big to read first, read last
//   model_reader_nested_models.cpp     the learned tokenizer and an ensemble's taggers
//   model_reader_tensors.cpp           the tensors: names, shapes, dtypes, counts, finiteness
//   model_reader_payloads.cpp          base64 payloads decoded; int8 rows and scales
//   model_writer.cpp                 serialize_model
// Before parsing, cut_document.hpp cuts what is big out of the text; string_array.hpp reads the
// vocabulary's words; base64.hpp and float16.hpp decode tensor data.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "io/mapped_file.hpp"
#include "io/model_file_limits.hpp"
#include "io/model_reader.hpp"
#include "sawtag/error.hpp"
#include "sawtag/model.hpp"

namespace sawtag {

using model_file::ModelReader;

Model parse_model(std::string_view text, const std::string& source_name, Int8WordTable word_table,
                  const TaskRunner& run_tasks) {
  return ModelReader(text, source_name, word_table, {}, model_file::Document::file, run_tasks)
      .read();
}

Model load_model(const std::string& path, Int8WordTable word_table, const TaskRunner& run_tasks) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(path + ": is a directory, not a model file");
  }
  const MappedFile file(path, model_file::kMaxFileBytes);
  // A big file's pages are released as the reader is done with them, so that refusing one
  // costs less memory than its size; a smaller one's are kept (reading a page twice costs
  // time: about 1 ms for the 23 MB shipped model).
  json::Release release;
  if (file.text().size() > model_file::kReleasePagesAbove) {
    release = [&file](std::string_view part) { file.release(part); };
  }
  return ModelReader(file.text(), path, word_table, std::move(release), model_file::Document::file,
                     run_tasks)
      .read();
}

void save_model(const Model& model, const std::string& path, TensorEncoding encoding) {
  const std::string text = serialize_model(model, encoding);
  // A temporary file in the same directory, renamed over `path` only once it is complete, so a
  // crash or a full disk never leaves a half-written model behind.
  std::random_device random;
  const std::string temporary = path + ".tmp-" + std::to_string(random());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw OutputError(path + ": cannot create the temporary file " + temporary + ": " +
                        std::strerror(errno));
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw OutputError(path + ": cannot write the model file (disk full?)");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw OutputError(path + ": cannot rename " + temporary + " to it: " + error.message());
  }
}

}  // namespace sawtag
