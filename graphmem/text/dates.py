"""Dates in text: the one month table, the expressions that place a thing in time, and
the questions that ask when or how long.

One table (:data:`MONTHS`, :data:`MONTH_NUMBERS`) serves every reader of dates: LoCoMo's
session stamps (:func:`graphmem.data.locomo.parse_session_date`), the reader's relative
dates, the dates a query names, the Chinese month numbers glossed into English and the days and
months never taken for a name (:data:`graphmem.text.lexicon.NOT_NAMES`).

Two families of expressions live here, and they do not accept the same things:

* **relative expressions** a turn uses ("yesterday", "two weeks ago", "last Friday",
  "back in May", "in 2022"), read by :func:`resolve_date`, :func:`days_spoken_of` and
  :func:`says_when`. Months are full names only (:data:`MONTH_NAMES`), after a
  preposition; years are 19xx or 20xx;
* **calendar dates** a query names ("19 August, 2023", "Aug 2023", "2023-08-19",
  "2023年8月19日"), read by :func:`dates_in`. Months are full names or three letters
  (:data:`MONTH_NAMES_OR_ABBREVIATIONS`), any four-digit year.

The difference is kept, each family named, because every figure the bench and the memory
print was measured with these expressions as they are: one family for both would change
what matches.

The date a text is about is not the date it was written: "yesterday" in a session of
8 May 2023 is 7 May 2023. Everything relative is resolved against the day it was said.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable, Iterable
from datetime import MAXYEAR, MINYEAR, date, datetime, timedelta

__all__ = [
    "ANSWER_TYPES",
    "MONTHS",
    "MONTH_NAMES",
    "MONTH_NAMES_OR_ABBREVIATIONS",
    "MONTH_NUMBERS",
    "Span",
    "WEEKDAYS",
    "ZH_DAY",
    "ZH_MONTH",
    "ZH_YEAR",
    "answer_type",
    "dates_in",
    "day",
    "days_asked_about",
    "days_spoken_of",
    "is_when",
    "month_span",
    "resolve_date",
    "says_how_long",
    "says_when",
    "time_marks",
]

# ---------------------------------------------------------------- the month table

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
"""The month names, lower case, in calendar order (``MONTHS[0]`` is January)."""

MONTH_NUMBERS = {name: i for i, full in enumerate(MONTHS, start=1) for name in (full, full[:3])}
"""Month number (1-12) by full name or three-letter abbreviation, lower case."""

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The weekday names, lower case, in :meth:`datetime.date.weekday` order."""

MONTH_NAMES = "|".join(MONTHS)
"""Regex alternation of the full month names (the relative expressions)."""

MONTH_NAMES_OR_ABBREVIATIONS = MONTH_NAMES + "|" + "|".join(m[:3] for m in MONTHS)
"""Regex alternation of the full month names, then their three letters (the calendar dates)."""

Span = tuple[date, date]
"""A run of days, first and last included."""

# ---------------------------------------------------------------- questions

_WHEN = re.compile(r"^\s*when\b|\bwhat (?:year|month|date|day|time of year)\b|\bwhich (?:year|month|day)\b|\bhow long ago\b", re.I)
_HOW_LONG = re.compile(r"^\s*how long\b(?! ago)|\bfor how long\b", re.I)
_WHEN_ZH = re.compile("什么时候|何时|哪天|哪一天|哪年|哪一年|多久以前|多久前")
_HOW_LONG_ZH = re.compile("多久|多长时间")


def is_when(question: str) -> bool:
    """A question asking for a date or a time, read off its wording alone."""
    return bool(_WHEN.search(question))


def answer_type(question: str) -> str | None:
    """The type of answer a question asks for, off its wording: ``when`` (:func:`is_when`,
    or 什么时候 / 何时 / 哪天 / 哪一年 in a Chinese query), ``how long`` ("How long has ...",
    "for how long", 多久 / 多长时间), else None."""
    if is_when(question) or _WHEN_ZH.search(question):
        return "when"
    if _HOW_LONG.search(question) or _HOW_LONG_ZH.search(question):
        return "how long"
    return None


# ---------------------------------------------------------------- relative expressions

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3}
"""The number words a date or a duration is counted in; one table for both."""
_NUM = "(" + "|".join([r"\d+", *sorted(_NUMBERS, key=len, reverse=True)]) + ")"
_WEEKDAY_NAMES = "|".join(WEEKDAYS)


