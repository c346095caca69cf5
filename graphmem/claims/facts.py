"""Facts with time: what the memory holds about a person, since when, and until when it held.

Why attributes: "I live in Paris" and, later, "we moved to Porto, so Porto is home now" are both true
as said, but only the second holds now. Each clause of a claim is read into statements about the
person's attributes (:mod:`graphmem.claims.attributes`: residence, occupation, employer, partner,
pet, vehicle, instrument, study, diet, language, ``favourite:<thing>``, ``count:<thing>``,
``frequency:<thing>``, ``other:<predicate>``), each a fact valid from the day it was said. In the order
said (ties in turn order), a later value of a one-valued attribute ends the earlier one (its
``valid_to`` becomes the later one's date and ``ended_by`` that turn); a many-valued one (pets,
instruments, languages, ``other:*``) adds a value, unless a statement ends one ("our cat Max passed
away", "sold the Civic", "broke up with Felix": that value, or with none named, every value) or
switches to another ("switched to the cello"); a negation ends the value it denies, and a later
affirmation the denial. Nothing is deleted: ``history`` gives every value in order.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from graphmem.claims.attributes import MANY, Said, said_of
from graphmem.claims.values import sentence_said, subject_ended
from graphmem.domain import Claim, Fact
from graphmem.text.things import ANIMAL_WORDS, OCCUPATIONS, singular

__all__ = ["KINDS", "OCCUPATIONS", "Kind", "Told", "asked_kinds", "facts_of", "holding", "kept", "kind_of", "superseded",
           "timeline"]

KINDS = ("residence", "employer", "occupation", "partner", "vehicle", "study", "pet", "instrument", "diet",
         "language")
"""The attributes of a fixed name (the others are ``favourite:``, ``count:``, ``frequency:`` and ``other:``
followed by what they are of)."""

Kind = tuple[str, str]
"""An attribute and the value a claim gives it ("residence", "paris")."""


def kind_of(c: Claim) -> Kind | None:
    """The first attribute of :data:`KINDS` a claim gives a value (lower case), or None: what the
    first reading of kinds returned, kept for its callers (``bench/facts_updates.py``)."""
    if c.negated:
        return None
    return next(((s.attribute, s.value) for s in said_of(c) if s.attribute in KINDS and not s.ends and not s.negated
                 and s.value), None)


@dataclass(frozen=True)
class Told(Sequence[Claim]):
    """Claims (a sequence of them), each with the statements its clauses make: what
    :func:`timeline` reads, read once.

    Why: a person's facts are asked for again and again while their claims stay as they are; a
    store keeps a person's claims in a conversation as one of these
    (:meth:`graphmem.store.claims.MemoryClaims.about`) until that conversation's claims change,
    so a call costs ordering the person's statements, not reading each claim again."""

    claims: tuple[Claim, ...]
    said: tuple[tuple[Said, ...], ...]
    endings: tuple[tuple[float, Claim, tuple[Said, ...]], ...] = ()
    """The person's own sentences that end a value of theirs named as the sentence's subject ("Mo passed
    away", "Ravi and I are done": :func:`graphmem.claims.values.subject_ended`), each with its place among
    ``claims`` (between two of them: read after the one before)."""

    @classmethod
    def of(cls, claims: Iterable[Claim]) -> Told:
        got = tuple(claims)
        return cls(got, _read(got))

    @classmethod
    def about(cls, claims: Iterable[Claim], person: str) -> Told:
        """The claims about ``person`` (a person key), with the endings said in their own turns of a value
        named as a sentence's subject (that sentence's claims are about the value, not the person)."""
        own: list[Claim] = []
        endings: list[tuple[float, Claim, tuple[Said, ...]]] = []
        seen: set[tuple[str, str]] = set()
        for c in claims:
            if c.subject == person:
                own.append(c)
            if c.speaker == person and (c.turn_id, c.sentence) not in seen:
                seen.add((c.turn_id, c.sentence))
                if ended := subject_ended(c.sentence):
                    endings.append((len(own) - 0.5, c, tuple(ended)))
        got = tuple(own)
        return cls(got, _read(got), tuple(endings))

    @classmethod
    def joined(cls, parts: Iterable[Told]) -> Told:
        parts = list(parts)
        if len(parts) == 1:
            return parts[0]
        starts = [sum(len(q.claims) for q in parts[:n]) for n in range(len(parts))]
        return cls(tuple(x for p in parts for x in p.claims), tuple(x for p in parts for x in p.said),
                   tuple((at + start, c, s) for p, start in zip(parts, starts) for at, c, s in p.endings))

    def kept(self, keep: Callable[[Claim], bool]) -> Told:
        """The claims ``keep`` keeps, read again as a list of them would be, with the endings it keeps."""
        at = [i for i, c in enumerate(self.claims) if keep(c)]
        got = tuple(self.claims[i] for i in at)
        return Told(got, _read(got), tuple((bisect_left(at, place) - 0.5, c, said) for place, c, said in self.endings
                                          if keep(c)))

    def __len__(self) -> int:
        return len(self.claims)

    def __getitem__(self, i: int | slice) -> Claim | tuple[Claim, ...]:  # type: ignore[override]
        return self.claims[i]

    def __iter__(self) -> Iterator[Claim]:
        return iter(self.claims)


