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
  when-question, which asks the date of an event rather than what holds.
- **The kinds of facts** (:mod:`graphmem.claims.facts`). A question asking one of the kinds
  ("Where does Alice live?": residence) reads the claims about the person it names (or the first
  person's, for "I"): a found turn whose claim of that kind was replaced by the moment asked
  gives its place to the turn whose claim holds then, found or not.

Both only reorder what the search found (the kinds' rule adds the turn that holds), so what is
searched and its cost stay the store's; the rules run on the turns, the same in every store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.answer.sure import coverage
from graphmem.claims.facts import asked_kinds, holding
from graphmem.claims.people import fold
from graphmem.domain import Claim, Turn
from graphmem.store.base import Weights

__all__ = ["Updates", "prefer_current"]

_PAST = re.compile(r"\b(?:initially|originally|previously|previous|formerly|earlier|at first|first|before|used to"
                   r"|at the (?:start|beginning))\b", re.I)
_NOW = re.compile(r"\b(?:now|currently|current|these days|still|anymore|any more|than)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|i'm|i've)\b", re.I)
_NAME = re.compile(r"(?<!^)(?<![.?!]\s)\b([A-Z][a-z]+(?:['’]s)?)\b")


@dataclass(frozen=True)
class Updates:
    """What the rules are given: the turns found, best first, and the store's means."""

    question: str
    moment: datetime | None
    kind: str | None
    """The answer type the question asks (:func:`graphmem.text.dates.answer_type`): a when-question
    asks the date of an event, not what holds, and is left as found."""
    weights: Callable[[], Weights]
    """The store's term weights over the turns found (asked for only when two turns could compare)."""
    claims_about: Callable[[str], Sequence[Claim]]
    """The claims about a person key (the user's), for the kinds' rule."""
    held: Callable[[Collection[str]], dict[str, Turn]]
    """The turns held under ids, to bring in the turn whose claim holds."""


def prefer_current(found: Sequence[Turn], u: Updates, window: int, cover: float,
                   floor: float) -> tuple[list[Turn], dict[str, tuple[str, ...]]]:
    """``found`` reordered so what holds as of ``u.moment`` comes first (the module's two rules),
    and for each turn put in the place of others, the texts of the turns it replaced."""
    if u.kind == "when" or (_PAST.search(u.question) and not _NOW.search(u.question)) or not found:
        return list(found), {}
    replaced: dict[str, list[Turn]] = {}
    head = _by_kind(list(found[:window]), u, replaced)
    head = _by_topic(head, u, cover, floor, replaced)
    seen = {t.id for t in head}
    return head + [t for t in found[window:] if t.id not in seen], \
        {i: tuple(t.text for t in turns) for i, turns in replaced.items()}


def _said_by(t: Turn, moment: datetime | None) -> bool:
    return t.date is not None and (moment is None or t.date <= moment)


def _by_topic(turns: list[Turn], u: Updates, cover: float, floor: float,
              replaced: dict[str, list[Turn]]) -> list[Turn]:
    """The question's topic rule: each turn's latest replacement takes its place."""
    pairs = {(t.speaker, t.user) for t in turns}
    if len(pairs) == len(turns):
        return turns  # no speaker said two of them: nothing to replace
    weights = u.weights()
    covers = {t.id: coverage(weights, u.question, t.text) for t in turns}
    order = list(turns)
    i = 0
    while i < len(order):
        a = order[i]
        later = [b for b in order[i + 1:] if b.speaker == a.speaker and b.user == a.user and _said_by(b, u.moment)
                 and a.date is not None and b.date > a.date and covers[a.id] > 0
                 and covers[b.id] >= max(cover * covers[a.id], floor)]
        if later:
            newest = max(later, key=lambda b: b.date)
            order.remove(newest)
            order.insert(i, newest)
            replaced.setdefault(newest.id, []).append(a)
        i += 1
    return order


def _by_kind(turns: list[Turn], u: Updates, replaced: dict[str, list[Turn]]) -> list[Turn]:
    """The kinds' rule: a found turn whose claim of the asked kind was replaced by the moment
    asked gives its place to the turn that holds (brought in if the search missed it)."""
    kinds = asked_kinds(u.question)
    if not kinds or not turns:
        return turns
    people = {fold(n) for n in _NAME.findall(u.question)}
    if _FIRST_PERSON.search(u.question):
        people.add(fold(turns[0].speaker))
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
