"""The claims a memory keeps: each conversation's, read turn by turn as its turns are ingested.

Why here and not at search time: a claim is read from a turn in the light of its whole
conversation (whom its names denote), so reading them once per ingest, through
:class:`graphmem.claims.stream.ConversationClaims`, costs what the new turns cost (and the rare
earlier turn a name learnt later changes), never the memory. A saved memory keeps them in its
file (:mod:`graphmem.memory.saved`), and a reopened one restores a conversation's claims from
there, without reading it again, the first time that conversation is asked for or added to.

Claims are read from two-party dialogue: a conversation whose turns have three speakers keeps
its turns (they are searched as any other) but no claims, and asking for them says why.
A turn without a date is dated when it is ingested, as :func:`graphmem.data.records.conversations` dates it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from graphmem.claims.gcpause import paused_gc
from graphmem.claims.records import Claim
from graphmem.claims.stream import ConversationClaims
from graphmem.data.locomo import Turn
from graphmem.data.records import Record
from graphmem.errors import DataError

__all__ = ["ClaimsChange", "MemoryClaims", "Saved"]

Saved = Callable[[str], tuple[Sequence[Record], Mapping[str, tuple[Claim, ...]]]]
"""What a saved memory holds of one conversation: its turns in order, and each turn's claims by id."""


@dataclass(frozen=True)
class ClaimsChange:
    """What one ingest changed: the claims to write, by turn id, and the conversations whose
    claims are dropped (a third speaker spoke)."""

    claims: dict[str, tuple[Claim, ...]]
    dropped: tuple[str, ...] = ()


class MemoryClaims:
    """Every conversation's claims; ``saved`` restores a conversation from a memory's file."""

    def __init__(self, saved: Saved | None = None):
        self._saved = saved
        self._convs: dict[str, ConversationClaims] = {}
        self._days: dict[str, dict[date | None, int]] = {}
        self._refused: dict[str, str] = {}

    def add(self, records: Sequence[Record]) -> ClaimsChange:
        """Read the new records' claims, conversation by conversation, in the order given."""
        with paused_gc():  # tokens, sentences and claims: many small acyclic objects, as the bulk reader pauses for
            return self._add(records)

    def _add(self, records: Sequence[Record]) -> ClaimsChange:
        grouped: dict[str, list[Record]] = {}
        for r in records:
            grouped.setdefault(r.conversation, []).append(r)
        now = datetime.now().replace(microsecond=0)
        out: dict[str, tuple[Claim, ...]] = {}
        dropped = []
        for conv, rows in grouped.items():
            cc = self._conversation(conv)
            if cc is None:
                continue
            days = dict(self._days.get(conv, {}))
            try:
                change = cc.add([_turn(r, days, now) for r in rows])
            except DataError as e:  # a third speaker: no claims for this conversation
                self._refuse(conv, str(e))
                dropped.append(conv)
                continue
            self._days[conv] = days
            out.update(change.claims)
        return ClaimsChange(out, tuple(dropped))

    def claims(self, conversation: str) -> tuple[Claim, ...]:
        """The conversation's claims in turn order (``DataError`` for one unknown, or of three speakers)."""
        cc = self._conversation(conversation)
        if cc is None:
            raise DataError(f"conversation {conversation!r}: no claims ({self._refused[conversation]})")
        if not len(cc):
            del self._convs[conversation]
            raise DataError(f"conversation {conversation!r}: the memory holds no turn of it")
        return tuple(cc.claims)

    def _conversation(self, conv: str) -> ConversationClaims | None:
        """The conversation's reader: kept, restored from the file, or new; None when refused."""
        if conv in self._refused:
            return None
        cc = self._convs.get(conv)
        if cc is not None:
            return cc
        rows, claims = self._saved(conv) if self._saved is not None else ((), {})
        days: dict[date | None, int] = {}
        turns = [_turn(r, days, datetime.now().replace(microsecond=0)) for r in rows]
        try:
            cc = ConversationClaims.restore(None, turns, [claims.get(t.dia_id, ()) for t in turns])
        except DataError as e:
            self._refuse(conv, str(e))
            return None
        self._convs[conv], self._days[conv] = cc, days
        return cc

    def _refuse(self, conv: str, why: str) -> None:
        self._refused[conv] = why
        self._convs.pop(conv, None)
        self._days.pop(conv, None)


def _turn(r: Record, days: dict[date | None, int], now: datetime) -> Turn:
    """A record as the claim reader takes a turn: a session per calendar day, in first-seen order."""
    day = r.date.date() if r.date is not None else None
    session = days.setdefault(day, len(days) + 1)
    return Turn(r.id, r.speaker, r.text, session, r.date or now)
