"""What a memory's store must do: the one shape every store takes, checked.

Why an abstract class: :class:`graphmem.memory.api.Memory` defines each verb once (validate, parse the
query, read the answer) and hands the part that touches storage to its store. A store in RAM, one
SQLite file, Neo4j and the benchmarks' bulk store each subclass :class:`Store`, so a store that
leaves a method out cannot be made at all (Python refuses to instantiate it), rather than failing
when that verb is first called; the contract tests (``tests/unit/store/test_contract.py``,
``tests/neo4j/test_contract.py``) call every method of each store directly, below the memory, and the
conformance suite (``tests/conformance``) runs the same memory cases against RAM, a file and Neo4j.
A new store is a new subclass, never a new branch in the memory.

The user is in every verb: a caller names a turn by its user and its id, a conversation by its user
and its name, and each store keys them as it chooses (:mod:`graphmem.store.users` says how each does,
and why); every turn, id, conversation and claim a store gives back is named as the caller named it.
Two users' turns under the same id or conversation are two turns, and no verb of one user reads,
moves or removes the other's.

Every turn a store is given has passed :func:`graphmem.data.records.validate` and is new to it
(the memory asks :meth:`Store.held` first), so a store never judges input; it may still refuse to
write (a full disk, a server gone), and then it keeps nothing of the batch. A ``where`` filter has
passed :func:`graphmem.data.metadata.where_argument`; a store applies it to its candidates before it
takes the k best, never to the k it found.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Sequence
from graphmem.data.metadata import Where
from graphmem.domain import Claim, Turn
from graphmem.index.query import Query
from graphmem.text.terms import TermWeights

__all__ = ["Scored", "Store", "Weights"]

Scored = tuple[Turn, float]
"""A turn a store's search found, with its score (BM25F, or the fused score with embeddings)."""


Weights = TermWeights
"""The reader's term weights over what a store holds (:class:`graphmem.text.terms.TermWeights`): how
rare each stemmed term is (idf); ``unseen`` for a term no turn holds (the largest weight there is)."""


class Store(ABC):
    """A memory's turns, their index and their claims, in one place."""

    where: str
    """Where the store is, for messages: a file's path, an address, or ``memory``."""

    @abstractmethod
    def add(self, turns: Sequence[Turn]) -> None:
        """Keep validated turns new to the store (each its user's, ``Turn.user``): all of them,
        searchable at once, or none."""

    @abstractmethod
    def held(self, ids: Collection[str], user: str | None = None) -> dict[str, Turn]:
        """The turns of ``user`` the store holds under any of these ids, by id."""

    @abstractmethod
    def forget(self, ids: Collection[str], user: str | None = None) -> int:
        """Forget the turns of ``user`` held under these ids, and everything read from them, at once:
        afterwards the store answers as one that never held them, and another user's turns under the
        same ids are as they were. Returns how many it held."""

    @abstractmethod
    def update(self, turns: Sequence[Turn]) -> None:
        """Put each turn in the place of the turn its user holds under its id, in one transaction:
        afterwards the store answers as one that forgot the held turns and was then given these (a
        turn's claims read again). Every id is held (the memory checks it first)."""

    @abstractmethod
    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        """Every turn of ``user`` held (of one conversation): conversation by conversation in the
        order of their names, each conversation's in the order they were added."""

    @abstractmethod
    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        """The ids of the turns :meth:`turns` gives, in its order, and nothing else of them."""

    @abstractmethod
    def search(self, query: Query, k: int, conversation: str | None = None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        """The k best turns of ``user`` for a parsed query and their scores, best first (of one
        conversation when given; of those whose metadata ``where`` selects)."""

    @abstractmethod
    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        """The k conversations of ``user`` the query is most about, best first (scored by their
        turns ``where`` selects)."""

    @abstractmethod
    def claims(self, conversation: str, user: str | None = None) -> tuple[Claim, ...]:
        """The claims read from the turns of ``user``'s conversation, in turn order."""

    @abstractmethod
    def claims_about(self, about: str, user: str | None = None) -> Sequence[Claim]:
        """The claims about the person keyed ``about`` (a folded name) in every conversation of ``user``."""

    @abstractmethod
    def speakers(self, conversation: str, user: str | None = None) -> list[str]:
        """Who speaks in ``user``'s conversation."""

    @abstractmethod
    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> Weights:
        """The reader's term weights for the query and the turns found (at least their terms), over
        ``user``'s turns alone."""

    @abstractmethod
    def build(self) -> None:
        """Make the store ready to search now (otherwise its first search does, if it must)."""

    @abstractmethod
    def __len__(self) -> int:
        """How many turns the store holds."""

    @abstractmethod
    def close(self) -> None:
        """Release what the store holds open (a file, a connection); it is not used again."""
