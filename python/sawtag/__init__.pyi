"""Type stubs of the sawtag module (docs/python.md)."""

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Union

import numpy
import numpy.typing

__version__: str

# A str of raw text, a list of str (one sentence of words) or a list of lists of str.
Text = Union[str, Sequence[str], Sequence[Sequence[str]]]

class Word:
    """One tagged word (read-only)."""

    @property
    def form(self) -> str:
        """The word as the tokenizer gave it ("n't")."""
    @property
    def upos(self) -> str:
        """Universal part of speech (NOUN, VERB, ...)."""
    @property
    def xpos(self) -> str:
        """Language-specific tag (Penn Treebank: NN, VBD, ...)."""
    @property
    def upos_prob(self) -> float:
        """Calibrated probability of upos, as `sawtag tag --probs` writes it."""
    @property
    def xpos_prob(self) -> float:
        """Calibrated probability of xpos."""
    @property
    def lemma(self) -> Optional[str]:
        """Lemma, or None when the model does not predict lemmas."""
    @property
    def feats(self) -> Optional[str]:
        """Morphological features, or None when the model does not predict them."""

class _Tagger:
    def __init__(self, path: str, float32: bool = False) -> None: ...
    @property
    def model_path(self) -> str:
        """The path of the loaded model file."""
    def tag(self, text: Text, threads: Optional[int] = None) -> List[List[Word]]:
        """Tags text; returns a list of sentences, each a list of Word. The GIL is released
        while tagging; threads=None uses every core."""
    def tag_conllu(
        self,
        text: str,
        input: Literal["raw", "tokenized", "conllu"] = "raw",
        *,
        tags: Literal["upos", "xpos", "both", "all"] = "all",
        probs: bool = False,
    ) -> str:
        """What `sawtag tag -f conllu --input INPUT --tags TAGS [--probs]` writes for text."""
    def attention(
        self, text: Text, threads: Optional[int] = None
    ) -> List[numpy.typing.NDArray[numpy.float32]]:
        """One float32 array per sentence, shape (layers, heads, n, n), as
        `sawtag attention -f json`; (0, 0, n, n) for a sentence longer than the window."""
    def _explain_json(self, text: Text, threads: Optional[int] = None) -> str: ...
    def _info(self) -> Dict[str, Any]: ...

class Tagger(_Tagger):
    """A loaded model, ready to tag. Thread-safe: one Tagger may serve several threads."""

    def __init__(
        self, model: Union[str, os.PathLike[str], None] = None, *, float32: bool = False
    ) -> None:
        """Loads `model`, else the model the sawtag command would use. Raises
        FileNotFoundError for a missing file, ValueError for an invalid model."""
    def explain(self, text: Text, threads: Optional[int] = None) -> List[Dict[str, Any]]:
        """The content of `sawtag explain -f json --tags both`: one dict per sentence."""
    @property
    def info(self) -> Dict[str, Any]:
        """What `sawtag info` shows, as a dict."""
