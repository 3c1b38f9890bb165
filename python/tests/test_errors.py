"""What the module raises: for a missing or invalid model, and for bad input (never a crash)."""

import os
import subprocess

import pytest

import sawtag
from sawtag import _sawtag
from conftest import MODEL, TINY_MODEL


def test_missing_model_file(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        sawtag.Tagger(tmp_path / "missing.json")
    assert raised.value.filename == str(tmp_path / "missing.json")


def test_model_directory(tmp_path):
    with pytest.raises(IsADirectoryError):
        sawtag.Tagger(tmp_path)


def test_sawtag_model_naming_a_missing_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SAWTAG_MODEL", str(tmp_path / "missing.json"))
    with pytest.raises(FileNotFoundError, match="SAWTAG_MODEL"):
        sawtag.Tagger()


def test_model_found_through_sawtag_model(monkeypatch):
    monkeypatch.setenv("SAWTAG_MODEL", TINY_MODEL)
    assert sawtag.Tagger().model_path == TINY_MODEL


def test_no_model_found(monkeypatch, tmp_path):
    monkeypatch.delenv("SAWTAG_MODEL", raising=False)
    monkeypatch.setattr(_sawtag, "_INSTALLED_MODEL", str(tmp_path / "installed.json"))
    monkeypatch.setattr(_sawtag, "_SOURCE_MODEL", str(tmp_path / "source.json"))
    with pytest.raises(FileNotFoundError, match="no model found") as raised:
        sawtag.Tagger()
    assert str(tmp_path / "installed.json") in str(raised.value)


def test_default_model_is_the_source_trees(monkeypatch):
    if not os.path.isfile(MODEL):
        pytest.skip("models/en_ewt.json not found")
    monkeypatch.delenv("SAWTAG_MODEL", raising=False)
    monkeypatch.setattr(_sawtag, "_INSTALLED_MODEL", "")
    assert sawtag.Tagger().model_path == MODEL


@pytest.mark.parametrize("content", [
    "not json at all",
    '{"format": "sawtag-model", "version": 99}',
    '{"format": "something else"}',
])
def test_invalid_model_raises_value_error_with_the_clis_message(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError) as raised:
        sawtag.Tagger(path)
    binary = os.environ.get("SAWTAG_BINARY")
    if binary:
        done = subprocess.run([binary, "info", "-m", str(path)], capture_output=True, text=True,
                              check=False)
        assert done.returncode == 1
        assert done.stderr.strip() == "sawtag: error: " + str(raised.value)


@pytest.mark.parametrize("text, error", [
    (None, TypeError),
    (42, TypeError),
    (b"I saw a saw", TypeError),
    (b"\xff\xfe not UTF-8", TypeError),
    (bytearray(b"abc"), TypeError),
    ([1, 2, 3], TypeError),
    (["I", 2], TypeError),
    ([["I", "saw"], "a saw"], TypeError),
    ([["I", None]], TypeError),
    ([b"bytes"], TypeError),
    ({"I": "saw"}, TypeError),
    ("I saw \udc80 a saw", UnicodeEncodeError),
    (["I", "\ud800"], UnicodeEncodeError),
    (["I", ""], ValueError),
])
def test_bad_text_raises(tagger, text, error):
    for method in (tagger.tag, tagger.attention, tagger.explain):
        with pytest.raises(error):
            method(text)


def test_bad_arguments_raise(tagger):
    with pytest.raises(ValueError, match="threads=0"):
        tagger.tag("I saw", threads=0)
    with pytest.raises(ValueError, match="threads=5000"):
        tagger.explain("I saw", threads=5000)
    with pytest.raises(TypeError):
        tagger.tag("I saw", threads="two")
    with pytest.raises(TypeError):
        tagger.tag_conllu(["I", "saw"])
    with pytest.raises(TypeError):
        tagger.tag_conllu(None)
    with pytest.raises(ValueError, match="input='json'"):
        tagger.tag_conllu("I saw", input="json")
    with pytest.raises(ValueError, match="tags='lemmas'"):
        tagger.tag_conllu("I saw", tags="lemmas")


def test_malformed_conllu_raises_value_error_naming_the_line(tagger):
    with pytest.raises(ValueError, match="<text>:2:"):
        tagger.tag_conllu("# a comment\n1\tI\n", input="conllu")


def test_a_one_megabyte_word_is_tagged(tagger):
    word = "a" * (1 << 20)
    for text in (word, [word], "I saw " + word + " today."):
        sentences = tagger.tag(text)
        assert max(len(w.form) for s in sentences for w in s) == 1 << 20
    (array,) = tagger.attention([word])
    assert array.shape[2:] == (1, 1)


def test_nul_and_odd_characters_are_tagged(tagger):
    sentences = tagger.tag("I\x00saw \u200b a \U0001F600 saw\r\n")
    assert sum(len(sentence) for sentence in sentences) >= 4
