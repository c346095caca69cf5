"""The readers, shared by every arm: turn returned evidence into a short extractive reply.

No model is called. ``Reply`` quotes the sentence covering most of the question, drops
the words the question already contained and keeps the rarest few (``span``); it states
a second piece of evidence only when that piece covers nearly as much (``band``), and at
most ``parts`` pieces. ``Gather`` (the ``+set`` reader) states every piece returned, so
the width of an answer is decided by the memory alone. For a when-question both read the
date off the session instead, resolving relative words ("yesterday", "last week", "back
in October") against it.

``sure`` is the confidence, computed once outside the arms and over whole turns, so it
means the same thing in every column. The reader never sees a question's category or the
arm that produced the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

import numpy as np

from graphmem.text.sentences import sentences
from graphmem.text.terms import Vocabulary, analyse, content, stem

ABSTAIN = "No information available"
"""The exact reply of a quiet arm; the official scorer credits it on adversarial questions."""


@dataclass(frozen=True)
class Hit:
    """One piece of returned evidence: the turn it cites and the text the reader may quote."""

    dia_id: str
    text: str
    date: datetime


@dataclass(frozen=True)
class Settings:
    """The reader's knobs (they barely matter; the specification sweeps them)."""

    span: int = 4
    band: float = 0.90
    parts: int = 2


# ---------------------------------------------------------------- confidence


def coverage(vocab: Vocabulary, question: str, turn_text: str | None) -> float:
    """How much of the question's weighted terms one turn accounts for, in [0, 1].

    Weighted by rarity (idf), so matching a name or a rare noun counts for more than
    matching "feel".
    """
    if turn_text is None:
        return 0.0
    asked = vocab.weights(analyse(question))
    total = sum(asked.values())
    if total == 0:
        return 0.0
    have = set(analyse(turn_text))
    return sum(w for t, w in asked.items() if t in have) / total


class Ceiling:
    """The most of a question any one turn of a conversation accounts for (its best coverage).

    Built once per conversation from the same vocabulary, so it depends on the question
    and the conversation only: never on an arm, and not on the graph (``--blind`` leaves
    it unchanged).
    """

    def __init__(self, vocab: Vocabulary, turn_texts: Sequence[str]):
        self.vocab = vocab
        self.present = (vocab.vectors(turn_texts) > 0).astype(np.float64).tocsr()

    def __call__(self, question: str) -> float:
        asked = self.vocab.weights(analyse(question))
        total = sum(asked.values())
        if total == 0 or self.present.shape[0] == 0:
            return 0.0
        w = np.zeros(self.present.shape[1])
        for term, weight in asked.items():
            w[self.vocab.index[term]] = weight
        return float((self.present @ w).max()) / total


def sure(vocab: Vocabulary, question: str, turn_text: str | None, ceiling: float | None = None) -> float:
    """The confidence in a memory's best turn, in [0, 1].

    Computed once outside the arms and over the whole turn the best hit cites, whatever
    unit the arm indexed, so it means the same thing in every column (an arm indexing
    short pieces is not made to look less sure). With ``ceiling=None`` it is the turn's
    coverage of the question (the specification's Sure, the bench's default). With the
    conversation's ceiling (:class:`Ceiling`) it is ``coverage * coverage / ceiling``,
    the absolute coverage times the relative one (``graphmem bench --confidence
    relative``). Why relative: an adversarial question asks about one person what the
    other did; a memory scoped to the named person returns that person's nearest saying,
    which often covers a third of the question, while the turn covering it best was said
    by the other person. A memory that returns the best-covering turn is not discounted.
    Measured on LoCoMo (k=5), ROC AUC of answerable against adversarial: graph 0.722 ->
    0.745, path 0.736 -> 0.760, vector 0.471 -> 0.476 (it returns the best-covering turn
    whoever said it, so it has nothing to gain); it is quieter at any one floor.
    """
    cover = coverage(vocab, question, turn_text)
    if ceiling is None:
        return cover
    return cover * cover / ceiling if ceiling > 0 else 0.0


# ---------------------------------------------------------------- dates

_WHEN = re.compile(r"^\s*when\b|\bwhat (?:year|month|date|day|time of year)\b|\bwhich (?:year|month|day)\b|\bhow long ago\b", re.I)
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3}
"""The number words a date or a duration is counted in; one table for both."""
_NUM = "(" + "|".join([r"\d+", *sorted(_NUMBERS, key=len, reverse=True)]) + ")"
_MONTH = "|".join(MONTHS)
_DAY = "|".join(WEEKDAYS)


