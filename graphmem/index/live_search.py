"""The live index's search: a query scored over only its terms' postings, and within a scope
over only the scope's turns.

Why its own module: keeping the index up to date (:mod:`graphmem.index.live`) and reading it
are separate concerns with separate costs; this side must cost what the query asks for, not what
the memory holds. A query naming a person (the memory's person scope) or asking within one
conversation scores only those conversations' turns, each exactly as it scores among every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import numpy as np

from graphmem.domain import Turn
from graphmem.index.arrays import Grow
from graphmem.index.askers import Askers
from graphmem.index.days import Days
from graphmem.index.live_dense import LiveDense
from graphmem.index.options import IndexSettings, MemoryOptions
from graphmem.index.conversations import best_conversations
from graphmem.index.people import People
from graphmem.index.postings import Postings, top_k
from graphmem.index.query import Query
from graphmem.search import dense as embedding

__all__ = ["Keep", "LiveSearch", "SCOPE_SHARE", "named_first", "seconds"]

Keep = Callable[[Turn], bool]
"""Which turns a search may return (a metadata filter): applied to the matched turns before the k best
are taken, so a filter never leaves fewer than k where k match it."""

_EPOCH = datetime(1, 1, 1)
_SECOND = timedelta(seconds=1)


def seconds(when: datetime | None) -> float:
    """A turn's date as whole seconds since year 1 (NaN for none): what an as-of filter compares. Whole,
    so exact in a float (a fraction of a second would round: the end of a day, 23:59:59.999999, would
    equal the next day's midnight)."""
    return float("nan") if when is None else float((when - _EPOCH) // _SECOND)


SCOPE_SHARE = 4
"""A scope is searched alone while it holds at most one turn in this many of the memory's. Above that
the scoped search costs more than scoring every turn, as a scratch timing of a person in every
conversation showed (docs/memory.md, "What it costs as it grows")."""


class LiveSearch(People):
    """Search over a :class:`graphmem.index.live.LiveIndex`'s records, fields and postings
    (the attributes it keeps, named here with their types; this class adds no state)."""

    options: MemoryOptions
    settings: IndexSettings
    scope: bool
    dense: LiveDense | None
    records: list[Turn]
    replied: list[int | None]
    postings: Postings
    types: dict[str, Grow]
    days: Days
    conv_of: Grow
    conv_ids: dict[str, int]
    conv_names: list[str]
    by_conv: dict[str, list[int]]
    conv_turns: dict[str, Grow]
    askers: Askers
    dead: set[int]
    said_at: Grow
    """Each turn's date in seconds (:func:`seconds`), filled as far as a search as of a moment needed."""

    def _fused(self, query: Query, docs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lexical = np.zeros(len(self.records))
        lexical[docs] = scores
        assert self.dense is not None, "fused only with embeddings"
        dense = self.dense.scores(query.text, len(self.records), self.replied)
        if self.dead:  # fused over the turns held, as a memory that never read the forgotten ones fuses
            alive = np.ones(len(self.records), dtype=bool)
            alive[list(self.dead)] = False
            fused = np.zeros(len(self.records))
            fused[alive] = embedding.fuse(lexical[alive], dense[alive], self.settings.dense_weight)
        else:
            fused = embedding.fuse(lexical, dense, self.settings.dense_weight)
        docs = np.flatnonzero(fused > 0)
        if query.until is not None:  # the dense side scores every turn: those said later too
            docs = docs[self._said_by(docs, query.until)]
        return docs, fused[docs]

    def scores(self, query: Query, within: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The turns the query matches and their BM25F scores, at only the turns it makes
        non-zero. ``within`` (sorted turn numbers): only those turns, each scored as without it."""
        few = within is not None
        parts = [self.postings.group(g, within) for g in query.groups(self.postings.known)]
        for lo, hi in query.dates:
            parts.append(self.postings.flat(self.days.overlapping(lo, hi), within))
        kind = query.kind
        if kind in self.types:  # each turn once, in turn order, as they are numbered
            parts.append(self.postings.flat(self.types[kind].view(), within, distinct=True))
        docs, scores = Postings.combine(parts, few)
        if self.settings.weighs_askers:  # the person's own turns, for a question in the first person
            scores = self.askers.boost(query.of_asker, docs, scores, self.postings.idf)
        keep = scores > 0
        if query.until is not None:  # as of a moment: nothing said after its day is found
            keep &= self._said_by(docs, query.until)
        return docs[keep], scores[keep]

    def _said_by(self, docs: np.ndarray, moment: datetime) -> np.ndarray:
        """Whether each of ``docs`` was said by ``moment``: its date not after it, or no date (an
        undated turn has no moment to be after; it is kept). Each turn's date is read once into
        ``said_at`` (seconds; NaN for none), brought up to date with the turns added since."""
        said_at = self.said_at
        if said_at.size < len(self.records):
            said_at.extend(np.fromiter((seconds(r.date) for r in self.records[said_at.size:]), dtype=np.float64))
        at = said_at.view()[docs]
        return np.isnan(at) | (at <= seconds(moment))

    def search(self, query: Query, k: int, conversation: str | None,
               among: Sequence[str] | None = None) -> list[Turn]:
        """The k best turns, best first: of one conversation, or of those ``among`` (a user's; None:
        every conversation), the named person's first; within the scope alone where that is cheaper
        (no dense side, whose fusion normalises over every turn), else over every turn."""
        return [self.records[i] for i, _ in self._ranked(query, k, conversation, among)]

    def scored(self, query: Query, k: int, conversation: str | None, among: Sequence[str] | None = None,
               keep: Keep | None = None) -> list[tuple[Turn, float]]:
        """:meth:`search`'s turns with their scores, of the turns ``keep`` accepts (None: every one)."""
        records = self.records
        return [(records[i], score) for i, score in self._ranked(query, k, conversation, among, keep)]

    def _ranked(self, query: Query, k: int, conversation: str | None, among: Sequence[str] | None = None,
                keep: Keep | None = None) -> list[tuple[int, float]]:
        found = self._search_within(query, k, conversation, among, keep) if self.dense is None else None
        return found if found is not None else self._search_all(query, k, conversation, among, keep)

    def _kept(self, docs: np.ndarray, scores: np.ndarray, keep: Keep | None) -> tuple[np.ndarray, np.ndarray]:
        """The matched turns ``keep`` accepts (each turn asked: only a filtered search pays it)."""
        if keep is None or not len(docs):
            return docs, scores
        records = self.records
        mask = np.fromiter((keep(records[i]) for i in docs.tolist()), dtype=bool, count=len(docs))
        return docs[mask], scores[mask]

    def _search_within(self, query: Query, k: int, conversation: str | None,
                       among: Sequence[str] | None = None, keep: Keep | None = None) -> list[tuple[int, float]] | None:
        """The search of one conversation, of the conversations ``among``, or of the conversations of
        the person the query names, scoring only their turns, so its cost is set by theirs and not by
        the memory's size. The same turns as :meth:`_search_all` (tested); None where that must run
        instead: no scope, or fewer than k of the person's turns match and the rest come from every
        other turn (the scope then scored twice: rare, and the same turns first), or the scope holds
        more than one turn in :data:`SCOPE_SHARE` of the memory (the whole postings are then read
        cheaper than looked up turn by turn)."""
        named = self.named(query) if self.scope and conversation is None else set()
        if conversation is not None:
            convs = [conversation]
        elif among is not None:
            convs, named = sorted(among), named.intersection(among)
        else:
            convs = sorted(named)
        if not convs or SCOPE_SHARE * sum(len(self.by_conv.get(c, ())) for c in convs) > len(self.records):
            return None
        docs, scores = self._kept(*self.scores(query, self._turns_of(convs)), keep)
        if among is not None and conversation is None:
            inside = np.isin(self.conv_of.view()[docs], [self.conv_ids[c] for c in named]) if named else None
            return _with_scores(docs, scores, named_first(docs, scores, inside, k))
        best = top_k(docs, scores, k)
        if conversation is None and len(best) < k:
            return None
        return _with_scores(docs, scores, best)

    def conversations(self, query: Query, k: int, among: Sequence[str] | None = None,
                      keep: Keep | None = None) -> list[str]:
        """The k conversations the query is most about (of those ``among``; None: every one), best first
        (:func:`graphmem.index.conversations.best_conversations` over every turn's score, the
        named person's conversations first): a cost set by the query's postings, as a search's."""
        docs, scores = self.scores(query)
        if self.dense is not None:
            docs, scores = self._fused(query, docs, scores)
        docs, scores = self._kept(docs, scores, keep)
        convs = self.conv_of.view()[docs]
        if among is not None:
            mask = np.isin(convs, [self.conv_ids[c] for c in among if c in self.conv_ids])
            convs, scores = convs[mask], scores[mask]
        # ties fall by each conversation's first turn held: the order a memory that never held the
        # turns forgotten since would have met them in (a conversation's number is when it was first met)
        held, at = np.unique(convs, return_inverse=True)
        opened = np.array([self.by_conv[self.conv_names[c]][0] for c in held], dtype=np.int64)
        first = [self.by_conv[c][0] for c in (self.named(query) if self.scope else ()) if self.by_conv.get(c)]
        best = best_conversations(opened[at.reshape(-1)], scores, k, np.array(first, dtype=np.int64),
                                  self.settings.conversation_turns, self.settings.conversation_rest)
        return [self.records[d].conversation for d in best]

    def _turns_of(self, conversations: Sequence[str]) -> np.ndarray:
        """The turn numbers of these conversations, sorted: each conversation's kept as an array
        (``conv_turns``) and brought up to date with the turns it took since (numbered as they came)."""
        parts = []
        for c in conversations:
            turns, kept = self.by_conv.get(c, []), self.conv_turns.setdefault(c, Grow(np.int64))
            if kept.size < len(turns):
                kept.extend(turns[kept.size:])
            parts.append(kept.view())
        return parts[0] if len(parts) == 1 else np.sort(np.concatenate(parts))

    def _search_all(self, query: Query, k: int, conversation: str | None,
                    among: Sequence[str] | None = None, keep: Keep | None = None) -> list[tuple[int, float]]:
        """The k best of every turn (those of a conversation asked for, or of those ``among``; the
        named person's first)."""
        docs, scores = self.scores(query)
        if self.dense is not None:  # fusion normalises over every turn: the whole row it is
            docs, scores = self._fused(query, docs, scores)
        docs, scores = self._kept(docs, scores, keep)
        convs = self.conv_of.view()[docs]
        wanted = [conversation] if conversation is not None else among
        if wanted is not None:
            mask = np.isin(convs, [self.conv_ids.get(c, -1) for c in wanted])
            docs, scores, convs = docs[mask], scores[mask], convs[mask]
        first = self.named(query) if conversation is None and self.scope else set()
        inside = np.isin(convs, [self.conv_ids[c] for c in first]) if first else None
        return _with_scores(docs, scores, named_first(docs, scores, inside, k))


def _with_scores(docs: np.ndarray, scores: np.ndarray, best: Sequence[int] | np.ndarray) -> list[tuple[int, float]]:
    """The ``best`` of ``docs`` (sorted, as every search's matched turns are) with their scores."""
    if not len(best):
        return []
    ids = best.tolist() if isinstance(best, np.ndarray) else list(best)
    return list(zip(ids, scores[docs.searchsorted(np.array(ids, dtype=np.int64))].tolist()))


def named_first(docs: np.ndarray, scores: np.ndarray, inside: np.ndarray | None, k: int) -> list[int]:
    """The k best ``docs`` by ``scores``, those ``inside`` the named person's conversations first and
    then the rest, each part in the memory's own order (score, then the order turns were added):
    the person scope's rule, written once for every index."""
    if inside is None:
        return [int(i) for i in top_k(docs, scores, k)]
    best = [int(i) for i in top_k(docs[inside], scores[inside], k)]
    if len(best) < k:
        best += [int(i) for i in top_k(docs[~inside], scores[~inside], k - len(best))]
    return best
