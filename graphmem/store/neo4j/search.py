"""Searching a Neo4j memory in the database: Lucene proposes candidates, BM25F ranks them there.

Why two steps: Neo4j's full-text index is Lucene, whose BM25 scores each field on its own, while
the memory's ranking is BM25F (a turn's own stems and, at half weight, the stems of the turn it
replies to, in one term frequency and one length; :class:`graphmem.index.query.Ranker`), with
structured query groups and date and answer-type terms. So Lucene, over the pre-stemmed fields
:mod:`graphmem.store.neo4j.rows` writes, proposes a bounded candidate set (``candidates``
turns, 100 by default, or k when a search asks for more, so that it can return them; and as many
again within the conversations of the people the query names), and the same query scores those by
the memory's own arithmetic (:class:`graphmem.index.postings.Postings`'s, operation for operation)
and returns the k best.
Its statistics come from what the database keeps of the asking user's turns alone (each user's are
their own, as each user's index is in the embedded stores): the number of indexed turns and their
total length (on the user's Conversation nodes), each stem's document frequency (on the user's Term
node for it), and, counted by Lucene within the user's turns, the document frequency of a group of
several stems or of a date. Which turns Lucene proposes is Lucene's own BM25 over the whole index,
though: a user with more matching turns than the candidates may see other candidates than alone
(docs/lifecycle.md, "Users"). The person
scope is the graph's: the conversations whose speakers the query names come first, as in the
embedded memory.

Nothing is held in the process: a search is ONE round trip, one statement written in parts
(``search_parts``, its candidates ``search_lexical``, ``search_bm25f``, ``search_top``) whose
cost is set by the query (its stems' postings in Lucene, its candidates), not by
the size of the memory, and only the k turns it returns travel. Python parses the query into
its parts and says how each part's document frequency is made. With ``dense=True`` the
candidates are ``search_fused``'s (the vector index's nearest sentences join Lucene's) and
``search_fuse`` fuses the two sides over them (:func:`graphmem.search.dense.fuse`'s rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING


from graphmem.data.metadata import Where, token
from graphmem.domain import Turn
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query, family_sets
from graphmem.index.vocabulary import smoothed_idf
from graphmem.index.shape import ASSISTANT_ROLES
from graphmem.store.neo4j.client import Client
from graphmem.store.neo4j.rows import family_token, mark_of, month_token, said_token
from graphmem.store.neo4j.write import alive, turn_of
from graphmem.store.users import owner
from graphmem.text.dates import month_span, months_touched as months
from graphmem.text.terms import analyse

__all__ = ["CANDIDATES", "DbVocabulary", "NEAREST", "Searcher"]

CANDIDATES = 100
"""How many turns Lucene proposes per search (and per person scope) for BM25F to re-rank, at least
(a search for k turns has max(CANDIDATES, k) proposed: fewer could not fill its k). Chosen
on LoCoMo (``python bench/neo4j_memory.py quality --candidates 200,100``): 100 finds the evidence
as often as 200 and as the embedded memory, with nearly every top 5 the same, in a much shorter
search (docs/neo4j.md, "The memory served by Neo4j")."""


NEAREST = 100
"""With ``dense=True``, how many sentences the vector index proposes (their turns, and the turns
replying to them, join Lucene's candidates), at least (k when a search asks for more turns). The
same order of size as ``CANDIDATES``; measured
in docs/neo4j.md (``python bench/neo4j_memory.py quality --dense``)."""

if TYPE_CHECKING:  # a type only: the embedding is an optional extra
    from graphmem.search.dense import Encoder


class DbVocabulary:
    """The reader's term weights from the database's document frequencies, for the terms
    asked about: scikit-learn's smoothed idf, as :class:`graphmem.index.vocabulary.LiveVocabulary`
    computes it over the same turns."""

    def __init__(self, n: int, vdf: dict[str, int], rarest: int | None):
        self.n, self.vdf = n, vdf
        self.unseen = self._idf(rarest) if rarest else 1.0

    def _idf(self, df: int) -> float:
        return float(smoothed_idf(self.n, [df])[0])

    def weight(self, term: str) -> float:
        df = self.vdf.get(term)
        return self._idf(df) if df else self.unseen

    def weights(self, terms: Sequence[str]) -> dict[str, float]:
        return {t: self._idf(self.vdf[t]) for t in dict.fromkeys(terms) if self.vdf.get(t)}


class Searcher:
    """Search, and the reader's vocabulary, over whatever the database holds now."""

    def __init__(self, client: Client, options: MemoryOptions, scope: bool = True, candidates: int = CANDIDATES,
                 encoder: Encoder | None = None, nearest: int = NEAREST):
        self.client, self.options, self.scope, self.candidates = client, options, scope, candidates
        self.encoder, self.nearest = encoder, nearest

    def count(self) -> int:
        """How many turns the database indexes (every user's)."""
        return int(self.client.query("memory_count", p={"owner": None})[0]["n"] or 0)

    def vocabulary(self, query: Query, found: Sequence[Turn], user: str | None = None) -> DbVocabulary:
        """Weights for every term the reader may weigh, the question's and the found turns', over
        ``user``'s turns alone."""
        stems = analyse(query.english) + [s for r in found for s in analyse(r.text)]
        row = self.client.query("reader_stats", p={"stems": list(dict.fromkeys(stems)), "owner": owner(user)})[0]
        return DbVocabulary(int(row["n"] or 0), {s: int(v) for s, v in row["vdfs"]}, row["rarest"])

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None,
               where: Where | None = None) -> list[tuple[Turn, float]]:
        """The k best turns and their scores, in one round trip (the parts named below): the
        statistics, each part's idf, Lucene's candidates (only those ``where`` selects) and their BM25F
        ranking all run in the database, and only the k best travel back. Python only parses the
        query into its parts."""
        params = self._params(query, k, conversation, user, where)
        if params is None:
            return []
        if self.encoder is None:
            rows = self.client.query("search_parts+search_lexical+search_bm25f+search_top", q=params)
        else:
            rows = self.client.query("search_parts+search_fused+search_bm25f+search_fuse+search_top",
                                     q={**params, **self._dense(query, k)})
        return [(turn_of(r), float(r["score"])) for r in rows if alive(r)]

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        """The k conversations the query is most about, best first, in one round trip: the search's
        candidates scored as for :meth:`search`, then summed per conversation in the database
        (``search_conversations``, :mod:`graphmem.index.conversations`' sum over the candidates)."""
        params = self._params(query, k, None, user, where)
        if params is None:
            return []
        params.update(turns=self.options.conversation_turns, rest=self.options.conversation_rest)
        if self.encoder is None:
            rows = self.client.query("search_parts+search_lexical+search_bm25f+search_conversations", q=params)
        else:
            rows = self.client.query("search_parts+search_fused+search_bm25f+search_fuse+search_conversations",
                                     q={**params, **self._dense(query, k)})
        return [r["conversation"] for r in rows if r["conversation"] is not None]  # one forgotten meanwhile: gone

    def _dense(self, query: Query, k: int) -> dict[str, object]:
        """The fused search's extra parameters: the vector index's nearest sentences are candidates too."""
        assert self.encoder is not None
        vector = self.encoder.encode([query.text], query=True)[0].astype(float).tolist()
        return dict(vector=vector, nearest=max(self.nearest, k),
                    dense_weight=self.options.dense_weight, dense_context=self.options.dense_context)

    def _params(self, query: Query, k: int, conversation: str | None, user: str | None = None,
                where: Where | None = None) -> dict | None:
        """The parameters of one search statement (its parts, how each part's document frequency
        is made, the ranking's constants), or None when the query holds nothing to search for.
        Every statement is one of four literal names above, so no query text is ever built here."""
        alternatives = query.groups(lambda s: True)  # an unknown stem matches nothing
        kind = query.kind
        mark = mark_of(kind) if kind is not None and kind in self.options.answer_types else None
        ranges = list(query.dates)
        if not alternatives and not ranges and mark is None and self.encoder is None:
            return None
        ways, counts = _frequencies(alternatives, ranges)
        stems = [s for g in alternatives for s in g] + ([mark] if mark else [])
        stems += [way[1] for plan in ways for way in plan if way[0] == "df"]

        def plan(p: list[tuple]) -> list[dict]:
            return [{"df": v} if kind_ == "df" else {"count": v} for kind_, v in p]

        groups = [{"stems": list(g), "ways": plan(p)} for g, p in zip(alternatives, ways[:len(alternatives)], strict=True)]
        dates = [{"lo": lo.toordinal(), "hi": hi.toordinal(), "months": [f"{y}_{m}" for y, m in months(lo, hi)],
                  "ways": plan(p)} for (lo, hi), p in zip(ranges, ways[len(alternatives):], strict=True)]
        return dict(
            stems=list(dict.fromkeys(stems)), counts=counts, words=sorted(query.words),
            scope=self.scope, conversation=conversation, groups=groups, dates=dates, roles=sorted(ASSISTANT_ROLES),
            asker=self.options.weighs_askers and query.of_asker,
            mark={"type": kind, "token": mark, "phrase": _phrase(mark)} if mark else None,
            limit=max(self.candidates, k), k=k, k1=self.options.k1, b=self.options.b, w=self.options.context_weight,
            owner=owner(user), until=query.until,
            tags=[[token(name, v) for v in values] for name, values in (where or {}).items()])


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
        elif (lo.day, lo.month, lo.year) == (1, hi.month, hi.year) and hi == month_span(hi.year, hi.month)[1]:
            ways.append([("df", month_token(lo.year, lo.month))])
        else:
            said = " ".join(f"mon_{y}_{m}" for y, m in months(lo, hi))
            ways.append([count(f"marks:({said} {spanned})", lo, hi)])
    return ways, counts


def _phrase(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