# What resolve_date reads, and says_when looks for.
_YESTERDAY = re.compile(r"\b(yesterday|last night)\b")
_AGO = re.compile(rf"\b{_NUM} (day|week|month|year)s? ago\b")
_NEAR = re.compile(r"\b(last|this past|next) (week|weekend|month|year|summer|winter|spring|fall)\b")
_WEEKDAY = re.compile(rf"\b(?:last|this past|on|this) ({_DAY})\b")
_IN_MONTH = re.compile(rf"\b(?:in|back in|since|during|last) ({_MONTH})\b(?! \d)")
_IN_YEAR = re.compile(r"\b(?:in|since|back in) ((?:19|20)\d\d)\b")
_AHEAD = re.compile(r"\b(tomorrow|tonight)\b")
_BARE_THIS = re.compile(r"this (?!past )")
_DURATION = re.compile(rf"\b(?:{_NUM}|several) (?:day|week|month|year|hour|minute)s?\b")
_HOW_LONG = re.compile(r"^\s*how long\b(?! ago)|\bfor how long\b", re.I)
_WHEN_ZH = re.compile("什么时候|何时|哪天|哪一天|哪年|哪一年|多久以前|多久前")
_HOW_LONG_ZH = re.compile("多久|多长时间")


def is_when(question: str) -> bool:
    """A question asking for a date or a time, read off its wording alone."""
    return bool(_WHEN.search(question))


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
        return str(said.year - n)
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


