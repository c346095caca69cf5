"""A vector store: weighted term vectors with metadata, searched by cosine as matrix products.

The graph arms are this store plus a filter: indexing pieces tagged with a person and
asking for ``Filter.eq("person", who)`` restricts candidates to one person's pieces
without a second store. Searching a batch of questions is one sparse product, not a
Python loop over items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse


@dataclass(frozen=True)
class Filter:
    """Equality on metadata fields; the empty filter admits everything."""

    fields: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def eq(field: str, value: Any) -> Filter:
        return Filter(((field, value),))

    def and_eq(self, field: str, value: Any) -> Filter:
        return Filter(self.fields + ((field, value),))


ALL = Filter()


class Store:
    """Items (rows of a sparse matrix) with metadata columns, ranked by cosine to a query.

    Rows are expected L2-normalised, so the dot product is the cosine. Only items that
    share at least one term with the query (cosine > 0) are ever returned: what an index
    can reach is what it can score, which is what the reach table measures.
    """

    def __init__(self, vectors: sparse.csr_matrix, meta: Mapping[str, Sequence[Any]]):
        self.vectors = sparse.csr_matrix(vectors)
        self.meta = {k: np.asarray(v, dtype=object) for k, v in meta.items()}
        for name, column in self.meta.items():
            if len(column) != self.vectors.shape[0]:
                raise ValueError(f"metadata column {name!r} has {len(column)} values for {self.vectors.shape[0]} items")
        self._masks: dict[tuple[str, Any], np.ndarray] = {}

    def __len__(self) -> int:
        return self.vectors.shape[0]

    def mask(self, where: Filter) -> np.ndarray | None:
        """Boolean mask of the items a filter admits (cached: questions repeat filters)."""
        if not where.fields:
            return None
        out = None
        for key in where.fields:
            m = self._masks.get(key)
            if m is None:
                m = self._masks[key] = self.meta[key[0]] == key[1]
            out = m if out is None else out & m
        return out

    def search(
        self, queries: sparse.csr_matrix, k: int, where: Sequence[Filter] | None = None
    ) -> list[list[tuple[int, float]]]:
        """Top-k (item, cosine) per query row, best first, ties by item order."""
        if len(self) == 0 or queries.shape[0] == 0:
            return [[] for _ in range(queries.shape[0])]
        scores = (sparse.csr_matrix(queries) @ self.vectors.T).toarray()
        results = []
        for row, s in enumerate(scores):
            m = self.mask(where[row]) if where is not None else None
            if m is not None:
                s = np.where(m, s, 0.0)
            results.append(_top(s, k))
        return results


def _top(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k best positive scores, best first; equal scores keep item order (stable)."""
    positive = np.flatnonzero(scores > 0)
    if positive.size > k:
        cut = np.argpartition(-scores[positive], k - 1)[:k]
        kth = scores[positive[cut]].min()
        positive = positive[scores[positive] >= kth]
    order = positive[np.argsort(-scores[positive], kind="stable")][:k]
    return [(int(i), float(scores[i])) for i in order]
