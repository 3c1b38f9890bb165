#include "tag_session.hpp"

#include <algorithm>
#include <cassert>
#include <istream>

#include "sawtag/conllu.hpp"

namespace sawtag::cli {
namespace {

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\f\v") == std::string::npos;
}

std::vector<std::string> forms_of(const Sentence& sentence) {
  std::vector<std::string> forms;
  forms.reserve(sentence.words.size());
  for (const Word& word : sentence.words) forms.push_back(word.form);
  return forms;
}

// "I  saw\ta saw" -> a sentence of the words "I" "saw" "a" "saw".
Sentence split_on_whitespace(const std::string& line) {
  Sentence sentence;
  std::string text;
  std::size_t begin = line.find_first_not_of(" \t\f\v");
  while (begin != std::string::npos) {
    const std::size_t end = line.find_first_of(" \t\f\v", begin);
    Word word;
    word.form = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!text.empty()) text += ' ';
    text += word.form;
    sentence.words.push_back(std::move(word));
    begin = line.find_first_not_of(" \t\f\v", end);
  }
  sentence.comments.push_back("# text = " + text);
  return sentence;
}

// A raw paragraph is read whole, so that a sentence may continue on the next line. To keep
// memory bounded it also ends after kMaxParagraphLines lines, or at the end of the line that
// brings it to kMaxParagraphBytes bytes; a sentence that runs across that point is cut in two
// there (README.md, `--input raw`).
constexpr std::size_t kMaxParagraphLines = 10000;
constexpr std::size_t kMaxParagraphBytes = std::size_t{1} << 20;

// The words of one input line: whole sentences, or the part on this line of a sentence that
// runs over several lines (tagged as one sentence, written split). results[p] is of pieces[p].
struct LinePieces {
  std::vector<Sentence> pieces;
  std::vector<TagResult> results;
};

}  // namespace

// The lines joined by "\n", and where each begins in that text.
struct TagSession::Paragraph {
  std::string text;
  std::vector<std::size_t> line_starts;

  void add(const std::string& line) {
    if (!line_starts.empty()) text += '\n';
    line_starts.push_back(text.size());
    text += line;
  }
  bool empty() const { return line_starts.empty(); }
  bool full() const {
    return line_starts.size() >= kMaxParagraphLines || text.size() >= kMaxParagraphBytes;
  }
};

namespace {

// The line (0-based) that holds byte `offset`, given where each line starts (ascending, from 0).
std::size_t line_of(const std::vector<std::size_t>& line_starts, std::size_t offset) {
  const auto after = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return after == line_starts.begin() ? 0
                                      : static_cast<std::size_t>(after - line_starts.begin()) - 1;
}

// Splits tagged sentences by the input line where each word's token begins:
// "I saw\nit. Go." -> line 0: "I" "saw" (of sentence 1); line 1: "it" "." (of sentence 1),
// "Go" "." (sentence 2). Lines without words get no pieces.
std::vector<LinePieces> split_by_line(const std::vector<Sentence>& sentences,
                                      const std::vector<TagResult>& results,
                                      const std::vector<std::size_t>& line_starts) {
  const std::size_t num_lines = line_starts.size();
  std::vector<LinePieces> lines(num_lines);
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    const Sentence& sentence = sentences[s];
    assert(sentence.word_spans.size() == sentence.words.size());
    assert(results[s].words.size() == sentence.words.size());
    std::size_t current_line = num_lines;  // none yet
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
      const std::size_t begin = i < sentence.word_spans.size() ? sentence.word_spans[i].begin : 0;
      const std::size_t line = line_of(line_starts, begin);
      if (line != current_line) {
        lines[line].pieces.emplace_back();
        lines[line].results.emplace_back();
        current_line = line;
      }
      lines[line].pieces.back().words.push_back(sentence.words[i]);
      if (i < results[s].words.size()) {
        lines[line].results.back().words.push_back(results[s].words[i]);
      }
    }
  }
  return lines;
}

}  // namespace

TagSession::TagSession(std::shared_ptr<const Model> model, const TagSessionOptions& options,
                       OutputFile& output, OutputFile* attention_output)
    : tagger_(model),
      tokenizer_(model->tokenizer, TokenizerOptions{options.sentence_per_line}),
      options_(options),
      output_(output),
      writer_(make_output_writer(output.stream(), options.output)),
      attention_output_(attention_output) {
  tag_options_.top_k = options.output.top_k;
  tag_options_.capture_attention = attention_output != nullptr;
  if (attention_output != nullptr) {
    attention_writer_ = std::make_unique<AttentionWriter>(attention_output->stream());
  }
}

