"""bench6 through Neo4j: the pool ingested by ``Memory(backend="neo4j")``, every question searched
in the database, the pool's conversations deleted afterwards.

Why a run of its own: the embedded adapter's memory holds the pool alone. A database may hold other
turns, and a search among them would rank them beside the pool's and print a hit@1 that is not
bench6's beside the published systems (issue #47: 0.190 "<- this run"). So the pool is ingested into a
partition of its own, a user named for this run, and every question is searched there: only the
pool's turns can be found, whatever else the database holds. The run forgets that partition when it
ends, also after an error. The report says how many turns the database holds besides the pool: where
a store computes its statistics (document frequencies, the average length) over more than the asking
user's turns, those turns still move the ranking.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.bench.bench6.adapter import Adapter
from graphmem.bench.bench6.report import main_report

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
        memory = self._database_memory()
        self.user = f"bench6-{uuid.uuid4().hex[:12]}"
        self._factory = lambda: memory
        try:
            super().ingest(records)
        except BaseException:
            self.close()
            raise
        self.searched, self.pool = len(memory), len(records)

    def close(self) -> None:
        """Forget the pool's partition (its turns and what was read from them)."""
        if self.memory is None:
            return
        try:
            if self.user is not None:
                self.memory.forget(user=self.user)
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
    besides = adapter.searched - adapter.pool
    return (f"{report}\nsearched in Neo4j: the pool's {adapter.pool} turns, in a partition of their own; the database"
            f" held {besides} other turn{'' if besides == 1 else 's'}")
