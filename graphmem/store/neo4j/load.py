"""``graphmem load``'s writing: whole conversations written through the Neo4j store's write path, then counted.

Why through the store's write path: a loaded conversation is one a program may go on with, so it
must be written by the same statements and with the same keys, search fields and counters as the
memory's own ingests (:mod:`graphmem.store.neo4j.write`). What a load adds is the graph its mirror
holds (:func:`graphmem.claims.build.mirror`: people in their order, assertions, the derived ones
too), handed to the writer in place of the claims it would read, and the check afterwards: each
conversation is counted in Neo4j against its plan (:mod:`graphmem.store.neo4j.plan`), and only a
conversation whose counts match is stamped as loaded from its reading, which is what the path
arm's backend requires. A load is idempotent: a turn held with the same content is not written
again, and every node and relationship is MERGEd on a constrained key. :meth:`Neo4jStore.load
<graphmem.store.neo4j.store.Neo4jStore.load>` runs these steps; the command's side (the files, the
conversations chosen, the bars) is :mod:`graphmem.cli.load`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from threading import Event

from graphmem.claims.build import mirror
from graphmem.data.records import same, validate
from graphmem.domain import Conversation, Turn
from graphmem.errors import GraphmemError
from graphmem.store.neo4j.checks import Counts, count
from graphmem.store.neo4j.client import Client
from graphmem.store.neo4j.plan import Plan, check_id, plan
from graphmem.store.neo4j.rows import iso, person_row
from graphmem.store.neo4j.write import Given, Writer

__all__ = ["WRITERS", "checked", "load_all", "refuse_others"]

WRITERS = 2
"""Conversations loaded at once (:func:`load_all`): one transaction on the server while this
process reads the next one's claims and makes its rows."""


def refuse_others(where: str, held: Mapping[str, Turn], turns: Mapping[str, list[Turn]]) -> None:
    """Refuse, before anything is written, a conversation whose ids the database holds (``held``,
    read once for every turn of the load) with other content."""
    for cid, ts in turns.items():
        if any(t.id in held and not same(held[t.id], t) for t in ts):
            raise GraphmemError(f"{cid} in Neo4j at {where} holds other turns under this file's ids:"
                                f" run graphmem load --replace --conversations {cid}")


def load_all(writer: Writer, client: Client, conversations: Sequence[Conversation], turns: Mapping[str, list[Turn]],
             plans: Sequence[Plan | None], batch: int, written: Callable[[int], None]) -> list[tuple[Plan, Counts]]:
    """Every conversation read (its plan, unless given), written and counted, :data:`WRITERS`
    conversations at once; ``written(n)`` after each committed transaction of ``n`` turns (from the
    writing threads: the caller serialises what it does). A conversation whose counts match its
    plan is stamped as loaded from its reading.

    Why at once: a transaction is this process reading the turns and packing its rows, then the
    server running it; one at a time, each waits for the other. Conversations share nothing a
    transaction locks but the Term nodes, which every write takes in one order
    (``index_turns.cypher``), so two writers queue there and never deadlock. The second writes only
    once the first transaction has committed (its claims read meanwhile): two first transactions
    at once would each have a server just started plan the write statements, the most expensive
    thing it does in a load."""

    first = Event()  # set when the first transaction has committed: the server has planned its statements

    def one(conv: Conversation, given: Plan | None) -> tuple[Plan, Counts]:
        try:
            p = given or plan(conv, mirror(conv)[1])
            if conv is not conversations[0]:
                first.wait()
            for n in _write(writer, conv, turns[conv.id], p, batch):
                first.set()
                written(n)
        finally:
            first.set()  # failed or done: the others go on (or are cancelled by the failure)
        found = count(client, p)
        if found.ok:
            client.write("mark_loaded", conversation=p.conversation, reading=p.fingerprint)
        return p, found

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        jobs = [pool.submit(one, conv, p) for conv, p in zip(conversations, plans, strict=True)]
        try:
            return [job.result() for job in jobs]
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def checked(conv: Conversation, scoped: bool) -> list[Turn]:
    """The conversation's turns as the memory holds them (ids ``conversation/id`` when ``scoped``),
    checked by the memory's own validation: what a load accepts, an ingest accepts."""
    check_id(conv.id)
    turns = [replace(t, id=f"{conv.id}/{t.id}" if scoped else t.id, conversation=conv.id) for t in conv.turns]
    validate(turns, f"{conv.id}: turn")
    return turns


def _write(writer: Writer, conv: Conversation, turns: list[Turn], p: Plan, batch: int) -> Iterator[int]:
    """One conversation's writes, ``batch`` turns a transaction; yields each one's turns."""
    cid = conv.id
    key = {f"{cid}/{t.id}": m.id for t, m in zip(conv.turns, turns, strict=True)}  # the plan's turn keys
    claims = _claims(p, key)
    sessions = {s.index: (s.date, s.date_text) for s in conv.sessions}
    people = [person_row(cid, r["id"], r["name"], r["speaker"], r["human"], r["n"], fixed=True)
              for r in p.rows["merge_people"]]
    position = {t.id: i for i, t in enumerate(turns)}
    last = [max((position[t] for t in row["turns"]), default=0) for row in claims]
    for lo in range(0, len(turns), batch):
        hi = min(lo + batch, len(turns))
        mine = [row for row, at in zip(claims, last, strict=True) if lo <= at < hi]
        writer.ingest(turns[lo:hi], {cid: Given(people if lo == 0 else [], mine, sessions)})
        yield hi - lo


def _claims(p: Plan, key: dict[str, str]) -> list[dict]:
    """The plan's assertions as ``write_claims.cypher`` rows: each with its subjects, the turns it
    is read from (by memory id) and the people it mentions, from the plan's relationship rows."""
    rows = {r["key"]: {**r, "date": iso(r["date"]), "seq": 0, "speaker": "", "mentions": [], "subjects": [], "turns": [],
                       "mention_keys": []}
            for r in p.rows["merge_assertions"]}  # the plan's dates are the mirror's ISO text read as datetimes
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
