#include "text_input.hpp"

#include <cstddef>
#include <sstream>
#include <utility>

#include "sawtag/conllu.hpp"

namespace sawtag::python {
namespace {

// The limits of app/tag_session.cpp (kMaxParagraphLines, kMaxParagraphBytes) and
// app/tag_chunk.cpp (kPartBytes). python/tests/test_tagger.py checks the module against the CLI
// on a text longer than these.
constexpr std::size_t kMaxParagraphLines = 1000;
constexpr std::size_t kMaxParagraphBytes = std::size_t{16} << 10;
constexpr std::size_t kPartBytes = std::size_t{16} << 10;

constexpr const char* kSpaces = " \t\f\v\r";

bool is_blank(const std::string& line) {
  return line.find_first_not_of(kSpaces) == std::string::npos;
}

// The lines of `text` as the CLI reads them: split at "\n", a trailing "\r" dropped, no line
// after a final "\n".
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    begin = end + 1;
  }
  return lines;
}

struct Paragraph {
  std::string text;
  std::size_t lines = 0;
};

void add_paragraph(Paragraph& paragraph, bool after_blank, const Tokenizer& tokenizer,
                   bool mark_paragraphs, std::vector<Sentence>& sentences) {
  if (paragraph.lines == 0) return;
  bool newpar = after_blank && mark_paragraphs;
  std::size_t begin = 0;
  do {
    TokenizedPart part = tokenizer.tokenize_part(paragraph.text, begin, kPartBytes);
    if (newpar && !part.sentences.empty()) {
      Sentence& first = part.sentences.front();
      first.comments.insert(first.comments.begin(), "# newpar");
      newpar = false;
    }
    for (Sentence& sentence : part.sentences) sentences.push_back(std::move(sentence));
    begin = part.end;
  } while (begin < paragraph.text.size());
  paragraph = Paragraph();
}

}  // namespace

std::vector<Sentence> split_raw_text(const std::string& text, const Tokenizer& tokenizer,
                                     bool mark_paragraphs) {
  std::vector<Sentence> sentences;
  Paragraph paragraph;
  bool after_blank = false;  // the paragraph being gathered follows a blank line
  for (const std::string& line : lines_of(text)) {
    if (is_blank(line)) {
      add_paragraph(paragraph, after_blank, tokenizer, mark_paragraphs, sentences);
      after_blank = true;
      continue;
    }
    if (paragraph.lines > 0) paragraph.text += '\n';
    paragraph.text += line;
    ++paragraph.lines;
    if (paragraph.lines >= kMaxParagraphLines || paragraph.text.size() >= kMaxParagraphBytes) {
      add_paragraph(paragraph, after_blank, tokenizer, mark_paragraphs, sentences);
      after_blank = false;  // the rest continues the same paragraph
    }
  }
  add_paragraph(paragraph, after_blank, tokenizer, mark_paragraphs, sentences);
  return sentences;
}

std::vector<Sentence> split_tokenized_text(const std::string& text) {
  std::vector<Sentence> sentences;
  for (const std::string& line : lines_of(text)) {
    if (is_blank(line)) continue;
    Sentence sentence;
    std::string joined;
    std::size_t begin = line.find_first_not_of(kSpaces);
    while (begin != std::string::npos) {
      const std::size_t end = line.find_first_of(kSpaces, begin);
      Word word;
      word.form = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      if (!joined.empty()) joined += ' ';
      joined += word.form;
      sentence.words.push_back(std::move(word));
      begin = line.find_first_not_of(kSpaces, end);
    }
    sentence.comments.push_back("# text = " + joined);
    sentences.push_back(std::move(sentence));
  }
  return sentences;
}

std::vector<Sentence> read_conllu_text(const std::string& text) {
  std::istringstream in(text);
  ConlluReader reader(in, "<text>");
  std::vector<Sentence> sentences;
  Sentence sentence;
  while (reader.next(sentence)) {
    sentences.push_back(std::move(sentence));
    sentence = Sentence();
  }
  return sentences;
}

void number_sentences(std::vector<Sentence>& sentences) {
  std::size_t next_id = 1;
  for (Sentence& sentence : sentences) {
    auto position = sentence.comments.begin();
    if (position != sentence.comments.end() && position->rfind("# newpar", 0) == 0) ++position;
    sentence.comments.insert(position, "# sent_id = " + std::to_string(next_id++));
  }
}

}  // namespace sawtag::python
