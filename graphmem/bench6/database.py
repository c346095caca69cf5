"""bench6 through Neo4j: the pool ingested by ``Memory(backend="neo4j")``, every question searched
in the database, the pool's conversations deleted afterwards.

Why a run of its own: the embedded adapter's memory holds the pool alone, so its statistics
(document frequencies, the average length) are the pool's. The database's are over everything
it holds, so a figure through it is comparable with the embedded one only on a database that
holds nothing else; the report says how many turns the database searched. A run refuses a
database that already holds one of the pool's conversations (it would mix with them, and it
deletes what it wrote), and deletes the pool's conversations when it ends, also after an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.bench6.adapter import Adapter, conversation_of
from graphmem.bench6.report import main_report
from graphmem.errors import DataError

__all__ = ["DatabaseAdapter", "database_report"]


class DatabaseAdapter(Adapter):
    """graphmem under bench6's adapter protocol, searching in Neo4j (``neo4j`` holds the
    connection settings ``Memory`` takes: uri, user, password, database)."""

    def __init__(self, dense: bool = False, **neo4j: Any):
        super().__init__(dense=dense, memory_factory=self._database_memory)
        self.name += " [neo4j]"
        self.neo4j = neo4j
        self.written: list[str] = []
        self.searched = self.pool = 0

    def _database_memory(self) -> Any:
        from graphmem.memory.api import Memory  # lazy, as the adapter's own memory is

        return Memory(backend="neo4j", dense=self.dense, **self.neo4j)

    def ingest(self, records: Sequence[Mapping[str, Any]]) -> None:
        convs = sorted({str(r.get("conversation") or conversation_of(str(r["id"]))) for r in records})
        memory = self._database_memory()
        client = memory.store.client
        try:
            present = [row["conversation"] for row in client.query("conversations_present", conversations=convs)]
        except BaseException:
            memory.close()
            raise
        if present:
            memory.close()
            raise DataError(f"Neo4j at {client.settings.where} holds bench6's conversation {present[0]!r} already:"
                            " bench6 --backend neo4j writes the pool and deletes it afterwards, so it needs a"
                            " database without it (graphmem load --replace or a delete frees it)")
        self.written = convs
        self._factory = lambda: memory
        super().ingest(records)
        self.searched, self.pool = len(memory), len(records)

    def close(self) -> None:
        """Delete the pool's conversations (each with the frequencies its turns counted in)."""
        if self.memory is None:
            return
        from graphmem.neo4j.load import delete  # lazy: the loader pulls in networkx

        client = self.memory.store.client
        try:
            for conv in self.written:
                delete(client, conv)
        finally:
            self.memory.close()
            self.memory = None


def database_report(data_dir: Any, lang: str, k: int, dense: bool = False, **neo4j: Any) -> str:
    """What ``graphmem bench6 --backend neo4j`` prints: the report, and how many turns the
    database searched (its statistics are over all of them)."""
    adapter = DatabaseAdapter(dense=dense, **neo4j)
    try:
        report = main_report(data_dir, lang, k, adapter=adapter)
    finally:
        adapter.close()
    return (f"{report}\nsearched in Neo4j: {adapter.searched} turns (the database's statistics are over all"
            f" of them; the pool is {adapter.pool})")
