"""Tagger.tag and Tagger.tag_conllu against the sawtag command."""

import os
import threading

import pytest

import sawtag
from conftest import MODEL, SOURCE_DIR


def upos_of(sentences):
    return [[word.upos for word in sentence] for sentence in sentences]


def cli_tags(cli, text, *args):
    """`sawtag tag -f tsv --tags both` of text: one (forms, upos, xpos) per input line."""
    rows = cli("tag", "-m", MODEL, "-j", "1", "-f", "tsv", "--tags", "both", *args, input=text)
    return [row.split("\t") for row in rows.splitlines() if row]


def test_i_saw_a_saw(tagger):
    sentences = tagger.tag("I saw a saw")
    assert [[word.form for word in sentence] for sentence in sentences] == [["I", "saw", "a", "saw"]]
    assert upos_of(sentences) == [["PRON", "VERB", "DET", "NOUN"]]
    assert [word.xpos for word in sentences[0]] == ["PRP", "VBD", "DT", "NN"]


def test_word_fields(tagger):
    word = tagger.tag("I saw a saw")[0][1]
    assert isinstance(word, sawtag.Word)
    assert 0.5 < word.upos_prob <= 1.0
    assert 0.5 < word.xpos_prob <= 1.0
    # The shipped model has the lemma and FEATS heads.
    assert word.lemma == "see"
    assert "Tense=Past" in word.feats.split("|")
    assert repr(word) == "Word('saw', upos='VERB', xpos='VBD')"
    with pytest.raises(AttributeError):
        word.upos = "NOUN"


def test_probabilities_are_the_clis(tagger, cli):
    rows = cli("tag", "-m", MODEL, "-f", "tsv", "--tags", "both", "--probs", input="I saw a saw\n")
    forms, upos, xpos, upos_probs, xpos_probs = rows.rstrip("\n").split("\t")
    words = tagger.tag("I saw a saw")[0]
    assert [f"{word.upos_prob:.3f}" for word in words] == upos_probs.split(" ")
    assert [f"{word.xpos_prob:.3f}" for word in words] == xpos_probs.split(" ")


def test_pretokenized_sentence_and_sentences(tagger):
    assert upos_of(tagger.tag(["I", "saw", "a", "saw"])) == [["PRON", "VERB", "DET", "NOUN"]]
    assert upos_of(tagger.tag((["I", "saw", "a", "saw"], ("Go", "!")))) == [
        ["PRON", "VERB", "DET", "NOUN"], ["VERB", "PUNCT"]]
    assert tagger.tag([]) == []
    assert tagger.tag([[]]) == [[]]
    assert tagger.tag("") == []
    assert tagger.tag("  \n\n \t\n") == []


def test_raw_text_splits_sentences_and_multiword_tokens(tagger):
    sentences = tagger.tag("Don't go.\n\nI saw it.")
    assert [[word.form for word in sentence] for sentence in sentences] == [
        ["Do", "n't", "go", "."], ["I", "saw", "it", "."]]


def test_threads_do_not_change_tags(tagger):
    text = "I saw a saw. " * 300
    one = tagger.tag(text, threads=1)
    assert len(one) == 300
    assert tagger.tag(text, threads=3) == one
    assert tagger.tag(text) == one


def test_sample_text_equals_cli(tagger, cli):
    with open(os.path.join(SOURCE_DIR, "data", "sample.txt"), encoding="utf-8") as sample:
        text = sample.read()
    words = [word for sentence in tagger.tag(text) for word in sentence]
    expected = [cell for line in cli_tags(cli, text) for cell in zip(*[c.split(" ") for c in line])]
    assert [(word.form, word.upos, word.xpos) for word in words] == expected


def test_long_paragraph_is_cut_as_the_cli_cuts_it(tagger, cli):
    # One paragraph of 20 KB with sentences running over line breaks: the CLI tokenizes it in
    # parts of 16 KB; the module must cut where the CLI does.
    text = "\n".join(f"Line {i} has no end and goes on to the next line" for i in range(400))
    words = [word for sentence in tagger.tag(text) for word in sentence]
    expected = [cell for line in cli_tags(cli, text) for cell in zip(*[c.split(" ") for c in line])]
    assert [(word.form, word.upos, word.xpos) for word in words] == expected
    conllu = cli("tag", "-m", MODEL, "-j", "1", "-f", "conllu", input=text)
    assert tagger.tag_conllu(text) == conllu


def test_ewt_test_raw_text_equals_cli(tagger, cli, ewt_test_text):
    sentences = tagger.tag(ewt_test_text, threads=1)
    words = [(word.form, word.upos, word.xpos) for sentence in sentences for word in sentence]
    expected = [cell for line in cli_tags(cli, ewt_test_text)
                for cell in zip(*[c.split(" ") for c in line])]
    assert len(words) > 20000
    assert words == expected


@pytest.mark.parametrize("input_kind, text", [
    ("raw", "I saw a saw.\nIt cut wood.\n\nDon't go!\n"),
    ("tokenized", "I saw a saw\n\n  Go \t home \r\n"),
])
def test_tag_conllu_equals_cli(tagger, cli, input_kind, text):
    for tags in ("upos", "xpos", "both", "all"):
        expected = cli("tag", "-m", MODEL, "-f", "conllu", "--input", input_kind, "--tags", tags,
                       input=text)
        assert tagger.tag_conllu(text, input_kind, tags=tags) == expected
    expected = cli("tag", "-m", MODEL, "-f", "conllu", "--input", input_kind, "--probs", input=text)
    assert tagger.tag_conllu(text, input_kind, probs=True) == expected


def test_tag_conllu_of_conllu_equals_cli(tagger, cli):
    with open(os.path.join(SOURCE_DIR, "data", "sample.conllu"), encoding="utf-8") as sample:
        text = sample.read()
    expected = cli("tag", "-m", MODEL, "-f", "conllu", "--input", "conllu", "--tags", "both",
                   input=text)
    assert tagger.tag_conllu(text, input="conllu", tags="both") == expected


def test_two_threads_share_one_tagger(tagger):
    texts = ["I saw a saw. " * 200, "Don't go there, she said. " * 200]
    expected = [tagger.tag(text, threads=1) for text in texts]
    results = [None, None]

    def work(index):
        for _ in range(3):
            results[index] = tagger.tag(texts[index], threads=1)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == expected
