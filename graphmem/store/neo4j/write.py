"""Writing into a shared Neo4j memory: one transaction a write, touching only what changed.

Why this shape: any number of processes may write into one database, into one conversation
too, and every acknowledged turn must be there afterwards. So one write is ONE managed
transaction (retried whole by the driver on a transient error) that first locks the
conversations it writes (``memory_lock.cypher``: sorted, so writers queue instead of
deadlocking), and only then decides turn positions and sessions from what the database holds,
never from a process's snapshot. What it writes:

- the new turns, their session (a dataset's sitting, or a calendar day) and who spoke them;
- their search fields (:mod:`graphmem.store.neo4j.rows`) and, where a new turn changes how an
  earlier turn reads (the turn replying to it; turns naming a speaker met only now), those
  turns' fields, with the document frequencies they move;
- the claims of the new turns, and of the earlier turns whose claims a new turn changed; or,
  for ``graphmem load``, the graph its mirror holds (people, assertions, derived ones too);
- the conversation's counters (turns, total BM25 length, speakers);
- with ``dense=True``, the embeddings of the new turns' sentences (encoded once, before the
  transaction, so a retried attempt writes the same vectors without encoding again).

Reading a turn needs its conversation (its speakers, the turn it replies to, the people named
in it), so a writer keeps a reading of each conversation it writes (:class:`Held`) and, under
the lock, brings it up to date with the turns other processes added since (``memory_tail``).
A writer holds only the conversations it writes, never the memory. ``graphmem load`` and the
memory write through this one path, so a program may go on with a conversation that was loaded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from uuid import uuid4

from graphmem.claims.gcpause import paused_gc
from graphmem.claims.naming import persons
from graphmem.claims.people import fold
from graphmem.data.metadata import dumps as metadata_cell, loads as metadata_of, tokens
from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.people import speaker_key
from graphmem.store.neo4j.client import Client, Transaction
from graphmem.store.neo4j.keys import person_key
from graphmem.store.claims import ClaimsChange
from graphmem.store.neo4j.forget import Held, forget_in_place
from graphmem.store.neo4j.rows import claim_rows, index_row, restood, sentence_rows, turn_key
from graphmem.store.users import owner

if TYPE_CHECKING:  # a type only: the embedding is an optional extra
    from graphmem.search.dense import Encoder

__all__ = ["Given", "Writer", "as_datetime", "turn_of", "turns_of"]


@dataclass(frozen=True)
class Given:
    """What a load hands the writer beside one conversation's turns: the graph its mirror holds
    (person and claim rows, :mod:`graphmem.store.neo4j.plan`'s), and its sessions' dates and captions."""

    people: list[dict]
    claims: list[dict]
    sessions: Mapping[int, tuple[datetime, str]]
    """Session index -> (its date, its date as the dataset writes it)."""


class Writer:
    """The one write path into Neo4j: the memory's ingests and ``graphmem load``'s conversations."""

    def __init__(self, client: Client, options: MemoryOptions, encoder: Encoder | None = None):
        self.client, self.options, self.encoder = client, options, encoder
        self.held: dict[str, Held] = {}

    def ingest(self, turns: Sequence[Turn], given: Mapping[str, Given] | None = None) -> None:
        """Write validated turns in one transaction. A turn whose id the database holds already is
        skipped when it holds the same, refused (``DataError``, before anything is written) when not.
        ``given``: per conversation, the graph a load writes instead of reading claims."""
        convs = sorted({r.conversation for r in turns})
        users = {r.conversation: r.user for r in turns}
        attempts = 0
        vectors = sentence_rows(turns, self.encoder) if self.encoder is not None else []

        def work(tx: Transaction) -> None:
            nonlocal attempts
            if attempts:  # a retried attempt: what the failed one read is not in the database
                for conv in convs:
                    self.held.pop(conv, None)
            attempts += 1
            self._work(tx, turns, [{"id": c, "user": users[c], "owner": owner(users[c])} for c in convs], given or {})
            if vectors:
                tx.run("write_vectors", p={"rows": vectors})

        try:
            self.client.transaction(work, "a write", size=len(turns))
        except BaseException:
            for conv in convs:  # the readings ran ahead of the database
                self.held.pop(conv, None)
            raise
        for conv in given or {}:  # a load wrote the mirror's claims, not this reading's: read anew when next written
            self.held.pop(conv, None)

    def forget(self, gone: Mapping[str, str]) -> None:
        """Forget the turns ``gone`` (key -> its conversation) in one transaction, so that each
        conversation they were in reads as it would had they never been written (:meth:`_forget`)."""
        self._forgetting(gone, [], "forgetting")

    def update(self, gone: Mapping[str, str], turns: Sequence[Turn]) -> None:
        """Forget the turns ``gone`` and write ``turns`` (their ids') in ONE transaction: what a
        forgetting then an ingest leave, with no moment between them that another process could read."""
        self._forgetting(gone, turns, "an update")

    def _forgetting(self, gone: Mapping[str, str], turns: Sequence[Turn], doing: str) -> None:
        """The forgetting of ``gone`` and then, in the same transaction, the write of ``turns``."""
        convs = sorted(set(gone.values()) | {r.conversation for r in turns})
        fresh: dict[str, Held] = {}
        vectors = sentence_rows(turns, self.encoder) if self.encoder is not None and turns else []
        users = {r.conversation: r.user for r in turns}

        attempts = 0

        def work(tx: Transaction) -> None:
            nonlocal attempts
            fresh.clear()
            if attempts and turns:  # a retried update: what the failed attempt read or wrote is not in the database
                for conv in convs:
                    self.held.pop(conv, None)
            attempts += 1
            self._forget(tx, gone, fresh)
            if turns:
                self.held.update(fresh)  # the ingest goes on from the forgetting's reading
                fresh.clear()
                self._work(tx, turns, [{"id": c, "user": users[c], "owner": owner(users[c])} for c in sorted(users)], {})
                if vectors:
                    tx.run("write_vectors", p={"rows": vectors})

        try:
            with paused_gc():  # readings: many small acyclic objects, as an ingest pauses for
                self.client.transaction(work, doing, size=len(turns))
        except BaseException:
            fresh.clear()
            for conv in convs:  # read afresh from the database when next written
                self.held.pop(conv, None)
            raise
        if not turns:
            for conv in convs:  # read afresh from the database when next written, unless read here
                self.held.pop(conv, None)
        self.held.update(fresh)

    def _forget(self, tx: Transaction, gone: Mapping[str, str], fresh: dict[str, Held]) -> None:
        """The forgetting's part of a transaction: a conversation left with none goes whole
        (``forget_turns.cypher``, reading none of its turns); one that keeps some is changed in place
        (:func:`graphmem.store.neo4j.forget.forget_in_place`: the writer's reading of it taken apart,
        only the kept turns that depend on the forgotten ones read again, and only the difference
        written, its new reading put in ``fresh``); one whose graph a load wrote is taken out whole
        and the turns it keeps written again, read afresh (:meth:`_rewrite`)."""
        convs = sorted(set(gone.values()))
        locked = {r["conversation"]: r for r in tx.run("forget_lock", p={"conversations": convs, "keys": list(gone)})}
        emptied = [c for c in convs if c in locked and int(locked[c]["indexed"]) <= int(locked[c]["gone"])]
        if emptied:
            tx.run("forget_turns", p={"conversations": emptied, "emptied": emptied, "epoch": uuid4().hex,
                                      "keys": [k for k, c in gone.items() if c in emptied]})
        for c in convs:
            if c not in locked or c in emptied:
                continue
            keys = {k for k, v in gone.items() if v == c}
            if locked[c]["whole"]:
                self._rewrite(tx, c, keys)
            else:
                old = self._caught_up(tx, c, int(locked[c]["indexed"]), locked[c]["epoch"])
                self.held.pop(c)  # taken apart by the forgetting: a retried attempt reads it anew
                fresh[c] = Held(LiveIndex(self.options, scope=False), epoch=uuid4().hex)
                forget_in_place(tx, c, old, keys, fresh[c])

    def _rewrite(self, tx: Transaction, conv: str, gone: Collection[str]) -> None:
        """``conv`` taken out whole and the turns it keeps written again, read afresh."""
        self.held.pop(conv, None)
        kept = [turn_of(r) for r in tx.run("memory_tail", p={"conversation": conv, "from": 0}) if r["id"] not in gone]
        epoch = uuid4().hex
        tx.run("forget_turns", p={"conversations": [conv], "keys": list(gone), "emptied": [], "epoch": epoch})
        self._conversation(tx, {"conversation": conv, "indexed": 0, "sessions": [], "epoch": epoch}, kept, None)

    def _work(self, tx: Transaction, turns: Sequence[Turn], locks: list[dict], given: Mapping[str, Given]) -> None:
        keys = [turn_key(r) for r in turns]
        locked = {row["conversation"]: row for row in tx.run("memory_lock", p={"conversations": locks, "keys": keys})}
        convs = [c["id"] for c in locks]
        held = {h["key"]: h for h in locked[convs[0]]["held"]} if convs else {}
        for r in turns:
            h = held.get(turn_key(r))
            if h is not None and not _same(h, r):
                raise DataError(f"id {r.id!r}: Neo4j at {self.client.settings.where} holds it already with"
                                " other content (a turn's id is unique within its user's turns)")
        for conv in convs:
            new = [r for r in turns if r.conversation == conv and turn_key(r) not in held]
            if new:
                self._conversation(tx, locked[conv], new, given.get(conv))

    def _conversation(self, tx: Transaction, locked: dict, new: list[Turn], given: Given | None) -> None:
        """One conversation's part of a write, under its lock."""
        conv = locked["conversation"]
        held = self._caught_up(tx, conv, int(locked["indexed"]), locked["epoch"])
        index = held.index
        first = len(index)
        index.changed.clear()
        held.grow(new)
        change = held.claims.add(new) if given is None else None
        touched = set(range(first, len(index))) | set(index.changed)
        for d in index.changed:  # a turn read again: the turns replying to it carry its words
            touched.update(index.children.get(d))
        index.changed.clear()
        sessions = _Sessions(conv, locked["sessions"], given)
        tx.run("write_turns", p={"rows": [_turn_row(r, first + k, sessions) for k, r in enumerate(new)]})
        rows = [index_row(index, i) for i in sorted(touched)]
        tx.run("index_turns", p={"rows": rows})
        grown = 0.0
        held.lengths.extend([0.0] * len(new))
        for i, row in zip(sorted(touched), rows, strict=True):
            grown += row["fields"]["length"] - held.lengths[i]
            held.lengths[i] = row["fields"]["length"]
        if change is not None:
            forget, claims, people = self._claims(conv, held, change, {r.id for r in new})
        else:
            forget, claims, people = [], given.claims, given.people
        speakers = list(held.speakers)
        tx.run("write_claims", p={"forget": forget, "people": people, "claims": claims, "conversation": conv,
                                  "added": len(new), "length": grown, "speakers": speakers,
                                  "lspeakers": [speaker_key(s) for s in speakers], "askers": index.askers.count,
                                  "owner": owner(new[0].user)})

    def _caught_up(self, tx: Transaction, conv: str, indexed: int, epoch: str) -> Held:
        """This writer's reading of ``conv`` with every turn the database holds (``indexed``), of the
        conversation as it is since it was made or last forgotten in (``epoch``): a reading of an
        earlier epoch is read again whole, even when its count of turns is the database's."""
        held = self.held.get(conv)
        if held is None or len(held.index) > indexed or held.epoch != epoch:
            held = self.held[conv] = Held(LiveIndex(self.options, scope=False), epoch=epoch)
        if len(held.index) < indexed:
            missing = [turn_of(r) for r in tx.run("memory_tail", p={"conversation": conv, "from": len(held.index)})]
            held.grow(missing)
            held.index.changed.clear()
            held.lengths.extend(held.index.fields(i)[1] for i in range(len(held.lengths), len(held.index)))
            held.claims.add(missing)
            reading = held.claims.reading(conv)
            held.humans = persons(reading.people, reading.claims)
        return held

    @staticmethod
    def _claims(conv: str, held: Held, change: ClaimsChange, new: set[str]) -> tuple[list[str], list[dict], list[dict]]:
        """The turns whose assertions go (earlier turns read again), the claim rows to write (every
        turn whose claims are new or changed, and only those) and the people they name, with every
        named party whose standing as a person the new turns changed (:func:`persons`)."""
        earlier = [d for d in change.claims if d not in new]
        speakers = {fold(s): s for s in held.speakers}
        reading = held.claims.reading(conv)
        humans = persons(reading.people, reading.claims)
        claims: list[dict] = []
        people: dict[str, dict] = {}
        for d, said in change.claims.items():
            rows, named = claim_rows(conv, d, said, speakers, humans)
            claims.extend(rows)
            people.update((p["key"], p) for p in named)
        restood(conv, reading.people.keys, humans, held.humans, speakers, people)
        held.humans = humans
        return earlier, claims, list(people.values())


class _Sessions:
    """The session of each new turn: a dataset's own (a load's, ``given``), else the sitting of
    its calendar day, an existing one if the conversation has it (``held``: [index, day] pairs)."""

    def __init__(self, conv: str, held: Sequence[Sequence[int]], given: Given | None):
        self.conv, self.given = conv, given
        self.by_day = {int(day): int(n) for n, day in held if day is not None}
        self.last = max((int(n) for n, _ in held), default=0)

    def of(self, r: Turn) -> dict:
        if self.given is not None and r.session is not None:
            when, text = self.given.sessions[r.session]
            return self._row(r.session, when, text, when.toordinal())
        day = r.date.toordinal() if r.date is not None else 0
        n = self.by_day.get(day)
        if n is None:
            self.last += 1
            n = self.by_day[day] = self.last
        return self._row(n, r.date, f"{r.date:%I:%M %p on %d %B, %Y}" if r.date else "", day)

    def _row(self, n: int, when: datetime | None, text: str, day: int) -> dict:
        return {"session": n, "session_key": f"{self.conv}/S{n}", "session_date": when, "date_text": text, "day": day}


def _turn_row(r: Turn, position: int, sessions: _Sessions) -> dict:
    return {
        "key": turn_key(r), "id": r.id, "conversation": r.conversation, "position": position,
        "speaker": r.speaker, "text": r.text, "date": r.date, "number": r.number, "caption": r.caption,
        "user": r.user, "owner": owner(r.user), "metadata": metadata_cell(r.metadata), "tags": tokens(r.metadata),
        "person": person_key(r.conversation, fold(r.speaker)), "person_id": fold(r.speaker), "lname": speaker_key(r.speaker),
        **sessions.of(r),
    }


def _same(held: Mapping, r: Turn) -> bool:
    """Whether the turn the database holds under ``r``'s key holds what ``r`` does."""
    return (held["id"], held["speaker"], held["text"], as_datetime(held["date"]), held["conversation"],
            held["number"], held["user"], metadata_of(held.get("metadata"))) == \
        (r.id, r.speaker, r.text, r.date, r.conversation, r.number, r.user, r.metadata)


def turns_of(rows: Iterable[Mapping]) -> list[Turn]:
    """The turns of a statement's rows, those deleted while it read them left out. Why: Neo4j reads
    at read-committed, so a turn another transaction forgets between a read's match and its return
    comes back with every property null; it is gone, and a read beside the forget answers as one
    made after it (``bench/neo4j_race.py``)."""
    return [turn_of(r) for r in rows if alive(r)]


def alive(row: Mapping) -> bool:
    """Whether a row's turn was still there when the statement read it (:func:`turns_of`)."""
    return row["id"] is not None and row["text"] is not None and row["speaker"] is not None \
        and row["conversation"] is not None


def turn_of(row: Mapping) -> Turn:
    """A turn as a statement returns it (``id``, ``speaker``, ``text``, ``date``, ``conversation``,
    ``turn``: its number, ``user``, ``metadata``: its JSON string)."""
    return Turn(row["id"], row["speaker"], row["text"], as_datetime(row["date"]), row["conversation"], row["turn"],
                caption=row.get("caption"), user=row.get("user"), metadata=metadata_of(row.get("metadata")))


def as_datetime(value: object) -> datetime | None:
    """A stored date back as a Python datetime (the driver returns its own DateTime type)."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    return value if isinstance(value, datetime) else None
