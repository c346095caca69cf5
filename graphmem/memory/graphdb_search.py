"""Searching a Neo4j memory in the database: Lucene proposes candidates, BM25F ranks them there.

Why two steps: Neo4j's full-text index is Lucene, whose BM25 scores each field on its own, while
the memory's ranking is BM25F (a turn's own stems and, at half weight, the stems of the turn it
replies to, in one term frequency and one length; :class:`graphmem.memory.rank.Ranker`), with
structured query groups and date and answer-type terms. So Lucene, over the pre-stemmed fields
:mod:`graphmem.memory.graphdb_rows` writes, proposes a bounded candidate set (``candidates``
turns, 100 by default, and as many again within the conversations of the people the query
names), and ``search_ranked.cypher`` scores those by the memory's own arithmetic
(:class:`graphmem.memory.postings.Postings`'s, operation for operation) and returns the k best.
Its statistics come from what the database keeps (``search_stats.cypher``): the number of
indexed turns and their total length (on the Conversation nodes), each stem's document
frequency (on its Term node), and, counted by Lucene in the same round trip, the document
frequency of a group of several stems or of a date. The person scope is the graph's: the
conversations whose speakers the query names come first, as in the embedded memory.

Nothing is held in the process: a search is two round trips whose cost is set by the query (its
stems' postings in Lucene, its candidates), not by the size of the memory, and only the k turns
it returns travel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np

from graphmem.data.records import Record
from graphmem.memory.graphdb_rows import family_token, mark_of, month_token, said_token
from graphmem.memory.graphdb_write import as_datetime
from graphmem.memory.index import Scoped
from graphmem.memory.options import MemoryOptions
from graphmem.memory.rank import family_sets, query_groups, variants
from graphmem.neo4j.client import Client
from graphmem.text.dates import answer_type, dates_in, month_span, months_touched as months
from graphmem.text.terms import analyse, words

__all__ = ["CANDIDATES", "DbVocabulary", "Searcher"]

CANDIDATES = 100
"""How many turns Lucene proposes per search (and per person scope) for BM25F to re-rank. Chosen
on LoCoMo (``python bench/neo4j_memory.py quality --candidates 200,100``): the same evidence
hit@5 (0.713, the embedded memory's) at 100 and 200, identical top 5 for 1,973 and 1,978 of
1,981 questions, and a search under half as long at 100 in that run."""


@dataclass(frozen=True)
class _Stats:
    n: int
    total: float
    df: dict[str, int]
    vdf: dict[str, int]
    named: set[str]
    rarest: int | None
    counted: list[int]


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
    def _stats(self, stems: Sequence[str], query: str = "", counts: Sequence[dict] = (), scope: bool = False) -> _Stats:
        row = self.client.query("search_stats", stems=list(dict.fromkeys(stems)), words=sorted(set(words(query))),
                                counts=list(counts), scope=scope)[0]
        df = {s: int(d) for s, d, _ in row["dfs"]}
        vdf = {s: int(v) for s, _, v in row["dfs"]}
        return _Stats(int(row["n"] or 0), float(row["total"] or 0.0), df, vdf, set(row["named"]), row["rarest"],
                      [int(c) for c in row["counted"]])

    def count(self) -> int:
        """How many turns the database indexes."""
        return self._stats([]).n

    def vocabulary(self, question: str, found: Sequence[Record]) -> DbVocabulary:
        """Weights for every term the reader may weigh: the question's and the found turns'."""
        stats = self._stats(analyse(question) + [s for r in found for s in analyse(r.text)])
        return DbVocabulary(stats.n, stats.vdf, stats.rarest)

    # ------------------------------------------------------------------ search
    def search(self, query: str, k: int, conversation: str | None) -> list[Record]:
        """The k best turns: the statistics in one round trip, the ranking in a second
        (``search_ranked.cypher``), which returns only those k."""
        alternatives = query_groups(query, lambda s: True, variants)  # an unknown stem matches nothing
        kind = answer_type(query)
        mark = mark_of(kind) if kind is not None and kind in self.options.answer_types else None
        ranges = [((date(y, m, d),) * 2) if d else month_span(y, m) for y, m, d in dates_in(query)]
        asked = _Parts(alternatives, ranges, mark)
        if asked.empty:
            return []
        stems = [s for g in alternatives for s in g] + ([mark] if mark else [])
        ways, counts = _frequencies(alternatives, ranges)
        stems += [way[1] for plan in ways for way in plan if way[0] == "df"]
        stats = self._stats(stems, query, counts, self.scope and conversation is None)
        if stats.n == 0:
            return []
        idf = _Idf(stats.n)

        def df(plan: list[tuple]) -> int:
            return sum(stats.df.get(way[1], 0) if way[0] == "df" else stats.counted[way[1]] for way in plan)

        groups, seen = [], set()
        for alts, plan in zip(alternatives, ways[:len(alternatives)], strict=True):
            known = tuple(a for a in alts if stats.df.get(a, 0) > 0)
            if known and frozenset(known) not in seen:  # query_groups' rule: a group kept once, by its known stems
                seen.add(frozenset(known))
                groups.append({"stems": list(known), "idf": idf(df(plan))})
        dates = [{"lo": lo.toordinal(), "hi": hi.toordinal(), "idf": idf(df(plan))}
                 for (lo, hi), plan in zip(ranges, ways[len(alternatives):], strict=True)]
        typed = {"type": kind, "idf": idf(stats.df[mark])} if mark and stats.df.get(mark, 0) > 0 else None
        parts = _Parts([tuple(g["stems"]) for g in groups], ranges, mark if typed else None)
        body = parts.lucene(self.options.context_weight, [g["idf"] for g in groups], [d["idf"] for d in dates],
                            typed["idf"] if typed else 0.0)
        if not body:
            return []
        named = sorted(stats.named)
        scopes = [[conversation]] if conversation is not None else [[], named] if named else [[]]
        total = stats.total / stats.n if stats.n else 0.0
        rows = self.client.query(
            "search_ranked", scopes=scopes, body=body, limit=self.candidates, groups=groups, dates=dates, mark=typed,
            named=named, k=k, k1=self.options.k1, b=self.options.b, w=self.options.context_weight,
            avg=total if total > 0 else 1.0)
        return [Record(r["key"], r["speaker"], r["text"], as_datetime(r["date"]), r["conversation"], r["number"])
                for r in rows]


class _Idf:
    """BM25's idf over ``n`` turns, as :meth:`graphmem.memory.postings.Postings.idf` computes it."""

    def __init__(self, n: int):
        self.n = n

    def __call__(self, df: int) -> float:
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))


