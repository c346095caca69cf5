"""The memory kept in Neo4j: ``Memory(backend="neo4j")`` searches and writes in the database.

Why the database serves it: a memory many processes share cannot live in one of them. Opening
connects, makes sure the schema exists (once per process: constraints, the Term nodes' index, the
full-text index over the turns' search fields) and warms the search statements (a fresh server
plans and compiles each statement on its first run), and reads nothing else; a search is one
round trip (:mod:`graphmem.store.neo4j_search`); a write is one transaction
(:mod:`graphmem.store.neo4j_write`), the same for the memory's ingests and ``graphmem load``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence

from graphmem.domain import Claim, Turn
from graphmem.errors import DataError
from graphmem.index.live_dense import encoder as shared_encoder
from graphmem.index.live_dense import need_dense
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.neo4j.client import Client, connect
from graphmem.store.neo4j_search import CANDIDATES, DbVocabulary, Searcher
from graphmem.store.neo4j_write import Given, Writer, as_datetime, turn_of

__all__ = ["Neo4jStore"]

_SCHEMA_DONE: set[str] = set()
"""The databases whose schema this process has made sure of (an explicit, idempotent step,
once per process, never per write)."""


def ensure_schema(client: Client) -> None:
    if client.settings.where not in _SCHEMA_DONE:
        client.ensure_schema()
        _SCHEMA_DONE.add(client.settings.where)


class Neo4jStore:
    """A memory's turns, search fields and claims, all in one Neo4j database."""

    def __init__(self, options: MemoryOptions = MemoryOptions(), scope: bool = True, dense: bool = False,
                 candidates: int = CANDIDATES, uri: str | None = None, user: str | None = None,
                 password: str | None = None, database: str | None = None, client: Client | None = None):
        encoder = None
        if dense:  # the embedding model before the connection: a missing extra says so first
            need_dense()
            encoder = shared_encoder(options.dense_engine)
        self.client = client or connect(uri, user, password, database)
        try:
            ensure_schema(self.client)
        except BaseException:
            self.client.close()
            raise
        self.where = self.client.settings.where
        self.searcher = Searcher(self.client, options, scope, candidates, encoder)
        self.writer = Writer(self.client, options, encoder)

    def add(self, turns: Sequence[Turn], given: Mapping[str, Given] | None = None) -> None:
        """Write the turns in one transaction; ``given``: a load's graph per conversation."""
        if turns:
            self.writer.ingest(turns, given)

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        return {r["id"]: turn_of(r) for r in self.client.query("memory_held", keys=list(ids))} if ids else {}

    def turns(self, conversation: str | None = None) -> Iterator[Turn]:
        return iter([turn_of(r) for r in self.client.query("memory_turns", conversation=conversation)])

    def search(self, query: Query, k: int, conversation: str | None) -> list[Turn]:
        return self.searcher.search(query, k, conversation)

    def conversations(self, query: Query, k: int) -> list[str]:
        return self.searcher.conversations(query, k)

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        """The conversation's claims in turn order, from its Assertion nodes (those the claim reader
        made: a load's derived ones are the graph's, not the reader's)."""
        row = self.client.query("memory_claims", conversation=conversation)[0]
        if row["refused"]:
            raise DataError(f"conversation {conversation!r}: no claims ({row['refused']})")
        if not row["held"]:
            raise DataError(f"conversation {conversation!r}: the memory holds no turn of it")
        return tuple(Claim(c["subject"], c["predicate"], c["object"], bool(c["negated"]), c["sentence"], c["turn_id"],
                           as_datetime(c["date"]), tuple(c["mentions"]), c["topic"], c["speaker"]) for c in row["claims"])

    def speakers(self, conversation: str) -> list[str]:
        """Who speaks in ``conversation``, as the database's conversation node keeps them."""
        return list(self.client.query("conversation_speakers", conversation=conversation)[0]["speakers"])

    def weights(self, query: Query, found: Sequence[Turn]) -> DbVocabulary:
        return self.searcher.vocabulary(query, found)

    def build(self) -> None:
        """Nothing to build: the index is the database's, searchable at each write's commit."""

    def __len__(self) -> int:
        return self.searcher.count()

    def close(self) -> None:
        self.client.close()
