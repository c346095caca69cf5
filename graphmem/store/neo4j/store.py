"""The memory kept in Neo4j: ``Memory(backend="neo4j")`` searches and writes in the database.

Why the database serves it: a memory many processes share cannot live in one of them. Opening
connects, makes sure the schema exists (once per process: constraints, the Term nodes' index, the
full-text index over the turns' search fields) and warms the search statement (a fresh server
plans it and builds its runtime on its first run: :func:`ready`), and reads nothing else; a search is one
round trip (:mod:`graphmem.store.neo4j.search`); a write is one transaction
(:mod:`graphmem.store.neo4j.write`), the same for the memory's ingests and ``graphmem load``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import datetime

from graphmem.data.metadata import Where
from graphmem.domain import Claim, Turn
from graphmem.errors import DataError, GraphmemError
from graphmem.index.live_dense import encoder as shared_encoder
from graphmem.index.live_dense import need_dense
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.store.neo4j.client import Client, connect
from graphmem.store.base import Scored, Store
from graphmem.store.neo4j.search import CANDIDATES, DbVocabulary, Searcher
from graphmem.store.neo4j.write import Given, Writer, as_datetime, turns_of
from graphmem.store.users import owner
from graphmem.text.terms import analyse

__all__ = ["Neo4jStore", "warm"]

_READY: set[str] = set()
"""The databases this process has made ready: their schema made sure of and their search statements
warmed (an explicit step, once per process, never per write or search)."""

WARM_QUERY = "When did you last see them in May 2023?"
"""The search run once when a store opens: words, a date and an answer type, so that every part of the
search statement is planned and run once."""


WARM_PERSON = "~warm"
"""A key no person or turn has: the warm-up plans the claims and held-turns statements, reading nothing."""


def ready(client: Client, searcher: Searcher) -> None:
    """The schema made sure of, then the search warmed: a server plans a statement the first time it
    meets it (about a second for the search on a cold server) and builds its runtime on the first run;
    done here, the first search a program makes costs what any search costs. On a server that met the
    statements before (another process, an earlier load) this costs two searches' time. These calls
    may keep the server busy longer than a search may (:meth:`Client.starting`): on a server just
    started, every process starting at once plans the search statement for itself."""
    if client.settings.where not in _READY:
        with client.starting():
            client.ensure_schema()
            warm(client, searcher)
        _READY.add(client.settings.where)


def warm(client: Client, searcher: Searcher) -> None:
    """Run the search statements once. A server plans a statement again when the data it planned
    for has changed enough (a load of many turns); ``graphmem load`` calls this when it is done, so
    that the first program to search afterwards finds the plans made for the data as it now is.
    Planning is what these calls spend, so they have a start's bound on the server (:meth:`Client.starting`)."""
    with client.starting():
        searcher.search(Query.parse(WARM_QUERY), 1, None)
        client.query("reader_stats", p={"stems": analyse(WARM_QUERY), "owner": owner(None)})
        # what the knowledge updates' rules read beside a search: a person's claims, turns by key
        client.query("memory_facts", p={"about": WARM_PERSON, "owner": owner(None)})
        client.query("memory_held", p={"keys": [WARM_PERSON]})


def replan(client: Client) -> None:
    """The index statistics made current and the plans cleared (after a load), so that :func:`warm`
    plans for the data as it now is. A server that refuses the procedure (a user without the
    privilege, a sampling slower than the bound) is left to sample in its own time: the load stands,
    only the next program's first search pays the planning; a server gone fails the warm-up next."""
    with client.starting():
        try:
            client.write("prepare_replanning", p={"seconds": int(client.server_timeout)})
        except GraphmemError:
            pass


