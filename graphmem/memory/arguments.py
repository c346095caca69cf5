"""The arguments every verb of the memory checks the same way: how many results, when a query is
asked, and the records an ingest is given.

Why a module of their own: :mod:`graphmem.memory.api` defines the verbs; these rules are what a caller
gets wrong (``k=True``, ``asked_on=3``, one record alone), each one ``DataError`` naming the argument.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
from numbers import Integral
from typing import Any, NamedTuple

from graphmem.data.records import name_argument, parse_date
from graphmem.errors import DataError

__all__ = ["K_LIMIT", "Forgotten", "When", "conversation_of", "count", "listed", "moment", "user_of"]

When = datetime | date | str | None
"""When a query is asked (``asked_on``): a datetime, a day, or a date string as records take."""

K_LIMIT = 2**31 - 1
"""The most results a query is given: a larger ``k`` asks for every turn all the same, and a store's
query language may hold no larger whole number (Neo4j's integers are 64-bit, and a search adds to k)."""


def count(k: object) -> int:
    """``k``, how many results a query asks for, as an int: a whole number from 0 up (at most
    :data:`K_LIMIT`). A bool is refused though Python counts it an int: ``k=True`` is a slip, not a
    request for one result."""
    if isinstance(k, bool) or not isinstance(k, Integral):
        raise DataError(f"k must be a whole number of results (0 or more), not {type(k).__name__} {k!r}")
    if k < 0:
        raise DataError(f"k must be a whole number of results (0 or more), not {k}")
    return min(int(k), K_LIMIT)



def moment(asked_on: When, name: str = "asked_on") -> datetime | None:
    """The moment a query is asked, from what a caller may hold: a datetime, a day (its start),
    or a date string in any form a record's date takes. ``name``: the argument, as errors name it."""
    if isinstance(asked_on, date) and not isinstance(asked_on, datetime):
        return datetime(asked_on.year, asked_on.month, asked_on.day)
    if asked_on is not None and not isinstance(asked_on, (str, datetime)):
        raise DataError(f"{name} must be a datetime, a date or a date string, not {type(asked_on).__name__}")
    return parse_date(asked_on, name)


def listed(records: object) -> list[Any]:
    """The records an ingest is given, as a list: anything but an iterable of records (None, a number, one
    record alone, a string) is one ``DataError``, not a ``TypeError`` from deep inside validation."""
    if isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        shown = "one record" if isinstance(records, Mapping) else type(records).__name__
        raise DataError(f"records must be a list of records (dicts with id, speaker and text), not {shown}")
    return list(records)


def user_of(user: object) -> str | None:
    """``user`` as the verbs take it: None (the turns that carry none) or a user's id."""
    return None if user is None else name_argument(user, "user")


def conversation_of(conversation: object) -> str | None:
    """``conversation`` as the verbs take it: None (every one) or a conversation's id."""
    return None if conversation is None else name_argument(conversation, "conversation")


class Forgotten(NamedTuple):
    """What a forget removed: how many turns, and, when ids were given, which of them matched a turn
    and which did not (in the order given)."""

    removed: int
    matched: tuple[str, ...] = ()
    not_found: tuple[str, ...] = ()
