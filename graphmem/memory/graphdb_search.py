"""Searching a Neo4j memory in the database: Lucene finds the candidates, BM25F ranks them.

Why two steps: Neo4j's full-text index is Lucene, whose BM25 scores each field on its own, while
the memory's ranking is BM25F (a turn's own stems and, at half weight, the stems of the turn it
replies to, in one term frequency and one length; :class:`graphmem.memory.rank.Ranker`), with
structured query groups and date and answer-type terms. So Lucene, over the pre-stemmed fields
:mod:`graphmem.memory.graphdb_rows` writes, returns a bounded candidate set (``candidates``
turns, 200 by default), and the memory re-scores those with its own arithmetic
(:class:`graphmem.memory.postings.Postings`'s, operation for operation) from statistics the
database keeps: the number of indexed turns and their total length (on the Conversation nodes),
each stem's document frequency (on its Term node). A group of several stems and a date are
counted by Lucene itself, in the same statement (``search.cypher``). The person scope is the graph's: the
conversations whose speakers the query names come first, as in the embedded memory.

Nothing is held in the process: a search is one round trip whose cost is set by the query (its
stems' postings in Lucene, its candidates), not by the size of the memory.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from graphmem.data.records import Record
from graphmem.memory.graphdb_rows import mark_of, months
from graphmem.memory.graphdb_write import as_datetime
from graphmem.memory.index import Scoped
from graphmem.memory.options import MemoryOptions
from graphmem.memory.rank import query_groups, variants
from graphmem.neo4j.client import Client
from graphmem.text.dates import answer_type, dates_in, month_span
from graphmem.text.terms import analyse, words

__all__ = ["CANDIDATES", "DbVocabulary", "Searcher"]

CANDIDATES = 200
"""How many turns Lucene proposes per search (and per person scope) for BM25F to re-rank."""


@dataclass(frozen=True)
class _Stats:
    n: int
    total: float
    df: dict[str, int]
    vdf: dict[str, int]
    named: set[str]
    rarest: int | None


class DbVocabulary:
    """The reader's term weights from the database's document frequencies, for the terms
    asked about: scikit-learn's smoothed idf, as :class:`graphmem.memory.live.LiveVocabulary`
    computes it over the same turns."""

    def __init__(self, n: int, vdf: dict[str, int], rarest: int | None):
        self.n, self.vdf = n, vdf
        self.unseen = self._idf(rarest) if rarest else 1.0

    def _idf(self, df: int) -> float:
        return float(np.log(np.float64(self.n + 1) / np.float64(df + 1)) + 1.0)

    def weight(self, term: str) -> float:
        df = self.vdf.get(term)
        return self._idf(df) if df else self.unseen

    def weights(self, terms: Sequence[str]) -> dict[str, float]:
        return {t: self._idf(self.vdf[t]) for t in dict.fromkeys(terms) if self.vdf.get(t)}


class Searcher(Scoped):
    """Search, and the reader's vocabulary, over whatever the database holds now."""

    def __init__(self, client: Client, options: MemoryOptions, scope: bool = True, candidates: int = CANDIDATES):
        self.client, self.options, self.scope, self.candidates = client, options, scope, candidates
        self.people = {}

    # ------------------------------------------------------------------ statistics
    def _stats(self, stems: Sequence[str], query: str) -> _Stats:
        row = self.client.query("search_stats", stems=list(dict.fromkeys(stems)),
                                words=sorted(set(words(query))))[0]
        df = {s: int(d) for s, d, _ in row["dfs"]}
        vdf = {s: int(v) for s, _, v in row["dfs"]}
        return _Stats(int(row["n"] or 0), float(row["total"] or 0.0), df, vdf, set(row["named"]), row["rarest"])

    def count(self) -> int:
        """How many turns the database indexes."""
        return self._stats([], "").n

    def vocabulary(self, question: str, found: Sequence[Record]) -> DbVocabulary:
        """Weights for every term the reader may weigh: the question's and the found turns'."""
        stems = analyse(question) + [s for r in found for s in analyse(r.text)]
        stats = self._stats(stems, "")
        return DbVocabulary(stats.n, stats.vdf, stats.rarest)

    # ------------------------------------------------------------------ search
    def search(self, query: str, k: int, conversation: str | None) -> list[Record]:
        """The k best turns, in one round trip (``search.cypher``) and a re-ranking here."""
        alternatives = query_groups(query, lambda s: True, variants)  # an unknown stem matches nothing
        kind = answer_type(query)
        mark = mark_of(kind) if kind is not None and kind in self.options.answer_types else None
        ranges = [((date(y, m, d),) * 2) if d else month_span(y, m) for y, m, d in dates_in(query)]
        asked = _Parts(alternatives, ranges, mark)
        if asked.empty:
            return []
        stems = [s for g in alternatives for s in g] + ([mark] if mark else [])
        row = self.client.query("search", stems=stems, words=sorted(set(words(query))), scope=self.scope,
                                conversation=conversation, counts=asked.counts(), body=asked.lucene(self.options.context_weight),
                                limit=self.candidates)[0]
        df = {s: int(d) for s, d, _ in row["dfs"]}
        n, total = int(row["n"] or 0), float(row["total"] or 0.0)
        found = {c["key"]: c for c in row["candidates"]}
        if n == 0 or not found:
            return []
        known = [g for g in (tuple(a for a in g if df.get(a, 0) > 0) for g in alternatives)]
        counted = iter(row["counted"])
        dfs, groups, seen = [], [], set()
        for g, alts in zip(known, alternatives, strict=True):
            d = next(counted) if len(alts) > 1 else df.get(alts[0], 0)  # a group's df: turns holding any
            if g and frozenset(g) not in seen:  # query_groups' rule: a group kept once, by its known stems
                seen.add(frozenset(g))
                groups.append(g)
                dfs.append(d)
        parts = _Parts(groups, ranges, mark if mark and df.get(mark, 0) > 0 else None)
        dfs += [next(counted) for _ in ranges] + ([df[mark]] if parts.mark else [])
        scores = _score(found, parts, dfs, n, total, self.options)
        return [_record(found[key]) for key in _ranked(found, scores, k, set(row["named"]))]


