"""The live memory's embedding side: only the turns each ingest adds are encoded.

Why apart from the lexical index: the embedding is an optional extra with its own arrays (one
vector per sentence, grown a batch at a time), and its scoring is exact, a product with every
sentence vector; only its encoding is incremental.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.memory.index import with_context
from graphmem.memory.options import MemoryOptions
from graphmem.memory.arrays import Grow
from graphmem.search import dense as embedding

__all__ = ["LiveDense"]


class LiveDense:
    """The embedding side, grown a batch of turns at a time: only new turns are encoded.

    A turn scores as its best sentence's cosine (:class:`graphmem.search.dense.Turns`, whose
    rule this keeps), shared with the turn it replies to at the context weight
    (:func:`graphmem.memory.index.with_context`). Scoring is a product with every sentence
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

    def scores(self, query: str, n: int, replied: Sequence[int | None]) -> np.ndarray:
        own = np.full(n, -1.0)
        if self.rows:
            sims = self.encoder.encode([query], query=True) @ self.matrix[: self.rows].T
            np.maximum.at(own, self.owner.view(), sims[0])
        if not self.options.dense_context:
            return own
        return with_context(lambda _: own, replied, self.options.context_weight)(query)
