"""A reply a person can read: one contiguous phrase of one cited turn, and the sentence it came from.

The bench's reader (:mod:`graphmem.answer.reader`) keeps a sentence's rarest words, which is
what LoCoMo's token F1 rewards, and so reads as fragments stitched together ("Well go,
adoption agencies home kids"). This reader quotes. It reads the turns found in their order,
from the first: the one the search put first and the confidence judged, and the one a later
turn that replaced an earlier one stands as ("I moved from Paris to Berlin" first: Berlin, not
Paris). A turn whose sentence covering the most of the question adds nothing to it asks the
question back, and the reader abstains there, as the bench's reader does; a turn that says
only empty words ("I'm off to go do some research") gives way to the next. In the turn, the
statement covering the most of the question; in that sentence, the phrase the question lacks:

* a **slot** of the type the question asks for, when the sentence has one: for where, the
  noun phrase after "in", "at" or "to" ("to Berlin"; never the place left "from"), or a name;
  for a name asked, a name; for how many, how much or how old, a number and what it counts
  ("three dogs"); for how long, a number of days, weeks or years; for who, a name or a relation
  ("aunt"); for why, the clause after "because" or "so"; and for a question ending in a
  preposition ("What does she work as?"), the noun phrase after that preposition alone;
* otherwise, within one clause, the densest run of words the question did not say: each such
  word scores its rarity less ``SHARE`` of the sentence's mean rarity, a word the question said
  scores minus the mean, a function or empty word nothing, so that rare new words join across
  a common one and a word the question said cuts them apart; the run is then widened to whole
  compounds ("major challenge"; "Hawaiian pizza", though the question said pizza).

A reply is a substring of the turn's text, verbatim. A when-question is answered as the bench's
reader answers it: the date read off the session, relative words resolved
(:func:`graphmem.text.dates.resolve_date`). What it costs and gives against the bench's reader
on LoCoMo: docs/memory.md, "Replies a person can read" (``python bench/readable_replies.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from graphmem.answer.reader import Hit, best_sentences
from graphmem.domain import ABSTAIN
from graphmem.text.dates import is_when, resolve_date
from graphmem.text.lemma import IRREGULAR
from graphmem.text.lexicon import (
    ADVERBS, BE, CLOSED, DO, GREET, HAVE, INTERJ, MODAL, NEG, NOT_NAMES, PREP, RELATIONS, TIME_ADV, TIME_DET,
    TIME_NOUNS, wordset,
)
from graphmem.text.sentences import sentences, straight
from graphmem.text.spelling import american
from graphmem.text.terms import analyse, content, stem

__all__ = ["Reading", "Weights", "read"]

SHARE = 0.75
"""What a new word pays of the sentence's mean rarity to join a run: below 1, so a sentence's
rarest word always gains; the lower, the longer the runs."""

LONGEST = 40
"""The most tokens a reply's run may span. A reply is a phrase a person reads; and without a bound
the search for the best run grows with the square of a clause's length (a turn of a megabyte with
no clause break would take an hour)."""


@dataclass(frozen=True)
class Reading:
    """What the reader read: the reply, the sentence it came from and the turn that said it."""

    reply: str
    sentence: str = ""
    source: str = ""
    dated: bool = False
    """The reply is a date read off the session (a when-question), not a quote."""


class Weights(Protocol):
    """What the reader needs of a vocabulary: the weights of known terms, and any term's rarity."""

    def weights(self, terms: Sequence[str]) -> dict[str, float]: ...

    def weight(self, term: str) -> float: ...


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    low: str
    stems: tuple[str, ...]
    """The stems of its content parts ("low-impact": low, impact); () for a function word."""


@dataclass(frozen=True)
class _Asked:
    """What a question asks for: its terms with their weights, the answer's type, and the
    preposition it ends on ("What is it a reminder of?": of), if any."""

    terms: dict[str, float]
    kind: str
    prep: str | None


