"""Users inside the stores: each record's ``user`` is a partition of the memory, never crossed, and
the stores alone know how a user's turns are keyed.

Why the stores key: a user's ids and conversations are theirs (two users may both have a turn ``t1``
in a conversation ``default``), so every store holds a user's turns under keys of its own, and
:class:`graphmem.memory.api.Memory` hands each verb the user and the ids or conversation as a caller
named them (:class:`graphmem.store.base.Store`: the user in every verb). The collection's statistics
(how rare a word is, how long a turn runs) are each user's own too: a user's search, confidence and
reply are computed over that user's turns alone, so another user's turns can neither move them nor
be probed through them (issue #47).

How each store represents the user (one way each; :class:`Keyed` is where the key is made):

- **RAM and one SQLite file**: the user is the key: a user's turn ``t1`` is held under
  ``\\x01user\\x01t1`` and their conversation ``c`` under ``\\x01user\\x01c`` (:func:`scoped`), one
  string that the index, the claims and the file's ``id`` and ``conversation`` columns key by, and
  from which each turn's index is found (:func:`user_of`: one live index per user). Why a key and
  not a column beside the id: a key of one string keeps every table and the saved index's snapshot
  keyed as before users existed, so a file of no users is written byte for byte as then, and no
  file needed a new schema. A turn without a user keeps its own id as its key. (The file's ``user``
  column, since version 6, is the turn's record as given, read back with it and under its checksum;
  nothing is found by it.)
- **Neo4j**: the same key on every Turn and Conversation node (their uniqueness constraints), and
  the user's ``owner`` token (:func:`owner`) where the database filters by user: the full-text
  index's ``scope`` field, each Conversation and the per-user Term statistics. Why a token beside the
  key: a Lucene query can select a user only by a whitespace-free token it indexed, and the Term
  nodes count each user's words apart; the token is made from the user by this one function,
  never stored as the user's name. (The node's ``user`` property, also written, is the name given
  back with a turn.)

Validation refuses control characters in names, so no id, conversation or user holds the mark, and a
key can never be given for an id by hand (:func:`graphmem.data.records.name_argument`).
"""

from __future__ import annotations

import hashlib
from abc import abstractmethod
from collections.abc import Collection, Iterator, Sequence
from dataclasses import replace

from graphmem.claims.facts import Told
from graphmem.data.metadata import Where
from graphmem.domain import Claim, Turn
from graphmem.errors import DataError
from graphmem.index.query import Query
from graphmem.store.base import Scored, Store

__all__ = ["MARK", "Keyed", "owner", "scoped", "scoped_turn", "unscoped", "unscoped_claim", "unscoped_turn",
           "user_of"]

MARK = "\x01"
"""Opens and closes the user in a scoped key; validation refuses control characters in names, so no
id, conversation or user holds one."""


def scoped(value: str, user: str | None) -> str:
    """An id or a conversation as stores key it for ``user``."""
    return value if user is None else f"{MARK}{user}{MARK}{value}"


def user_of(key: str) -> str | None:
    """The user whose key this is (None: a turn or conversation that carries no user)."""
    return key.split(MARK, 2)[1] if key.startswith(MARK) else None


def unscoped(key: str) -> str:
    """The id or conversation a scoped key stands for."""
    return key.split(MARK, 2)[2] if key.startswith(MARK) else key


def scoped_turn(t: Turn) -> Turn:
    return t if t.user is None else replace(t, id=scoped(t.id, t.user), conversation=scoped(t.conversation, t.user))


def unscoped_turn(t: Turn) -> Turn:
    return t if not t.id.startswith(MARK) and not t.conversation.startswith(MARK) else \
        replace(t, id=unscoped(t.id), conversation=unscoped(t.conversation))


def unscoped_claim(c: Claim) -> Claim:
    return c if not c.turn_id.startswith(MARK) else replace(c, turn_id=unscoped(c.turn_id))


def owner(user: str | None) -> str:
    """The token a full-text index marks a user's turns with (whitespace-free, whatever the name)."""
    return "~none" if user is None else "~u" + hashlib.sha1(user.encode("utf-8")).hexdigest()[:20]


