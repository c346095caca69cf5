"""The memory's records: one validated dialogue turn each, read from dicts or JSON Lines.

They sit below the memory and the Neo4j store because both take them: the store writes what
the memory validated, and neither should import the other to know what a turn is.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.data import jsonl
from graphmem.data.locomo import Conversation, Session, Turn, parse_session_date
from graphmem.errors import DataError

DEFAULT_CONVERSATION = "default"


@dataclass(frozen=True, slots=True)
class Record:
    """One validated dialogue turn."""

    id: str
    speaker: str
    text: str
    date: datetime | None
    conversation: str
    turn: int | None = None
    """The turn's number in its conversation, when the source numbers its turns: a gap
    between two records' numbers says the turn before is missing (see ``_contexts``)."""


_DATE_FORMATS = ("%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%I:%M %p on %A %d %B, %Y",
                 "%Y/%m/%d %H:%M", "%Y/%m/%d")

_ISO_FORM = re.compile(r"\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d)?| \d\d:\d\d:\d\d)?$")
"""Exactly the ISO forms of ``_DATE_FORMATS`` with two-digit fields, which ``datetime.fromisoformat``
reads as ``strptime`` does (a zone or a fraction of a second is not of this form: still refused)."""

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_WEEKDAY = re.compile(r"^(\d{4}/\d{1,2}/\d{1,2}) \((" + "|".join(_DAYS) + r")\)( \d{1,2}:\d{2})?$")
"""LongMemEval's ``2023/05/20 (Sat) 02:21``: the weekday in brackets is read apart (``%a`` would
follow the locale) and must be the date's own, so a garbled date is refused, not misread."""


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

    def __init__(self, source: str, n: int, rec: Any):
        self.source, self.n, self.rec = source, n, rec

    def __str__(self) -> str:
        rec = self.rec
        return f"{self.source} {self.n}" + (f" (id {rec.get('id')!r})" if isinstance(rec, Mapping) and "id" in rec else "")


class _Seen:
    """The ids already held and those met so far in this batch, without copying the held ones
    (a memory ingesting one turn must not pay for every id it holds)."""

    def __init__(self, known: Collection[str]):
        self.known, self.new = known, set()

    def __contains__(self, key: object) -> bool:
        return key in self.new or key in self.known

    def add(self, key: str) -> None:
        self.new.add(key)


def validate(records: Iterable[Mapping[str, Any]], known: Collection[str] = frozenset(),
             source: str = "record") -> list[Record]:
    """Check every record before any is kept: one bad record means none are ingested."""
    seen = _Seen(known)
    out = []
    for n, rec in enumerate(records):
        out.append(_record(rec, _Place(source, n, rec), seen))
    return out


def _record(rec: Any, where: object, seen: set[str] | _Seen) -> Record:
    """One validated record; ``seen`` collects ids so duplicates are refused."""
    if not isinstance(rec, Mapping):
        raise DataError(f"{where}: expected an object with id, speaker and text, got {type(rec).__name__}")
    for key in ("id", "speaker", "text"):
        if key not in rec:
            raise DataError(f"{where}: missing {key!r}")
        if not isinstance(rec[key], str) or (key != "text" and not rec[key].strip()):
            raise DataError(f"{where}: {key!r} must be a non-empty string")
    conv = rec.get("conversation", DEFAULT_CONVERSATION)
    if not isinstance(conv, str) or not conv:
        raise DataError(f"{where}: 'conversation' must be a non-empty string")
    if rec["id"] in seen:
        raise DataError(f"{where}: duplicate id {rec['id']!r}")
    seen.add(rec["id"])
    date = parse_date(rec.get("date", rec.get("time")), where)
    turn = rec.get("turn")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int) or turn < 0):
        raise DataError(f"{where}: 'turn' must be a whole number >= 0 (the turn's number in its conversation)")
    return Record(rec["id"], rec["speaker"].strip(), rec["text"], date, conv, turn)


def read_jsonl(path: str | Path) -> list[Record]:
    """Turn records from a JSON Lines file, one object per line, all validated before any is used."""
    seen: set[str] = set()
    return [_record(rec, f"{path}: line {n}", seen) for n, rec in jsonl.rows(path)]


def conversations(records: Sequence[Record]) -> list:
    """Records as LoCoMo-shaped conversations, so claims are read by the bench's own code.

    One conversation per ``conversation`` id, in first-seen order; a session per
    calendar day (records without a date share one undated session, dated today);
    turns in the order given. The reader is built for two-party dialogue, so a
    conversation must have exactly two speakers.
    """
    grouped: dict[str, list[Record]] = {}
    for r in records:
        grouped.setdefault(r.conversation, []).append(r)
    out = []
    for conv_id, rows in grouped.items():
        speakers = list(dict.fromkeys(r.speaker for r in rows))
        if len(speakers) != 2:
            raise DataError(f"conversation {conv_id!r}: graphmem reads two-party dialogue, and this one has "
                            f"{len(speakers)} speaker{'s' if len(speakers) != 1 else ''} ({', '.join(speakers)})")
        days: dict[object, list[Record]] = {}
        for r in rows:
            days.setdefault(r.date.date() if r.date else None, []).append(r)
        sessions, by_id = [], {}
        for n, (day, day_rows) in enumerate(days.items(), start=1):
            date = day_rows[0].date or datetime.now().replace(microsecond=0)
            turns = tuple(Turn(r.id, r.speaker, r.text, n, r.date or date) for r in day_rows)
            by_id.update((t.dia_id, t) for t in turns)
            sessions.append(Session(n, date, f"{date:%I:%M %p on %d %B, %Y}", turns))
        out.append(Conversation(conv_id, (speakers[0], speakers[1]), tuple(sessions), (), by_id))
    return out