_TOKEN = re.compile(r"\d+(?:[,.]\d+)+|\w+(?:[-'’:./&]\w+)*|[^\w\s]")  # "340,000" and "2.5" are one number
_PARTS = re.compile(r"[a-z0-9]+")
_FUNCTION = CLOSED | BE | HAVE | DO | MODAL | NEG
_EMPTY = (ADVERBS | TIME_ADV | INTERJ | GREET | TIME_NOUNS | TIME_DET | {f"{w}s" for w in TIME_NOUNS}
          | wordset("ago thing things stuff lot lots bit kind sort way meantime note sound sounds looks seems guess bet"
                    " go goes going went gone get gets getting got gotten off"))
"""Words that say nothing of what is asked: never the edge of a reply, and no gain to a run."""
_NUMBER_WORDS = wordset("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                        "twenty thirty forty fifty hundred thousand million dozen couple few several both")
_UNITS = wordset("day week month year hour minute decade")
_CURRENCY = frozenset("$£€¥")
_PEOPLE = RELATIONS | wordset("auntie mommy daddy grandparents family team")
_PLACE_PREPS = wordset("in at to into near around across through toward towards inside outside")
_BREAKS = wordset("but because cause although though while whereas whenever when if unless which who")
_SUBJECTS = wordset("i we you he she they it there that this")
_JOINERS = wordset("and or")
_REASONS = wordset("because since cause so")
_NP_FUNCTION = wordset("a an the my our your his her their its this that these those some any no of 's & and or")
_STOPS = frozenset(",.;:!?()[]{}\"…–—-/")
_KINDS = (
    ("why", re.compile(r"^\s*why\b")),
    ("where", re.compile(r"\bwhere\b|\b(?:which|what) (?:us )?(?:city|country|state|town|place)\b")),
    ("name", re.compile(r"\bnames? of\b|\bcalled\b|\bnamed\b")),
    ("number", re.compile(r"\bhow (?:many|much|old)\b")),
    ("who", re.compile(r"^\s*(?:who|whom|whose)\b|\bwith whom\b")),
    ("duration", re.compile(r"^\s*how long\b(?! ago)|\bfor how long\b")),
)


def read(question: str, hits: Sequence[Hit], vocab: Weights) -> Reading:
    """The reply to ``question`` off ``hits`` (best first): a phrase of the first turn that answers,
    a date, or an abstention (a turn asks the question back before any answers, or none answers)."""
    if not hits:
        return Reading(ABSTAIN)
    terms = vocab.weights(analyse(question))
    if is_when(question):  # the bench's reader's date: the sentence covering most of the question, of any hit
        _, sentence, hit = max(best_sentences(terms, hits), key=lambda s: s[0])
        return Reading(resolve_date(sentence, hit.date), _verbatim(hit.text, sentence), hit.dia_id, True)
    asked = _asked(question, terms)
    for hit in hits:
        where, echo = _best_sentence(hit.text, asked)
        if echo:  # the turn asks the question back: no answer here, and none after it is as near
            return Reading(ABSTAIN)
        if where is None:
            continue
        span = _phrase(hit.text, where, asked, vocab.weight)
        if span is not None:
            return Reading(hit.text[span[0]:span[1]], hit.text[where[0]:where[1]], hit.dia_id)
    return Reading(ABSTAIN)


def _asked(question: str, terms: dict[str, float]) -> _Asked:
    """The question read for its answer's type, off its wording: where, name, number, duration,
    who, why, or what (anything else)."""
    low = question.lower()
    kind = next((name for name, pattern in _KINDS if pattern.search(low)), "what")
    words = _PARTS.findall(low)
    return _Asked(terms, kind, words[-1] if words and (words[-1] in PREP or words[-1] == "as") else None)


@lru_cache(maxsize=65536)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where each sentence of ``text`` stands in it (:func:`graphmem.text.sentences.sentences`
    joins a broken line and straightens quotes: each is found again as written)."""
    flat, out, at = straight(text), [], 0
    for s in sentences(text):
        m = re.compile(r"\s+".join(map(re.escape, s.split()))).search(flat, at)
        if m:
            out.append((m.start(), m.end()))
            at = m.end()
    return tuple(out) or ((0, len(text)),)


def _verbatim(text: str, sentence: str) -> str:
    """``sentence`` (as :func:`graphmem.text.sentences.sentences` gives it) as written in ``text``."""
    m = re.compile(r"\s+".join(map(re.escape, sentence.split()))).search(straight(text))
    return text[m.start():m.end()] if m else sentence


@lru_cache(maxsize=131072)
def _tokens(text: str, start: int, end: int) -> tuple[_Token, ...]:
    """The tokens of ``text[start:end]`` with where each stands in ``text`` (a curly quote is
    straightened in place: one character for one, so every offset holds)."""
    out = []
    for m in _TOKEN.finditer(straight(text), start, end):
        low = m.group().lower()
        stems = tuple(stem(american(p)) for p in _PARTS.findall(low.split("'")[0]) if content(p) and p not in _FUNCTION)
        out.append(_Token(m.start(), m.end(), low, stems))
    return tuple(out)


def _said(t: _Token, asked: _Asked) -> bool:
    """Whether the question said the word, in any of its forms ("hid" is "hide")."""
    return any(s in asked.terms for s in t.stems) or stem(IRREGULAR.get(t.low, t.low)) in asked.terms


def _best_sentence(text: str, asked: _Asked) -> tuple[tuple[int, int] | None, bool]:
    """Where the sentence to quote stands in ``text`` (None: none), and whether the turn only asks
    the question back (its sentence covering the most of the question adds no word to it, as the
    bench's reader finds nothing to say there). The sentence: of the statements adding a word the
    question did not say, the one covering the most question weight (ties: the first)."""
    best, where, echo = 0.0, None, (0.0, True)
    for start, end in _spans(text):
        toks = _tokens(text, start, end)
        said = {s for t in toks for s in t.stems}
        cover = sum(w for term, w in asked.terms.items() if term in said)
        adds = any(not _said(t, asked) for t in toks if t.stems)
        if cover > echo[0]:
            echo = (cover, adds)
        if adds and not text[start:end].rstrip().endswith("?") and (where is None or cover > best):
            best, where = cover, (start, end)
    return where, not echo[1]


def _clauses(toks: Sequence[_Token]) -> list[tuple[int, int]]:
    """Token ranges of the clauses of a sentence: cut at punctuation, at a conjunction that opens
    a clause ("but", "because", "which"), and at "and" or "or" before a subject ("and I")."""
    out, first = [], 0
    for i, t in enumerate(toks):
        if t.low in _STOPS or t.low in _BREAKS or (
                t.low in _JOINERS and i + 1 < len(toks) and toks[i + 1].low in _SUBJECTS):
            if i > first:
                out.append((first, i))
            first = i + 1
    if first < len(toks):
        out.append((first, len(toks)))
    return out


def _phrase(text: str, sentence: tuple[int, int], asked: _Asked,
            weight: Callable[[str], float]) -> tuple[int, int] | None:
    """Where the reply stands in ``text``: the best slot of the asked type in ``sentence``, else
    within one clause the run of words with the most gain (:func:`_gain`); widened to whole
    compounds. None when no word of the sentence gains."""
    toks = _tokens(text, *sentence)
    new = [weight(s) for t in toks if t.stems and not _said(t, asked) for s in t.stems]
    if not new:
        return None
    mean = sum(new) / len(new)
    gain = [_gain(toks, k, asked, weight, mean) for k in range(len(toks))]
    clauses = _clauses(toks)
    slots = [s for c in clauses for s in _slots(text, toks, *c, asked, asked.prep)] if asked.prep else []
    slots = slots or [s for c in clauses for s in _slots(text, toks, *c, asked, None)]
    if slots:
        i, j = max(slots, key=lambda s: sum(gain[s[0]:s[1] + 1]))  # ties: the first
        return toks[i].start, toks[j].end
    best, where = 0.0, None
    for a, b in clauses:
        for i in range(a, b):
            total = 0.0
            for j in range(i, min(b, i + LONGEST)):  # a reply is a phrase: bounded, so a huge turn stays linear
                total += gain[j]
                if gain[i] > 0 and gain[j] > 0 and total > best:
                    best, where = total, (i, j)
    if where is None:
        return None
    i, j = _widened(toks, *where, asked)
    return toks[i].start, toks[j].end


def _gain(toks: Sequence[_Token], k: int, asked: _Asked, weight: Callable[[str], float], mean: float) -> float:
    """What a token adds to a run: a word the question did not say its rarity less ``SHARE`` of
    the mean, one it said minus the mean, a function word, an empty word or a name a greeting
    addresses ("Thanks Mel") nothing."""
    t = toks[k]
    if not t.stems or t.low in _EMPTY or k > 0 and toks[k - 1].low in GREET:
        return 0.0
    if _said(t, asked):
        return -mean
    return max(weight(s) for s in t.stems) - SHARE * mean


def _slots(text: str, toks: Sequence[_Token], a: int, b: int, asked: _Asked, prep: str | None) -> list[tuple[int, int]]:
    """The token ranges of clause ``a:b`` holding what the question asks for (see the module's
    docstring), never only words the question said: with ``prep`` the noun phrases after it alone."""
    out: list[tuple[int, int]] = []
    i = a
    while i < b:
        t, end = toks[i], i + 1
        if prep is not None:
            if t.low == prep and (end := _np(toks, i + 1, b)) > i + 1:
                out.append((i + 1, end - 1))
        elif asked.kind == "where" and t.low in _PLACE_PREPS:
            end = _np(toks, i + 1, b)
            if end > i + 1:
                out.append((i, end - 1))
        elif asked.kind == "where" and t.low == "from":
            end = max(end, _np(toks, i + 1, b))  # the place left is not where one is
        elif asked.kind in ("number", "duration") and _number(t):
            end = _counted(toks, i, b)
            if asked.kind == "number" or toks[end - 1].low.rstrip("s") in _UNITS:
                out.append((i - 1 if i > a and toks[i - 1].low in _CURRENCY else i, end - 1))
        elif asked.kind in ("where", "who", "name") and _named(text, toks, i):
            while end < b and _named(text, toks, end):
                end += 1
            out.append((i, end - 1))
        elif asked.kind == "who" and t.low.split("'")[0] in _PEOPLE:
            out.append((i, i))
        i = end
    if prep is None and asked.kind == "why" and a > 0 and toks[a - 1].low in _REASONS:
        out.append((a, b - 1))
    return [(s, e) for s, e in out if any(toks[k].stems and not _said(toks[k], asked) or _number(toks[k])
                                          for k in range(s, e + 1))]


def _np(toks: Sequence[_Token], i: int, b: int) -> int:
    """Where the noun phrase from ``i`` ends (exclusive): before punctuation, a preposition, a
    conjunction, a verb-like function word or an empty word; never on a function word."""
    j = i
    while j < b:
        t = toks[j]
        if t.low in _STOPS or t.low in PREP or t.low in _BREAKS or t.low in _EMPTY:
            break
        if not t.stems and t.low not in _NP_FUNCTION:
            break
        j += 1
    while j > i and not toks[j - 1].stems:
        j -= 1
    return j


def _number(t: _Token) -> bool:
    return t.low[:1].isdigit() and t.low.replace(",", "").replace(".", "").isdigit() or t.low in _NUMBER_WORDS


def _counted(toks: Sequence[_Token], i: int, b: int) -> int:
    """Where a number from ``i`` and the word it counts end (exclusive): "three dogs", "8 years"."""
    j = i + 1
    while j < b and _number(toks[j]):
        j += 1
    if j < b and toks[j].stems and toks[j].low not in _STOPS:
        j += 1
    return j


def _named(text: str, toks: Sequence[_Token], i: int) -> bool:
    """A capitalised word inside a sentence that is no function word, day or month, nor the name
    a greeting addresses: a name."""
    t = toks[i]
    return (i > 0 and text[t.start].isupper() and t.low not in NOT_NAMES and t.low not in TIME_NOUNS
            and bool(t.stems) and toks[i - 1].low not in GREET)


def _widened(toks: Sequence[_Token], i: int, j: int, asked: _Asked) -> tuple[int, int]:
    """The run, never ending inside a compound: on the right through any content word ("Hawaiian
    pizza"), on the left through words the question did not say ("major challenge")."""
    while j + 1 < len(toks) and _word(toks[j + 1]) and j - i < 12:
        j += 1
    while i > 0 and _word(toks[i - 1]) and not _said(toks[i - 1], asked):
        i -= 1
    return i, j


def _word(t: _Token) -> bool:
    """A content word that may stand at the edge of a reply."""
    return bool(t.stems) and t.low not in _EMPTY
