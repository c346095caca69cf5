"""The load: plans written into Neo4j in batches, with progress bars, then the count check.

A load is idempotent (every node and relationship is MERGEd) and checked: afterwards each
conversation is counted in Neo4j against its plan, and only a conversation whose counts
match is stamped as loaded from its reading, which is what the path arm's backend requires.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import click

from graphmem.claims.build import mirror
from graphmem.data.locomo import Conversation, Dataset
from graphmem.errors import GraphmemError
from graphmem.neo4j.client import Client
from graphmem.neo4j.plan import COUNT_FIELDS, STEPS, Plan, plan

__all__ = ["DEFAULT_BATCH", "Counts", "LoadReport", "count", "delete", "load_conversations", "require_loaded", "select"]

DEFAULT_BATCH = 2000
"""Rows per UNWIND batch (one managed write transaction each)."""


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
        return sum(self.found[f] for f in ("conversations", "sessions", "turns", "people", "assertions"))

    @property
    def relationships(self) -> int:
        return sum(self.found[f] for f in ("has_session", "has_turn", "spoke", "subject_of", "mentions", "read_from"))

    def differences(self) -> str:
        return ", ".join(f"{f} {self.found.get(f)} (mirror {self.expected.get(f)})"
                         for f in COUNT_FIELDS if self.found.get(f) != self.expected.get(f))

    def line(self) -> str:
        f = self.found
        return (f"{self.conversation:<10}{f['sessions']:4d} sessions {f['turns']:5d} turns {f['people']:4d} people"
                f" {f['assertions']:6d} assertions ({f['derived']} derived) {self.nodes:6d} nodes"
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
    """The conversations a comma list names (all when ``spec`` is empty), in dataset order."""
    if not spec:
        return list(dataset.conversations)
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    known = {c.sample_id: c for c in dataset.conversations}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise GraphmemError(f"unknown conversation {', '.join(unknown)}: choose from {', '.join(known)}")
    keep = set(wanted)
    return [c for c in dataset.conversations if c.sample_id in keep]


def load_conversations(client: Client, conversations: Sequence[Conversation], batch: int = DEFAULT_BATCH,
                       replace: bool = False, progress: bool = False, plans: Sequence[Plan] | None = None,
                       on_batch: Callable[[str, int], None] | None = None) -> LoadReport:
    """Write conversations into Neo4j, idempotently, and check every count against the mirror.

    Reads claims and builds the mirror with the bench's own code (:func:`graphmem.claims.build.mirror`), ensures the schema, then
    (``replace``) deletes each conversation's subgraph in batches, then MERGEs every node
    and then every relationship in ``UNWIND $rows`` batches of ``batch`` rows, one managed
    write transaction each. Finally it counts each conversation in Neo4j; any difference
    from the mirror is a ``GraphmemError``. A checked conversation is stamped with its
    reading's fingerprint (what :func:`graphmem.neo4j.hops.path_backend` requires). ``progress`` draws bars on
    stderr; ``on_batch(step, rows)`` is called after every committed batch.
    """
    if batch < 1:
        raise GraphmemError("--batch must be at least 1")
    start = time.perf_counter()
    if plans is None:
        with _bar(len(conversations), progress, "reading claims") as bar:
            plans = []
            for conv in conversations:
                plans.append(plan(conv, mirror(conv)[1]))
                bar.update(1)
    client.ensure_schema()
    if replace:
        for p in plans:
            delete(client, p.conversation, batch)
    total = sum(p.size for p in plans)
    with _bar(total, progress, "writing") as bar:
        for step in STEPS:
            rows = [r for p in plans for r in p.rows[step]]
            for i in range(0, len(rows), batch):
                chunk = rows[i:i + batch]
                client.write(step, rows=chunk)
                bar.update(len(chunk))
                if on_batch is not None:
                    on_batch(step, len(chunk))
    counts = [count(client, p) for p in plans]
    bad = [c for c in counts if not c.ok]
    if bad:
        detail = "; ".join(f"{c.conversation}: {c.differences()}" for c in bad[:3])
        if len(bad) > 3:
            detail += f"; and {len(bad) - 3} more conversations"
        raise GraphmemError(
            f"Neo4j at {client.settings.where} does not match the mirror: {detail}"
            " (another reading is loaded there: run graphmem load --replace)"
        )
    for p in plans:
        client.write("mark_loaded", conversation=p.conversation, reading=p.fingerprint)
    return LoadReport(counts, total, time.perf_counter() - start)


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


class _NoBar:
    def update(self, n: int) -> None:
        pass


@contextmanager
def _bar(total: int, show: bool, label: str) -> Iterator[Any]:
    if not show:
        yield _NoBar()
        return
    with click.progressbar(length=total, label=label.ljust(15), file=sys.stderr, show_pos=True) as bar:
        yield bar


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
