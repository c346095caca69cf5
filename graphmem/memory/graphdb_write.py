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
- the conversation's counters (turns, total BM25 length, speakers);
- with ``dense=True``, the embeddings of the new turns' sentences (encoded once, before the
  transaction, so a retried attempt writes the same vectors without encoding again).

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
from typing import TYPE_CHECKING

from graphmem.claims.people import fold
from graphmem.data.records import Record
from graphmem.errors import DataError
from graphmem.memory.claims import ClaimsChange, MemoryClaims
from graphmem.memory.graphdb_rows import claim_rows, index_row, sentence_rows, turn_key
from graphmem.memory.live import LiveIndex
from graphmem.memory.options import MemoryOptions
from graphmem.neo4j.client import Client, Transaction
from graphmem.neo4j.plan import check_id

if TYPE_CHECKING:  # a type only: the embedding is an optional extra
    from graphmem.search.dense import Encoder

__all__ = ["Writer", "as_datetime"]


@dataclass
class _Held:
    """A writer's reading of one conversation: the live index over its turns, their claims read
    turn by turn (:class:`graphmem.memory.claims.MemoryClaims`), and the BM25 length each turn
    was last written with."""

    index: LiveIndex
    claims: MemoryClaims = field(default_factory=MemoryClaims)
    lengths: list[float] = field(default_factory=list)
    speakers: dict[str, None] = field(default_factory=dict)
    """The conversation's speakers in the order they first spoke (kept, not rescanned per write)."""

    def grow(self, records: Sequence[Record]) -> None:
        """Read ``records`` into the index, then note their speakers."""
        self.index.add(records)
        self.speakers.update(dict.fromkeys(r.speaker for r in records))


class Writer:
    """The memory's one-turn write path into Neo4j (``graphmem load`` keeps the bulk one)."""

    def __init__(self, client: Client, options: MemoryOptions, encoder: Encoder | None = None):
        self.client, self.options, self.encoder = client, options, encoder
        self.held: dict[str, _Held] = {}

    def ingest(self, records: Sequence[Record]) -> None:
        """Write validated records in one transaction (``DataError`` before anything is written
        for a duplicate id within its conversation, or a conversation ``graphmem load`` wrote)."""
        convs = sorted({r.conversation for r in records})
        for conv in convs:
            check_id(conv)
        attempts = 0
        vectors = sentence_rows(records, self.encoder) if self.encoder is not None else []

        def work(tx: Transaction) -> None:
            nonlocal attempts
            if attempts:  # a retried attempt: what the failed one read is not in the database
                for conv in convs:
                    self.held.pop(conv, None)
            attempts += 1
            self._work(tx, records, convs)
            if vectors:
                tx.run("write_vectors", rows=vectors)

        try:
            self.client.transaction(work, "an ingest")
        except BaseException:
            for conv in convs:  # the readings ran ahead of the database
                self.held.pop(conv, None)
            raise

    def _work(self, tx: Transaction, records: Sequence[Record], convs: list[str]) -> None:
        keys = [turn_key(r.conversation, r.id) for r in records]
        locked = {row["conversation"]: row for row in tx.run("memory_lock", conversations=convs, keys=keys)}
        for conv in convs:
            if locked[conv]["source"] != "memory":
                raise DataError(
                    f"conversation {conv!r} in Neo4j at {self.client.settings.where} was written by graphmem load:"
                    " the memory adds turns only to conversations it started, so a loaded one keeps its captions,"
                    " sessions and reading (ingest under another conversation id, or load the turns with graphmem load)")
        held = locked[convs[0]]["held"]
        if held:
            turn, conv = held[0]
            raise DataError(f"duplicate id {turn!r} in conversation {conv!r}:"
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
        held.grow(new)
        claims = held.claims.add(new)
        touched = set(range(first, len(index))) | set(index.changed)
        for d in index.changed:  # a turn read again: the turns replying to it carry its words
            touched.update(index.children.get(d))
        index.changed.clear()
        tx.run("memory_write_turns", rows=[_turn_row(r, first + k) for k, r in enumerate(new)])
        rows = [index_row(index, i) for i in sorted(touched)]
        tx.run("index_turns", rows=rows)
        grown = 0.0
        held.lengths.extend([0.0] * len(new))
        for i, row in zip(sorted(touched), rows, strict=True):
            grown += row["fields"]["length"] - held.lengths[i]
            held.lengths[i] = row["fields"]["length"]
        forget, rows = self._claims(conv, held, claims, {r.id for r in new})
        speakers = list(held.speakers)
        tx.run("memory_write_claims", forget=forget, rows=rows, conversation=conv, added=len(new), length=grown,
               speakers=speakers, lspeakers=[s.lower() for s in speakers], askers=index.askers.count)

    def _caught_up(self, tx: Transaction, conv: str, indexed: int) -> _Held:
        """This writer's reading of ``conv`` with every turn the database holds (``indexed``)."""
        held = self.held.get(conv)
        if held is None or len(held.index) > indexed:
            held = self.held[conv] = _Held(LiveIndex(self.options, scope=False))
        if len(held.index) < indexed:
            rows = tx.run("memory_tail", conversation=conv, **{"from": len(held.index)})
            missing = [Record(r["id"], r["speaker"], r["text"], as_datetime(r["date"]), conv, r["turn"]) for r in rows]
            held.grow(missing)
            held.index.changed.clear()
            held.lengths.extend(held.index.fields(i)[1] for i in range(len(held.lengths), len(held.index)))
            held.claims.add(missing)
        return held

    @staticmethod
    def _claims(conv: str, held: _Held, change: ClaimsChange, new: set[str]) -> tuple[list[str], list[dict]]:
        """The turns whose assertions go (earlier turns read again) and the claim rows to write:
        every turn whose claims are new or changed, and only those (a conversation a third
        speaker joined keeps no claims: the reader reads two-party dialogue)."""
        earlier = [d for d in change.claims if d not in new]
        if conv in change.dropped:
            earlier = [r.id for r in held.index.records if r.id not in new]
        speakers = {fold(s): s for s in held.speakers}
        rows = [row for d, claims in change.claims.items() for row in claim_rows(conv, d, claims, speakers, {})]
        return [turn_key(conv, d) for d in earlier], rows


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
