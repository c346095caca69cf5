"""The memory in RAM: a live index over each user's turns, and each conversation's claims.

Why in process: a program that wants a memory for one run needs no server and no file, and a
turn is searchable the moment it is added, at a cost set by the turn
(:class:`graphmem.index.live.LiveIndex`). Claims are read the first time a conversation's are
asked for (:class:`graphmem.store.claims.MemoryClaims`), since no search or answer reads them.
:class:`graphmem.store.sqlite.store.FileStore` is this store kept in one SQLite file.

Why an index per user (``user=None``, the turns that carry none, is one too): its statistics (how
many turns, how long, which hold a word) are then that user's alone, so what a user is found, told
and how sure the memory is are those of a memory holding that user's turns only, bit for bit; no
other user's turns move them or can be probed through them (``tests/conformance``). A memory without
users holds one index, as before.
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
from graphmem.store.users import user_of
from graphmem.text.terms import analyse

__all__ = ["RamStore"]


class RamStore(Store):
    """Turns, each user's live index and their claims, held in this process."""

    where = "memory"

    def __init__(self, options: MemoryOptions = MemoryOptions(), scope: bool = True, dense: bool = False):
        self.options, self.scope, self.dense = options, scope, dense
        self.indexes: dict[str | None, LiveIndex] = {}
        """Each user's index (None: the turns that carry no user), made at the user's first turn."""
        self._claims = MemoryClaims()
        self._ids: dict[str, int] = {}
        """Each turn's place in its user's index (the user is its key's, :func:`user_of`)."""
        self._users: dict[str | None, dict[str, None]] = {}
        """Each user's conversations (scoped keys, :mod:`graphmem.store.users`) in the order met."""
        self._moments: dict[str, datetime] = {}
        """When each undated turn was ingested: its date, should its claims be read again."""

    @property
    def index(self) -> LiveIndex:
        """The index of the turns that carry no user: a memory without users holds only this one."""
        return self.index_of(None)

    def index_of(self, user: str | None) -> LiveIndex:
        """``user``'s index, made empty at the first ask."""
        index = self.indexes.get(user)
        if index is None:
            index = self.indexes[user] = LiveIndex(self.options, self.scope, self.dense)
        return index

    def add(self, turns: Sequence[Turn]) -> None:
        """Index the turns, each in its user's index in the order given, then keep them
        (:meth:`_keep`); a failure at any step leaves the store as it was before."""
        if not turns:
            return
        by_user: dict[str | None, list[Turn]] = {}
        for t in turns:
            by_user.setdefault(t.user, []).append(t)
        firsts = {user: len(self.index_of(user)) for user in by_user}
        now = ingest_moment()
        try:
            for user, theirs in by_user.items():
                self.indexes[user].add(theirs)
            self._claims.defer(turns, now)  # read when asked for (MemoryClaims.defer)
            self._keep(firsts, now)
            for user in by_user:
                self.indexes[user].changed.clear()
        except BaseException:
            self._rewind(firsts)
            raise
        for user, theirs in by_user.items():
            self._ids.update((t.id, i) for i, t in enumerate(theirs, firsts[user]))
        self._moments.update((t.id, now) for t in turns if t.date is None)
        self._met(turns)

    def forget(self, ids: Collection[str]) -> int:
        """Forget the turns held under these ids and everything read from them (:mod:`graphmem.index.forget`,
        in each user's index); their conversations' claims are read again when next asked for.
        Returns how many were held."""
        places: dict[str | None, list[int]] = {}
        for i in set(ids):
            if i in self._ids:
                places.setdefault(user_of(i), []).append(self._ids[i])
        if not places:
            return 0
        convs = sorted(c for user, held in places.items() for c in forget(self.indexes[user], sorted(held)))
        try:
            self._forgotten({user: sorted(held) for user, held in places.items()}, convs)
        except BaseException:  # the file's transaction did not commit: the memory as its file holds it
            self._rewind({user: len(self.indexes[user]) for user in places})
            raise
        for i in ids:
            self._ids.pop(i, None)
            self._moments.pop(i, None)
        self._reclaim(convs)
        for user in places:
            self.indexes[user].changed.clear()
        return sum(map(len, places.values()))

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

    def _forgotten(self, places: dict[str | None, list[int]], conversations: Sequence[str]) -> None:
        """What a store that persists writes of a forgetting (each user's places), last: nothing here."""

    def _reclaim(self, conversations: Sequence[str]) -> None:
        """The conversations' claims, to be read again from their turns held now."""
        for conv in conversations:
            self._claims.reset(conv, lambda conv=conv: self._waiting(conv))

    def _waiting(self, conv: str) -> list[tuple[Turn, datetime]]:
        """The conversation's turns held now, each with the moment it was ingested: kept for an
        undated turn, which it dates; a dated turn's is never read, so it is given this moment."""
        index = self.index_of(user_of(conv))
        records, moments, now = index.records, self._moments, ingest_moment()
        held = [records[i] for i in index.by_conv.get(conv, ())]
        return [(t, moments.get(t.id, now)) for t in held] if moments else [(t, now) for t in held]

    def _met(self, turns: Sequence[Turn]) -> None:
        for t in turns:
            self._users.setdefault(t.user, {})[t.conversation] = None

    def _keep(self, firsts: dict[str | None, int], now: datetime) -> None:
        """What a store that persists writes of each user's turns from ``firsts`` on, last: nothing here."""

    def _rewind(self, firsts: dict[str | None, int]) -> None:
        """Each user's index as it was before its last add (``firsts``: its size then): its earlier
        turns held read again, the forgotten ones left out (the claims are as they were: the failed
        turns were never deferred)."""
        for user, first in firsts.items():
            index = self.indexes[user]
            earlier = [r for i, r in enumerate(index.records[:first]) if i not in index.dead]
            self.indexes[user] = LiveIndex(self.options, self.scope, self.dense)
            self.indexes[user].add(earlier)
            self._ids.update((t.id, i) for i, t in enumerate(earlier))

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        at, indexes = self._ids, self.indexes
        return {i: indexes[user_of(i)].records[at[i]] for i in ids if i in at}

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        index = self.indexes.get(user if conversation is None else user_of(conversation))
        if index is None:
            return iter([])
        records, by_conv = index.records, index.by_conv
        convs = sorted(self._users.get(user, {})) if conversation is None else [conversation]
        return iter([records[i] for c in convs for i in by_conv.get(c, ())])

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        return [t.id for t in self.turns(conversation, user)]

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        index = self.indexes.get(user)
        return index.scored(query, k, conversation, None, selector(where)) if index is not None and index.held else []

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        index = self.indexes.get(user)
        return index.conversations(query, k, None, selector(where)) if index is not None and index.held else []

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        return self._claims.claims(conversation)

    def claims_about(self, about: str, user: str | None = None) -> Told:
        """The claims about the person keyed ``about`` in the conversations of ``user`` that can hold
        any: where a speaker of that name speaks, or a turn holds the name (its conversations' claims
        read, once, if they were not yet), with their kinds and facts, made once a conversation
        (:meth:`MemoryClaims.about`)."""
        index = self.indexes.get(user)
        if index is None:
            return Told.joined([])
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
        index = self.indexes.get(user_of(conversation))
        if index is None:
            return []
        return list(dict.fromkeys(index.records[i].speaker for i in index.by_conv.get(conversation, ())))

    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> LiveVocabulary:
        """``user``'s term weights: how rare a word is among that user's turns alone."""
        index = self.indexes.get(user)
        return index.vocab if index is not None else LiveVocabulary()

    def build(self) -> None:
        """Nothing to build: every turn is indexed as it is added."""

    def __len__(self) -> int:
        return sum(index.held for index in self.indexes.values())

    def close(self) -> None:
        """Nothing held open."""