_ASSISTANTS = frozenset({"assistant", "ai", "bot", "chatbot", "model", "system"})
"""The names chat logs give the machine's side (as :data:`graphmem.index.shape.ASSISTANT_ROLES`, which claims may not
import; tests/unit/claims/test_facts.py keeps the two equal)."""


def _suggested(c: Claim) -> bool:
    """Said by an assistant of the user ("You might enjoy living in Boulder", "Since you drive a Prius"):
    a suggestion or a guess, never a fact of the user's."""
    return c.speaker.strip().lower() in _ASSISTANTS and c.subject != c.speaker


def _read(claims: tuple[Claim, ...]) -> tuple[tuple[Said, ...], ...]:
    """Each claim's statements: its clauses' (:func:`said_of`), and, with the first claim of a sentence,
    what the sentence says by the meaning of its values (:func:`graphmem.claims.values.sentence_said`)
    of an attribute none of the sentence's clauses gave a statement of (those read the verb: they win)."""
    said = [() if _suggested(c) else said_of(c, claims[i - 1] if i else None) for i, c in enumerate(claims)]
    first, previous = 0, ""
    for i, c in enumerate(claims):
        if i + 1 < len(claims) and claims[i + 1].turn_id == c.turn_id and claims[i + 1].sentence == c.sentence:
            continue
        read = {s.attribute for x in said[first:i + 1] for s in x if not s.ends}  # (an ending alone leaves the start to them)
        read_values = {(s.attribute, s.value) for x in said[first:i + 1] for s in x}
        extra = () if _suggested(claims[first]) else tuple(
            s for s in sentence_said(claims[first], previous) if s.attribute not in read
            or (s.attribute in MANY or s.attribute == "diet") and (s.attribute, s.value) not in read_values)  # a pet's name
        if any(s.attribute == "pet" for s in extra):  # "adopted a dog, her name is Juno": Juno, not "dog"
            for j in range(first, i + 1):
                said[j] = tuple(s for s in said[j] if not (s.attribute == "pet" and singular(s.value) in ANIMAL_WORDS))
        if extra:  # the sentence read by its values: its open-ended readings ("quit Deloitte to join KPMG") say no more
            for j in range(first, i + 1):
                said[j] = tuple(s for s in said[j] if not s.attribute.startswith("other:"))
        said[i] += extra  # after the clauses' statements: "used to play the violin" ends what a clause started
        previous = c.sentence if i + 1 < len(claims) and claims[i + 1].turn_id == c.turn_id else ""
        first = i + 1
    return tuple(said)


def kept(claims: Sequence[Claim], keep: Callable[[Claim], bool]) -> Sequence[Claim]:
    """The claims ``keep`` keeps: of a :class:`Told`, a :class:`Told` (its endings kept with them), else a list."""
    return claims.kept(keep) if isinstance(claims, Told) else [c for c in claims if keep(c)]


def _told(claims: Iterable[Claim], about: str) -> Told:
    return claims if isinstance(claims, Told) else Told.about(claims, about)


_NAMED = ("employer", "partner", "residence")
"""The one-valued attributes whose values are names: "And now Bosch!" is the next of the last of them said."""


_ONE = frozenset({"residence", "employer", "occupation", "study", "vehicle", "diet", "partner"})
"""One-valued attributes whose statement may name the value it replaced ("from Paris to Berlin"): their value
and words are kept without it (:func:`_before_dropped`), as favourites' are."""
_BEFORE = re.compile(r"\s*\b(?:from|out\s+of|instead\s+of|rather\s+than|after\s+(?:[\w-]+\s+){0,3}(?:at|in|with))\s+[^,;]*?"
                     r"(?=\s+(?:to|into|and)\b|$)|\s+(?:now|these\s+days)$", re.I)


