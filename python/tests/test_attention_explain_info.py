"""Tagger.attention, Tagger.explain and Tagger.info against the sawtag command."""

import json

import numpy
import pytest

from conftest import MODEL


def test_attention_equals_cli_json(tagger, cli):
    text = "I saw a saw. Don't go there, she said!"
    document = json.loads(cli("attention", "-m", MODEL, "-f", "json", text))
    arrays = tagger.attention(text)
    assert len(arrays) == len(document["sentences"]) == 2
    for array, sentence in zip(arrays, document["sentences"]):
        n = len(sentence["words"])
        info = tagger.info["architecture"]
        assert array.dtype == numpy.float32
        assert array.shape == (info["num_layers"], info["num_heads"], n, n)
        assert array.flags["C_CONTIGUOUS"]
        expected = numpy.array(sentence["layers"], dtype=numpy.float64)
        assert numpy.abs(array - expected).max() <= 1e-5
        assert numpy.allclose(array.sum(axis=3), 1.0, atol=1e-5)


def test_attention_of_pretokenized_text_equals_cli(tagger, cli):
    document = json.loads(cli("attention", "-m", MODEL, "-f", "json", "--input", "tokenized",
                              "-", input="I saw a saw\nGo home\n"))
    arrays = tagger.attention([["I", "saw", "a", "saw"], ["Go", "home"]])
    for array, sentence in zip(arrays, document["sentences"]):
        assert numpy.abs(array - numpy.array(sentence["layers"])).max() <= 1e-5


def test_attention_of_a_sentence_longer_than_the_window(tagger):
    window = tagger.info["architecture"]["max_sequence_length"]
    words = ["word"] * (window + 1)
    (array,) = tagger.attention([words])
    assert array.shape == (0, 0, window + 1, window + 1)
    assert tagger.attention([]) == []


def test_explain_equals_cli_json(tagger, cli):
    text = "Can you can a can?"
    expected = json.loads(cli("explain", "-m", MODEL, "-f", "json", "--tags", "both", text))
    assert tagger.explain(text) == expected["sentences"]
    assert tagger.explain(text, threads=1) == expected["sentences"]
    sentence = tagger.explain(["I", "saw", "a", "saw"])[0]
    assert [word["form"] for word in sentence["words"]] == ["I", "saw", "a", "saw"]


def test_explain_refuses_a_sentence_longer_than_the_window(tagger):
    window = tagger.info["architecture"]["max_sequence_length"]
    with pytest.raises(ValueError, match="more than the model's window"):
        tagger.explain([["word"] * (window + 1)])


def test_info_shows_what_sawtag_info_shows(tagger, cli):
    shown = dict(line.split(": ", 1) for line in cli("info", "-m", MODEL).splitlines()
                 if ": " in line and not line.startswith(" "))
    info = tagger.info
    assert info["model"] == MODEL
    assert shown["upos (" + str(len(info["upos"])) + ")"] == " ".join(info["upos"])
    assert shown["xpos (" + str(len(info["xpos"])) + ")"] == " ".join(info["xpos"])
    assert shown["parameters"].split(" ")[0] == str(info["parameters"])
    assert sum(info["parameter_groups"].values()) == info["parameters"]
    assert shown["licence"] == (info["licence"] or "not stated in the model file")
    assert shown["kernels"].startswith(info["kernels"] + " (this CPU: ")
    assert shown["self-tests"] == f"{info['self_tests']} sentences"
    assert shown["vocabulary"] == (f"{info['vocabulary']['words']} words, "
                                   f"{info['vocabulary']['characters']} characters")
    assert shown["architecture"].startswith(f"{info['architecture']['num_layers']} layers, "
                                            f"d_model {info['architecture']['d_model']}")
    assert info["ensemble"] == []
    assert info["training"]


def test_every_public_name_has_a_docstring_and_a_stub():
    import os
    import sawtag
    with open(os.path.join(os.path.dirname(sawtag.__file__), "__init__.pyi")) as stub_file:
        stub = stub_file.read()
    assert sawtag.__doc__ and sawtag.__version__
    for name in ("Tagger", "Word"):
        assert getattr(sawtag, name).__doc__
        assert f"class {name}(" in stub or f"class {name}:" in stub
    for cls in (sawtag.Tagger, sawtag.Word):
        public = [name for name in dir(cls) if not name.startswith("_")]
        assert public
        for name in public:
            assert getattr(cls, name).__doc__, cls.__name__ + "." + name
            assert f"def {name}(" in stub, cls.__name__ + "." + name
