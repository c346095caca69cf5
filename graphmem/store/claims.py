"""The claims a memory keeps: each conversation's, read the first time they are asked for
(a memory in RAM, a saved memory) or as its turns are ingested (Neo4j).

Why here and not at search time: a claim is read from a turn in the light of its whole
conversation (whom its names denote), so reading them through
:class:`graphmem.claims.stream.ConversationClaims` costs what the new turns cost (and the rare
earlier turn a name learnt later changes), never the memory. Neo4j writes claims with their
turns, in one transaction, so it reads them in the ingest (:meth:`MemoryClaims.add`). An
embedded memory keeps its new turns waiting (:meth:`MemoryClaims.defer`) and reads them the
first time that conversation's claims are asked for, since no search or answer reads claims:
reading them is most of what an ingest would cost (docs/memory.md, "Claims, turn by turn"). A
saved memory (:mod:`graphmem.store.sqlite.store`, a :class:`ClaimsStore`) keeps in its file the claims read and
which turns still wait (with the moment each was ingested), and writes a conversation's claims
there when it reads them; a reopened one restores a conversation's claims from there, without
reading it again, the first time that conversation is asked for.

Claims are read from dialogue of any number of speakers (whom ``you`` means is settled turn by
turn: :meth:`graphmem.claims.people.People.addressed`), one speaker included: while no one else has
spoken, ``you`` names no one. A turn without a date is dated when it is ingested, as :func:`graphmem.data.dialogue.conversations` dates it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Protocol

from graphmem.claims.facts import Told
from graphmem.claims.gcpause import paused_gc
from graphmem.claims.records import Claim, Reading
from graphmem.claims.stream import ConversationClaims
from graphmem.domain import Turn
from graphmem.errors import DataError

__all__ = ["ClaimsChange", "ClaimsStore", "MemoryClaims", "Waiting", "ingest_moment"]

Waiting = Sequence[tuple[Turn, datetime]]
"""Turns in ingest order, each with the moment it was ingested: those whose claims are not read yet,
or those whose claims a store restores."""


@dataclass(frozen=True)
class ClaimsChange:
    """What one reading changed (an ingest's, or a conversation's waiting turns'): the claims to
    write, by turn id."""

    claims: dict[str, tuple[Claim, ...]]


class ClaimsStore(Protocol):
    """Where a saved memory keeps its claims (:class:`graphmem.store.sqlite.store.MemoryFile`)."""

    def conversation(self, conversation: str) -> tuple[Waiting, Mapping[str, tuple[Claim, ...]], Waiting]:
        """The conversation's turns whose claims were read, in ingest order, each one's claims by
        id, and its turns still waiting; each turn with the moment it was ingested (an undated
        turn's date, should a later turn make its claims be read again)."""

    def keep_claims(self, change: ClaimsChange, read: Sequence[str]) -> None:
        """Write what reading the turns ``read`` changed, and that they no longer wait, in one transaction."""


class MemoryClaims:
    """Every conversation's claims; ``store`` keeps them in a memory's file."""

    def __init__(self, store: ClaimsStore | None = None):
        self._store = store
        self._convs: dict[str, ConversationClaims] = {}
        self._days: dict[str, dict[date | None, int]] = {}
        self._pending: dict[str, list[tuple[Turn, datetime]]] = {}
        self._about: dict[str, dict[str, Told]] = {}
        """Each conversation's claims about each person asked for (:meth:`about`), dropped whenever
        its claims change."""

    def add(self, records: Sequence[Turn]) -> ClaimsChange:
        """Read the new records' claims now, conversation by conversation, in the order given
        (after any turns of those conversations still waiting, :meth:`defer`): what a store that
        writes the claims with the turns, in one transaction, needs (Neo4j; not a
        :class:`ClaimsStore`, which writes what it reads itself)."""
        if self._store is not None:
            raise ValueError("a memory whose claims a ClaimsStore keeps reads them when asked for, not with add")
        grouped = _grouped(records)
        with paused_gc():  # tokens, sentences and claims: many small acyclic objects, as the bulk reader pauses for
            changes = [self._drain(conv) for conv in grouped]  # the waiting turns' claims are written too
            changes.append(self._read(grouped))
        return ClaimsChange({d: c for ch in changes for d, c in ch.claims.items()})

    def defer(self, records: Sequence[Turn], now: datetime | None = None) -> None:
        """Keep the new records, ingested at ``now`` (this moment by default), to read when
        their conversation's claims are first asked for.

        Why: nothing a search or an answer does reads claims; a memory that is never asked for
        claims never pays for them. Read later in one batch, they are the claims read turn by turn
        (:class:`graphmem.claims.stream.ConversationClaims` equals the bulk reading whatever the
        batches), and a turn without a date is dated when it was ingested, not when read."""
        for conv, rows in _grouped(records, now).items():  # grouped first: nothing fails half-way through the waiting lists
            self._pending.setdefault(conv, []).extend(rows)

    def _drain(self, conv: str) -> ClaimsChange:
        """Read the conversation's waiting turns (a saved memory's restored first, and what
        reading them changed written to its file). They stop waiting only once read and
        written: a reading stopped part-way (an interrupt, a bug) keeps nothing
        (``ConversationClaims.add`` changes nothing until it returns), and a write that fails
        forgets the conversation, to be restored from the file again; so the next call reads
        them again rather than losing them."""
        self._conversation(conv)
        pending = self._pending.get(conv)
        if not pending:
            return ClaimsChange({})
        change = self._read({conv: pending})
        if self._store is not None:
            try:
                self._store.keep_claims(change, [r.id for r, _ in pending])
            except BaseException:
                self._forget(conv)
                raise
        del self._pending[conv]
        return change

    def _read(self, grouped: Mapping[str, Sequence[tuple[Turn, datetime]]]) -> ClaimsChange:
        out: dict[str, tuple[Claim, ...]] = {}
        for conv, rows in grouped.items():
            self._about.pop(conv, None)
            cc = self._conversation(conv)
            days = dict(self._days.get(conv, {}))
            change = cc.add([_turn(r, days, now) for r, now in rows])
            self._days[conv] = days
            out.update(change.claims)
        return ClaimsChange(out)

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        """The conversation's claims in turn order (``DataError`` for one unknown), its turns still
        waiting (:meth:`defer`) read first."""
        return tuple(self._held(conversation).claims)

    def about(self, conversation: str, person: str) -> Told:
        """The conversation's claims about ``person`` (a person key), in turn order, with their kinds
        and facts (:class:`graphmem.claims.facts.Told`); ``DataError`` as :meth:`claims` says it.

        Why kept: a person's facts are asked for again and again while their conversations' claims
        stay as they are; made once per reading of those claims, a call costs no pass over the
        conversation's claims and reads no claim's kind again. Kept until the conversation's claims
        change or it is forgotten (nothing of a forgotten turn outlives it here)."""
        cc = self._held(conversation)
        by = self._about.setdefault(conversation, {})
        told = by.get(person)
        if told is None:
            told = by[person] = Told.about(cc.claims, person)
        return told

    def _held(self, conversation: str) -> ConversationClaims:
        """The conversation's reader, its waiting turns read first; ``DataError`` when it holds no turn."""
        with paused_gc():
            self._drain(conversation)
        cc = self._conversation(conversation)
        if not len(cc):
            self._forget(conversation)
            raise DataError(f"conversation {conversation!r}: the memory holds no turn of it")
        return cc

    def reading(self, conversation: str) -> Reading:
        """The conversation's reading so far (its people, claims, speakers), its waiting turns read first."""
        with paused_gc():
            self._drain(conversation)
        return self._conversation(conversation).reading

    def reset(self, conv: str, turns: Callable[[], Waiting]) -> None:
        """The conversation's claims to be read again from the turns ``turns()`` gives (after some were
        forgotten): a store that keeps claims has dropped them, and restores the conversation from
        itself instead, so it is not asked for them (gathering them costs a pass over the conversation)."""
        self._forget(conv)
        if self._store is None and (held := turns()):
            self._pending[conv] = list(held)

    def forget(self, conversation: str, ids: Collection[str]) -> ClaimsChange:
        """Take the turns ``ids`` out of the conversation's claims, read as they would be had it never
        had them (:meth:`ConversationClaims.forget`: only the kept turns that reading changes are read
        again): the claims that changed, by turn id. For a store that writes what forgetting changes in
        one transaction with the rest of it (Neo4j); an embedded memory :meth:`reset` s instead, as it
        reads claims when they are first asked for. The session numbers the turns carry here are left
        as they were: no claim reads them."""
        if self._store is not None:
            raise ValueError("a memory whose claims a ClaimsStore keeps is reset, not forgotten turn by turn")
        with paused_gc():
            self._drain(conversation)
            self._about.pop(conversation, None)
            change = self._conversation(conversation).forget(set(ids))
        return ClaimsChange(change.claims)

    def _conversation(self, conv: str) -> ConversationClaims:
        """The conversation's reader: kept, restored from the file, or new."""
        cc = self._convs.get(conv)
        if cc is not None:
            return cc
        rows, claims, waiting = self._store.conversation(conv) if self._store is not None else ((), {}, ())
        if self._store is not None:  # the file's waiting turns: every one, those deferred here among them
            self._pending[conv] = list(waiting)
        days: dict[date | None, int] = {}
        turns = [_turn(r, days, at) for r, at in rows]
        cc = ConversationClaims.restore(None, turns, [claims.get(t.id, ()) for t in turns])
        self._convs[conv], self._days[conv] = cc, days
        return cc

    def _forget(self, conv: str) -> None:
        """Drop what is held of a conversation, to restore it from the store when next asked."""
        for held in (self._convs, self._days, self._pending, self._about):
            held.pop(conv, None)


def _grouped(records: Sequence[Turn], now: datetime | None = None) -> dict[str, list[tuple[Turn, datetime]]]:
    """The records by conversation, in the order given, each with the moment they were ingested."""
    now = now or ingest_moment()
    grouped: dict[str, list[tuple[Turn, datetime]]] = {}
    for r in records:
        grouped.setdefault(r.conversation, []).append((r, now))
    return grouped


def ingest_moment() -> datetime:
    """The moment a turn without a date is dated: when it is ingested, to the second."""
    return datetime.now().replace(microsecond=0)


def _turn(r: Turn, days: dict[date | None, int], now: datetime) -> Turn:
    """A turn as the claim reader takes it: a session per calendar day, in first-seen order, and a
    date (an undated turn's is the moment it was ingested)."""
    day = r.date.date() if r.date is not None else None
    return replace(r, session=days.setdefault(day, len(days) + 1), date=r.date or now)
