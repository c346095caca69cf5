"""The research memory's strategies: another implementation of one step of the memory, passed in.

Why apart from :class:`graphmem.index.options.MemoryOptions`: those are plain settings the
product ships with; these replace a step with other code (another ranker class, another reply
field, extra scores, a rerank, another embedding score, the tf-idf ranking the bench arms use,
the confidence read with the turn replied to), for an experiment whose code lives with the
benchmark (``bench/memory_locomo.py --compare VARIANT``). The product never imports them: a
benchmark hands them to :func:`graphmem.bench.research.store.research_memory`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from graphmem.domain import Turn
from graphmem.errors import MisuseError
from graphmem.bench.research.ranker import Ranker
from graphmem.search.dense import Encoder

__all__ = ["RANKINGS", "Scorer", "Strategies"]

Scorer = Callable[[str], np.ndarray]
"""A query -> one score per turn."""

RANKINGS = ("bm25", "tfidf")
"""How the research index scores turns: ``bm25`` (the memory's ranking) or ``tfidf`` (the tf-idf
cosine the bench arms use)."""


@dataclass(frozen=True)
class Strategies:
    """One experiment's replacements (defaults: the memory's own steps)."""

    ranking: str = "bm25"
    """``bm25`` or ``tfidf`` (:data:`RANKINGS`)."""

    ranker: Callable[..., Ranker] = Ranker
    """The BM25 ranker, called as :class:`graphmem.bench.research.ranker.Ranker` is: (texts, dates,
    k1=, b=, contexts=, context_weight=, types=, spans=)."""

    contexts: Callable[[Sequence[Turn], Sequence[str], Sequence[int | None]], list[str]] | None = None
    """(turns, utterances, index of the turn each replies to) -> the second field of each turn;
    None: the utterance of the turn it replies to."""

    extra_scores: Callable[[Sequence[Turn], Sequence[str]], Scorer] | None = None
    """(turns, utterances) -> a scorer whose scores are added to the ranker's."""

    rerank: Callable[[list[Turn], set[str]], list[Turn]] | None = None
    """(every turn found, best first; the speakers the query names) -> the turns in the order
    they are returned, applied before the first k are cut."""

    embedding: Callable[[Sequence[Turn], Encoder], Scorer] | None = None
    """(turns, encoder) -> each turn's own embedding score, before it is mixed with the turn it
    replies to; None: its best sentence's cosine."""

    sure_context: bool = False
    """The confidence ``ask`` abstains by is read over the first turn found together with the
    turn it replies to, not over the turn alone (the bench's Sure)."""

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise MisuseError(f"unknown ranking {self.ranking!r}: choose {' or '.join(map(repr, RANKINGS))}")
