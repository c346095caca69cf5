"""Forgetting turns of a conversation in Neo4j in place: only what the forgetting changes is read and written.

Why not take the conversation out and write what it keeps again: a conversation of hundreds of
turns is then a whole ingest's writing to forget one turn. Why not read the turns it keeps afresh
either: that is an ingest's reading of the conversation, most of what forgetting one turn cost. The
writer's reading of the conversation before (:class:`Held`, read under the lock, brought up to date
as an ingest does) is taken apart instead, so that it reads as a memory that never ingested the
forgotten turns, reading again only the kept turns that depend on them:

- the search fields: the turns that replied to or followed a forgotten one take the reply the rule
  gives now (:func:`graphmem.index.forget.forget`), and the rest keep their reading, restored into a
  fresh index numbered as the database numbers them; when a speaker leaves the conversation (the
  vocatives naming them, the asker's marks) the kept turns are indexed afresh;
- the claims: the conversation's running totals give back the forgotten turns' words, its people
  are met again, and only the turns whose speaker's key, addressee or named people moved are read
  again (:meth:`graphmem.claims.stream.ConversationClaims.forget`).

The difference is written in one statement sequence, under the lock:

- the kept turns whose search fields changed (the turn replying to a forgotten one, vocatives that
  named a speaker met only in it, asker marks), through ``index_turns.cypher``;
- the forgotten turns, their sentences, the document frequencies they counted in, the terms and
  sessions left empty, the places of the turns after them, the people no kept turn speaks or names,
  the conversation's counters (``forget_in_place.cypher``);
- the claims of the kept turns whose claims changed, and the people whose standing changed
  (``write_claims.cypher``).

A conversation whose graph a load wrote (assertions the graph derived) is still written again whole
by :meth:`graphmem.store.neo4j.write.Writer.forget`: the memory's reading replaces the load's.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from graphmem.claims.naming import persons
from graphmem.claims.people import fold
from graphmem.domain import Claim, Turn
from graphmem.index.forget import forget as unindex
from graphmem.index.live import LiveIndex
from graphmem.index.people import speaker_key
from graphmem.index.readings import Readings
from graphmem.store.neo4j.client import Transaction
from graphmem.store.neo4j.keys import person_key
from graphmem.store.claims import MemoryClaims
from graphmem.store.neo4j.rows import claim_rows, index_row, restood, turn_key
from graphmem.store.users import owner

__all__ = ["Held", "forget_in_place"]


@dataclass
class Held:
    """A writer's reading of one conversation: the live index over its turns, their claims read
    turn by turn (:class:`graphmem.store.claims.MemoryClaims`), and the BM25 length each turn
    was last written with."""

    index: LiveIndex
    claims: MemoryClaims = field(default_factory=MemoryClaims)
    lengths: list[float] = field(default_factory=list)
    speakers: dict[str, None] = field(default_factory=dict)
    """The conversation's speakers in the order they first spoke (kept, not rescanned per write)."""
    humans: frozenset[str] = frozenset()
    """The keys of the people among its named parties as last written (:func:`graphmem.claims.naming.persons`)."""
    epoch: str = ""
    """The conversation's ``epoch`` this reading is of: a writer that finds another under the lock (a
    process forgot turns of it since) reads it again, whatever its count of turns."""

    def grow(self, turns: Sequence[Turn]) -> None:
        """Read ``turns`` into the index, then note their speakers."""
        self.index.add(turns)
        self.speakers.update(dict.fromkeys(r.speaker for r in turns))


def forget_in_place(tx: Transaction, conv: str, old: Held, gone: Collection[str], fresh: Held) -> None:
    """Forget the turns keyed ``gone`` of ``conv``, whose reading before is ``old`` (taken apart: the
    caller holds it no longer); ``fresh`` (empty) becomes the reading of the turns it keeps."""
    records = old.index.records
    at = {turn_key(r): i for i, r in enumerate(records)}
    places = sorted(at[k] for k in gone)
    dead = set(places)
    kept_at = [i for i in range(len(records)) if i not in dead]
    kept = [records[i] for i in kept_at]
    ids = {records[i].id for i in places}
    given: set[str] = set()
    for i in places:  # the forgotten turns' stems are given back, and gone when at zero, on their own
        was = index_row(old.index, i)
        given |= set(was["bag"]) | set(was["own"])
    fresh.speakers = dict.fromkeys(r.speaker for r in kept)
    if set(fresh.speakers) == set(old.speakers):
        rows, lost = _shrunk(old, places, kept_at, fresh)
    else:  # a speaker leaves: the turns naming them, and the asker's marks, are read again
        fresh.index.add(kept)
        fresh.index.changed.clear()
        rows, lost = _changed_rows(old.index, fresh.index, at)
        fresh.lengths = [fresh.index.fields(i)[1] for i in range(len(kept))]
    lost -= given
    length = 0.0
    for v in fresh.lengths:  # summed as a write of these turns sums them
        length += v
    change = old.claims.forget(conv, ids)
    fresh.claims = old.claims
    reading = fresh.claims.reading(conv)
    humans = persons(reading.people, reading.claims)
    speakers = {fold(s): s for s in fresh.speakers}
    forget, claims, people = _changed_claims(conv, kept, change.claims, speakers, humans)
    named = set(reading.people.keys) | set(speakers) | {p["id"] for p in people}
    by_key = {p["key"]: p for p in people}
    restood(conv, sorted(named), humans, old.humans, speakers, by_key)
    people = list(by_key.values())
    fresh.humans = humans
    if rows:
        tx.run("index_turns", p={"rows": rows})
    order = list(fresh.speakers)
    tx.run("forget_in_place", p={
        "conversation": conv, "keys": sorted(gone), "lost": sorted(lost), "forget": forget, "places": places,
        "keep": sorted(named), "stopped": sorted(person_key(conv, k) for k in {fold(s) for s in old.speakers} - set(speakers)),
        "indexed": len(kept), "length": length, "speakers": order, "lspeakers": [speaker_key(s) for s in order],
        "askers": fresh.index.askers.count, "epoch": fresh.epoch, "owner": owner(records[0].user)})
    if claims or people:
        tx.run("write_claims", p={
            "forget": [], "people": people, "claims": claims, "conversation": conv, "added": 0, "length": 0.0,
            "speakers": order, "lspeakers": [speaker_key(s) for s in order], "askers": fresh.index.askers.count,
            "owner": owner(kept[0].user)})


