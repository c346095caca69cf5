"""What a load is checked by and reports: each conversation counted in Neo4j against its plan,
the stamp of a checked load, the conversations a comma list selects, deleting one.

The writing itself goes through the Neo4j store (:mod:`graphmem.store.neo4j.load`), so a loaded
conversation is one the memory may go on with; this module stays below the store module because the
path arm's backend (:mod:`graphmem.bench.arms.hops`) reads what it checks without opening a store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from graphmem.data.locomo import Dataset
from graphmem.domain import Conversation
from graphmem.errors import DataError, GraphmemError
from graphmem.store.neo4j.client import Client
from graphmem.store.neo4j.plan import COUNT_FIELDS, Plan
from graphmem.progress import bar as progress_bar

__all__ = ["DEFAULT_BATCH", "Counts", "LoadReport", "bar", "count", "delete", "require_loaded", "select"]

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


def select(dataset: Dataset, spec: str | None) -> list[Conversation]:
    """The conversations a comma list names (all when ``spec`` is None), in dataset order.

    A list that names none (``""``, ``",,,"``) is refused rather than read as "all" or as
    nothing: a load that writes nothing and exits 0 looks like a load that worked."""
    if spec is None:
        return list(dataset.conversations)
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    known = {c.id: c for c in dataset.conversations}
    if not wanted:
        raise DataError(f"--conversations {spec!r} names no conversation: give a comma list of ids "
                        f"(from {', '.join(known)}), or leave it out to load all")
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise DataError(f"unknown conversation {', '.join(unknown)}: choose from {', '.join(known)}")
    keep = set(wanted)
    return [c for c in dataset.conversations if c.id in keep]


def count(client: Client, p: Plan) -> Counts:
    found = client.query("counts", conversation=p.conversation)[0]
    return Counts(p.conversation, {f: int(found[f]) for f in COUNT_FIELDS}, dict(p.expected))


def delete(client: Client, conversation: str, batch: int = DEFAULT_BATCH) -> int:
    """Delete one conversation's subgraph, ``batch`` nodes per transaction; returns nodes deleted.
    Its turns first give back the document frequencies the memory's search counted them in."""
    while client.write("unindex_conversation", conversation=conversation, batch=batch)[0]["turns"]:
        pass
    gone = 0
    while True:
        n = client.write("delete_conversation", conversation=conversation, batch=batch)[0]["deleted"]
        gone += n
        if n == 0:
            return gone


@contextmanager
def bar(total: int, show: bool, label: str) -> Iterator[Any]:
    """A progress bar on stderr when ``show`` and stderr is a terminal (:mod:`graphmem.progress`)."""
    with progress_bar(total, label.ljust(15), quiet=not show) as shown:
        yield shown


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
