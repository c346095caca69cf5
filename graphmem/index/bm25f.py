"""BM25F, written once: the idf, the field weights, the length normalisation and the tf saturation.

Why one module of small pure functions: the memory ranks turns in three places that must agree
bit for bit (the live postings, :mod:`graphmem.index.postings`; the research side's bulk ranker;
Neo4j's ``cypher/search_parts.cypher`` and ``cypher/search_bm25f.cypher``), and each used to write
the formula itself. The live and the bulk index call these functions (on floats or on numpy arrays:
the operations are the same, in the same order, so an array's element is the float's value bit for
bit); the Cypher cannot call Python, so each of its expressions names the function it implements
here, and the parity tests hold every side to these functions.

The ranking is Okapi BM25 (Robertson & Zaragoza's form of the idf) over two fields in one term
frequency and one length: a turn's own terms at weight 1 and the turn it replies to at
``CONTEXT_WEIGHT`` (the simple BM25F of Robertson, Zaragoza & Taylor 2004). Normalising each
field by its own length instead was measured and not kept (docs/memory.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

__all__ = ["B", "CONTEXT_WEIGHT", "K1", "average_length", "field_counts", "idf", "length_norm", "saturated"]

K1 = 1.2
"""BM25's term-frequency saturation (the standard value)."""

B = 0.75
"""BM25's length normalisation (the standard value)."""

CONTEXT_WEIGHT = 0.5
"""What a term of the turn a turn replies to counts, against one of the turn itself (BM25F's
field weight of the reply field)."""

Num = TypeVar("Num", float, np.ndarray)


def idf(n: float, df: float) -> float:
    """A term's inverse document frequency among ``n`` documents, ``df`` of which hold it:
    ``ln(1 + (n - df + 0.5) / (df + 0.5))``, never negative however common the term. A date, an
    answer type and the asker's turns are terms of one occurrence in a turn of average length,
    whose saturated frequency is 1: they add this alone."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def field_counts(own: Sequence[str], reply: Sequence[str], weight: float) -> tuple[dict[str, float], float]:
    """A turn's BM25F term frequencies and length: each term's count in the turn's own field plus
    ``weight`` times its count in the reply field, and the fields' lengths weighted alike (one
    length normalisation for both). Counts are added one occurrence at a time, own field first."""
    counts: dict[str, float] = {}
    for t in own:
        counts[t] = counts.get(t, 0.0) + 1.0
    if weight:
        for t in reply:
            counts[t] = counts.get(t, 0.0) + weight
    return counts, float(len(own)) + (weight * len(reply) if weight else 0.0)


def average_length(total: float, n: int) -> float:
    """The average weighted length of ``n`` documents of ``total`` length; 1.0 when there is none
    (or every document is empty), so a length divided by it is defined."""
    avg = total / n if n else 0.0
    return avg if avg > 0 else 1.0


def length_norm(length: Num, avg: float, k1: float, b: float) -> Num:
    """The length part of BM25's denominator: ``k1 * (1 - b + b * length / avg)``."""
    return k1 * (1.0 - b + b * length / avg)


def saturated(weight: float, tf: Num, norm: Num, k1: float) -> Num:
    """A term's contribution to a document's score: its ``weight`` (the idf) times its saturated
    frequency, ``weight * tf * (k1 + 1) / (tf + norm)`` with ``norm`` from :func:`length_norm`."""
    return weight * tf * (k1 + 1.0) / (tf + norm)