# What resolve_date reads, and says_when looks for.
_YESTERDAY = re.compile(r"\b(yesterday|last night)\b")
_AGO = re.compile(rf"\b{_NUM} (day|week|month|year)s? ago\b")
_NEAR = re.compile(r"\b(last|this past|next) (week|weekend|month|year|summer|winter|spring|fall)\b")
_WEEKDAY = re.compile(rf"\b(?:last|this past|on|this) ({_WEEKDAY_NAMES})\b")
_IN_MONTH = re.compile(rf"\b(?:in|back in|since|during|last) ({MONTH_NAMES})\b(?! \d)")
_IN_YEAR = re.compile(r"\b(?:in|since|back in) ((?:19|20)\d\d)\b")
_AHEAD = re.compile(r"\b(tomorrow|tonight)\b")
_RELATIVE = re.compile("|".join(f"(?:{p.pattern})"
                                for p in (_YESTERDAY, _AGO, _NEAR, _WEEKDAY, _IN_MONTH, _IN_YEAR, _AHEAD)))
"""Any one of the seven: one scan of a text rather than seven, and most texts hold none of them.
An expression added here needs a word of it in :data:`_RELATIVE_WORDS` too."""
_RELATIVE_WORDS = ("yesterday", "last", "ago", "next", "past", "tomorrow", "tonight", *WEEKDAYS, *MONTHS, "19", "20")
"""A word every match of :data:`_RELATIVE` holds: looking for them is cheaper than the scan (whose
every alternative starts at a word boundary, so the engine tries each at every position), and most
texts hold none (docs/memory.md, "Figures behind the code")."""
_DURATION_UNITS = ("day", "week", "month", "year", "hour", "minute")
"""The units, one of which every match of :data:`_DURATION` holds (as for :data:`_RELATIVE_WORDS`)."""
_RELATIVE_WHOLE = frozenset(_RELATIVE_WORDS) - {"19", "20"}
_DURATION_WHOLE = frozenset(u + plural for u in _DURATION_UNITS for plural in ("", "s"))
"""The same tests as whole words, for a text whose words are known (``[a-z0-9]+`` runs of the
lower-cased text): in every expression these words stand between word boundaries, so each
match holds one of them as a whole run; a year starts "19" or "20", asked of the text."""
_BARE_THIS = re.compile(r"this (?!past )")
_DURATION = re.compile(rf"\b(?:{_NUM}|several) (?:day|week|month|year|hour|minute)s?\b")


def day(d: datetime) -> str:
    """A date as LoCoMo's answers write it: ``7 May 2023``."""
    return f"{d.day} {d:%B} {d.year}"


def resolve_date(sentence: str, said: datetime) -> str:
    """The date a sentence refers to, resolved against the day it was said.

    Relative words are read against the session date: "yesterday" in a session of
    8 May 2023 is 7 May 2023, "last week" is the week before it, "back in October" is
    the October before May. With no such word, the session date itself is the answer.
    """
    s = sentence.lower()
    try:
        return _resolved(s, said)
    except (OverflowError, ValueError):  # a day outside the calendar: say it as written, against the day said
        m = _RELATIVE.search(s)
        return f"{m.group(0)}, as said on {day(said)}" if m else day(said)


def _resolved(s: str, said: datetime) -> str:
    """:func:`resolve_date` of a lower-cased sentence (a day outside the calendar raises)."""
    m = _YESTERDAY.search(s)
    if m:
        return day(said - timedelta(days=1))
    m = _AGO.search(s)
    if m:
        n, unit = _NUMBERS.get(m.group(1), None) or int(m.group(1)), m.group(2)
        if unit == "day":
            try:
                return day(said - timedelta(days=n))
            except OverflowError:  # before the calendar's first day: say it as written
                return f"{m.group(1)} days before {day(said)}"
        if unit == "week":
            return f"{m.group(1)} week{'s' if n > 1 else ''} before {day(said)}"
        if unit == "month":
            return _month_shift(said, -n)
        return str(_year(said.year - n))
    m = _NEAR.search(s)
    if m:
        return _relative(m.group(1), m.group(2), said)
    m = _WEEKDAY.search(s)
    if m:
        return f"the {m.group(1)} before {day(said)}"
    m = _IN_MONTH.search(s)
    if m:
        return f"{m.group(1).capitalize()} {_last(m.group(1), said)[0]}"
    m = _IN_YEAR.search(s)
    if m:
        return m.group(1)
    return day(said)


