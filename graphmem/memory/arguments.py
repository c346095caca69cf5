"""The arguments every verb of the memory checks the same way, whoever calls it: how many results,
when a query is asked, whose turns and which conversation, and the records an ingest is given.

Why a module of their own: :mod:`graphmem.memory.api` defines the verbs, and the command line
(:mod:`graphmem.cli.memory`) and the MCP server (:mod:`graphmem.server.tools`) take the same
arguments from a shell or a model; these rules are what any of them gets wrong (``k=True``,
``asked_on=3``, a user holding a control character, one record alone), each one ``DataError``
naming the argument. Each rule is a pydantic type (:data:`Count`, :data:`Moment`, :data:`Name`):
the memory validates with it here, the MCP server builds its tools' argument models from it, and
the command line's options call it, so the three cannot drift apart. pydantic does the validating
and the coercing; a rule here only says what a value must be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
from numbers import Integral
from typing import Annotated, Any, NamedTuple

from pydantic import BeforeValidator, TypeAdapter, ValidationError, ValidationInfo

from graphmem.data.records import name_argument, parse_date
from graphmem.errors import DataError

__all__ = ["K_LIMIT", "Count", "Forgotten", "Moment", "Name", "When", "conversation_of", "count", "listed",
           "moment", "name", "user_of"]

When = datetime | date | str | None
"""When a query is asked (``asked_on``): a datetime, a day, or a date string as records take."""

K_LIMIT = 2**31 - 1
"""The most results a query is given: a larger ``k`` asks for every turn all the same, and a store's
query language may hold no larger whole number (Neo4j's integers are 64-bit, and a search adds to k)."""


def _whole(k: object) -> int:
    """A whole number from 0 up, capped at :data:`K_LIMIT`. A bool is refused though Python counts
    it an int (``k=True`` is a slip, not a request for one result); a numpy int is a whole number."""
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 0:
        raise ValueError("a whole number (0 or more)")
    return min(int(k), K_LIMIT)


def _moment(value: object, info: ValidationInfo) -> datetime | None:
    """A datetime, a day (its start), or a date string in any form a record's date takes
    (:func:`graphmem.data.records.parse_date`); an unreadable one is its ``DataError``, naming the
    argument (``info.field_name``, or the name the caller gives in the context)."""
    where = (info.context or {}).get("name") or info.field_name or "asked_on"
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime(value.year, value.month, value.day)
    if value is not None and not isinstance(value, (str, datetime)):
        raise DataError(f"{where} must be a datetime, a date or a date string, not {type(value).__name__}")
    return parse_date(value, where)


def _name(value: object, info: ValidationInfo) -> str:
    """A user's, a conversation's or a turn's name: a record's rule for it
    (:func:`graphmem.data.records.name_argument`), named as the caller names the argument."""
    return name_argument(value, (info.context or {}).get("name") or info.field_name or "a name")


Count = Annotated[int, BeforeValidator(_whole)]
"""How many results a query asks for (``k``): a whole number from 0 up. The MCP server narrows it
(1 to 100) with its own bounds on top of this rule."""

Moment = Annotated[datetime | None, BeforeValidator(_moment)]
"""When a query is asked, or what held as of when: None, a datetime, a day or a date string."""

Name = Annotated[str, BeforeValidator(_name)]
"""A user, a conversation or an id as a verb takes it: a non-empty string without control characters,
no longer than a record's (the stores key by it)."""

_COUNT: TypeAdapter[int] = TypeAdapter(Count)
_MOMENT: TypeAdapter[datetime | None] = TypeAdapter(Moment)
_NAME: TypeAdapter[str] = TypeAdapter(Name)


def count(k: object) -> int:
    """``k``, how many results a query asks for, as an int (:data:`Count`)."""
    try:
        return _COUNT.validate_python(k)
    except ValidationError:
        shown = k if isinstance(k, Integral) and not isinstance(k, bool) else f"{type(k).__name__} {k!r}"
        raise DataError(f"k must be a whole number of results (0 or more), not {shown}") from None


def moment(asked_on: When, name: str = "asked_on") -> datetime | None:
    """The moment a query is asked (:data:`Moment`). ``name``: the argument, as errors name it."""
    if asked_on is None or isinstance(asked_on, datetime) and asked_on.utcoffset() is None:
        return asked_on  # nothing to read: a moment read once already (the MCP server's) is not read again
    return _MOMENT.validate_python(asked_on, context={"name": name})


def name(value: object, what: str) -> str:
    """A name a verb is given (:data:`Name`); ``what``: the argument, as errors name it."""
    return _NAME.validate_python(value, context={"name": what})


def listed(records: object) -> list[Any]:
    """The records an ingest is given, as a list: anything but an iterable of records (None, a number, one
    record alone, a string) is one ``DataError``, not a ``TypeError`` from deep inside validation."""
    if isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        shown = "one record" if isinstance(records, Mapping) else type(records).__name__
        raise DataError(f"records must be a list of records (dicts with id, speaker and text), not {shown}")
    return list(records)


def user_of(user: object) -> str | None:
    """``user`` as the verbs take it: None (the turns that carry none) or a user's id."""
    return None if user is None else name(user, "user")


def conversation_of(conversation: object) -> str | None:
    """``conversation`` as the verbs take it: None (every one) or a conversation's id."""
    return None if conversation is None else name(conversation, "conversation")


class Forgotten(NamedTuple):
    """What a forget removed: how many turns, and, when ids were given, which of them matched a turn
    and which did not (in the order given)."""

    removed: int
    matched: tuple[str, ...] = ()
    not_found: tuple[str, ...] = ()
