"""What the live index reads of a turn, kept so that nothing is read twice.

Why its own module: a saved memory stores exactly these readings and restores an index from
them (:mod:`graphmem.store.sqlite.store`), so they are the contract between the index and its file,
not a detail of either.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

__all__ = ["Reading", "Readings"]


@dataclass(frozen=True)
class Reading:
    """What the index reads of one record: its utterance without vocatives and that
    utterance's terms, the record it replies to, the answer types it gives, the days it
    speaks of. A saved memory keeps exactly this, so reopening it reads no dialogue."""

    said: str
    terms: list[str]
    replied: int | None
    types: tuple[str, ...]
    spans: list[tuple[date, date]]


@dataclass(frozen=True)
class Readings:
    """What the index read of many records, column by column: the form a saved memory restores
    in, with no object per record (``spans`` holds only the records that speak of days)."""

    said: list[str]
    terms: list[list[str]]
    replied: list[int | None]
    types: list[tuple[str, ...]]
    spans: dict[int, list[tuple[date, date]]]
