"""BM25 over dialogue turns with structured queries: one query word, one weight.

A turn is short ("Speaker: utterance", ten to forty words), a question is a sentence
or, for Chinese, a string of keywords glossed into English. :class:`Ranker` scores
turns with Okapi BM25 (Robertson & Zaragoza's form, the standard ``k1 = 1.2``,
``b = 0.75``; idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``), over the same stemmed terms
as the rest of graphmem (:func:`graphmem.text.terms.analyse`).

The query is *structured* (Pirkola 1998; Darwish & Oard's probabilistic structured
queries): it is a list of groups, one per source word, and each group is a set of
alternative terms that stand for that one word:

- a Chinese word's group holds the content words of its CC-CEDICT glosses
  (:func:`graphmem.text.zh.to_english_terms`) that occur in the memory's own vocabulary:
  the memory knows which translations are possible in it, and a gloss no turn contains
  can only add noise. A multiword gloss ("sense of achievement") gives its content
  words as alternatives of the same group;
- an English word's group is its stem, plus the stems of its irregular forms
  (``drawing`` also matches ``drew``; Porter stemming handles the regular ones).

A group is scored as one term: its term frequency in a turn is the sum over its
alternatives, its document frequency the number of turns holding any of them. So a
Chinese word with five glosses weighs what one English word weighs, instead of five
(the flat bag of glosses lets a word with many senses dominate the query).

A date the query names (:func:`graphmem.text.dates.dates_in`: "in May 2023", "on 19 August,
2023") is one more query term, matched by the turns said on that day or in that month
and weighted by its BM25 idf like a word occurring once in a turn of average length;
given ``spans`` (the days each turn speaks of), a turn that speaks of that day matches too.
Given the moment a question is asked (``asked_on``), so do its relative dates ("10 days ago",
"last Saturday": :func:`graphmem.text.dates.days_asked_about`).
So is the type of answer a question asks for (:func:`graphmem.text.dates.answer_type`: when,
how long), given ``types``: matched by the turns that give one
(:data:`graphmem.text.dates.ANSWER_TYPES`: "yesterday", "next month", "for three years").

Measured on bench6 over the pool text as written (k=5, hit@1/hit@5, person scope on,
``bench/bench6_perf.py --configs``): BM25 with structured queries and dates zh 0.94/0.99,
en 0.76/0.89, against 0.73/0.88 in en without the dates. Differences under ~0.16 are not
conclusive at n = 100. What the memory feeds it (vocatives out, the turn replied to as
context, answer types, day spans) was chosen on LoCoMo: see ``graphmem.memory.api``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from functools import lru_cache

import numpy as np
from scipy import sparse

from graphmem.text import zh as lingo
from graphmem.text.dates import answer_type, days_asked_about
from graphmem.text.lemma import IRREGULAR
from graphmem.text.lemma import lemma as lemma_of
from graphmem.text.terms import analyse, content, stem, words

__all__ = ["B", "CONTEXT_WEIGHT", "K1", "Ranker", "family_sets", "query_groups", "variants"]

K1 = 1.2
B = 0.75
CONTEXT_WEIGHT = 0.5
"""What a term of the turn before counts, against one of the turn itself (see Ranker)."""


@lru_cache(maxsize=1)
def _families() -> dict[str, frozenset[str]]:
    """Lemma -> stems of all its irregular forms (went, gone -> go), from the reader's table."""
    fam: dict[str, set[str]] = {}
    for form, lemma in IRREGULAR.items():
        if form.isalpha() and content(form) and content(lemma):
            fam.setdefault(lemma, {stem(lemma)}).add(stem(form))
    return {k: frozenset(v) for k, v in fam.items()}


@lru_cache(maxsize=1)
def family_sets() -> dict[str, tuple[frozenset[str], ...]]:
    """Stem -> the stem sets of the irregular families it belongs to: each set is what
    :func:`variants` gives for a word of that family (its lemma's stem and its forms'), so a
    store that counts turns holding any stem of a set has that query group's document frequency."""
    out: dict[str, list[frozenset[str]]] = {}
    for lemma, fam in _families().items():
        group = fam | {stem(lemma)}
        for s in group:
            out.setdefault(s, []).append(group)
    return {s: tuple(dict.fromkeys(v)) for s, v in out.items()}


@lru_cache(maxsize=None)
def variants(word: str) -> tuple[str, ...]:
    """The stems one lower-case English word stands for: its own stem first, then those of
    its irregular inflections (``drawing`` -> draw, drew, drawn)."""
    own = stem(word)
    lemma = lemma_of(word)
    fam = _families().get(lemma, frozenset())
    extra = sorted((fam | {stem(lemma)}) - {own}) if fam else []
    return (own, *extra)


def query_groups(query: str, known: Callable[[str], bool],
                 alternatives: Callable[[str], tuple[str, ...]] = variants) -> list[tuple[str, ...]]:
    """The structured query (see :meth:`Ranker.groups`) against any index that can say which
    stems it holds: the bulk ranker's and the live memory's postings ask the same question."""
    raw: list[list[str]] = []
    if lingo.has_cjk(query):
        for phrases in lingo.to_english_terms(query):
            alts: list[str] = []
            for phrase in phrases:
                for w in words(phrase):
                    if content(w):
                        alts.extend(alternatives(w))
            raw.append(alts)
    else:
        raw = [list(alternatives(w)) for w in words(query) if content(w)]
    out: list[tuple[str, ...]] = []
    seen: set[frozenset[str]] = set()
    for alts in raw:
        group = tuple(dict.fromkeys(a for a in alts if known(a)))
        key = frozenset(group)
        if group and key not in seen:
            seen.add(key)
            out.append(group)
    return out


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