void TagSession::tag(LineSource& source) {
  interactive_ = source.is_terminal();
  switch (options_.input) {
    case InputKind::raw:
      // On a terminal each line is answered at once, so it cannot wait for the paragraph's end.
      if (options_.sentence_per_line || interactive_) {
        tag_raw_lines(source);
      } else {
        tag_raw_paragraphs(source);
      }
      break;
    case InputKind::tokenized:
      tag_tokenized(source);
      break;
    case InputKind::conllu:
      tag_conllu(source);
      break;
  }
}

void TagSession::finish() {
  writer_->finish();
  if (attention_writer_) attention_writer_->finish();
}

// "# sent_id = N" before "# text", after "# newpar".
void TagSession::number(Sentence& sentence) {
  auto position = sentence.comments.begin();
  if (position != sentence.comments.end() && position->rfind("# newpar", 0) == 0) ++position;
  sentence.comments.insert(position, "# sent_id = " + std::to_string(next_sentence_id_++));
}

void TagSession::tag_raw_lines(LineSource& source) {
  std::string line;
  bool after_blank = false;
  while (source.next(line)) {
    if (is_blank(line)) {
      emit({});
      after_blank = true;
      continue;
    }
    Paragraph paragraph;
    paragraph.add(line);
    emit_paragraph(paragraph, after_blank);
    after_blank = false;
  }
}

void TagSession::tag_raw_paragraphs(LineSource& source) {
  std::string line;
  Paragraph paragraph;
  bool after_blank = false;  // the paragraph being gathered follows a blank line
  while (source.next(line)) {
    if (is_blank(line)) {
      emit_paragraph(paragraph, after_blank);
      paragraph = Paragraph();
      emit({});
      after_blank = true;
      continue;
    }
    paragraph.add(line);
    if (paragraph.full()) {  // the rest continues the same paragraph: no "# newpar"
      emit_paragraph(paragraph, after_blank);
      paragraph = Paragraph();
      after_blank = false;
    }
  }
  emit_paragraph(paragraph, after_blank);
}

void TagSession::emit_paragraph(const Paragraph& paragraph, bool after_blank) {
  if (paragraph.empty()) return;
  std::vector<Sentence> sentences = tokenizer_.tokenize(paragraph.text);
  for (Sentence& sentence : sentences) number(sentence);
  if (after_blank && !sentences.empty()) {
    sentences.front().comments.insert(sentences.front().comments.begin(), "# newpar");
  }
  const std::vector<TagResult> results = tag_sentences(sentences);
  const OutputFormat format = options_.output.format;
  if (format != OutputFormat::text && format != OutputFormat::tsv) {
    std::vector<TaggedSentence> tagged(sentences.size());
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      tagged[s] = TaggedSentence{&sentences[s], &results[s]};
    }
    write_line(tagged);
    return;
  }
  // text and tsv: one output line per input line.
  const std::vector<LinePieces> lines = split_by_line(sentences, results, paragraph.line_starts);
  for (const LinePieces& line : lines) {
    std::vector<TaggedSentence> tagged(line.pieces.size());
    for (std::size_t p = 0; p < line.pieces.size(); ++p) {
      tagged[p] = TaggedSentence{&line.pieces[p], &line.results[p]};
    }
    write_line(tagged);
  }
}

void TagSession::tag_tokenized(LineSource& source) {
  std::string line;
  while (source.next(line)) {
    if (is_blank(line)) {
      emit({});
      continue;
    }
    std::vector<Sentence> sentences{split_on_whitespace(line)};
    number(sentences.front());
    emit(sentences);
  }
}

void TagSession::tag_conllu(LineSource& source) {
  LineSourceBuffer buffer(source);
  std::istream in(&buffer);
  ConlluReader reader(in, source.name());
  std::vector<Sentence> sentences(1);
  while (true) {
    sentences.front() = Sentence();
    if (!reader.next(sentences.front())) break;
    emit(sentences);
  }
  buffer.rethrow_error();
}

void TagSession::emit(const std::vector<Sentence>& sentences) {
  const std::vector<TagResult> results = tag_sentences(sentences);
  std::vector<TaggedSentence> tagged(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    tagged[s] = TaggedSentence{&sentences[s], &results[s]};
  }
  write_line(tagged);
}

std::vector<TagResult> TagSession::tag_sentences(const std::vector<Sentence>& sentences) {
  std::vector<TagResult> results(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    if (!sentences[s].words.empty()) results[s] = tagger_.tag(forms_of(sentences[s]), tag_options_);
    if (attention_writer_) attention_writer_->write(sentences[s], results[s]);
  }
  return results;
}

void TagSession::write_line(const std::vector<TaggedSentence>& tagged) {
  writer_->write_line(tagged);
  if (interactive_) {
    output_.flush();
    if (attention_output_ != nullptr) attention_output_->flush();
  } else {
    output_.check();  // stop early when the reader has gone
  }
}

}  // namespace sawtag::cli