@dataclass(frozen=True)
class _Parts:
    """A query's scored parts, in the embedded index's order: word groups, dates, answer type."""

    groups: list[tuple[str, ...]]
    ranges: list[tuple[date, date]]
    mark: str | None

    @property
    def empty(self) -> bool:
        return not self.groups and not self.ranges and self.mark is None

    def counts(self) -> list[dict]:
        """What Lucene counts for the document frequencies (``search.cypher``'s ``counts``): each
        group of several stems, then each date."""
        out = [{"lucene": f"terms:({' '.join(g)}) context:({' '.join(g)})", "lo": None, "hi": None}
               for g in self.groups if len(g) > 1]
        for lo, hi in self.ranges:
            tokens = " ".join(f"mon_{y}_{m} smon_{y}_{m}" for y, m in months(lo, hi))
            out.append({"lucene": f"marks:({tokens})", "lo": lo.toordinal(), "hi": hi.toordinal()})
        return out

    def lucene(self, context_weight: float) -> str:
        clauses = [f"terms:{s} context:{s}^{context_weight}" for g in self.groups for s in g]
        for lo, hi in self.ranges:
            clauses += [f"marks:mon_{y}_{m} marks:smon_{y}_{m}" for y, m in months(lo, hi)]
        if self.mark is not None:
            clauses.append(f"marks:{_phrase(self.mark)}")
        return " ".join(clauses)


def _phrase(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _score(found: dict[str, dict], parts: _Parts, dfs: list[int], n: int, total: float,
           options: MemoryOptions) -> np.ndarray:
    """BM25F of every candidate, with :class:`graphmem.memory.postings.Postings`'s arithmetic."""
    k1, b, w = options.k1, options.b, options.context_weight
    avg = total / n if n else 0.0
    avg = avg if avg > 0 else 1.0
    idf = [math.log(1.0 + (n - df + 0.5) / (df + 0.5)) for df in dfs]
    out = np.zeros(len(found))
    for row_n, row in enumerate(found.values()):
        own, context = Counter((row["terms"] or "").split()), Counter((row["context"] or "").split())
        score = 0.0
        for g, weight in zip(parts.groups, idf, strict=False):
            tf = 0.0
            for s in g:
                tf += own[s] * 1.0 + context[s] * w
            if tf > 0:
                norm = k1 * (1.0 - b + b * float(row["length"]) / avg)
                score += weight * tf * (k1 + 1.0) / (tf + norm)
        at = len(parts.groups)
        for lo, hi in parts.ranges:
            if _on(row, lo.toordinal(), hi.toordinal()):
                score += idf[at]
            at += 1
        if parts.mark is not None and parts.mark[1:].replace("_", " ") in (row["types"] or []):
            score += idf[at]
        out[row_n] = score
    return out


def _on(row: dict, lo: int, hi: int) -> bool:
    """Whether a turn was said in ``lo``..``hi`` or speaks of days overlapping it."""
    if row["day"] is not None and lo <= row["day"] <= hi:
        return True
    return any(a <= hi and lo <= z for a, z in zip(row["span_lo"] or [], row["span_hi"] or [], strict=True))


def _ranked(found: dict[str, dict], scores: np.ndarray, k: int, first: set[str]) -> list[str]:
    """The keys of the k best candidates, the named people's conversations first; ties in the
    order the turns were written (conversation, position), as the embedded memory breaks them
    by ingest order."""
    rows = list(found.values())
    order = sorted((i for i in range(len(rows)) if scores[i] > 0),
                   key=lambda i: (-scores[i], rows[i]["conversation"], rows[i]["position"]))
    if first:
        order = [i for i in order if rows[i]["conversation"] in first] + \
                [i for i in order if rows[i]["conversation"] not in first]
    return [rows[i]["key"] for i in order[:k]]


def _record(row: dict) -> Record:
    return Record(row["key"], row["speaker"], row["text"], as_datetime(row["date"]), row["conversation"], row["number"])
