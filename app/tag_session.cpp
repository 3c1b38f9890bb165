#include "tag_session.hpp"

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

}  // namespace

TagSession::TagSession(std::shared_ptr<const Model> model, const TagSessionOptions& options,
                       OutputFile& output, OutputFile* attention_output)
    : tagger_(model),
      tokenizer_(model->tokenizer),
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
      tag_raw(source);
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

void TagSession::tag_raw(LineSource& source) {
  std::string line;
  bool after_blank = false;
  while (source.next(line)) {
    if (is_blank(line)) {
      emit({});
      after_blank = true;
      continue;
    }
    std::vector<Sentence> sentences = tokenizer_.tokenize(line);
    for (Sentence& sentence : sentences) number(sentence);
    if (after_blank && !sentences.empty()) {
      sentences.front().comments.insert(sentences.front().comments.begin(), "# newpar");
    }
    after_blank = false;
    emit(sentences);
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
  std::vector<TagResult> results(sentences.size());
  std::vector<TaggedSentence> tagged(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    if (!sentences[s].words.empty()) results[s] = tagger_.tag(forms_of(sentences[s]), tag_options_);
    tagged[s] = TaggedSentence{&sentences[s], &results[s]};
    if (attention_writer_) attention_writer_->write(sentences[s], results[s]);
  }
  writer_->write_line(tagged);
  if (interactive_) {
    output_.flush();
    if (attention_output_ != nullptr) attention_output_->flush();
  } else {
    output_.check();  // stop early when the reader has gone
  }
}

}  // namespace sawtag::cli
