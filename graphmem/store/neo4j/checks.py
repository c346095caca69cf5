"""What a load is checked by and reports: each conversation counted in Neo4j against its plan, and
the stamp of a checked load.

The writing itself goes through the Neo4j store (:mod:`graphmem.store.neo4j.load`), so a loaded
conversation is one the memory may go on with; this module stays below the store module because the
path arm's backend (:mod:`graphmem.bench.arms.hops`) reads what it checks without opening a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.errors import GraphmemError
from graphmem.store.neo4j.client import Client
from graphmem.store.neo4j.plan import COUNT_FIELDS, Plan

__all__ = ["DEFAULT_BATCH", "Counts", "LoadReport", "count", "require_loaded"]

DEFAULT_BATCH = 2000
"""Turns per write transaction of a load (each one UNWINDs its rows)."""


@dataclass(frozen=True)
class Counts:
    """One conversation after a load: what Neo4j holds and what the mirror says it must."""

    conversation: str
    found: dict[str, int]
    expected: dict[str, int]

    @property
    def ok(self) -> bool:
        return all(self.found.get(f) == self.expected.get(f) for f in COUNT_FIELDS)

    @property
    def nodes(self) -> int:
        return sum(self.found[f] for f in ("conversations", "sessions", "turns", "people", "others", "assertions"))

    @property
    def relationships(self) -> int:
        return sum(self.found[f] for f in ("has_session", "has_turn", "spoke", "subject_of", "mentions", "read_from"))

    def differences(self) -> str:
        return ", ".join(f"{f} {self.found.get(f)} (mirror {self.expected.get(f)})"
                         for f in COUNT_FIELDS if self.found.get(f) != self.expected.get(f))

    def line(self) -> str:
        f = self.found
        return (f"{self.conversation:<10}{f['sessions']:4d} sessions {f['turns']:5d} turns {f['people']:4d} people"
                f" ({f['others']} other named) {f['assertions']:6d} assertions ({f['derived']} derived) {self.nodes:6d} nodes"
                f" {self.relationships:6d} relationships  {'ok' if self.ok else 'MISMATCH'}")


@dataclass
class LoadReport:
    counts: list[Counts]
    rows: int
    seconds: float

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


def count(client: Client, p: Plan) -> Counts:
    found = client.query("counts", conversation=p.conversation)[0]
    return Counts(p.conversation, {f: int(found[f]) for f in COUNT_FIELDS}, dict(p.expected))


def require_loaded(client: Client, plans: Sequence[Plan]) -> None:
    """Every conversation is in Neo4j, loaded and checked from exactly this reading."""
    rows = client.query("loaded", conversations=[p.conversation for p in plans])
    have = {r["conversation"]: r["reading"] for r in rows}
    for p in plans:
        got = have.get(p.conversation)
        if got is None:
            raise GraphmemError(
                f"{p.conversation} is not loaded in Neo4j at {client.settings.where} (or its load did not finish):"
                f" run graphmem load --conversations {p.conversation}"
            )
        if got != p.fingerprint:
            raise GraphmemError(
                f"{p.conversation} in Neo4j at {client.settings.where} was loaded from another reading:"
                f" run graphmem load --replace --conversations {p.conversation}"
            )