Span = tuple[date, date]
"""A run of days, first and last included."""


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
    d = said.date()
    out: list[Span] = []
    for _ in _YESTERDAY.finditer(s):
        out.append((d - timedelta(days=1),) * 2)
    for m in _AGO.finditer(s):
        n = _NUMBERS.get(m.group(1)) or int(m.group(1))
        try:
            out.append(_back(d, n, m.group(2)))
        except (ValueError, OverflowError):  # "5000 years ago": before the calendar's first day
            continue
    for m in _NEAR.finditer(s):
        which, unit = m.group(1), m.group(2)
        if unit == "weekend" and which != "next":
            saturday = d - timedelta(days=(d.weekday() - 5) % 7 or 7)
            out.append((saturday, saturday + timedelta(days=1)))
        elif unit in ("week", "month", "year"):
            out.append(_back(d, -1 if which == "next" else 1, unit))
    for m in _WEEKDAY.finditer(s):
        if not _BARE_THIS.match(m.group(0)):  # "this Friday" may be ahead; "this past Friday" is not
            back = (d.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
            out.append((d - timedelta(days=back),) * 2)
    for m in _IN_MONTH.finditer(s):
        out.append(month_span(*_last(m.group(1), d)))
    for m in _IN_YEAR.finditer(s):
        y = int(m.group(1))
        out.append((date(y, 1, 1), date(y, 12, 31)))
    for m in _AHEAD.finditer(s):
        if m.group(1) == "tomorrow":  # "tonight" is the day it was said
            out.append((d + timedelta(days=1),) * 2)
    return out


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
    first = date(year, month, 1)
    nxt = date(year + month // 12, month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def says_when(text: str) -> bool:
    """Does the text place something in time? One of the expressions :func:`resolve_date`
    reads ("yesterday", "two weeks ago", "next month", "last Friday", "back in May",
    "in 2022"), or "tomorrow" / "tonight"."""
    s = text.lower()
    return any(p.search(s) for p in (_YESTERDAY, _AGO, _NEAR, _WEEKDAY, _IN_MONTH, _IN_YEAR, _AHEAD))


def says_how_long(text: str) -> bool:
    """Does the text give a duration: a number of days, weeks, months, years, hours or
    minutes ("for a month now", "three years", "a couple of weeks")?"""
    return bool(_DURATION.search(text.lower()))


ANSWER_TYPES = {"when": says_when, "how long": says_how_long}
"""The answer types a question can ask for, and how to tell a turn that gives one. Used by
:class:`graphmem.memory.rank.Ranker`: a question's answer type is one more query term, matched by
the turns of that type (answer typing, as in question answering since TREC-8)."""


def answer_type(question: str) -> str | None:
    """The type of answer a question asks for, off its wording: ``when`` (:func:`is_when`,
    or 什么时候 / 何时 / 哪天 / 哪一年 in a Chinese query), ``how long`` ("How long has ...",
    "for how long", 多久 / 多长时间), else None."""
    if is_when(question) or _WHEN_ZH.search(question):
        return "when"
    if _HOW_LONG.search(question) or _HOW_LONG_ZH.search(question):
        return "how long"
    return None


def _shifted(d: date, n: int) -> tuple[int, int]:
    """(year, month) ``n`` months after the month of ``d`` (before, for negative ``n``)."""
    index = d.year * 12 + d.month - 1 + n
    return index // 12, index % 12 + 1


def _last(month_name: str, said: date) -> tuple[int, int]:
    """(year, month) of the named month as said on ``said``: this year's if it is not after
    the month said in, else last year's ("back in October", said in May)."""
    month = MONTHS.index(month_name) + 1
    return (said.year if month <= said.month else said.year - 1), month


def _month_shift(said: datetime, n: int) -> str:
    year, month = _shifted(said, n)
    return f"{MONTHS[month - 1].capitalize()} {year}"


def _relative(which: str, unit: str, said: datetime) -> str:
    after = which == "next"
    if unit in ("week", "weekend"):
        return f"the {unit} {'after' if after else 'before'} {day(said)}"
    if unit == "month":
        return _month_shift(said, 1 if after else -1)
    if unit == "year":
        return str(said.year + (1 if after else -1))
    return f"{unit} {_season_year(unit, said, after)}"


_SEASON_END = {"spring": 5, "summer": 8, "fall": 11, "winter": 2}


def _season_year(season: str, said: datetime, after: bool) -> int:
    """The year of the last (or next) named season as seen from the day it was said."""
    end = _SEASON_END[season]
    if after:
        return said.year if said.month < end else said.year + 1
    return said.year if said.month > end else said.year - 1


# ---------------------------------------------------------------- replies

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")


@lru_cache(maxsize=65536)
def _sentences(text: str) -> tuple[str, ...]:
    """A text's sentences, split by :func:`graphmem.text.sentences.sentences` (cached: the same turns are read by every arm)."""
    return tuple(sentences(text)) or (text,)


@lru_cache(maxsize=131072)
def _tokens(sentence: str) -> tuple[tuple[str, str], ...]:
    """(surface word, stem) for each content word of a sentence, in order."""
    out = []
    for tok in _TOKEN.findall(sentence.replace("\u2019", "'")):
        low = tok.lower().split("'")[0]
        if content(low):
            out.append((tok.split("'")[0], stem(low)))
    return tuple(out)


class Reader:
    """Reply (``gather=False``) or Gather (``gather=True``) over one conversation's vocabulary."""

    def __init__(self, vocab: Vocabulary, settings: Settings = Settings(), gather: bool = False):
        self.vocab = vocab
        self.settings = settings
        self.gather = gather

    def read(self, question: str, hits: Sequence[Hit]) -> str:
        """The reply for a question given ranked evidence (the caller applies the floor)."""
        if not hits:
            return ABSTAIN
        asked = self.vocab.weights(analyse(question))
        scored = self._best_sentences(asked, hits)
        if is_when(question):
            best = max(scored, key=lambda s: s[0])
            return resolve_date(best[1], best[2].date)
        if self.gather:
            chosen = scored
        else:
            top = max(s[0] for s in scored)
            ranked = sorted(scored, key=lambda s: -s[0])
            chosen = [s for s in ranked if s[0] >= self.settings.band * top][: self.settings.parts]
        parts: list[str] = []
        for _, sentence, _ in chosen:
            part = self.trim(sentence, asked)
            if part and part not in parts:
                parts.append(part)
        return ", ".join(parts) if parts else ABSTAIN

    def _best_sentences(self, asked: dict[str, float], hits: Sequence[Hit]) -> list[tuple[float, str, Hit]]:
        """For each hit, its sentence covering the most question weight (ties: the first)."""
        out = []
        for hit in hits:
            best, best_sentence = -1.0, ""
            for sentence in _sentences(hit.text):
                stems = {s for _, s in _tokens(sentence)}
                cover = sum(w for t, w in asked.items() if t in stems)
                if cover > best:
                    best, best_sentence = cover, sentence
            out.append((best, best_sentence, hit))
        return out

    def trim(self, sentence: str, asked: dict[str, float]) -> str:
        """Drop what the question already said; keep the ``span`` rarest words in order."""
        seen: set[str] = set()
        kept: list[tuple[int, str, float]] = []
        for i, (word, s) in enumerate(_tokens(sentence)):
            if s in asked or s in seen:
                continue
            seen.add(s)
            kept.append((i, word, self.vocab.weight(s)))
        rare = sorted(kept, key=lambda x: (-x[2], x[0]))[: self.settings.span]
        return " ".join(word for _, word, _ in sorted(rare))
