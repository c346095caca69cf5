"""Writing into a shared Neo4j memory: one transaction an ingest, touching only what changed.

Why this shape: any number of processes may ingest into one database, into one conversation
too, and every acknowledged turn must be there afterwards. So one ingest is ONE managed
transaction that first locks the conversations it writes (``memory_lock.cypher``: sorted, so
writers queue instead of deadlocking), and only then decides turn positions from the count the
database holds, never from a process's snapshot. What it writes:

- the new turns, their session (a calendar day) and who spoke them;
- their search fields (:mod:`graphmem.memory.graphdb_rows`) and, where a new turn changes how
  an earlier turn reads (the turn replying to it; turns naming a speaker met only now), those
  turns' fields, with the document frequencies they move;
- the claims of the new turns, and of the earlier turns whose claims a new turn changed;
- the conversation's counters (turns, total BM25 length, speakers).

Reading a turn needs its conversation (its speakers, the turn it replies to, the people named
in it), so a writer keeps a reading of each conversation it writes (:class:`_Held`) and, under
the lock, brings it up to date with the turns other processes added since (``memory_tail``).
A writer holds only the conversations it writes, never the memory. A conversation that
``graphmem load`` wrote is refused before anything is written: the memory does not rewrite its
captions, sessions or reading stamp.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.claims.extract import extract
from graphmem.claims.people import fold
from graphmem.claims.records import Claim
from graphmem.data.locomo import Conversation, Session, Turn
from graphmem.data.records import Record
from graphmem.errors import DataError
from graphmem.memory.graphdb_rows import claim_rows, index_row, turn_key
from graphmem.memory.live import LiveIndex
from graphmem.memory.options import MemoryOptions
from graphmem.neo4j.client import Client, Transaction
from graphmem.neo4j.plan import check_id

__all__ = ["Writer", "as_datetime"]


@dataclass
class _Held:
    """A writer's reading of one conversation: the live index over its turns, their claims, and
    the BM25 length each turn was last written with."""

    index: LiveIndex
    claims: dict[str, tuple[Claim, ...]] = field(default_factory=dict)
    lengths: list[float] = field(default_factory=list)


class Writer:
    """The memory's one-turn write path into Neo4j (``graphmem load`` keeps the bulk one)."""

    def __init__(self, client: Client, options: MemoryOptions):
        self.client, self.options = client, options
        self.held: dict[str, _Held] = {}

    def write(self, records: Sequence[Record]) -> None:
        """Write validated records in one transaction (``DataError`` before anything is written
        for a duplicate id within its conversation, or a conversation ``graphmem load`` wrote)."""
        convs = sorted({r.conversation for r in records})
        for conv in convs:
            check_id(conv)
        attempts = 0

        def work(tx: Transaction) -> None:
            nonlocal attempts
            if attempts:  # a retried attempt: what the failed one read is not in the database
                for conv in convs:
                    self.held.pop(conv, None)
            attempts += 1
            self._work(tx, records, convs)

        try:
            self.client.transaction(work, "an ingest")
        except BaseException:
            for conv in convs:  # the readings ran ahead of the database
                self.held.pop(conv, None)
            raise

    def _work(self, tx: Transaction, records: Sequence[Record], convs: list[str]) -> None:
        locked = {row["conversation"]: row for row in tx.run("memory_lock", conversations=convs)}
        for conv in convs:
            if locked[conv]["source"] != "memory":
                raise DataError(
                    f"conversation {conv!r} in Neo4j at {self.client.settings.where} was written by graphmem load:"
                    " the memory adds turns only to conversations it started, so a loaded one keeps its captions,"
                    " sessions and reading (ingest under another conversation id, or load the turns with graphmem load)")
        keys = [turn_key(r.conversation, r.id) for r in records]
        held = tx.run("memory_existing", keys=keys)
        if held:
            first = held[0]
            raise DataError(f"duplicate id {first['id']!r} in conversation {first['conversation']!r}:"
                            f" Neo4j at {self.client.settings.where} holds it already")
        for conv in convs:
            new = [r for r in records if r.conversation == conv]
            self._conversation(tx, conv, int(locked[conv]["indexed"] or 0), new)

    def _conversation(self, tx: Transaction, conv: str, indexed: int, new: list[Record]) -> None:
        """One conversation's part of an ingest, under its lock."""
        held = self._caught_up(tx, conv, indexed)
        index = held.index
        first = len(index)
        index.changed.clear()
        index.add(new)
        touched = set(range(first, len(index))) | set(index.changed)
        for d in index.changed:  # a turn read again: the turns replying to it carry its words
            touched |= index.children.get(d, set())
        index.changed.clear()
        tx.run("memory_write_turns", rows=[_turn_row(r, first + k) for k, r in enumerate(new)])
        rows = [index_row(index, i) for i in sorted(touched)]
        tx.run("index_turns", rows=rows)
        grown = 0.0
        held.lengths.extend([0.0] * len(new))
        for i, row in zip(sorted(touched), rows, strict=True):
            grown += row["fields"]["length"] - held.lengths[i]
            held.lengths[i] = row["fields"]["length"]
        self._claims(tx, conv, held)
        speakers = _speakers(index.records)
        tx.run("memory_conversation", conversation=conv, added=len(new), length=grown, speakers=speakers,
               lspeakers=[s.lower() for s in speakers])

    def _caught_up(self, tx: Transaction, conv: str, indexed: int) -> _Held:
        """This writer's reading of ``conv`` with every turn the database holds (``indexed``)."""
        held = self.held.get(conv)
        if held is None or len(held.index) > indexed:
            held = self.held[conv] = _Held(LiveIndex(self.options, scope=False))
        if len(held.index) < indexed:
            rows = tx.run("memory_tail", conversation=conv, **{"from": len(held.index)})
            missing = [Record(r["id"], r["speaker"], r["text"], as_datetime(r["date"]), conv, r["turn"]) for r in rows]
            held.index.add(missing)
            held.index.changed.clear()
            held.lengths.extend(held.index.fields(i)[1] for i in range(len(held.lengths), len(held.index)))
            held.claims = _claims_of(held.index.records, conv)
        return held

    def _claims(self, tx: Transaction, conv: str, held: _Held) -> None:
        """Write the claims of every turn whose claims are new or changed, and only those."""
        now = _claims_of(held.index.records, conv)
        changed = [d for d, c in now.items() if held.claims.get(d) != c]
        gone = [d for d in changed if d in held.claims]
        if gone:
            tx.run("memory_forget_claims", keys=[turn_key(conv, d) for d in gone])
        speakers = {fold(s): s for s in _speakers(held.index.records)}
        rows = [row for d in changed for row in claim_rows(conv, d, now[d], speakers, {})]
        if rows:
            tx.run("memory_write_claims", rows=rows)
        held.claims = now