@dataclass(frozen=True)
class _Parts:
    """A query's scored parts, in the embedded index's order: word groups, dates, answer type."""

    groups: list[tuple[str, ...]]
    ranges: list[tuple[date, date]]
    mark: str | None

    @property
    def empty(self) -> bool:
        return not self.groups and not self.ranges and self.mark is None

    def lucene(self, context_weight: float, idf: Sequence[float] = (), dated: Sequence[float] = (),
               typed: float = 0.0) -> str:
        """The candidates' Lucene query, each clause boosted by the part's BM25 idf: Lucene then
        ranks much as BM25F will (a turn holding only a rare word of the query, or holding it only
        in its reply field, is proposed before turns holding only a common one)."""
        def boost(w: float) -> str:
            return f"^{w:.4f}" if w > 0 else ""

        clauses = [f"terms:{s}{boost(w)} context:{s}{boost(w * context_weight) if w else f'^{context_weight}'}"
                   for g, w in zip(self.groups, list(idf) or [0.0] * len(self.groups), strict=True) for s in g]
        for (lo, hi), w in zip(self.ranges, list(dated) or [0.0] * len(self.ranges), strict=True):
            clauses += [f"marks:mon_{y}_{m}{boost(w)} marks:smon_{y}_{m}{boost(w)}" for y, m in months(lo, hi)]
        if self.mark is not None:
            clauses.append(f"marks:{_phrase(self.mark)}{boost(typed)}")
        return " ".join(clauses)


def _frequencies(groups: Sequence[tuple[str, ...]], ranges: Sequence[tuple[date, date]]) -> tuple[list[list[tuple]], list[dict]]:
    """How to get each part's document frequency: per group, then per date, a list of ways
    summed, each ``("df", token)`` (a Term node's) or ``("count", i)`` (the i-th of the counts
    returned, for Lucene to make). A stem's, an irregular family's, a day's said turns and a
    month's are Terms; a day's spans, and a group that is no family (Chinese glosses), are
    counted."""
    families = {f for sets in family_sets().values() for f in sets}
    ways: list[list[tuple]] = []
    counts: list[dict] = []

    def count(lucene: str, lo: date | None = None, hi: date | None = None, spans_only: bool = False) -> tuple:
        counts.append({"lucene": lucene, "lo": lo.toordinal() if lo else None, "hi": hi.toordinal() if hi else None,
                       "spans_only": spans_only})
        return ("count", len(counts) - 1)

    for g in groups:
        if len(g) == 1:
            ways.append([("df", g[0])])
        elif frozenset(g) in families:
            ways.append([("df", family_token(frozenset(g)))])
        else:
            ways.append([count(f"terms:({' '.join(g)}) context:({' '.join(g)})")])
    for lo, hi in ranges:
        spanned = " ".join(f"smon_{y}_{m}" for y, m in months(lo, hi))
        if lo == hi:
            ways.append([("df", said_token(lo)), count(f"marks:({spanned})", lo, hi, spans_only=True)])
        elif (lo.day, (hi + timedelta(days=1)).day, lo.month, lo.year) == (1, 1, hi.month, hi.year):
            ways.append([("df", month_token(lo.year, lo.month))])
        else:
            said = " ".join(f"mon_{y}_{m}" for y, m in months(lo, hi))
            ways.append([count(f"marks:({said} {spanned})", lo, hi)])
    return ways, counts


def _phrase(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
