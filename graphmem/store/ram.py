"""The memory in RAM: the live index over every turn, and each conversation's claims.

Why in process: a program that wants a memory for one run needs no server and no file, and a
turn is searchable the moment it is added, at a cost set by the turn
(:class:`graphmem.index.live.LiveIndex`). Claims are read the first time a conversation's are
asked for (:class:`graphmem.store.claims.MemoryClaims`), since no search or answer reads them.
:class:`graphmem.store.sqlite.FileStore` is this store kept in one SQLite file.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from datetime import datetime

import numpy as np

from graphmem.claims.facts import Told
from graphmem.data.metadata import Where, selector
from graphmem.domain import Claim, Turn
from graphmem.index.forget import forget
from graphmem.errors import DataError
from graphmem.index.live import LiveIndex
from graphmem.index.people import speaker_key
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.index.vocabulary import LiveVocabulary
from graphmem.store.base import Scored, Store
from graphmem.store.claims import MemoryClaims, ingest_moment
from graphmem.text.terms import analyse

__all__ = ["RamStore"]


class RamStore(Store):
    """Turns, their live index and their claims, held in this process."""

    where = "memory"

    def __init__(self, options: MemoryOptions = MemoryOptions(), scope: bool = True, dense: bool = False):
        self.options, self.scope, self.dense = options, scope, dense
        self.index = LiveIndex(options, scope, dense)
        self._claims = MemoryClaims()
        self._ids: dict[str, int] = {}
        self._users: dict[str | None, dict[str, None]] = {}
        """Each user's conversations (scoped keys, :mod:`graphmem.store.users`) in the order met."""
        self._moments: dict[str, datetime] = {}
        """When each undated turn was ingested: its date, should its claims be read again."""

    def add(self, turns: Sequence[Turn]) -> None:
        """Index the turns, then keep them (:meth:`_keep`); a failure at any step leaves the store
        as it was before."""
        if not turns:
            return
        first = len(self.index)
        now = ingest_moment()
        try:
            self.index.add(turns)
            self._claims.defer(turns, now)  # read when asked for (MemoryClaims.defer)
            self._keep(first, now)
            self.index.changed.clear()
        except BaseException:
            self._rewind(first)
            raise
        self._ids.update((t.id, i) for i, t in enumerate(turns, first))
        self._moments.update((t.id, now) for t in turns if t.date is None)
        self._met(turns)

    def forget(self, ids: Collection[str]) -> int:
        """Forget the turns held under these ids and everything read from them (:mod:`graphmem.index.forget`);
        their conversations' claims are read again when next asked for. Returns how many were held."""
        places = sorted(self._ids[i] for i in set(ids) if i in self._ids)
        if not places:
            return 0
        convs = sorted(forget(self.index, places))
        try:
            self._forgotten(places, convs)
        except BaseException:  # the file's transaction did not commit: the memory as its file holds it
            self._rewind(len(self.index))
            raise
        for i in ids:
            self._ids.pop(i, None)
            self._moments.pop(i, None)
        self._reclaim(convs)
        self.index.changed.clear()
        return len(places)

    def update(self, turns: Sequence[Turn]) -> None:
        """Forget the held turns, then add these: in RAM nothing else runs between the two (the memory
        holds its lock). Should the add fail (an interrupt, no memory left), the held turns are added
        back, so the memory holds what it held (they then come last in ingest order)."""
        old = list(self.held([t.id for t in turns]).values())
        self.forget([t.id for t in old])
        try:
            self.add(turns)
        except BaseException:
            self.add(old)
            raise

    def _forgotten(self, places: Sequence[int], conversations: Sequence[str]) -> None:
        """What a store that persists writes of a forgetting, last: nothing here."""

    def _reclaim(self, conversations: Sequence[str]) -> None:
        """The conversations' claims, to be read again from their turns held now."""
        for conv in conversations:
            self._claims.reset(conv, lambda conv=conv: self._waiting(conv))

    def _waiting(self, conv: str) -> list[tuple[Turn, datetime]]:
        """The conversation's turns held now, each with the moment it was ingested: kept for an
        undated turn, which it dates; a dated turn's is never read, so it is given this moment."""
        records, moments, now = self.index.records, self._moments, ingest_moment()
        held = [records[i] for i in self.index.by_conv.get(conv, ())]
        return [(t, moments.get(t.id, now)) for t in held] if moments else [(t, now) for t in held]

    def _met(self, turns: Sequence[Turn]) -> None:
        for t in turns:
            self._users.setdefault(t.user, {})[t.conversation] = None

    def _among(self, user: str | None) -> list[str] | None:
        """The conversations a search of ``user`` may return turns of: None (every one) while the
        memory holds no user's turns at all, else that user's."""
        if user is None and None in self._users and len(self._users) == 1 or not self._users:
            return None
        return list(self._users.get(user, {}))

    def _keep(self, first: int, now: datetime) -> None:
        """What a store that persists writes of the turns from ``first`` on, last: nothing here."""

    def _rewind(self, first: int) -> None:
        """The index as it was before its last add: its earlier turns held read again, the forgotten
        ones left out (the claims are as they were: the failed turns were never deferred)."""
        dead = self.index.dead
        earlier = [r for i, r in enumerate(self.index.records[:first]) if i not in dead]
        self.index = LiveIndex(self.options, self.scope, self.dense)
        self.index.add(earlier)
        self._ids = {t.id: i for i, t in enumerate(earlier)}

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        records, at = self.index.records, self._ids
        return {i: records[at[i]] for i in ids if i in at}

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        records, by_conv = self.index.records, self.index.by_conv
        convs = sorted(self._users.get(user, {})) if conversation is None else [conversation]
        return iter([records[i] for c in convs for i in by_conv.get(c, ())])

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        return [t.id for t in self.turns(conversation, user)]

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        if not len(self.index):
            return []
        return self.index.scored(query, k, conversation, self._among(user), selector(where))

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        return self.index.conversations(query, k, self._among(user), selector(where)) if len(self.index) else []

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        return self._claims.claims(conversation)

    def claims_about(self, about: str, user: str | None = None) -> Told:
        """The claims about the person keyed ``about`` in the conversations of ``user`` that can hold
        any: where a speaker of that name speaks, or a turn holds the name (its conversations' claims
        read, once, if they were not yet), with their kinds and facts, made once a conversation
        (:meth:`MemoryClaims.about`)."""
        index = self.index
        convs = set(index.people.get(speaker_key(about), ()))
        for term in analyse(about):
            if index.postings.known(term):
                docs, _ = index.postings.group([term])
                convs.update(index.conv_names[c] for c in np.unique(index.conv_of.view()[docs]))
        mine = set(self._users.get(user, {}))
        out: list[Told] = []
        for conv in sorted(convs & mine):
            try:
                out.append(self._claims.about(conv, about))
            except DataError:  # a conversation that holds no turn now
                continue
        return Told.joined(out)

    def speakers(self, conversation: str) -> list[str]:
        records = self.index.records
        return list(dict.fromkeys(records[i].speaker for i in self.index.by_conv.get(conversation, ())))

    def weights(self, query: Query, found: Sequence[Turn]) -> LiveVocabulary:
        return self.index.vocab

    def build(self) -> None:
        """Nothing to build: every turn is indexed as it is added."""

    def __len__(self) -> int:
        return self.index.held

    def close(self) -> None:
        """Nothing held open."""