def _before_dropped(text: str) -> str:
    """A value's words without the value it replaced: "from Paris to Berlin" is "to Berlin", "medicine
    now instead of law" is "medicine", "at Spotify after four years at Apple" is "at Spotify"."""
    text = re.split(r"[.!?]+\s", text)[0]  # "nissan leaf. silent": a chat's next sentence, glued on
    out = _BEFORE.sub("", _BEFORE.sub("", text)).strip()
    return re.sub(r"^and\s+", "", out) or text


_ALIKE = {"movie": "film", "tv show": "show", "programme": "show", "series": "show", "meal": "food", "dish": "food",
          "musician": "artist", "singer": "artist", "group": "band", "novel": "book", "tune": "song", "writer": "author",
          "novelist": "author"}
"""Another word for the thing a favourite is of, and the one it is kept under: a new favourite movie ends the favourite film."""


def _alike(attribute: str, open_: dict[str, list[int]]) -> list[str]:
    """The other favourites of the same thing under another word (``favourite:movie`` beside ``favourite:film``)."""
    kind, _, thing = attribute.partition(":")
    if kind != "favourite" or not thing:
        return []
    slot = _ALIKE.get(thing, thing)
    return [b for b in open_ if b != attribute and b.startswith("favourite:") and _ALIKE.get(b[10:], b[10:]) == slot]


def _same(held: str, said: str) -> bool:
    """Does an ending or a denial name the value held? The same words, or one's words among the
    other's ("the Civic" ends "old honda civic"; "max" ends "max")."""
    if held == said:
        return True
    a, b = set(re.findall(r"[\w]+", held.replace("'", "").replace("’", ""))), set(re.findall(r"[\w]+", said.replace("'", "").replace("’", "")))
    return bool(a and b) and (a <= b or b <= a)


def _restriction(value: str) -> bool:
    """A diet value that adds to the others rather than replacing them ("no gluten", "dairy-free")."""
    return value.startswith("no ") or value.endswith("-free")


def _ends(s: Said, f: Fact, many: bool) -> bool:
    """Does the statement ``s`` (not an ending) end the open fact ``f`` of its attribute?"""
    if f.negated != s.negated:
        return _same(f.value, s.value)  # a negation ends what it denies; a later affirmation the denial
    if s.attribute == "diet" and (_restriction(s.value) or _restriction(f.value or "")):
        return False  # dairy-free on top of gluten-free; going vegan ends being vegetarian
    return (not many or s.alone) and not s.negated and f.value != s.value


def _shown(obj: str, value: str) -> str:
    """A fact's object as shown: the clause's, followed by the value when the clause's subject gave it
    ("Porto is home now": ``be home: porto``; "Sushi is my favourite food": ``be my favourite food: sushi``)."""
    said = {singular(w) for w in re.findall(r"[\w'-]+", obj.lower())}
    if not value or {singular(w) for w in value.split()} <= said or value.isdigit():
        return obj
    return f"{obj}: {value}" if obj else value


