"""What a memory's store must do: the one shape every store takes.

Why a protocol: :class:`graphmem.memory.api.Memory` defines each verb once (validate, parse the
query, read the answer) and hands the part that touches storage to its store. A store in RAM, one
SQLite file and Neo4j each implement these methods; the conformance suite
(``tests/conformance``) runs the same cases against all three, so a verb is done when it passes
on every store, and a new store is a new class, never a new branch in the memory.

Every turn a store is given has passed :func:`graphmem.data.records.validate` and is new to it
(the memory asks :meth:`Store.held` first), so a store never judges input; it may still refuse to
write (a full disk, a server gone), and then it keeps nothing of the batch.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Protocol

from graphmem.domain import Claim, Turn
from graphmem.index.query import Query

__all__ = ["Store", "Weights"]


class Weights(Protocol):
    """The reader's term weights over what a store holds: how rare each stemmed term is (idf);
    ``unseen`` for a term no turn holds (the largest weight there is)."""

    unseen: float

    def weight(self, term: str) -> float: ...

    def weights(self, terms: Sequence[str]) -> dict[str, float]: ...


class Store(Protocol):
    """A memory's turns, their index and their claims, in one place."""

    where: str
    """Where the store is, for messages: a file's path, an address, or ``memory``."""

    def add(self, turns: Sequence[Turn]) -> None:
        """Keep validated turns new to the store: all of them, searchable at once, or none."""

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        """The turns the store holds under any of these ids."""

    def forget(self, ids: Collection[str]) -> int:
        """Forget the turns held under these ids, and everything read from them, at once: afterwards
        the store answers as one that never held them. Returns how many it held."""

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        """Every turn of ``user`` held (of one conversation): conversation by conversation in the
        order of their keys, each conversation's in the order they were added."""

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        """The ids of the turns :meth:`turns` gives, in its order, and nothing else of them."""

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None) -> list[Turn]:
        """The k best turns of ``user`` for a parsed query, best first (of one conversation when given).
        Ids and conversations are the scoped keys of :mod:`graphmem.store.users`."""

    def conversations(self, query: Query, k: int, user: str | None = None) -> list[str]:
        """The k conversations of ``user`` the query is most about, best first."""

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        """The claims read from a conversation's turns, in turn order."""

    def claims_about(self, about: str, user: str | None = None) -> Sequence[Claim]:
        """The claims about the person keyed ``about`` (a folded name) in every conversation of ``user``."""

    def speakers(self, conversation: str) -> list[str]:
        """Who speaks in a conversation."""

    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> Weights:
        """The reader's term weights for the query and the turns found (at least their terms), over
        ``user``'s turns alone."""

    def build(self) -> None:
        """Make the store ready to search now (otherwise its first search does, if it must)."""

    def __len__(self) -> int:
        """How many turns the store holds."""

    def close(self) -> None:
        """Release what the store holds open (a file, a connection); it is not used again."""