_EPOCH = datetime(1970, 1, 1)


def _speakers(records: Sequence[Record]) -> list[str]:
    """A conversation's speakers, in the order they first speak."""
    return list(dict.fromkeys(r.speaker for r in records))


def _claims_of(records: Sequence[Record], conv: str) -> dict[str, tuple[Claim, ...]]:
    """Each turn's claims, read by the bench's own extraction over the whole conversation (so
    they equal a bulk read); none while it has fewer or more than two speakers (the reader reads
    two-party dialogue)."""
    speakers = _speakers(records)
    if len(speakers) != 2:
        return {}
    turns = tuple(Turn(r.id, r.speaker, r.text, 1, r.date or _EPOCH) for r in records)
    session = Session(1, turns[0].date, "", turns)
    reading = extract(Conversation(conv, (speakers[0], speakers[1]), (session,), (), {t.dia_id: t for t in turns}))
    out: dict[str, list[Claim]] = {r.id: [] for r in records}
    for c in reading.claims:
        out.setdefault(c.dia_id, []).append(c)
    return {d: tuple(v) for d, v in out.items()}


def _turn_row(r: Record, position: int) -> dict:
    day = r.date.date() if r.date is not None else None
    return {
        "key": turn_key(r.conversation, r.id), "id": r.id, "conversation": r.conversation, "position": position,
        "speaker": r.speaker, "text": r.text, "date": r.date, "number": r.turn,
        "session_key": f"{r.conversation}/D{day.isoformat() if day else '-'}",
        "session": day.toordinal() if day else 0, "date_text": f"{r.date:%I:%M %p on %d %B, %Y}" if r.date else "",
        "person": f"{r.conversation}/{fold(r.speaker)}", "person_id": fold(r.speaker),
    }


def as_datetime(value: object) -> datetime | None:
    """A stored date back as a Python datetime (the driver returns its own DateTime type)."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    return value if isinstance(value, datetime) else None
