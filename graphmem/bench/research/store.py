"""The research memory: a :class:`graphmem.memory.api.Memory` over the research index.

Why a store: the memory's verbs (validation, the reader, the confidence) stay the product's, and
only the ranking is the experiment's, so a benchmark compares the shipped memory with a variant
that differs in exactly one step. :class:`BulkStore` keeps the turns in RAM and builds a
:class:`graphmem.bench.research.bulk.BulkIndex` over all of them when it is first read after an add.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from graphmem.data.metadata import Where, selector
from graphmem.domain import Claim, Turn
from graphmem.errors import MisuseError
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.memory.api import Memory
from graphmem.bench.research.bulk import BulkIndex
from graphmem.bench.research.strategies import Strategies
from graphmem.store.base import Scored, Store
from graphmem.store.claims import MemoryClaims
from graphmem.text.terms import Vocabulary

__all__ = ["BulkStore", "ResearchMemory", "research_memory"]


class BulkStore(Store):
    """Turns in RAM, searched by the research index (built again when read after an add or a forget)."""

    where = "research memory"

    def __init__(self, options: MemoryOptions = MemoryOptions(), scope: bool = True, dense: bool = False,
                 strategies: Strategies = Strategies()):
        self.options, self.scope, self.dense, self.strategies = options, scope, dense, strategies
        self.records: list[Turn] = []
        self._ids: dict[str, int] = {}
        self._claims = MemoryClaims()
        self._index: BulkIndex | None = None

    def add(self, turns: Sequence[Turn]) -> None:
        if any(t.user is not None for t in turns):
            raise MisuseError("the research memory holds no user's turns: it measures the ranking over one collection")
        self._claims.defer(turns)
        self._ids.update((t.id, i) for i, t in enumerate(turns, len(self.records)))
        self.records.extend(turns)
        self._index = None

    def forget(self, ids: Collection[str]) -> int:
        """The turns held under these ids dropped, and the claims read again when next asked for:
        the index is built anew over the turns kept, as for a store that never held them."""
        gone = {i for i in ids if i in self._ids}
        if gone:
            self.records = [t for t in self.records if t.id not in gone]
            self._ids = {t.id: i for i, t in enumerate(self.records)}
            self._claims = MemoryClaims()
            self._claims.defer(self.records)
            self._index = None
        return len(gone)

    def update(self, turns: Sequence[Turn]) -> None:
        """Forget the held turns, then add these (in RAM: nothing runs between the two)."""
        self.forget([t.id for t in turns])
        self.add(turns)

    @property
    def index(self) -> BulkIndex:
        if self._index is None:
            self._index = BulkIndex(self.records, self.dense, self.scope, self.options, self.strategies)
        return self._index

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        return {i: self.records[self._ids[i]] for i in ids if i in self._ids}

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        convs = sorted({r.conversation for r in self.records}) if conversation is None else [conversation]
        return iter([r for c in convs for r in self.records if r.conversation == c])

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        return [t.id for t in self.turns(conversation, user)]

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        return self.index.scored(query, k, conversation, selector(where)) if self.records and user is None else []

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        return self.index.conversations(query, k, selector(where)) if self.records and user is None else []

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        return self._claims.claims(conversation)

    def claims_about(self, about: str, user: str | None = None) -> list[Claim]:
        convs = sorted({r.conversation for r in self.records})
        return [c for conv in convs for c in self._claims.claims(conv) if c.subject == about]

    def speakers(self, conversation: str) -> list[str]:
        return list(dict.fromkeys(r.speaker for r in self.records if r.conversation == conversation))

    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> Vocabulary:
        return self.index.vocab  # no user's turns: one collection

    def build(self) -> None:
        if self.records:
            _ = self.index

    def __len__(self) -> int:
        return len(self.records)

    def close(self) -> None:
        """Nothing held open."""




class ResearchMemory(Memory):
    """A memory over a :class:`BulkStore`, whose confidence may read the first turn found with the
    turn it replies to (``Strategies.sure_context``)."""

    _store: BulkStore

    def _covered(self, found: Sequence[Turn]) -> str:
        if not self._store.strategies.sure_context:
            return super()._covered(found)
        return f"{self._store.index.said_before[found[0].id]} {found[0].text}"


def research_memory(strategies: Strategies = Strategies(), *, options: MemoryOptions = MemoryOptions(),
                    dense: bool = False, scope: bool = True, **memory: Any) -> ResearchMemory:
    """A memory whose ranking is the research index with ``strategies`` (the rest is the product's:
    ``memory`` takes ``Memory``'s other settings, floor, confidence and so on)."""
    return ResearchMemory(store=BulkStore(options, scope, dense, strategies), options=options, **memory)