def timeline(claims: Iterable[Claim], about: str) -> list[Fact]:
    """Every fact the claims give of the person ``about`` (a person key), oldest first (ties in the
    order given), each with ``valid_to`` and ``ended_by`` set when a later statement ended it."""
    told = _told(claims, about)
    steps = sorted([(c.date, float(i), c, told.said[i]) for i, c in enumerate(told.claims) if c.subject == about]
                   + [(c.date, at, c, said) for at, c, said in told.endings], key=lambda x: (x[0], x[1]))
    facts: list[Fact] = []
    open_: dict[str, list[int]] = {}
    latest: dict[str, str] = {}
    swapped: list[str] = []  # each kind ("frequency", "count") -> its attribute said last
    named: str | None = None  # the last attribute of a named value ("employer", "partner") given one

    def end(j: int, c: Claim) -> None:
        facts[j] = replace(facts[j], valid_to=c.date, ended_by=c.turn_id)

    for _, _, c, statements in steps:
        for s in statements:
            a = s.attribute
            kind, _, thing = a.partition(":")
            if thing in ("it", "that", "them", "this") and (last := latest.get(kind)):
                a, s = last, replace(s, attribute=last)  # "Upped it to five times a week": the frequency said before
            latest[kind] = a
            if a == "*":  # an ending of no attribute: whatever open value it names
                swapped = []
                for b, held in open_.items():
                    gone = [j for j in held if not facts[j].negated and s.value and (
                        _same(facts[j].value, s.value) or _same(b.partition(":")[2], s.value))]  # "Dropped pottery"
                    for j in gone:
                        end(j, c)
                    open_[b] = [j for j in held if j not in gone]
                    swapped += [b] if gone else []
                continue
            if a == "^":  # "And now Bosch!": of the attribute the person last named a value of
                if named is None:
                    continue
                a, s = named, replace(s, attribute=named)
            if a in _NAMED and not s.ends:
                named = a
            if a == "&":  # the new value of a swap: of the attribute the value swapped out was of
                if not swapped:
                    continue
                a, s = swapped[0], replace(s, attribute=swapped[0], alone=True)
            many = a in MANY or a.startswith("other:")
            held = open_.setdefault(a, [])
            if s.ends:
                gone = [j for j in held if not facts[j].negated and (not s.value or _same(facts[j].value, s.value))]
                if not gone and not many and not any(f.attribute == a and s.value and _same(f.value, s.value) for f in facts):
                    gone = [j for j in held if not facts[j].negated]  # "sold my car": whatever car it was (not one ended before)
            else:
                gone = [j for j in held if _ends(s, facts[j], many)]
                for b in _alike(a, open_):  # "my new favourite movie" ends the favourite film
                    ended = [j for j in open_[b] if not facts[j].negated]
                    for j in ended:
                        end(j, c)
                    open_[b] = [j for j in open_[b] if j not in ended]
            for j in gone:
                end(j, c)
            open_[a] = [j for j in held if j not in gone]
            if not s.ends and not any(facts[j].turn_id == c.turn_id and facts[j].value == s.value for j in held):
                k = s.clause  # (a value the same turn gave already is said once: "moved to Porto, Porto is home")
                open_[a].append(len(facts))
                one = a in _ONE or a.startswith("favourite:")  # (a value replacing another may name it: "from Paris to Berlin")
                shown = k.object if a.startswith("other:") else _shown(_before_dropped(k.object), _before_dropped(s.value)) \
                    if one else _shown(k.object, s.value)
                if a.startswith("favourite:") and k.topic and re.search(r"\bfavou?rite\b", k.topic, re.I):
                    shown = f"{k.topic.lower()}: {k.object}"  # "My favorite recipe is Chicken Pot Pie"
                value = _before_dropped(s.value) if one else s.value
                facts.append(Fact(c.subject, k.predicate, shown, s.negated, c.turn_id, c.date,
                                  c.date, None, c.sentence, a, value))
    return facts


def facts_of(claims: Iterable[Claim], about: str, as_of: datetime | None = None, history: bool = False) -> list[Fact]:
    """What the claims say of the person ``about`` (a person key): the facts that hold (as of
    ``as_of``: said by then, not ended by then, an ending said later unknown), oldest first; with
    ``history``, every fact said (by ``as_of``), each attribute's values together in the order said."""
    out = []
    for f in timeline(claims, about):
        if as_of is not None:
            if f.valid_from > as_of:
                continue
            if f.valid_to is not None and f.valid_to > as_of:
                f = replace(f, valid_to=None, ended_by=None)  # what was said after as_of is not known then
        if history or f.valid_to is None:
            out.append(f)
    if history:
        first = {a: i for i, a in reversed(list(enumerate(f.attribute for f in out)))}
        out.sort(key=lambda f: first[f.attribute])  # stable: each attribute's values stay in order
    return out


def superseded(claims: Sequence[Claim], kinds: object = None) -> dict[int, datetime]:
    """For each claim (by place) whose facts a later statement ended, the date the first of them
    stopped holding: what the first reading of kinds returned, kept for its callers."""
    facts = timeline(Told.of(claims), claims[0].subject) if claims else []
    ends: dict[str, datetime] = {}
    for f in facts:
        if f.valid_to is not None and f.attribute in KINDS:
            ends.setdefault(f.turn_id, f.valid_to)
    return {i: ends[c.turn_id] for i, c in enumerate(claims) if c.turn_id in ends}


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
    """For the person ``about`` and the attributes ``kinds`` asked: each turn whose fact of an
    attribute had been ended by ``as_of`` (None: now), mapped to the turn whose fact of that
    attribute held then (the latest said, not negated, not ended by then)."""
    wanted = set(kinds)
    facts = [f for f in timeline(claims, about) if f.attribute in wanted and (as_of is None or f.valid_from <= as_of)]
    out: dict[str, str] = {}
    for kind in wanted:
        mine = [f for f in facts if f.attribute == kind]
        holds = [f for f in mine if not f.negated and (f.valid_to is None or as_of is not None and as_of < f.valid_to)]
        if not holds:
            continue
        holder = holds[-1].turn_id
        for f in mine:
            if f.valid_to is not None and (as_of is None or f.valid_to <= as_of) and f.turn_id != holder:
                out.setdefault(f.turn_id, holder)
    return out