def days_spoken_of(text: str, said: datetime) -> list[Span]:
    """The days a turn speaks of, besides the day it was said: every relative expression
    :func:`resolve_date` reads, as a span of days. So a question naming a date can find
    the turn that tells of that day a day later ("I went bowling yesterday"): the date
    a text is about is not the date it was written (its focus time, as temporal
    retrieval calls it).

    Spans: "yesterday" / "last night" the day before; "N days ago" that day; "N weeks
    ago" and "last week" the seven days around that day a week (or N) back, "next week"
    the same ahead; "last weekend" the Saturday and Sunday before; "last Friday" the
    last Friday before, and so are "this past Friday" and "on Friday" (a turn telling
    of a weekday mostly tells of the one gone by; "this Friday" is left out); "N months
    ago", "last / next month" and "back in May" the whole month; "N years ago", "last
    year" and "in 2022" the whole year; "tomorrow" the day after. N is a number or a
    number word up to ten. Seasons are left out (no agreed days).
    """
    s = text.lower()
    return _days_of(s, said.date()) if _says_relative(s) else []


def time_marks(text: str, said: datetime | None, kinds: Iterable[str],
               words: Iterable[str] | None = None) -> tuple[list[Span], tuple[str, ...]]:
    """What an index reads of time in a turn: the days it speaks of (:func:`days_spoken_of`;
    none without ``said``) and which answer types of ``kinds`` it gives (:data:`ANSWER_TYPES`),
    from one lower-casing and one scan for relative expressions, since most turns hold none and
    both readings start with that scan. ``words``: the text's lower-case words
    (:func:`graphmem.text.terms.words`), when the caller has them (an index analysing the turn
    does): the tests of whether a scan can match look them up in a set rather than search the text."""
    s = text.lower()
    ws = frozenset(words) if words is not None else None
    when = _says_relative(s, ws)
    spans = _days_of(s, said.date()) if when and said is not None else []
    return spans, tuple(k for k in kinds if (when if k == "when" else _GIVES[k](s, ws)))


