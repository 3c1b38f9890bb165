"""Fixtures of the module's tests: the tagger of the shipped model, the CLI to compare with.

ctest sets PYTHONPATH to <build>/python and SAWTAG_BINARY to the sawtag command."""

import os
import subprocess

import pytest

import sawtag

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(SOURCE_DIR, "models", "en_ewt.json")
TINY_MODEL = os.path.join(SOURCE_DIR, "tests", "data", "tiny-model-v1.json")
EWT_TEST = os.environ.get(
    "SAWTAG_EWT_TEST",
    os.path.join(SOURCE_DIR, "..", "shared", "data", "ud-english-ewt", "en_ewt-ud-test.conllu"))


@pytest.fixture(scope="session")
def tagger():
    if not os.path.isfile(MODEL):
        pytest.skip("models/en_ewt.json not found")
    return sawtag.Tagger(MODEL)


@pytest.fixture(scope="session")
def cli():
    """Runs the sawtag command: cli(args..., input=TEXT) -> stdout."""
    binary = os.environ.get("SAWTAG_BINARY", "")
    if not binary or not os.access(binary, os.X_OK):
        pytest.skip("SAWTAG_BINARY (the sawtag command) not set")

    def run(*args, input=""):
        done = subprocess.run([binary, *args], input=input.encode("utf-8"), capture_output=True,
                              check=False)
        assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
        return done.stdout.decode("utf-8")

    return run


@pytest.fixture(scope="session")
def ewt_test_text():
    """The '# text' lines of UD English EWT test, one per line (as bench/tag_speed.sh makes it)."""
    if not os.path.isfile(EWT_TEST):
        pytest.skip(EWT_TEST + " not found (UD English EWT; see data/README.md)")
    with open(EWT_TEST, encoding="utf-8") as conllu:
        return "".join(line[len("# text = "):] for line in conllu if line.startswith("# text = "))
