"""What claim extraction produces: claims, the reading of a conversation, and its views.

The graph, the arms and the bench read these records and never the rules that made them:
a claim is who it is about and what it says, a piece is what one turn says about one person.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from graphmem.claims.people import People
from graphmem.domain import Claim, Turn

__all__ = ["Claim", "Piece", "Reading", "about", "pieces", "said_on"]


def said_on(turn: Turn) -> datetime:
    """The day a turn the claims are read from was said. Every such turn is dated: a dataset's by its
    session, a dialogue file's undated turn by its day (:mod:`graphmem.data.dialogue`), the memory's
    when it was ingested (:mod:`graphmem.store.claims`); a claim always has a date."""
    assert turn.date is not None, f"turn {turn.id!r} is read for claims without a date"
    return turn.date


@dataclass(frozen=True)
class Piece:
    """What one turn says about one person: the sentences that produced claims about them."""

    dia_id: str
    person: str
    text: str


@dataclass
class Reading:
    """What :func:`graphmem.claims.extract.extract` made of one conversation."""

    people: People
    claims: list[Claim]
    turns: tuple[str, ...] = ()
    """Every dia_id read, in conversation order (turns that produced no claim included)."""
    speakers: dict[str, str] = field(default_factory=dict)
    """dia_id -> the key of the person who said the turn."""
    dates: dict[str, datetime] = field(default_factory=dict)
    """dia_id -> the date of the turn's session."""


def pieces(reading: Reading) -> list[Piece]:
    """What each turn says about each person: per (turn, person) the sentences of their claims."""
    order: dict[tuple[str, str], list[str]] = {}
    for c in reading.claims:
        sents = order.setdefault((c.turn_id, c.subject), [])
        if c.sentence not in sents:
            sents.append(c.sentence)
    return [Piece(d, p, " ".join(s)) for (d, p), s in order.items()]


def about(reading: Reading) -> dict[str, tuple[str, ...]]:
    """Every person each turn was read as being about (a turn about nobody maps to ``()``)."""
    out: dict[str, list[str]] = {d: [] for d in reading.turns}
    for c in reading.claims:
        lst = out.setdefault(c.turn_id, [])
        if c.subject not in lst:
            lst.append(c.subject)
    return {d: tuple(v) for d, v in out.items()}