class Keyed(Store):
    """A store that holds each user's turns under scoped keys: the contract's verbs, which take the user
    and the names a caller gave, turned into the keyed verbs a store implements (``_add``, ``_held``...),
    and what those give back turned into the caller's names. A turn without a user is its own key, so
    for a memory of no users each verb is the keyed one, nothing copied."""

    def add(self, turns: Sequence[Turn]) -> None:
        self._add([scoped_turn(t) for t in turns])

    def held(self, ids: Collection[str], user: str | None = None) -> dict[str, Turn]:
        return {unscoped(key): unscoped_turn(t) for key, t in self._held([scoped(i, user) for i in ids]).items()}

    def forget(self, ids: Collection[str], user: str | None = None) -> int:
        return self._forget([scoped(i, user) for i in ids])

    def update(self, turns: Sequence[Turn]) -> None:
        self._update([scoped_turn(t) for t in turns])

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        return iter([unscoped_turn(t) for t in self._turns(_key(conversation, user), user)])

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        return [unscoped(key) for key in self._keys(_key(conversation, user), user)]

    def search(self, query: Query, k: int, conversation: str | None = None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        found = self._search(query, k, _key(conversation, user), user, where)
        return found if user is None else [(unscoped_turn(t), score) for t, score in found]

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        return [unscoped(c) for c in self._conversations(query, k, user, where)]

    def claims(self, conversation: str, user: str | None = None) -> tuple[Claim, ...]:
        key = scoped(conversation, user)
        try:
            return tuple(unscoped_claim(c) for c in self._conversation_claims(key))
        except DataError as e:  # said of the conversation the caller named, not of its key
            raise DataError(str(e).replace(repr(key), repr(conversation))) from None

    def claims_about(self, about: str, user: str | None = None) -> Sequence[Claim]:
        told = self._claims_about(about, user)
        if user is None:
            return told  # no user, no scoped id: the store's claims as it keeps them (their statements read once)
        if isinstance(told, Told):
            return Told(tuple(unscoped_claim(c) for c in told.claims), told.said,
                        tuple((at, unscoped_claim(c), said) for at, c, said in told.endings))
        return [unscoped_claim(c) for c in told]

    def speakers(self, conversation: str, user: str | None = None) -> list[str]:
        return self._speakers(scoped(conversation, user))

    @abstractmethod
    def _add(self, turns: Sequence[Turn]) -> None:
        """:meth:`add` of turns under their keys."""

    @abstractmethod
    def _held(self, keys: Collection[str]) -> dict[str, Turn]:
        """The turns held under these keys, by key."""

    @abstractmethod
    def _forget(self, keys: Collection[str]) -> int:
        """:meth:`forget` of the turns under these keys."""

    @abstractmethod
    def _update(self, turns: Sequence[Turn]) -> None:
        """:meth:`update` of turns under their keys."""

    @abstractmethod
    def _turns(self, conversation: str | None, user: str | None) -> Iterator[Turn]:
        """:meth:`turns`, of the conversation keyed ``conversation``, turns under their keys."""

    @abstractmethod
    def _keys(self, conversation: str | None, user: str | None) -> list[str]:
        """The keys of the turns :meth:`_turns` gives, in its order."""

    @abstractmethod
    def _search(self, query: Query, k: int, conversation: str | None, user: str | None,
                where: Where | None) -> list[Scored]:
        """:meth:`search`, of the conversation keyed ``conversation``, turns under their keys."""

    @abstractmethod
    def _conversations(self, query: Query, k: int, user: str | None, where: Where | None) -> list[str]:
        """:meth:`conversations`, their keys."""

    @abstractmethod
    def _conversation_claims(self, conversation: str) -> tuple[Claim, ...]:
        """The claims of the conversation keyed ``conversation``, each naming its turn's key."""

    @abstractmethod
    def _claims_about(self, about: str, user: str | None) -> Sequence[Claim]:
        """:meth:`claims_about`, each claim naming its turn's key."""

    @abstractmethod
    def _speakers(self, conversation: str) -> list[str]:
        """Who speaks in the conversation keyed ``conversation``."""


def _key(conversation: str | None, user: str | None) -> str | None:
    return None if conversation is None else scoped(conversation, user)
