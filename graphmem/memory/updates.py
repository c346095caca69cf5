"""Prefer what holds: a search asked as of a day puts a person's newest saying of what the question
asks above the earlier sayings it replaced.

Why: a memory keeps every turn, so after "I have 500 followers" and, later, "I'm now at 600
followers", both match "How many followers do I have?" and the older, often the fuller one, ranks
first. Nothing is deleted; the order changes, among the turns the search found, by two rules:

- **The question's topic.** Among the first ``window`` turns found, a turn is replaced by a later
  turn of the same speaker (said by the moment asked) that covers the question's weighted words
  at least ``cover`` times as well as it, and at least ``floor`` of them
  (:func:`graphmem.answer.sure.coverage`): the same person saying again what the question asks. The latest such turn takes the place of the first turn it
  replaced, and the replaced turns follow it. A question that asks for the earlier state
  ("initially", "previously", "before"...) is left as found, unless it asks for the present
  too ("now", "currently", a comparison: "more often than I did previously"); so is a
  when-question, which asks the date of an event rather than what holds, and a state asked as of
  an event ("when I...", :data:`_AT_EVENT`). Parts joined into a sum ("combined") replace none of
  each other.
- **The slot's value** (:mod:`graphmem.memory.slots`). A question asking a kind of value (a count,
  a clock time, a weekday, a duration) reads deeper, the first ``depth`` turns found: a turn among
  the first ``window`` that states such a value is replaced by a later turn of the same speaker
  among them (said by the moment asked) that states one too and covers the question at least
  ``value_cover`` times as well as it and at least ``value_floor`` of it. Two turns of one person
  stating the asked kind of value about the question's topic say the same slot, so the bar on
  words is lower than the topic rule's, and the newer turn is brought up from below the window.
- **The kinds of facts** (:mod:`graphmem.claims.facts`). A question asking one of the kinds
  ("Where does Alice live?": residence) reads the claims about the person it names (or the first
  person's, for "I"): a found turn whose claim of that kind was replaced by the moment asked
  gives its place to the turn whose claim holds then, found or not.

All only reorder what the search found (the kinds' rule adds the turn that holds), so what is
searched stays the store's; the rules run on the turns, the same in every store. Their cost is
kept near nothing: the question's term weights are computed once per search and a turn's terms
once per text (:class:`_Cover`), and only a question asking a kind of value reads deeper.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from functools import lru_cache

from graphmem.claims.facts import asked_kinds, holding
from graphmem.claims.people import fold
from graphmem.domain import Claim, Turn
from graphmem.index.query import said_until
from graphmem.index.shape import is_assistant
from graphmem.index.options import MemoryOptions
from graphmem.memory.asked import asker
from graphmem.memory.slots import asked_value, states
from graphmem.store.base import Weights
from graphmem.text.dates import MONTHS
from graphmem.text.terms import analyse

__all__ = ["Rules", "Updates", "prefer_current"]

_PAST = re.compile(r"\b(?:initially|originally|previously|previous|formerly|earlier|at first|first|before|used to"
                   r"|at the (?:start|beginning))\b", re.I)
_NOW = re.compile(r"\b(?:now|currently|current|these days|still|anymore|any more|than)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|i'm|i've|the user|user's)\b", re.I)
_RECKONED = re.compile(r"\b(?:did|had|ago|between|passed|since|total|combined|compared|each|will|would|when i)\b", re.I)
"""A value reckoned from events rather than one that holds ("How many days ago did I...", "How many hours
have I spent in total?", "How long had I been bird watching when I..."): no turn states it, so the turns
stating a number are no better answers than the events; the stating rule leaves such a question as found."""
_AT_EVENT = re.compile(r"(?i:\b(?:when|by the time) (?:i|we|the user)\b)"
                       r"|\b(?:" + "|".join(m.capitalize() for m in MONTHS) + r")\b(?! I\b)"
                       r"|(?i:\b(?:in|of|since|during|until|by|,)\s+(?:19|20)\d\d\b)")
"""A state asked as of an event ("How long had I been using the rug when I rearranged the furniture?") or a
date the question names ("What instrument is John learning as of 27 March, 2022?", "What did James adopt in
April 2022?"; a month capitalised, not "may" or "march", a year after "in", "of", "since"..., not "2000
steps"): what held then, not what holds now, so the rules leave it as found, as they do a question of the
earlier state."""
_SUM = re.compile(r"\b(?:combined|altogether|all together|put together)\b", re.I)
"""A question joining separate parts into one figure ("How long did I take to finish both books combined?"):
each part is said in its own turn, and a later part does not replace an earlier one, so the topic rule
leaves it as found. ("In total" is not one: a running total is a state, "12 courses in total" and later
"14 in total" say the same slot again.)"""
_THEN = re.compile(r"\b(?:than|as)\s+(?:i|we|you|he|she|they|the user)\s+(?:did|had|used to|was|were)\b"
                   r"(?:\s+(?:before|previously|earlier|then|at first|initially|originally|last \w+))?", re.I)
"""The past side of a comparison ("more often than I did previously", "as much as I used to"): the
question asks what holds now against it, not a value reckoned from events, so its "did" is not
:data:`_RECKONED`'s."""
_THEN_WORDS = re.compile(r"\b(?:initially|originally|previously|previous|formerly|earlier|at first|used to|back then)\b",
                         re.I)
"""The words dating the earlier value a question compares against ("previously", "at first", "used to"): a
person saying the new value does not repeat them ("I'm going four times a week" answers "Do I go to the gym more
frequently than I did previously?"), so how much of the question a turn stating a value covers is read without
them (:class:`_Cover`). The words of the present ("now", "currently") stay: a new value is often said with them
("they're currently in a shoe rack")."""
_ASKING = re.compile(r"\bhow (?:often|frequently)\b|\b(?:more|less) (?:often|frequently)\b|\bwhat time\b"
                     r"|\b(?:what|which) days? of the week\b", re.I)
"""The words of a question that ask for a kind of value ("how often", "what time", "what day of the week")
rather than name its topic: a turn stating the value gives the value, not these words ("I'm going four times a
week" answers "How often do I go to the gym?"), so how much of the question a turn stating a value covers is read
without them (:class:`_Cover`)."""
_NAME = re.compile(r"(?<!^)(?<![.?!]\s)\b([A-Z][a-z]+(?:['’]s)?)\b")


@dataclass(frozen=True)
class Updates:
    """What the rules are given: the turns found, best first, and the store's means."""

    question: str
    moment: datetime | None
    """The moment asked. The rules read to the end of its day, as the search does
    (:func:`graphmem.index.query.said_until`): a turn the search found as said by the day asked is said by
    then for the rules too, so a value said that evening replaces the morning's."""
    kind: str | None
    """The answer type the question asks (:func:`graphmem.text.dates.answer_type`): a when-question
    asks the date of an event, not what holds, and is left as found."""
    weights: Callable[[], Weights]
    """The store's term weights over the turns found (asked for only when two turns could compare)."""
    claims_about: Callable[[str], Sequence[Claim]]
    """The claims about a person key (the user's), for the kinds' rule."""
    held: Callable[[Collection[str]], dict[str, Turn]]
    """The turns held under ids, to bring in the turn whose claim holds."""


@dataclass(frozen=True)
class Rules:
    """The rules' settings: :class:`graphmem.index.options.UpdateSettings` (``MemoryOptions.rules``), read once
    when a memory opens (the defaults live there only)."""

    window: int
    cover: float
    floor: float
    depth: int
    value_cover: float
    value_floor: float

    @classmethod
    def of(cls, o: MemoryOptions) -> Rules:
        u = o.rules
        return cls(u.window, u.cover, u.floor, u.depth, u.value_cover, u.value_floor)

    def reads(self, question: str) -> int:
        """How many turns found the rules read for ``question``: deeper when it asks a kind of value."""
        return max(self.window, self.depth) if asked_value(question) else self.window


@lru_cache(maxsize=4096)
def _terms(text: str) -> frozenset[str]:
    """A turn's analysed terms, once per text: the same turns are found by search after search."""
    return frozenset(analyse(text))


class _Once:
    """The store's term weights, asked for once however many rules read them."""

    def __init__(self, weights: Callable[[], Weights]):
        self._weights = weights
        self._got: Weights | None = None

    def __call__(self) -> Weights:
        if self._got is None:
            self._got = self._weights()
        return self._got


class _Cover:
    """How much of the question a turn covers (:func:`graphmem.answer.sure.coverage`, the same figure),
    the question's term weights asked of the store and summed once per search. For the rules on a value
    stated (``topic``), the question's topic only: without the words of :data:`_THEN_WORDS` and
    :data:`_ASKING`, which a turn stating the value answers rather than repeats; the topic rule, which
    judges a turn saying the question's words again, reads them all."""

    def __init__(self, weights: Callable[[], Weights], question: str, topic: bool = False):
        left = _ASKING.sub(" ", _THEN_WORDS.sub(" ", question)) if topic else question
        self._weights, self._question = weights, left if analyse(left) else question
        self._asked: dict[str, float] | None = None
        self._total = 0.0

    def __call__(self, text: str) -> float:
        if self._asked is None:
            self._asked = self._weights().weights(analyse(self._question))
            self._total = sum(self._asked.values())
        if self._total == 0:
            return 0.0
        have = _terms(text)
        return sum(w for t, w in self._asked.items() if t in have) / self._total


def prefer_current(found: Sequence[Turn], u: Updates, rules: Rules) -> tuple[list[Turn], dict[str, tuple[str, ...]]]:
    """``found`` reordered so what holds as of ``u.moment`` comes first (the module's rules), and
    for each turn put in the place of others, the texts of the turns it replaced."""
    recurs = asked_value(u.question) == "weekday"  # "what day of the week": what holds, not an event's date
    then = _PAST.search(u.question) or _AT_EVENT.search(u.question)
    if (u.kind == "when" and not recurs) or (then and not _NOW.search(u.question)) or not found:
        return list(found), {}
    u = replace(u, moment=said_until(u.moment))
    replaced: dict[str, list[Turn]] = {}
    weights = _Once(u.weights)
    head = _by_kind(list(found[:rules.window]), u, replaced)
    if not _SUM.search(u.question):  # a part of a sum replaces no other part
        head = _by_topic(head, u, rules.cover, rules.floor, _Cover(weights, u.question), replaced)
    values = _Cover(weights, u.question, topic=True)  # a value stated answers the asking words
    head = _stating_first(head, found[rules.window:rules.reads(u.question)], u, rules, values, replaced)
    head = _by_value(head, found[rules.window:rules.reads(u.question)], u, rules, values, replaced)
    seen = {t.id for t in head}
    return head + [t for t in found if t.id not in seen], \
        {i: tuple(t.text for t in turns) for i, turns in replaced.items()}


def _said_by(t: Turn, moment: datetime | None) -> bool:
    return t.date is not None and (moment is None or t.date <= moment)


def _dated(t: Turn) -> datetime:
    """The date of a turn the rules compare: only turns :func:`_said_by` a moment, so dated."""
    assert t.date is not None, "an undated turn compared by date"
    return t.date


def _by_topic(turns: list[Turn], u: Updates, cover: float, floor: float, covered: _Cover,
              replaced: dict[str, list[Turn]]) -> list[Turn]:
    """The question's topic rule: each turn's latest replacement takes its place."""
    pairs = {(t.speaker, t.user) for t in turns}
    if len(pairs) == len(turns):
        return turns  # no speaker said two of them: nothing to replace
    covers = {t.id: covered(t.text) for t in turns}
    order = list(turns)
    i = 0
    while i < len(order):
        a = order[i]
        later = [b for b in order[i + 1:] if b.speaker == a.speaker and b.user == a.user and _said_by(b, u.moment)
                 and a.date is not None and _dated(b) > a.date and covers[a.id] > 0
                 and covers[b.id] >= max(cover * covers[a.id], floor)]
        if later:
            newest = max(later, key=_dated)
            order.remove(newest)
            order.insert(i, newest)
            replaced.setdefault(newest.id, []).append(a)
        i += 1
    return order


def _stating_first(head: list[Turn], deeper: Sequence[Turn], u: Updates, rules: Rules, covered: _Cover,
                   replaced: dict[str, list[Turn]]) -> list[Turn]:
    """A question asking a kind of value of the asker ("How many stars do I need?") is answered by a turn that states
    one, not by one that asks it again ("Can you remind me how many stars I need?"): the turns found down to
    ``depth`` that state such a value, are said by the first person found (not an assistant) by the moment asked and
    cover the question at least ``value_floor``, in the order found, come before the first turn found when
    it states none (or is an assistant's: a table of "Issue 1, Issue 2" is no one's count); when the topic's
    rule put it there, only those said since. The others keep their order after them. Asked of someone named
    ("How many car shows has Dave attended?"), a count is often a sum over events, each turn one of them:
    left as found."""
    kind = asked_value(u.question)
    if kind is None or not head or not _FIRST_PERSON.search(u.question) or _RECKONED.search(_THEN.sub(" ", u.question)) \
            or (states(kind, head[0].text) and not is_assistant(head[0].speaker)):
        return head
    me = next(((t.speaker, t.user) for t in head if not is_assistant(t.speaker)), None)  # whose value is asked
    stating = [t for t in list(head) + [t for t in deeper if t not in head]
               if (t.speaker, t.user) == me and _said_by(t, u.moment) and states(kind, t.text)
               and covered(t.text) >= rules.value_floor
               and (head[0].id not in replaced or _not_before(t.date, head[0].date))]  # what it replaced stays below it
    if not stating:
        return head
    return stating + [t for t in head if t not in stating]


def _by_value(head: list[Turn], deeper: Sequence[Turn], u: Updates, rules: Rules, covered: _Cover,
              replaced: dict[str, list[Turn]]) -> list[Turn]:
    """The slot's value rule: a turn of the first ``window`` stating the asked kind of value gives
    its place to the latest turn of the same speaker, among those found down to ``depth``, that
    states one too, said later (by the moment asked) and covering the question enough."""
    kind = asked_value(u.question)
    if kind is None:
        return head
    pool = head + [t for t in deeper if t not in head]
    stating = [t for t in pool if t.date is not None and _said_by(t, u.moment) and states(kind, t.text)]
    if len({(t.speaker, t.user) for t in stating}) == len(stating):
        return head  # no speaker stated two values: nothing to replace
    order = list(head)
    for a in [t for t in head if t in stating]:
        if a not in order or a.id in replaced:
            continue  # brought up already, or a replacement itself
        have, at = covered(a.text), order.index(a)
        later = [b for b in stating if b.speaker == a.speaker and b.user == a.user and _dated(b) > _dated(a)
                 and (b not in order or order.index(b) > at)  # one above it already comes first
                 and have > 0 and covered(b.text) >= max(rules.value_cover * have, rules.value_floor)]
        if not later:
            continue
        newest = max(later, key=_dated)
        if newest in order:
            order.remove(newest)
        order.insert(at, newest)
        replaced.setdefault(newest.id, []).append(a)
    return order


def _by_kind(turns: list[Turn], u: Updates, replaced: dict[str, list[Turn]]) -> list[Turn]:
    """The kinds' rule: a found turn whose claim of the asked kind was replaced by the moment
    asked gives its place to the turn that holds (brought in if the search missed it)."""
    kinds = asked_kinds(u.question)
    if not kinds or not turns:
        return turns
    people = {fold(n) for n in _NAME.findall(u.question)}
    if _FIRST_PERSON.search(u.question) and (me := asker(turns)):  # "I", "my", "the user": not the assistant
        people.add(me)
    holds: dict[str, str] = {}
    for person in sorted(p for p in people if p):
        holds.update(holding(u.claims_about(person), person, kinds, u.moment))
    if not holds:
        return turns
    ids = {t.id for t in turns}
    brought = u.held({h for s, h in holds.items() if s in ids and h not in ids})
    order = list(turns)
    for stale in [t for t in turns if t.id in holds]:
        holder = next((t for t in order if t.id == holds[stale.id]), None) or brought.get(holds[stale.id])
        if holder is None:
            continue  # the turn that holds is not the user's to see (another user's), or gone
        if holder in order:
            if order.index(holder) < order.index(stale):
                continue  # it is above already
            order.remove(holder)
        order.insert(order.index(stale), holder)
        replaced.setdefault(holder.id, []).append(stale)
    return order


def _not_before(when: datetime | None, other: datetime | None) -> bool:
    """Whether a turn said ``when`` comes no earlier than one said ``other``; an undated side does not
    order, so it does not hold a stating turn back."""
    return when is None or other is None or when >= other
