"""Facts with time: what the memory holds about a person, since when, and until when it held.

Why a rule of kinds: "I live in Paris" and, later, "I moved from Paris to Berlin" are both true as
said, but only the second holds now. A person has one value at a time of some attributes: where
they live, where they work, their job, their partner, what they drive, what they study. A claim
whose predicate says one of these (its *kind*) gives a value (its object, read down to the place, the
employer, the occupation...); a later claim of the same person and kind with another value replaces
it: the earlier one's ``valid_to`` becomes the later one's date. Nothing is deleted. A claim of no
kind (most of them) holds from when it was said, and is never replaced by this rule. What the rule
catches and misses on LongMemEval's knowledge-update questions is counted in docs/memory.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from graphmem.domain import Claim, Fact

__all__ = ["KINDS", "Kind", "Told", "asked_kinds", "facts_of", "holding", "kind_of", "superseded"]

_PLACE = re.compile(r"\b(?:to|in|into|at|near|from)\s+(?:the\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_TO_PLACE = re.compile(r"\bto\s+(?:the\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_AT = re.compile(r"\b(?:at|for|joined|join)\s+(?:the\s+)?([A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)*)")
_AS = re.compile(r"\bas\s+(?:an?\s+)?([a-z][a-z -]*[a-z])", re.I)
_A_NOUN = re.compile(r"^an?\s+([a-z][a-z -]*[a-z])$", re.I)
_VEHICLE = re.compile(r"^(?:an?|my|the|our|his|her)\s+(?!.*\b(?:to|through|around|home|back|by|into|from|past|across|down|up|over)\b)"
                      r"([\w' -]+)$", re.I)
_STUDY = re.compile(r"^(?:in\s+)?([a-z][\w -]*?)\s+(?:at|in)\s+(?:the\s+)?(?:[A-Z]|college|university|school|grad)", re.I)
_MAJOR = re.compile(r"^in\s+(.+)$", re.I)
_TIME_TAIL = re.compile(r"\s+(?:now|today|yesterday|recently|last|this|next|since|for|ago|again)\b.*$", re.I)

OCCUPATIONS = frozenset("""
    teacher nurse doctor engineer lawyer accountant designer developer programmer writer artist
    chef cook baker manager student researcher scientist professor lecturer tutor pharmacist
    dentist therapist counselor counsellor social worker firefighter police officer pilot
    driver mechanic electrician plumber carpenter architect photographer musician singer actor
    journalist editor analyst consultant salesperson cashier waiter waitress barista librarian
    veterinarian vet paramedic soldier farmer entrepreneur freelancer intern assistant
    """.split())
"""Nouns of a job, for a claim ``be`` "a nurse" (a job is a kind; "a good friend" is not)."""

KINDS = {
    "residence": frozenset({"live", "move", "relocate", "settle", "reside"}),
    "employer": frozenset({"work", "join", "start"}),
    "occupation": frozenset({"work", "be", "become"}),
    "partner": frozenset({"date", "marry", "engage"}),
    "vehicle": frozenset({"drive"}),
    "study": frozenset({"study", "major"}),
}
"""Each kind and the predicates that may say it (the object decides: :func:`kind_of`)."""


_SAYS_KINDS = frozenset().union(*KINDS.values(), {"call", "switch"})
"""Every predicate :func:`kind_of` may find a kind for: a claim of any other has none, and most
claims are of another, so none of its patterns is tried for them."""


Kind = tuple[str, str]
"""A kind and the value a claim gives it ("residence", "paris")."""


def kind_of(c: Claim) -> Kind | None:
    """The kind a claim says and the value it gives (lower case), or None for a claim of no kind."""
    if c.negated or c.predicate not in _SAYS_KINDS:
        return None
    obj, p = _TIME_TAIL.sub("", c.object).strip(" .,!"), c.predicate
    if p in KINDS["residence"]:
        place = (_TO_PLACE.search(obj) if p in ("move", "relocate") else None) or _PLACE.search(obj)
        return ("residence", place.group(1).lower()) if place else None
    if p in ("work", "become") and (job := _AS.search(obj)):
        return "occupation", job.group(1).lower()
    if p in KINDS["employer"] and (where := _AT.search(obj)):
        return "employer", where.group(1).lower()
    if p == "be" and (job := _A_NOUN.match(obj)) and job.group(1).split()[-1].lower() in OCCUPATIONS:
        return "occupation", job.group(1).lower()
    if p in KINDS["partner"] and obj and obj[:1].isupper():
        return "partner", obj.split()[0].lower()
    if c.topic.lower().split()[-1:] in (["boyfriend"], ["girlfriend"], ["husband"], ["wife"], ["partner"]) \
            and p == "call":
        return "partner", obj.split()[0].lower() if obj else None
    if p in KINDS["vehicle"] and (car := _VEHICLE.match(obj)):
        return "vehicle", car.group(1).lower()
    if p == "study" and (subject := _STUDY.match(obj)):
        return "study", subject.group(1).lower()
    if p == "major" and (subject := _MAJOR.match(obj)):
        return "study", subject.group(1).lower()
    if p == "switch" and (major := re.search(r"\bmajor\s+to\s+(.+)$", obj, re.I)):
        return "study", major.group(1).lower()
    return None


def superseded(claims: Sequence[Claim], kinds: Sequence[Kind | None] | None = None) -> dict[int, datetime]:
    """For each claim (by place) that a later claim of the same person and kind with another value
    replaced, the date it stopped holding (the replacing claim's date). ``kinds``: each claim's
    :func:`kind_of`, when the caller has them already.

    In date order (ties by place), a claim giving its person's kind another value than the last
    one given ends every claim of that person and kind said by its date, with another value, and
    not ended yet. Those are kept per person and kind as they come (a date's claims all at once:
    a claim ends the other values said that same moment, before or after it), so one pass does it
    and a claim is looked at no more than twice, however many claims the person has."""
    kinds = [kind_of(c) for c in claims] if kinds is None else kinds
    told = sorted((claims[i].date, i, (claims[i].subject, k[0]), k[1]) for i, k in enumerate(kinds) if k is not None)
    latest: dict[tuple[str, str], str] = {}
    still: dict[tuple[str, str], list[tuple[int, str]]] = {}  # per (person, kind): those said by now not ended yet
    out: dict[int, datetime] = {}
    known = 0
    for when, i, key, value in told:  # (date, place) first: no two alike, so nothing after them is compared
        while known < len(told) and told[known][0] <= when:
            _, j, their, was = told[known]
            still.setdefault(their, []).append((j, was))
            known += 1
        earlier = latest.get(key)
        if earlier is not None and earlier != value:
            for j, was in still[key]:
                if was != value:
                    out[j] = when
            still[key] = [(j, was) for j, was in still[key] if was == value]
        latest[key] = value
    return out


@dataclass(frozen=True)
class Told(Sequence[Claim]):
    """Claims (a sequence of them), each with its kind and the fact it gives while not replaced
    (``valid_to`` None): what :func:`facts_of` and :func:`holding` make of a claim, made once.

    Why: a person's facts are asked for again and again while their claims stay as they are; a
    store keeps a person's claims in a conversation as one of these
    (:meth:`graphmem.store.claims.MemoryClaims.about`) until that conversation's claims change,
    so a call costs sorting the person's claims, not reading each again."""

    claims: tuple[Claim, ...]
    kinds: tuple[Kind | None, ...]
    facts: tuple[Fact, ...]

    @classmethod
    def of(cls, claims: Iterable[Claim]) -> Told:
        said = tuple(claims)
        return cls(said, tuple(map(kind_of, said)), tuple(map(_fact, said)))

    @classmethod
    def joined(cls, parts: Iterable[Told]) -> Told:
        parts = list(parts)
        return parts[0] if len(parts) == 1 else \
            cls(*(tuple(x for p in parts for x in getattr(p, f)) for f in ("claims", "kinds", "facts")))

    def __len__(self) -> int:
        return len(self.claims)

    def __getitem__(self, i: int | slice) -> Claim | tuple[Claim, ...]:  # type: ignore[override]
        return self.claims[i]

    def __iter__(self) -> Iterator[Claim]:
        return iter(self.claims)


def _fact(c: Claim) -> Fact:
    """The fact a claim gives, valid from when it was said, not (yet) replaced."""
    return Fact(c.subject, c.predicate, c.object, c.negated, c.turn_id, c.date, c.date, None, c.sentence)


def _oldest_first(claims: Sequence[Claim], about: str) -> list[int]:
    """Where the claims of the person ``about`` are, oldest first (ties in the order given)."""
    return sorted((i for i, c in enumerate(claims) if c.subject == about), key=lambda i: claims[i].date)


def facts_of(claims: Iterable[Claim], about: str, as_of: datetime | None = None) -> list[Fact]:
    """What the claims say of the person ``about`` (a person key), each with when it held: from
    the date it was said until a later claim replaced it (:func:`superseded`); with ``as_of``, only
    what held then (said by then, not replaced by then). Oldest first."""
    told = claims if isinstance(claims, Told) else Told.of(c for c in claims if c.subject == about)
    at = _oldest_first(told.claims, about)
    ends = superseded([told.claims[i] for i in at], [told.kinds[i] for i in at])
    out = []
    for i, fact in enumerate(told.facts[i] for i in at):
        if i in ends:
            fact = replace(fact, valid_to=ends[i])
        if as_of is None or (fact.valid_from <= as_of and (fact.valid_to is None or as_of < fact.valid_to)):
            out.append(fact)
    return out


_ASKED = {
    "residence": r"\bwhere\b.*\b(?:live|lives|living|reside|resides|based)\b",
    "employer": r"\bwhere\b.*\bwork(?:s|ing)?\b|\b(?:company|employer)\b.*\bwork(?:s|ing)?\b|\bwork(?:s|ing)? (?:at|for)\b",
    "occupation": r"\bwhat\b.*\b(?:job|occupation|profession)\b|\bfor a living\b|\bwork(?:s|ing)? as\b",
    "partner": r"\b(?:who|what)\b.*\b(?:partner|boyfriend|girlfriend|husband|wife)\b|\bwho\b.*\b(?:dating|married to|engaged to)\b",
    "vehicle": r"\bwhat\b.*\b(?:car|vehicle)\b.*\bdriv|\bwhat (?:car|vehicle)\b",
    "study": r"\bwhat\b.*\b(?:study|studies|studying|major|majoring|degree)\b",
}
"""The question forms that ask one kind's value now ("Where does Alice live?", "What is her job?")."""
_ASKED_RE = {kind: re.compile(words, re.I) for kind, words in _ASKED.items()}


def asked_kinds(question: str) -> frozenset[str]:
    """The kinds a question asks about ("Where does Alice live?": residence), by its words."""
    return frozenset(kind for kind, rx in _ASKED_RE.items() if rx.search(question))


def holding(claims: Sequence[Claim], about: str, kinds: Iterable[str], as_of: datetime | None) -> dict[str, str]:
    """For the person ``about`` and the ``kinds`` asked: each turn whose claim of a kind had been
    replaced by ``as_of`` (None: now), mapped to the turn whose claim of that kind held then."""
    if not isinstance(claims, Told):  # only the kinds are needed here, not the facts
        claims = [c for c in claims if c.subject == about]
    at = _oldest_first(claims, about)
    mine = [claims[i] for i in at]
    said_kinds = [claims.kinds[i] for i in at] if isinstance(claims, Told) else [kind_of(c) for c in mine]
    ends = superseded(mine, said_kinds)
    out: dict[str, str] = {}
    for kind in kinds:
        said = [(i, c) for i, c in enumerate(mine) if (k := said_kinds[i]) is not None and k[0] == kind
                and (as_of is None or c.date <= as_of)]
        if not said:
            continue
        holder = said[-1][1]
        for i, c in said:
            if i in ends and (as_of is None or ends[i] <= as_of) and c.turn_id != holder.turn_id:
                out.setdefault(c.turn_id, holder.turn_id)
    return out
