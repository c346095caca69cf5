"""Turns read from dicts or JSON Lines and validated: what every store is handed.

Why one validation below every store: what one store accepts, all must accept, and what one
refuses, all must refuse, before anything is written; so each record becomes a
:class:`graphmem.domain.Turn` here, once, whatever store it goes to.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from difflib import get_close_matches
from functools import lru_cache
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.data import jsonl
from graphmem.data.metadata import checked as checked_metadata
from graphmem.domain import DEFAULT_CONVERSATION, Turn
from graphmem.errors import DataError
from graphmem.text.dates import MONTH_NUMBERS

_DATE_FORMATS = ("%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%I:%M %p on %A %d %B, %Y",
                 "%Y/%m/%d %H:%M", "%Y/%m/%d")

_ISO_FORM = re.compile(r"\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d)?| \d\d:\d\d:\d\d)?$")
"""Exactly the ISO forms of ``_DATE_FORMATS`` with two-digit fields, which ``datetime.fromisoformat``
reads as ``strptime`` does (a zone is not of this form: still refused)."""

_FRACTION = re.compile(r"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d)\.(\d{1,9})$")
"""An ISO date and time with a fraction of a second (``2023-05-08T10:00:00.123456``, what JavaScript's
``toISOString`` and Python's ``isoformat`` write): read to the microsecond (a nanosecond part cut), the same
on every Python (3.10's ``fromisoformat`` takes 3 or 6 digits only)."""

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_WEEKDAY = re.compile(r"^(\d{4}/\d{1,2}/\d{1,2}) \((" + "|".join(_DAYS) + r")\)( \d{1,2}:\d{2})?$")
"""LongMemEval's ``2023/05/20 (Sat) 02:21``: the weekday in brackets is read apart (``%a`` would
follow the locale) and must be the date's own, so a garbled date is refused, not misread."""


_DATE = re.compile(
    r"(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})",
    re.IGNORECASE,
)


def parse_session_date(text: str) -> datetime:
    """Parse LoCoMo's session stamp, e.g. ``1:56 pm on 8 May, 2023``.

    Locale-independent (English month names, full or three-letter). Raises
    ``ValueError`` if ``text`` is not such a stamp or names an impossible time or date.
    """
    m = _DATE.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a date like '1:56 pm on 8 May, 2023': {text!r}")
    hour, minute, ampm, day, month_name, year = m.groups()
    month = MONTH_NUMBERS.get(month_name.lower())
    hour_ = int(hour)
    if month is None:
        raise ValueError(f"unknown month {month_name!r} in {text!r}")
    if not 1 <= hour_ <= 12:
        raise ValueError(f"hour {hour_} is not on a 12-hour clock in {text!r}")
    hour_ = hour_ % 12 + (12 if ampm.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), hour_, int(minute))
    except ValueError as exc:
        raise ValueError(f"{exc} in {text!r}") from None


class _Unreadable(ValueError):
    """A date string that is no date, said without where it was met (``parse_date`` adds that)."""


def _longmemeval(text: str, value: str) -> datetime | None:
    """The release's date with its weekday checked, or None when ``text`` is not of that form."""
    m = _WEEKDAY.match(text)
    if m is None:
        return None
    try:
        when = datetime.strptime(m.group(1) + (m.group(3) or ""), "%Y/%m/%d %H:%M" if m.group(3) else "%Y/%m/%d")
    except ValueError:
        raise _Unreadable(f"cannot read the date {value!r}") from None
    day = _DAYS[when.weekday()]
    if day != m.group(2):
        raise _Unreadable(f"the date {value!r} says {m.group(2)}, but that day is a {day}")
    return when


def parse_date(value: Any, where: object) -> datetime | None:
    """A record's date: ISO 8601, LoCoMo's ``1:56 pm on 8 May, 2023``, bench6's long form, or
    LongMemEval's ``2023/05/20 (Sat) 02:21``. ``where`` names the place in an error."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        if value.utcoffset() is not None:  # as a date string with a zone is: stores compare dates without one
            raise DataError(f"{where}: the date {value.isoformat()!r} has a time zone; dates are kept without one"
                            " (give the local time)")
        return value
    if not isinstance(value, str):
        raise DataError(f"{where}: 'date' must be a string, not {type(value).__name__}")
    try:
        return _read_date(value)
    except _Unreadable as e:
        raise DataError(f"{where}: {e}") from None


@lru_cache(maxsize=4096)
def _read_date(value: str) -> datetime:
    """:func:`parse_date` of a string, cached: a dialogue's turns share their sessions' dates, and
    a datetime is immutable, so every turn of a session may hold the same one."""
    text = " ".join(value.split())
    if (fraction := _FRACTION.match(text)) is not None:
        try:
            whole = _read_date(fraction.group(1))
        except _Unreadable:
            raise _Unreadable(f"cannot read the date {value!r}") from None
        return whole.replace(microsecond=int(fraction.group(2)[:6].ljust(6, "0")))
    if _ISO_FORM.match(text):  # the common form, read in C; a form it refuses falls through to the formats below
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    when = _longmemeval(text, value)
    if when is not None:
        return when
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    try:
        return parse_session_date(text)
    except ValueError:
        raise _Unreadable(f"cannot read the date {value!r}") from None


class _Place:
    """Where a record is, said only when an error needs it: most records are valid, and
    formatting each one's place (its id's repr) cost more than checking it."""

    __slots__ = ("source", "n", "rec")

    def __init__(self, source: str | Sequence[str], n: int, rec: Any):
        self.source, self.n, self.rec = source, n, rec

    def __str__(self) -> str:
        rec, source = self.rec, self.source
        where = f"{source} {self.n}" if isinstance(source, str) else source[self.n]
        return where + (f" (id {_short(rec.get('id'))})" if isinstance(rec, Mapping) and "id" in rec else "")


def _short(value: object, most: int = 60) -> str:
    """A value's repr for a message, cut to ``most`` characters: a record's id may be anything."""
    text = repr(value)
    if len(text) <= most:
        return text
    return text[:most - 4] + "...'" if text.endswith("'") else text[:most - 3] + "..."


TURN_LIMIT = 2**63
"""A turn's number must be below this: every store keeps it as a signed 64-bit integer."""

