"""The memory kept in Neo4j: ``Memory(backend="neo4j")`` searches and writes in the database.

Why the database serves it: a memory many processes share cannot live in one of them. Start-up
connects and makes sure the schema exists (once per process: constraints, the Term nodes'
index, the full-text index over the turns' search fields), and reads nothing else; a search is
a few round trips (:mod:`graphmem.memory.graphdb_search`); an ingest is one transaction
(:mod:`graphmem.memory.graphdb_write`). Conversations that ``graphmem load`` wrote are searched
alike once their search fields are written (:func:`index_loaded`, which the load runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem.data.locomo import Conversation
from graphmem.data.records import Record
from graphmem.memory.graphdb_rows import index_row, sentence_rows
from graphmem.memory.graphdb_search import CANDIDATES, DbVocabulary, Searcher
from graphmem.memory.graphdb_write import Writer
from graphmem.memory.index import _encoder, need_dense
from graphmem.memory.live import LiveIndex
from graphmem.memory.options import MemoryOptions
from graphmem.neo4j.client import Client, connect

__all__ = ["GraphMemory", "embed_loaded", "index_loaded", "loaded_records"]

_SCHEMA_DONE: set[str] = set()
"""The databases whose schema this process has made sure of (an explicit, idempotent step,
once per process, never per write)."""


def ensure_schema(client: Client) -> None:
    if client.settings.where not in _SCHEMA_DONE:
        client.ensure_schema()
        _SCHEMA_DONE.add(client.settings.where)


class GraphMemory:
    """Search, ingest and the reader's vocabulary, all served by one Neo4j database."""

    def __init__(self, options: MemoryOptions, scope: bool = True, candidates: int = CANDIDATES,
                 uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, dense: bool = False, **_: Any):
        encoder = None
        if dense:  # the embedding model before the connection: a missing extra says so first
            need_dense()
            encoder = _encoder(options.dense_engine)
        self.client = connect(uri, user, password, database)
        try:
            ensure_schema(self.client)
        except BaseException:
            self.client.close()
            raise
        self.searcher = Searcher(self.client, options, scope, candidates, encoder)
        self.writer = Writer(self.client, options, encoder)

    def ingest(self, records: Sequence[Record]) -> None:
        self.writer.ingest(records)

    def search(self, query: str, k: int, conversation: str | None, asked_on: datetime | None = None) -> list[Record]:
        return self.searcher.search(query, k, conversation, asked_on)

    def conversations(self, query: str, k: int, asked_on: datetime | None = None) -> list[str]:
        return self.searcher.conversations(query, k, asked_on)

    def vocabulary(self, question: str, found: Sequence[Record]) -> DbVocabulary:
        return self.searcher.vocabulary(question, found)

    def english(self, query: str) -> str:
        return self.searcher.english(query)

    def count(self) -> int:
        return self.searcher.count()

    def speakers(self, conversation: str) -> list[str]:
        """Who speaks in ``conversation``, as the database's conversation node keeps them."""
        return list(self.client.query("conversation_speakers", conversation=conversation)[0]["speakers"])

    def close(self) -> None:
        self.client.close()


def loaded_records(conv: Conversation) -> list[Record]:
    """A loaded conversation's turns as the memory reads them (ids scoped when searched)."""
    return [Record(t.dia_id, t.speaker, t.text, t.date, conv.sample_id) for t in conv.turns]


def index_loaded(client: Client, records: Sequence[Record], options: MemoryOptions = MemoryOptions(),
                 batch: int = 2000) -> int:
    """Write the search fields of turns ``graphmem load`` wrote, conversation by conversation
    (idempotent: writing them again moves no document frequency). Returns the turns indexed."""
    ensure_schema(client)
    by_conv: dict[str, list[Record]] = {}
    for r in records:
        by_conv.setdefault(r.conversation, []).append(r)
    done = 0
    for conv, rows in by_conv.items():
        index = LiveIndex(options, scope=False)
        index.add(rows)
        out = [index_row(index, i) for i in range(len(index))]
        for i, r in enumerate(rows):  # a turn file's own numbers travel with the fields
            out[i]["fields"]["number"] = r.turn
        for start in range(0, len(out), batch):
            client.write("index_turns", rows=out[start:start + batch])
        speakers = list(dict.fromkeys(r.speaker.lower() for r in rows))
        client.write("conversation_index", conversation=conv, lspeakers=speakers, askers=index.askers.count)
        done += len(out)
    return done


def embed_loaded(client: Client, records: Sequence[Record], options: MemoryOptions = MemoryOptions(),
                 batch: int = 512) -> int:
    """Write the sentence embeddings of turns ``graphmem load`` wrote (``graphmem load --dense``),
    in batches (idempotent: a sentence's vector is replaced). Returns the sentences written."""
    need_dense()
    ensure_schema(client)
    encoder = _encoder(options.dense_engine)
    done = 0
    for start in range(0, len(records), batch):
        rows = sentence_rows(records[start:start + batch], encoder)
        client.write("write_vectors", rows=rows)
        done += len(rows)
    return done