def _days_of(s: str, d: date) -> list[Span]:
    """:func:`days_spoken_of` of a lower-cased text said on ``d`` that holds a relative expression.
    Each scan runs only over a text holding one of its words (:data:`_SCAN_WORDS`): the same spans
    in the same order, at a fraction of the scans. A span that would fall outside the calendar
    ("tomorrow" said on its last day, "5000 years ago") is left out: a turn at the calendar's edge
    reads as any other, without that day."""
    out: list[Span] = []
    for _ in _scan(_YESTERDAY, s):
        _keep(out, lambda: (d - timedelta(days=1),) * 2)
    for m in _scan(_AGO, s):
        n = _NUMBERS.get(m.group(1)) or int(m.group(1))
        _keep(out, lambda: _back(d, n, m.group(2)))
    for m in _scan(_NEAR, s):
        which, unit = m.group(1), m.group(2)
        if unit == "weekend" and which != "next":
            _keep(out, lambda: _weekend_before(d))
        elif unit in ("week", "month", "year"):
            _keep(out, lambda: _back(d, -1 if which == "next" else 1, unit))
    for m in _scan(_WEEKDAY, s):
        if not _BARE_THIS.match(m.group(0)):  # "this Friday" may be ahead; "this past Friday" is not
            back = (d.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
            _keep(out, lambda: (d - timedelta(days=back),) * 2)
    for m in _scan(_IN_MONTH, s):
        _keep(out, lambda: month_span(*_last(m.group(1), d)))
    for m in _scan(_IN_YEAR, s):
        y = int(m.group(1))
        out.append((date(y, 1, 1), date(y, 12, 31)))
    for m in _scan(_AHEAD, s):
        if m.group(1) == "tomorrow":  # "tonight" is the day it was said
            _keep(out, lambda: (d + timedelta(days=1),) * 2)
    return out


def _keep(out: list[Span], span: Callable[[], Span]) -> None:
    """Add the span ``span()`` makes, unless it falls outside the calendar (before year 1, after 9999)."""
    try:
        out.append(span())
    except (ValueError, OverflowError):
        pass


def _weekend_before(d: date) -> Span:
    saturday = d - timedelta(days=(d.weekday() - 5) % 7 or 7)
    return saturday, saturday + timedelta(days=1)


_SCAN_WORDS: dict[re.Pattern[str], tuple[str, ...]] = {
    _YESTERDAY: ("yesterday", "night"), _AGO: ("ago",), _NEAR: ("last", "past", "next"), _WEEKDAY: ("day",),
    _IN_MONTH: MONTHS, _IN_YEAR: ("19", "20"), _AHEAD: ("tomorrow", "tonight"),
}
"""Text one of which every match of each relative expression holds."""


def _scan(pattern: re.Pattern[str], s: str) -> Iterable[re.Match[str]]:
    """``pattern``'s matches in ``s``, none looked for when ``s`` holds none of its words."""
    return pattern.finditer(s) if any(map(s.__contains__, _SCAN_WORDS[pattern])) else ()


def _back(d: date, n: int, unit: str) -> Span:
    """The span ``n`` units before ``d`` (after, for negative ``n``)."""
    if unit == "day":
        return (d - timedelta(days=n),) * 2
    if unit == "week":
        mid = d - timedelta(days=7 * n)
        return mid - timedelta(days=3), mid + timedelta(days=3)
    if unit == "month":
        return month_span(*_shifted(d, -n))
    return date(d.year - n, 1, 1), date(d.year - n, 12, 31)


def month_span(year: int, month: int) -> Span:
    """The first and last day of a month."""
    return date(year, month, 1), date(year, month, monthrange(year, month)[1])


def months_touched(a: date, b: date) -> list[tuple[int, int]]:
    """The (year, month) buckets a run of days touches, in order."""
    out, (y, m) = [], (a.year, a.month)
    while (y, m) <= (b.year, b.month):
        out.append((y, m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def says_when(text: str) -> bool:
    """Does the text place something in time? One of the expressions :func:`resolve_date`
    reads ("yesterday", "two weeks ago", "next month", "last Friday", "back in May",
    "in 2022"), or "tomorrow" / "tonight"."""
    return _says_relative(text.lower())


def says_how_long(text: str) -> bool:
    """Does the text give a duration: a number of days, weeks, months, years, hours or
    minutes ("for a month now", "three years", "a couple of weeks")?"""
    return _gives_duration(text.lower())


def _says_relative(s: str, ws: frozenset[str] | None = None) -> bool:
    """Does the lower-cased ``s`` (whose words are ``ws``, when known) hold a relative expression
    (:data:`_RELATIVE`)?"""
    if ws is None:
        maybe = any(map(s.__contains__, _RELATIVE_WORDS))
    else:
        maybe = not ws.isdisjoint(_RELATIVE_WHOLE) or "19" in s or "20" in s
    return maybe and _RELATIVE.search(s) is not None


def _gives_duration(s: str, ws: frozenset[str] | None = None) -> bool:
    """Does the lower-cased ``s`` (whose words are ``ws``, when known) give a duration (:data:`_DURATION`)?"""
    maybe = any(map(s.__contains__, _DURATION_UNITS)) if ws is None else not ws.isdisjoint(_DURATION_WHOLE)
    return maybe and _DURATION.search(s) is not None


_GIVES = {"when": _says_relative, "how long": _gives_duration}
"""Each answer type's test of a lower-cased text: :func:`says_when` and :func:`says_how_long`."""


ANSWER_TYPES = {"when": says_when, "how long": says_how_long}
"""The answer types a question can ask for, and how to tell a turn that gives one. Used by the
index (:class:`graphmem.index.live.LiveIndex`, :class:`graphmem.bench.research.ranker.Ranker`): a question's
answer type is one more query term, matched by the turns of that type (answer typing, as in question
answering since TREC-8)."""


def _shifted(d: date, n: int) -> tuple[int, int]:
    """(year, month) ``n`` months after the month of ``d`` (before, for negative ``n``)."""
    index = d.year * 12 + d.month - 1 + n
    return index // 12, index % 12 + 1


def _last(month_name: str, said: date) -> tuple[int, int]:
    """(year, month) of the named month as said on ``said``: this year's if it is not after
    the month said in, else last year's ("back in October", said in May)."""
    month = MONTH_NUMBERS[month_name]
    return (said.year if month <= said.month else said.year - 1), month


def _year(year: int) -> int:
    """A year the calendar holds (``OverflowError`` for one it does not)."""
    if not MINYEAR <= year <= MAXYEAR:
        raise OverflowError(f"year {year} is outside the calendar")
    return year


def _month_shift(said: datetime, n: int) -> str:
    year, month = _shifted(said, n)
    return f"{MONTHS[month - 1].capitalize()} {_year(year)}"


def _relative(which: str, unit: str, said: datetime) -> str:
    after = which == "next"
    if unit in ("week", "weekend"):
        return f"the {unit} {'after' if after else 'before'} {day(said)}"
    if unit == "month":
        return _month_shift(said, 1 if after else -1)
    if unit == "year":
        return str(_year(said.year + (1 if after else -1)))
    return f"{unit} {_season_year(unit, said, after)}"


_SEASON_END = {"spring": 5, "summer": 8, "fall": 11, "winter": 2}


def _season_year(season: str, said: datetime, after: bool) -> int:
    """The year of the last (or next) named season as seen from the day it was said."""
    end = _SEASON_END[season]
    if after:
        return said.year if said.month < end else said.year + 1
    return said.year if said.month > end else said.year - 1


# ---------------------------------------------------------------- calendar dates

_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({MONTH_NAMES_OR_ABBREVIATIONS})\.?(?:,\s*|\s+)(\d{{4}})\b",
                             re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b({MONTH_NAMES_OR_ABBREVIATIONS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{{4}})\b",
                             re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b({MONTH_NAMES_OR_ABBREVIATIONS})\.?,?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:\b|(?=T\d))")  # 2023-08-19, and 2023-08-19T10:00:00.5
_ZH_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?")

# Chinese units after an Arabic number, one at a time (graphmem.text.zh writes them in English).
ZH_DAY = re.compile(r"(\d{1,2})\s*[号號日]")
"""A day of the month: 11号, 11號, 11日."""
ZH_MONTH = re.compile(r"(?<!\d)(\d{1,2})\s*月(?![份]?[号號日])")
"""A month: 8月 (not 8月号, which is a day)."""
ZH_YEAR = re.compile(r"(\d{4})\s*年")
"""A year: 2023年."""


def _month(name: str) -> int:
    """The number of a month matched by :data:`MONTH_NAMES_OR_ABBREVIATIONS` (any case)."""
    return MONTH_NUMBERS[name.lower()[:3]]


def dates_in(text: str) -> list[tuple[int, int, int | None]]:
    """Calendar dates a query names, as (year, month, day or None for a whole month).

    Reads "19 August, 2023", "8th December, 2023", "June 26, 2023", "August 2023",
    "2023-08-19" and "2023年8月19日"; relative dates ("last week") are not dates here.

    >>> dates_in("What did Sam share on 19 August, 2023 and in May 2022?")
    [(2023, 8, 19), (2022, 5, None)]
    """
    found: list[tuple[int, tuple[int, int, int | None]]] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, y: int, mo: int, d: int | None) -> None:
        if any(a < m.end() and m.start() < b for a, b in taken):
            return
        if not (1 <= mo <= 12) or not MINYEAR <= y <= MAXYEAR or (d is not None and not _valid(y, mo, d)):
            return
        taken.append((m.start(), m.end()))
        found.append((m.start(), (y, mo, d)))

    for m in _DAY_MONTH_YEAR.finditer(text):
        add(m, int(m.group(3)), _month(m.group(2)), int(m.group(1)))
    for m in _MONTH_DAY_YEAR.finditer(text):
        add(m, int(m.group(3)), _month(m.group(1)), int(m.group(2)))
    for m in _ISO.finditer(text):
        add(m, int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for m in _ZH_DATE.finditer(text):
        add(m, int(m.group(1)), int(m.group(2)), int(m.group(3)) if m.group(3) else None)
    for m in _MONTH_YEAR.finditer(text):
        add(m, int(m.group(2)), _month(m.group(1)), None)
    return [d for _, d in sorted(found)]


def _valid(y: int, mo: int, d: int) -> bool:
    try:
        date(y, mo, d)
    except ValueError:
        return False
    return True


def days_asked_about(query: str, asked_on: datetime | None = None) -> list[Span]:
    """The runs of days a query asks about: each date it names (that day, or that whole month),
    and, when the moment it is asked is known, the days its relative expressions speak of
    ("10 days ago", "last Saturday", "a month ago"), read as :func:`days_spoken_of` reads a
    turn. Why the moment: "last week" is a different week for each asker, so without it a
    relative expression names no day at all (and is no date here).

    >>> days_asked_about("What did I buy 10 days ago?", datetime(2023, 3, 25))
    [(datetime.date(2023, 3, 15), datetime.date(2023, 3, 15))]
    """
    spans = [((date(y, m, d),) * 2) if d else month_span(y, m) for y, m, d in dates_in(query)]
    if asked_on is not None:  # a day both named and spoken of ("in May", asked in June) counts once
        spans += [s for s in dict.fromkeys(days_spoken_of(query, asked_on)) if s not in spans]
    return spans
