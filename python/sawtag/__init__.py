"""Part-of-speech tagging with sawtag's multi-head self-attention tagger.

    >>> import sawtag
    >>> tagger = sawtag.Tagger()
    >>> [word.upos for word in tagger.tag("I saw a saw")[0]]
    ['PRON', 'VERB', 'DET', 'NOUN']

A thin layer over the C++ library (sawtag._sawtag): tagging runs in C++ with the GIL released,
so one Tagger may be shared by several Python threads. docs/python.md describes the module.
"""

import json
import os

from ._sawtag import Word, _Tagger, __version__
from . import _sawtag

__all__ = ["Tagger", "Word", "__version__"]

_MODEL_FILE = "en_ewt.json"


def _installed_model():
    """<prefix>/share/sawtag/en_ewt.json for this package in <prefix>/lib/python3/dist-packages."""
    place = _sawtag._INSTALLED_MODEL
    if not place:
        return ""
    if os.path.isabs(place):
        return place
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), place))


def _locate_model(model):
    """The model file to load, found as the sawtag command finds it (app/model_locator.cpp):
    the given path, else $SAWTAG_MODEL, else the model installed beside the package, else the
    source tree's models/en_ewt.json. Raises FileNotFoundError when there is none."""
    if model is not None:
        path = os.fspath(model)
        if not os.path.exists(path):
            raise FileNotFoundError(2, "no such model file", path)
        if os.path.isdir(path):
            raise IsADirectoryError(21, "is a directory, expected a model file", path)
        return path
    from_environment = os.environ.get("SAWTAG_MODEL", "")
    if from_environment:
        if not os.path.isfile(from_environment):
            raise FileNotFoundError(
                2, "SAWTAG_MODEL names no model file; fix or unset SAWTAG_MODEL, "
                "or pass Tagger(model=PATH)", from_environment)
        return from_environment
    tried = ["$SAWTAG_MODEL"]
    for candidate in (_installed_model(), _sawtag._SOURCE_MODEL):
        if not candidate:
            continue
        if os.path.isfile(candidate):
            return candidate
        tried.append(candidate)
    raise FileNotFoundError(
        2, "no model found (tried " + ", ".join(tried) +
        "); pass Tagger(model=PATH) or set SAWTAG_MODEL to a model file")


class Tagger(_Tagger):
    """A loaded model, ready to tag. Thread-safe: one Tagger may serve several threads."""

    def __init__(self, model=None, *, float32=False):
        """Loads a model: `model` (a path), else the one the sawtag command would use
        ($SAWTAG_MODEL, the model installed beside this package, the source tree's).

        float32: float32 matrix products even where the CPU has faster int8 or bfloat16 ones (as the
        CLI's --float32); by default the same precision as `sawtag tag`.

        Raises FileNotFoundError when the file does not exist (or no model is found),
        ValueError with the CLI's message when it is not a valid model, OSError when it
        cannot be read."""
        super().__init__(_locate_model(model), float32)

    def explain(self, text, threads=None):
        """Which words each tag depends on, by occlusion: the content of
        `sawtag explain -f json --tags both` (docs/explain-format.md), as Python objects: a
        list with one dict per sentence ({"sent_id", "text", "words": [...]}).

        text and threads as for tag(). Raises ValueError for a sentence longer than the
        model's window."""
        return json.loads(self._explain_json(text, threads))["sentences"]

    @property
    def info(self):
        """What `sawtag info` shows, as a dict: the model's path, licence, CPU kernels,
        architecture, parameter counts, vocabulary sizes, tag sets, tokenizer, calibration,
        self-tests and training record (docs/python.md lists the keys)."""
        return self._info()

    def __repr__(self):
        return "sawtag.Tagger(" + repr(self.model_path) + ")"
