"""The memory API's store in Neo4j: what ``Memory(backend="neo4j")`` reads and writes there."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem.data.records import Record, conversations
from graphmem.neo4j.client import Client, connect
from graphmem.neo4j.load import DEFAULT_BATCH, load_conversations
from graphmem.neo4j.plan import as_date, check_id

__all__ = ["MemoryStore", "number_turns"]


class MemoryStore:
    """What ``Memory(backend="neo4j")`` keeps in Neo4j: its turns, and the claims read from them.

    A new memory over the same database starts from every Turn already there (including
    conversations loaded by ``graphmem load``). Ingesting reloads each conversation it
    touches with ``replace``, because more dialogue can change how earlier turns read
    (a third party introduced later, say), and the load's count check must stay exact.
    """

    def __init__(self, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, batch: int = DEFAULT_BATCH):
        self.client = connect(uri, user, password, database)
        self.batch = batch
        self._records: list[Record] = []

    def records(self) -> list[Record]:
        """Every turn in the database as a memory record."""
        rows = self.client.query("memory_turns")
        self._records = [Record(r["id"], r["speaker"], r["text"], _as_datetime(r["date"]), r["conversation"], r["turn"])
                         for r in rows]
        return list(self._records)

    def write(self, new: Sequence[Record]) -> None:
        """Load the conversations these records belong to, with everything they already held."""
        touched = {r.conversation for r in new}
        for conv_id in touched:
            check_id(conv_id)
        records = [r for r in self._records if r.conversation in touched] + list(new)
        load_conversations(self.client, conversations(records), batch=self.batch, replace=True)
        number_turns(self.client, records, self.batch)
        self._records.extend(new)

    def close(self) -> None:
        self.client.close()


def number_turns(client: Client, records: Sequence[Record], batch: int = DEFAULT_BATCH) -> int:
    """Keep the turn numbers memory records carry on their Turn nodes (loaded first), so a
    ``Memory(backend="neo4j")`` reads the same records the in-process one was given.
    Returns how many were written."""
    rows = [{"key": f"{r.conversation}/{r.id}", "number": r.turn} for r in records if r.turn is not None]
    for start in range(0, len(rows), batch):
        client.write("memory_turn_numbers", rows=rows[start:start + batch])
    return len(rows)


def _as_datetime(value: Any) -> datetime | None:
    """A stored date back as a Python datetime (the driver returns its own DateTime type)."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    if isinstance(value, str):
        return as_date(value) if isinstance(as_date(value), datetime) else None
    return value if isinstance(value, datetime) else None