KEY_LIMIT = 1000
"""The longest id or conversation id, in characters: each is a key every store indexes, and Neo4j's
range index refuses a key over 8 kB (1000 characters take at most 4 kB in UTF-8, which leaves room
for a key made of a conversation's id and a speaker's name)."""

SPEAKER_LIMIT = 200
"""The longest speaker name or user, in characters: a name is part of a key (see :data:`KEY_LIMIT`;
a user opens every key of theirs, :mod:`graphmem.store.users`), and the vocative reader matches every
prefix of a speaker's name (a cost that grows with the square of its length)."""

_LIMITS = {"id": KEY_LIMIT, "conversation": KEY_LIMIT, "speaker": SPEAKER_LIMIT, "user": SPEAKER_LIMIT}

KEYS = ("id", "speaker", "text", "date", "conversation", "user", "turn", "metadata", "time")
"""Every key a record may have (``time``: an older name of ``date``; ``metadata``: a flat map kept with
the turn). Any other is refused: a misspelt ``usr`` or ``converstion`` would otherwise be dropped
without a word, and a private turn land in the shared partition of the records without a user."""


def validate(records: Iterable[Mapping[str, Any] | Turn], source: str | Sequence[str] = "record") -> list[Turn]:
    """Check every record before any is kept: one bad record means none are ingested. A record
    that repeats an earlier one's id with the same content is dropped (it is that turn again); with
    other content it is refused. A :class:`graphmem.domain.Turn` is checked as its record is."""
    return [turn for _, turn in placed(records, source)]


def placed(records: Iterable[Mapping[str, Any] | Turn], source: str | Sequence[str] = "record") -> list[tuple[object, Turn]]:
    """:func:`validate`, each turn with its place (``str()`` names it: ``record 3 (id 'x')``, or,
    when ``source`` names each record's place, ``file: line 3 (id 'x')``), for a caller that may
    still refuse one (a store holding its id with other content)."""
    places = (_Place(source, n, as_record(rec) if isinstance(rec, Turn) else rec) for n, rec in enumerate(records))
    return _unique((where, where.rec) for where in places)


def _unique(places: Iterable[tuple[object, Any]]) -> list[tuple[object, Turn]]:
    """Each (place, record) validated in order, a repeated id dropped when it holds the same
    and refused, naming its place, when it does not."""
    seen: dict[tuple[str | None, str], Turn] = {}
    out = []
    for where, rec in places:
        turn = _record(rec, where)
        earlier = seen.get((turn.user, turn.id))  # an id is unique within its user's turns
        if earlier is None:
            seen[(turn.user, turn.id)] = turn
            out.append((where, turn))
        elif not same(earlier, turn):
            raise DataError(f"{where}: duplicate id {turn.id!r} with other content than an earlier record's")
    return out


