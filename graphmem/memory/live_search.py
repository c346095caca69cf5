"""The live index's search: a query scored over only its terms' postings, and within a scope
over only the scope's turns.

Why its own module: keeping the index up to date (:mod:`graphmem.memory.live`) and reading it
are separate concerns with separate costs; this side must cost what the query asks for, not what
the memory holds. A query naming a person (the memory's person scope) or asking within one
conversation scores only those conversations' turns, each exactly as it scores among every turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from graphmem.data.records import Record
from graphmem.memory.arrays import Grow
from graphmem.memory.conversations import best_conversations
from graphmem.memory.index import Scoped
from graphmem.memory.postings import Postings, top_k
from graphmem.memory.rank import query_groups, variants
from graphmem.search import dense as embedding
from graphmem.text.dates import answer_type, days_asked_about

__all__ = ["LiveSearch", "SCOPE_SHARE"]

SCOPE_SHARE = 4
"""A scope is searched alone while it holds at most one turn in this many of the memory's. Above that
the scoped search costs more than scoring every turn: a scratch timing of a person in all of 2,000
conversations (100,000 turns) read 14 ms scoped against 3 ms over every turn."""


class LiveSearch(Scoped):
    """Search over a :class:`graphmem.memory.live.LiveIndex`'s records, fields and postings
    (the attributes it keeps; this class adds no state)."""

    @property
    def said_before(self) -> dict[str, str]:
        """What each turn replies to, by id (``MemoryOptions.sure_context``, a research setting)."""
        return dict(zip((r.id for r in self.records), self.context, strict=True))

    def _fused(self, query: str, docs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lexical = np.zeros(len(self.records))
        lexical[docs] = scores
        fused = embedding.fuse(lexical, self.dense.scores(query, len(self.records), self.replied),
                               self.options.dense_weight)
        docs = np.flatnonzero(fused > 0)
        return docs, fused[docs]

    def scores(self, query: str, asked_on: datetime | None = None,
               within: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The turns the query matches and their BM25 scores (the bulk ranker's ``scores``,
        at only the turns it makes non-zero; ``asked_on`` reads its relative dates). ``within``
        (sorted turn numbers): only those turns, each scored as without it."""
        known, few = self.postings.known, within is not None
        parts = [self.postings.group(g, within) for g in query_groups(query, known, variants)]
        for lo, hi in days_asked_about(query, asked_on):
            parts.append(self.postings.flat(self.days.overlapping(lo, hi), within))
        kind = answer_type(query)
        if kind in self.types:  # each turn once, in turn order, as they are numbered
            parts.append(self.postings.flat(self.types[kind].view(), within, distinct=True))
        docs, scores = Postings.combine(parts, few)
        if self.options.weighs_askers:  # the person's own turns, for a question in the first person
            scores = self.askers.boost(query, docs, scores, self.postings.idf)
        keep = scores > 0
        return docs[keep], scores[keep]

    def search(self, query: str, k: int, conversation: str | None, asked_on: datetime | None = None) -> list[Record]:
        """The k best turns, best first: within the scope alone where that is cheaper (no dense side,
        whose fusion normalises over every turn), else over every turn."""
        found = self._search_within(query, k, conversation, asked_on) if self.dense is None else None
        return found if found is not None else self._search_all(query, k, conversation, asked_on)

    def _search_within(self, query: str, k: int, conversation: str | None,
                       asked_on: datetime | None) -> list[Record] | None:
        """The search of one conversation, or of the conversations of the person the query names,
        scoring only their turns, so its cost is set by theirs and not by the memory's size. The
        same turns as :meth:`_search_all` (tested); None where that must run instead: no scope, or
        fewer than k of the person's turns match and the rest come from every other turn (the scope
        then scored twice: rare, and the same turns first), or the scope holds more than one turn in
        :data:`SCOPE_SHARE` of the memory (a person in most conversations: the whole postings are then
        read cheaper than looked up turn by turn)."""
        convs = [conversation] if conversation is not None else sorted(self.named(query)) if self.scope else []
        if not convs or SCOPE_SHARE * sum(len(self.by_conv.get(c, ())) for c in convs) > len(self.records):
            return None
        docs, scores = self.scores(query, asked_on, self._turns_of(convs))
        best = top_k(docs, scores, k)
        if conversation is None and len(best) < k:
            return None
        return [self.records[int(i)] for i in best]

    def conversations(self, query: str, k: int, asked_on: datetime | None = None) -> list[str]:
        """The k conversations the query is most about, best first
        (:func:`graphmem.memory.conversations.best_conversations` over every turn's score, the
        named person's conversations first): a cost set by the query's postings, as a search's."""
        docs, scores = self.scores(query, asked_on)
        if self.dense is not None:
            docs, scores = self._fused(query, docs, scores)
        first = self.named(query) if self.scope else set()
        best = best_conversations(self.conv_of.view()[docs], scores, k,
                                  np.array([self.conv_ids[c] for c in first], dtype=np.int64),
                                  self.options.conversation_turns, self.options.conversation_rest)
        return [self.conv_names[c] for c in best]

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

    def _search_all(self, query: str, k: int, conversation: str | None, asked_on: datetime | None = None) -> list[Record]:
        """The k best of every turn (those of a conversation asked for; the named person's first)."""
        docs, scores = self.scores(query, asked_on)
        if self.dense is not None:  # fusion normalises over every turn: the whole row it is
            docs, scores = self._fused(query, docs, scores)
        convs = self.conv_of.view()[docs]
        if conversation is not None:
            keep = convs == self.conv_ids.get(conversation, -1)
            docs, scores, convs = docs[keep], scores[keep], convs[keep]
        first = self.named(query) if conversation is None and self.scope else set()
        if first:  # the named person's conversations first, the memory's own order kept within
            inside = np.isin(convs, [self.conv_ids[c] for c in first])
            best = list(top_k(docs[inside], scores[inside], k))
            if len(best) < k:
                best += list(top_k(docs[~inside], scores[~inside], k - len(best)))
        else:
            best = list(top_k(docs, scores, k))
        return [self.records[int(i)] for i in best]
