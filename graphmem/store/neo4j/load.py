"""``graphmem load``: whole conversations written through the Neo4j store, then counted.

Why through the store: a loaded conversation is one a program may go on with, so it must be
written by the same statements and with the same keys, search fields and counters as the memory's
own ingests (:mod:`graphmem.store.neo4j.write`). What a load adds is the graph its mirror holds
(:func:`graphmem.claims.build.mirror`: people in their order, assertions, the derived ones too),
handed to the store in place of the claims it would read, and the check afterwards: each
conversation is counted in Neo4j against its plan (:mod:`graphmem.store.neo4j.plan`), and only a
conversation whose counts match is stamped as loaded from its reading, which is what the path
arm's backend requires. A load is idempotent: a turn held with the same content is not written
again, and every node and relationship is MERGEd on a constrained key.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from graphmem.claims.build import mirror
from graphmem.data.records import same, validate
from graphmem.domain import Conversation, Turn
from graphmem.errors import GraphmemError
from graphmem.store.neo4j.client import Client
from graphmem.store.neo4j.checks import DEFAULT_BATCH, LoadReport, bar, count, delete
from graphmem.store.neo4j.plan import Plan, check_id, plan
from graphmem.store.neo4j.store import Neo4jStore, replan, warm
from graphmem.store.neo4j.rows import person_row
from graphmem.store.neo4j.write import Given

__all__ = ["load_conversations"]


def load_conversations(client: Client, conversations: Sequence[Conversation], batch: int = DEFAULT_BATCH,
                       replace: bool = False, progress: bool = False, plans: Sequence[Plan] | None = None,
                       on_batch: Callable[[str, int], None] | None = None, scoped: bool = True,
                       dense: bool = False) -> LoadReport:
    """Write conversations into Neo4j through the store, idempotently, and check every count
    against the mirror.

    Each conversation's turns go in transactions of at most ``batch`` turns (its people with the
    first, each assertion with the last turn it is read from). ``scoped``: a turn's memory id is
    ``conversation/id`` (LoCoMo's ids repeat across conversations), else its own id (a turn
    file's). ``replace`` deletes each conversation first. ``progress`` draws bars on stderr;
    ``on_batch("turns", n)`` is called after every committed transaction."""
    if batch < 1:
        raise GraphmemError("--batch must be at least 1")
    start = time.perf_counter()
    turns = {conv.id: _checked(conv, scoped) for conv in conversations}  # every turn checked before any is written
    if plans is None:
        with bar(len(conversations), progress, "reading claims") as shown:
            plans = []
            for conv in conversations:
                plans.append(plan(conv, mirror(conv)[1]))
                shown.update(1)
    store = Neo4jStore(client=client, dense=dense)
    if replace:
        for p in plans:
            delete(client, p.conversation, batch)
    total = sum(len(conv.turns) for conv in conversations)
    with bar(total, progress, "writing") as shown:
        for conv, p in zip(conversations, plans, strict=True):
            for done in _write(store, conv, turns[conv.id], p, batch):
                shown.update(done)
                if on_batch is not None:
                    on_batch("turns", done)
    counts = [count(client, p) for p in plans]
    bad = [c for c in counts if not c.ok]
    if bad:
        detail = "; ".join(f"{c.conversation}: {c.differences()}" for c in bad[:3])
        if len(bad) > 3:
            detail += f"; and {len(bad) - 3} more conversations"
        raise GraphmemError(f"Neo4j at {client.settings.where} does not match the mirror: {detail}"
                            " (another reading is loaded there: run graphmem load --replace)")
    for p in plans:
        client.write("mark_loaded", conversation=p.conversation, reading=p.fingerprint)
    replan(client)
    warm(client, store.searcher)  # planned for the data as loaded, not by the next program's first search
    return LoadReport(counts, sum(p.size for p in plans), time.perf_counter() - start)


def _checked(conv: Conversation, scoped: bool) -> list[Turn]:
    """The conversation's turns as the memory holds them (ids ``conversation/id`` when ``scoped``),
    checked by the memory's own validation: what a load accepts, an ingest accepts."""
    check_id(conv.id)
    turns = [replace(t, id=f"{conv.id}/{t.id}" if scoped else t.id, conversation=conv.id) for t in conv.turns]
    validate(turns, f"{conv.id}: turn")
    return turns


def _write(store: Neo4jStore, conv: Conversation, turns: list[Turn], p: Plan, batch: int):
    """One conversation's writes, ``batch`` turns a transaction; yields each one's turns."""
    cid = conv.id
    key = {f"{cid}/{t.id}": m.id for t, m in zip(conv.turns, turns, strict=True)}  # the plan's turn keys
    held = store.held([t.id for t in turns])
    if held and not all(same(held[t.id], t) for t in turns if t.id in held):
        raise GraphmemError(f"{cid} in Neo4j at {store.where} holds other turns under this file's ids:"
                            f" run graphmem load --replace --conversations {cid}")
    claims = _claims(p, key)
    sessions = {s.index: (s.date, s.date_text) for s in conv.sessions}
    people = [person_row(cid, r["id"], r["name"], r["speaker"], r["human"], r["n"], fixed=True)
              for r in p.rows["merge_people"]]
    position = {t.id: i for i, t in enumerate(turns)}
    last = [max((position[t] for t in row["turns"]), default=0) for row in claims]
    for lo in range(0, len(turns), batch):
        hi = min(lo + batch, len(turns))
        mine = [row for row, at in zip(claims, last, strict=True) if lo <= at < hi]
        store.load(turns[lo:hi], {cid: Given(people if lo == 0 else [], mine, sessions)})
        yield hi - lo


def _claims(p: Plan, key: dict[str, str]) -> list[dict]:
    """The plan's assertions as ``write_claims.cypher`` rows: each with its subjects, the turns it
    is read from (by memory id) and the people it mentions, from the plan's relationship rows."""
    rows = {r["key"]: {**r, "seq": 0, "speaker": "", "mentions": [], "subjects": [], "turns": [], "mention_keys": []}
            for r in p.rows["merge_assertions"]}
    prefix = len(p.conversation) + 1
    for r in p.rows["link_subjects"]:
        rows[r["to"]]["subjects"].append(r["from"])
    for r in p.rows["link_sources"]:
        rows[r["from"]]["turns"].append(key[r["to"]])
    for r in p.rows["link_mentions"]:
        rows[r["from"]]["mention_keys"].append(r["to"])
        rows[r["from"]]["mentions"].append(r["to"][prefix:])
    seq: dict[str, int] = {}
    for row in rows.values():  # each assertion's place among its turn's, in the mirror's order
        turn = row["turns"][0] if row["turns"] else ""
        row["seq"] = seq[turn] = seq.get(turn, -1) + 1
    return list(rows.values())