def same(a: Turn, b: Turn) -> bool:
    """Whether two turns hold the same record: what a repeated id may hold without being refused."""
    return (a.id, a.speaker, a.text, a.date, a.conversation, a.number, a.user, a.metadata) == \
        (b.id, b.speaker, b.text, b.date, b.conversation, b.number, b.user, b.metadata)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Control characters: no name (an id, a conversation, a user, a speaker) holds one."""


def name_argument(value: object, what: str) -> str:
    """A name a memory's verb is given (a user, a conversation, an id), held to a record's rule for
    it: a non-empty string without control characters, no longer than a record's (a user
    :data:`SPEAKER_LIMIT`, an id or conversation :data:`KEY_LIMIT`). Why the verbs check it too: the
    stores key a user's turns with a control character (:mod:`graphmem.store.users`), so a hand-made key
    given for another argument would reach that user's turns; and a name no record may hold is refused
    alike by every verb, not answered as a partition that is merely empty."""
    if not isinstance(value, str) or not value.strip():
        shown = repr(value) if isinstance(value, str) else type(value).__name__
        raise DataError(f"{what} must be a non-empty string, not {shown}")
    limit = _LIMITS.get(what.lstrip("-").removeprefix("an ").removeprefix("a "), KEY_LIMIT)
    if len(value) > limit:
        raise DataError(f"{what} is {len(value)} characters long, more than {limit} (every store keys by it)")
    if _CONTROL.search(value):
        raise DataError(f"{what} {value!r} holds a control character")
    return value


def _text(rec: Mapping[str, Any], key: str, where: object, name: bool = True) -> str:
    """A string field: present, a string, not blank (unless ``empty``), no longer than its limit
    (:data:`KEY_LIMIT`, :data:`SPEAKER_LIMIT`; a text has none), valid Unicode (a lone surrogate
    cannot be written as UTF-8, so no store could keep it), and, for a ``name``, free of control
    characters (the stores mark a user's keys with one)."""
    if key not in rec:
        raise DataError(f"{where}: missing {key!r}")
    value = rec[key]
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}: {key!r} must be a non-empty string")
    limit = _LIMITS.get(key)
    if limit is not None and len(value) > limit:
        raise DataError(f"{where}: {key!r} is {len(value)} characters long, more than {limit} (every store keys by it)")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise DataError(f"{where}: {key!r} is not valid Unicode (a lone surrogate at character {e.start})") from None
    if name and _CONTROL.search(value):
        raise DataError(f"{where}: {key!r} holds a control character")
    return value


_KNOWN = frozenset(KEYS)


def unknown_key(keys: Iterable[object], known: Sequence[str] = KEYS) -> str | None:
    """The first key not in ``known``, said with the nearest known one when it is near
    (``unknown key 'usr' (did you mean 'user'?)``), or None when every key is known."""
    for key in keys:
        if key not in known:
            near = get_close_matches(str(key), known, n=1, cutoff=0.6)
            return f"unknown key {_short(key)}" + (f" (did you mean {near[0]!r}?)" if near else "")
    return None


def visible(value: str) -> bool:
    """Whether a string shows anything: not only spaces, zero-width and other format characters
    (U+200B, U+200D, U+FEFF, U+2060), controls, or combining marks with nothing to combine with."""
    return any(not ch.isspace() and unicodedata.category(ch) not in _INVISIBLE for ch in value)


_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})


def _record(rec: Any, where: object) -> Turn:
    """One validated record."""
    if not isinstance(rec, Mapping):
        raise DataError(f"{where}: expected an object with id, speaker and text, got {type(rec).__name__}")
    if not _KNOWN.issuperset(rec) and (bad := unknown_key(rec)) is not None:
        raise DataError(f"{where}: {bad}; a record takes {', '.join(KEYS[:-1])}")
    tid, speaker = _text(rec, "id", where), _text(rec, "speaker", where)
    text = _text(rec, "text", where, name=False)
    for key, value in (("speaker", speaker), ("text", text)):
        if not value.isascii() and not visible(value):
            raise DataError(f"{where}: {key!r} shows no character (only spaces or invisible ones)")
    conv = _text(rec, "conversation", where) if "conversation" in rec else DEFAULT_CONVERSATION
    user = _text(rec, "user", where) if rec.get("user") is not None else None
    date = parse_date(rec.get("date", rec.get("time")), where)
    turn = rec.get("turn")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < TURN_LIMIT):
        raise DataError(f"{where}: 'turn' must be a whole number from 0 to 2**63 - 1 (the turn's number in its conversation)")
    metadata = checked_metadata(rec.get("metadata"), where)
    return Turn(tid, speaker.strip(), text, date, conv, turn, user=user, metadata=metadata)


def as_record(turn: Turn) -> dict[str, Any]:
    """A turn as the record a memory ingests (the inverse of validation): what a caller that holds
    turns hands ``Memory.ingest``."""
    return {"id": turn.id, "speaker": turn.speaker, "text": turn.text, "date": turn.date,
            "conversation": turn.conversation, "turn": turn.number, "user": turn.user, "metadata": turn.metadata}


def read_jsonl(path: str | Path) -> list[Turn]:
    """Turn records from a JSON Lines file, one object per line, all validated before any is used
    (a repeated id: as :func:`validate` judges it, the place named by its line)."""
    return [turn for _, turn in read_jsonl_placed(path)]


def read_jsonl_placed(path: str | Path) -> list[tuple[str, Turn]]:
    """:func:`read_jsonl`, each turn with the place it was read from (``file: line N``)."""
    return [(str(where), turn) for where, turn in _unique((f"{path}: line {n}", rec) for n, rec in jsonl.rows(path))]