class Neo4jStore(Store):
    """A memory's turns, search fields and claims, all in one Neo4j database."""

    def __init__(self, options: MemoryOptions = MemoryOptions(), scope: bool = True, dense: bool = False,
                 candidates: int = CANDIDATES, uri: str | None = None, user: str | None = None,
                 password: str | None = None, database: str | None = None, client: Client | None = None,
                 timeout: float | None = None):
        encoder = None
        if dense:  # the embedding model before the connection: a missing extra says so first
            need_dense()
            encoder = shared_encoder(options.dense_engine)
        self.client = client or connect(uri, user, password, database, timeout=timeout)
        self.where = self.client.settings.where
        self.searcher = Searcher(self.client, options, scope, candidates, encoder)
        self.writer = Writer(self.client, options, encoder)
        try:
            ready(self.client, self.searcher)
        except BaseException:
            self.client.close()
            raise

    def add(self, turns: Sequence[Turn]) -> None:
        """Write the turns in one transaction, their claims read as they are written."""
        if turns:
            self.writer.ingest(turns)

    def load(self, turns: Sequence[Turn], given: Mapping[str, Given]) -> None:
        """``graphmem load``'s write, Neo4j's own: the turns in one transaction with the graph a load's
        mirror holds per conversation (``given``: people, claims, sessions) instead of claims read here."""
        if turns:
            self.writer.ingest(turns, given)

    def _where(self, ids: Collection[str]) -> dict[str, str]:
        """Which of these ids are held, and in which conversation, read as keys alone."""
        row = self.client.query("memory_where", p={"keys": list(dict.fromkeys(ids))})[0]
        return dict(zip(row["keys"], row["conversations"], strict=True))

    def forget(self, ids: Collection[str]) -> int:
        """Forget the turns held under these ids."""
        if not ids:
            return 0
        gone = self._where(ids)
        if gone:
            self.writer.forget(gone)
        return len(gone)

    def update(self, turns: Sequence[Turn]) -> None:
        """Forget the held turns and write these in one transaction (:meth:`Writer.update`)."""
        if turns:
            self.writer.update(self._where([t.id for t in turns]), turns)

    def keys(self, conversation: str | None = None, user: str | None = None) -> list[str]:
        return list(self.client.query("memory_keys", p={"conversation": conversation, "owner": owner(user)})[0]["keys"])

    def held(self, ids: Collection[str]) -> dict[str, Turn]:
        return {t.id: t for t in turns_of(self.client.query("memory_held", p={"keys": list(ids)}))} if ids else {}

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        rows = self.client.query("memory_turns", p={"conversation": conversation, "owner": owner(user)})
        return iter(turns_of(rows))

    def search(self, query: Query, k: int, conversation: str | None, user: str | None = None,
               where: Where | None = None) -> list[Scored]:
        return self.searcher.search(query, k, conversation, user, where)

    def conversations(self, query: Query, k: int, user: str | None = None, where: Where | None = None) -> list[str]:
        return self.searcher.conversations(query, k, user, where)

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        """The conversation's claims in turn order, from its Assertion nodes (those the claim reader
        made: a load's derived ones are the graph's, not the reader's)."""
        row = self.client.query("memory_claims", p={"conversation": conversation})[0]
        if row["refused"]:  # written by a graphmem that read two-party dialogue alone
            raise DataError(f"conversation {conversation!r}: no claims: it was written when graphmem read"
                            f" two-party dialogue only ({row['refused']}); forget it and ingest it again")
        if not row["held"]:
            raise DataError(f"conversation {conversation!r}: the memory holds no turn of it")
        return tuple(_claim(c) for c in row["claims"])

    def claims_about(self, about: str, user: str | None = None) -> list[Claim]:
        """The claims about the person keyed ``about`` in every conversation of ``user``, from the
        Person and Assertion nodes."""
        row = self.client.query("memory_facts", p={"about": about, "owner": owner(user)})[0]
        if not row["plain"]:
            return [_claim(c) for c in self.client.query("memory_facts_rows", p={"about": about, "owner": owner(user)})]
        return [_joined(c) for c in row["claims"]]

    def speakers(self, conversation: str) -> list[str]:
        """Who speaks in ``conversation``, as the database's conversation node keeps them."""
        return list(self.client.query("conversation_speakers", p={"conversation": conversation})[0]["speakers"])

    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> DbVocabulary:
        return self.searcher.vocabulary(query, found, user)

    def build(self) -> None:
        """Nothing to build: the index is the database's, searchable at each write's commit."""

    def __len__(self) -> int:
        return self.searcher.count()

    def close(self) -> None:
        self.client.close()


def _joined(text: str) -> Claim:
    """A claim as ``memory_facts.cypher`` joins it into one string."""
    subject, predicate, obj, negated, sentence, turn, when, mentions, topic, speaker = text.split("\x1f")
    return Claim(subject, predicate, obj, negated == "true", sentence, turn,
                 datetime.fromisoformat(when) if when else None, tuple(mentions.split("\x1e")[:-1]), topic, speaker)


def _claim(c: dict) -> Claim:
    """A claim as a statement returns an assertion."""
    return Claim(c["subject"], c["predicate"], c["object"], bool(c["negated"]), c["sentence"], c["turn_id"],
                 as_datetime(c["date"]), tuple(c["mentions"]), c["topic"], c["speaker"])
