"""The BM25 baseline LongMemEval's memory is measured against: bm25s over turns and over sessions.

Plain lexical retrieval as a newcomer would run it: bm25s's own tokenizer (lower case, words of
two letters or more, its English stop words, no stemming) and its defaults (Lucene's BM25,
k1 = 1.5, b = 0.75). Only documents sharing a word with the query are ranked, best first (ties
in corpus order), as the memory returns only what matched.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.errors import GraphmemError, install


def need_bm25s() -> None:
    """Raise at once when bm25s (the extra ``longmemeval``) is not installed: the command checks before it
    reads a question, as the baseline would otherwise fail after a minute of the memory's work."""
    if importlib.util.find_spec("bm25s") is None:
        raise GraphmemError(f"graphmem longmemeval needs bm25s for its BM25 baseline: {install('longmemeval')}")


def _bm25s() -> Any:
    try:
        import bm25s  # optional extra (graphmem[longmemeval]): only the LongMemEval baseline needs it
    except ImportError:
        raise GraphmemError(f"the BM25 baseline needs bm25s: {install('longmemeval')}") from None
    return bm25s


def _tokens(texts: Sequence[str]) -> list[list[str]]:
    return _bm25s().tokenize(list(texts), return_ids=False, show_progress=False)


class BM25:
    """One bm25s index over a list of documents, ranking their ids for a query."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str]):
        self.ids = list(ids)
        self._model = _bm25s().BM25()
        self._model.index(_tokens(texts), show_progress=False)

    def rank(self, query: str) -> list[str]:
        """The ids of the documents that match the query, best first."""
        vocab = self._model.vocab_dict
        words = [w for w in _tokens([query])[0] if w in vocab]
        if not words or not self.ids:
            return []
        scores = np.asarray(self._model.get_scores(words))
        order = np.argsort(-scores, kind="stable")
        return [self.ids[i] for i in order if scores[i] > 0]
