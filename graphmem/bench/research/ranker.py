"""The bulk BM25 ranker: every turn's postings built at once into a sparse matrix.

Why on the research side: the product's memory ranks with postings that grow a turn at a time
(:mod:`graphmem.index.postings`), which score bit for bit as this ranker does over the same
turns. This one stays for research: a variant of the ranking (another field normalisation,
feedback, another stemmer: ``bench/memory_locomo.py``'s variants) subclasses it and is handed to
the research memory (:mod:`graphmem.bench.research.store`) as a strategy, without touching the product.

It scores turns with Okapi BM25 (Robertson & Zaragoza's form; idf ``ln(1 + (N - df + 0.5) /
(df + 0.5))``) over the structured query of :mod:`graphmem.index.query`, a turn's reply field at
``context_weight`` (BM25F with one length), and the date and answer-type terms.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date, datetime

import numpy as np
from scipy import sparse

from graphmem.index.query import B, CONTEXT_WEIGHT, K1, query_groups, variants
from graphmem.text.dates import answer_type, days_asked_about
from graphmem.text.terms import analyse

__all__ = ["Ranker"]


def _day_table(dates: Sequence[datetime | None], spans: Sequence[Sequence[tuple[date, date]]] | None):
    """Every run of days a text is about, as arrays (text, first day, last day) in day
    ordinals: the day it was said, then the days it speaks of."""
    owner, first, last = [], [], []
    for i, said in enumerate(dates):
        runs = ([(said.date(), said.date())] if said is not None else []) + list(spans[i] if spans is not None else ())
        for a, b in runs:
            owner.append(i)
            first.append(a.toordinal())
            last.append(b.toordinal())
    return np.array(owner, dtype=np.intp), np.array(first, dtype=np.int64), np.array(last, dtype=np.int64)


class Ranker:
    """BM25 over a fixed set of texts (and, optionally, the date each was said).

    ``contexts`` gives each text a second, weaker field: what it was said in reply to
    (the turn before it). A context term counts ``context_weight`` of a text term, in
    the term frequency and in the length alike (BM25F, Robertson, Zaragoza & Taylor
    2004, with one weight per field and one length normalisation), so "Super good! It
    was rich and creamy" can be found by the coconut-milk ice cream the turn before
    it named, below the turn that named it. Normalising each field by its own length
    instead (the per-field BM25F of TREC-13) was measured on LoCoMo and not kept:
    answerable hit@1 0.451 -> 0.423 (``bench/memory_locomo.py --compare field-norm``).
    """

    def __init__(self, texts: Sequence[str], dates: Sequence[datetime | None] | None = None,
                 k1: float = K1, b: float = B, contexts: Sequence[str] | None = None,
                 context_weight: float = CONTEXT_WEIGHT, types: Mapping[str, Sequence[bool]] | None = None,
                 spans: Sequence[Sequence[tuple[date, date]]] | None = None):
        self.k1, self.b = k1, b
        self.index: dict[str, int] = {}
        if contexts is not None and len(contexts) != len(texts):
            raise ValueError(f"{len(contexts)} contexts for {len(texts)} texts")
        for kind, marks in (types or {}).items():
            if len(marks) != len(texts):
                raise ValueError(f"{len(marks)} {kind!r} marks for {len(texts)} texts")
        rows, cols, vals = [], [], []
        lengths = []
        for i, text in enumerate(texts):
            counts: dict[int, float] = {}
            length = 0.0
            fields = [(text, 1.0)] + ([(contexts[i], context_weight)] if contexts is not None and context_weight else [])
            for field, weight in fields:
                terms = analyse(field)
                length += weight * len(terms)
                for t in terms:
                    j = self.index.setdefault(t, len(self.index))
                    counts[j] = counts.get(j, 0.0) + weight
            lengths.append(length)
            rows.extend([i] * len(counts))
            cols.extend(counts)
            vals.extend(counts.values())
        self.n = len(lengths)
        self.tf = sparse.csc_matrix((np.array(vals, dtype=np.float64), (rows, cols)),
                                    shape=(self.n, max(len(self.index), 1)))
        length = np.array(lengths, dtype=np.float64)
        avg = float(length.mean()) if self.n and length.mean() > 0 else 1.0
        self.norm = k1 * (1.0 - b + b * length / avg)  # the length part of BM25's denominator
        if spans is not None and len(spans) != self.n:
            raise ValueError(f"{len(spans)} day spans for {self.n} texts")
        self._days = _day_table(list(dates) if dates is not None else [None] * self.n, spans)
        self.types = {kind: np.asarray(marks, dtype=bool) for kind, marks in (types or {}).items()}

    def __len__(self) -> int:
        return self.n

    def known(self, term: str) -> bool:
        return term in self.index

    def idf(self, df: float) -> float:
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def groups(self, query: str) -> list[tuple[str, ...]]:
        """The structured query: per source word, the alternative stems some turn contains.

        Groups are kept in query order; a repeated group (the same word twice, or two
        Chinese words glossed the same) is kept once; a group with no known stem is
        dropped (it cannot match).
        """
        return query_groups(query, self.index.__contains__, self.alternatives)

    def alternatives(self, word: str) -> tuple[str, ...]:
        """The stems one lower-case query word stands for (:func:`variants`); a subclass may
        conflate more."""
        return variants(word)

    def _term(self, tf: np.ndarray) -> np.ndarray:
        df = int(np.count_nonzero(tf))
        if df == 0:
            return np.zeros(self.n)
        return self.idf(df) * tf * (self.k1 + 1.0) / (tf + self.norm)

    def date_mask(self, query: str, asked_on: datetime | None = None) -> list[np.ndarray]:
        """Per run of days the query asks about (:func:`days_asked_about`: the dates it names,
        and with ``asked_on`` the days its "last week" speaks of), which turns were said then or
        speak of it (``spans``: "yesterday" said the day after). A span counts when it
        overlaps the date: "last year" speaks of every day of that year, as it may."""
        owner, first, last = self._days
        masks = []
        for lo, hi in days_asked_about(query, asked_on):
            mask = np.zeros(self.n, dtype=bool)
            mask[owner[(first <= hi.toordinal()) & (lo.toordinal() <= last)]] = True
            masks.append(mask)
        return masks

    def scores(self, query: str, dates: bool = True, asked_on: datetime | None = None) -> np.ndarray:
        """BM25 score per text for ``query`` (0 where nothing matches); ``asked_on``: when it
        is asked, which reads its relative dates."""
        out = np.zeros(self.n)
        if self.n == 0:
            return out
        for group in self.groups(query):
            cols = [self.index[a] for a in group]
            tf = np.asarray(self.tf[:, cols].sum(axis=1)).ravel()
            out += self._term(tf)
        masks = self.date_mask(query, asked_on) if dates else []
        kind = answer_type(query)
        if kind in self.types:
            masks.append(self.types[kind])
        for mask in masks:
            df = int(mask.sum())
            if df:  # one occurrence in a turn of average length: tf (k1+1)/(tf+k1) = 1
                out += self.idf(df) * mask
        return out