def _shrunk(old: Held, places: list[int], kept_at: list[int], fresh: Held) -> tuple[list[dict], set[str]]:
    """The kept turns indexed into ``fresh`` without the turns at ``places``, every speaker staying:
    the ``index_turns`` rows of the kept turns whose fields changed, and the stems they lost.

    Why not index the kept turns again: with every speaker staying, forgetting changes no vocative
    and no asker's mark, only the reply links of the turns that followed or replied to a forgotten
    one (:func:`graphmem.index.forget.forget` relinks them in ``old``'s index); every other kept
    turn's reading is as it was. So the fresh index is restored from ``old``'s readings
    (:meth:`LiveIndex.restore`, as a saved memory reopens), and only the followers' rows are made."""
    index = old.index
    follow = _followers(index, places)
    was = {i: index_row(index, i) for i in follow}
    index.changed.clear()
    unindex(index, places)
    if not index.changed <= follow:
        raise AssertionError(f"forgetting relinked turns {sorted(index.changed - follow)} not foreseen")
    new = {i: j for j, i in enumerate(kept_at)}
    replied = [index.replied[i] for i in kept_at]
    fresh.index.restore([index.records[i] for i in kept_at], Readings(
        [index.said[i] for i in kept_at], [index.said_terms[i] for i in kept_at],
        [None if j is None else new[j] for j in replied], [index._saved_types[i] for i in kept_at],
        {new[i]: spans for i, spans in index._spans.items() if i in new}))
    fresh.lengths = [old.lengths[i] for i in kept_at]
    rows: list[dict] = []
    lost: set[str] = set()
    for i in sorted(follow - set(places)):
        row = index_row(fresh.index, new[i])
        if row != was[i]:
            rows.append(row)
            fresh.lengths[new[i]] = row["fields"]["length"]
            lost |= (set(was[i]["bag"]) - set(row["bag"])) | (set(was[i]["own"]) - set(row["own"]))
    return rows, lost


def _followers(index: LiveIndex, places: list[int]) -> set[int]:
    """The turns whose reply link forgetting the turns at ``places`` may move, as
    :func:`graphmem.index.forget.forget` finds them: those replying to one, the turn after each, and
    the numbered turns up to the context's reach after a numbered one."""
    out = {f for d in places for f in index.children.get(d)}
    conv = index.records[places[0]].conversation
    held = index.by_conv[conv]
    for d in places:
        at = bisect_right(held, d)
        if at < len(held):
            out.add(held[at])
        r = index.records[d]
        if r.number is not None:
            for n in range(1, index.options.context_reach + 1):
                out.update(index.numbered.get((conv, r.date, r.number + n), ()))
    return out


def _changed_rows(old: LiveIndex, new: LiveIndex, at: dict[str, int]) -> tuple[list[dict], set[str]]:
    """The ``index_turns`` rows of the kept turns whose fields changed, and the stems they lost. A
    row is made of what :func:`_read` gives (and the turn, the same in both): only the turns whose
    reading differs are made into rows."""
    rows: list[dict] = []
    lost: set[str] = set()
    for j, r in enumerate(new.records):
        i = at[turn_key(r)]
        if _read(new, j) == _read(old, i):
            continue
        row, was = index_row(new, j), index_row(old, i)
        if row != was:
            rows.append(row)
            lost |= (set(was["bag"]) - set(row["bag"])) | (set(was["own"]) - set(row["own"]))
    return rows, lost


def _read(index: LiveIndex, i: int) -> tuple:
    """Everything :func:`graphmem.store.neo4j.rows.index_row` reads of turn i but the turn itself: its
    two fields (its length is theirs), answer types, day spans, asker's mark and the turn it replies to."""
    read, j = index.reading(i), index.replied[i]
    return (index.indexed_terms(i), index.reply_field(i), tuple(read.types), tuple(read.spans),
            bool(index.askers.mine.view()[i]), None if j is None else turn_key(index.records[j]))


def _changed_claims(conv: str, kept: Sequence[Turn], now: dict[str, tuple[Claim, ...]],
                    speakers: dict[str, str], humans: Collection[str]) -> tuple[list[str], list[dict], list[dict]]:
    """The kept turns whose assertions go (their claims changed: ``now``), the claim rows to write and
    the people those name."""
    forget: list[str] = []
    claims: list[dict] = []
    people: dict[str, dict] = {}
    for r in kept:
        said = now.get(r.id)
        if said is None:
            continue
        forget.append(turn_key(r))
        rows, named = claim_rows(conv, turn_key(r), said, speakers, humans)
        claims.extend(rows)
        people.update((p["key"], p) for p in named)
    return forget, claims, list(people.values())
