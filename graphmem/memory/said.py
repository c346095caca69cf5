"""A value of an asked attribute read off a person's own turns, when no fact of theirs holds one.

Why: facts (:mod:`graphmem.claims.facts`) are read from claims, and a turn the claim reader gives no
claim for gives no fact: a fragment ("Saxophone practice went well, the neighbours even clapped."), a
clause it does not read ("And now Gdansk.", "I'm with Stripe now, started Monday"). Asked "Where does
Tomasz live?", ``ask`` then read a phrase of the turns found, most often about something else ("Feels"),
abstained, or answered from a fact the change had ended without the claims knowing. So the person's own
turns said by the moment asked (never an assistant's) are read in the order said, each for a value of the
type the attribute takes (:mod:`graphmem.memory.values`: a place, an organisation, a name, an animal, a
vehicle, an instrument, a subject, a diet, a job, a number, a favourite thing) and the values it ends:

- a value ended by a later turn ("left Google", "sold the Civic", "Biscuit died") no longer holds; a value
  first heard as ended ("from Lisbon to Porto") was held before the turn's own;
- now: the value of the latest turn that names one, unless a later turn ended it (then none); for the
  attributes of :data:`MANY`, every value held, a new one added unless the turn tells a switch;
- the earlier value: the value before the latest that differs from it, or before the value the question
  names ("before the Tacoma"); the first: the first said, when the values changed.

It answers when no fact does, and over a fact when its turn was said later than the fact's (see
:func:`graphmem.memory.asked.answered`); its confidence is a setting (:data:`SAID_CONFIDENCE`), below a
fact's, as word lists and cue words are all it knows of meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from graphmem.claims.people import fold
from graphmem.domain import Turn
from graphmem.index.shape import is_assistant
from graphmem.memory import tallies, values
from graphmem.memory.habits import habit_value
from graphmem.text.lexicon import HUMANS
from graphmem.text.terms import stem
from graphmem.text.things import DIETS, INSTRUMENTS, LANGUAGES, OCCUPATIONS, PARTNER_NOUNS, singular

__all__ = ["CHANGE", "SAID_CONFIDENCE", "asks_said", "from_turns", "said_value"]

LISTS = {"occupation": OCCUPATIONS, "instrument": INSTRUMENTS, "diet": DIETS, "language": LANGUAGES}
"""The attributes whose values a closed list of words names, and the list."""

SAID_CONFIDENCE = 0.6
"""The confidence of a reply read off a person's turn (by a word list or the value's type): a setting, above
the default floor (the person and a value of the attribute asked were both found) and below a fact's."""

MANY = frozenset({"pet", "language", "instrument"})
"""Attributes a person may hold several values of at once (as :data:`graphmem.memory.asked.MANY`)."""
SWITCH = re.compile(r"\b(?:switched|swapped|traded|replaced|instead|now only|only)\b", re.I)
"""A sentence telling that its value replaced the others of a many-valued attribute."""
CHANGE = re.compile(r"\b(?:now|moved|relocated|switched|swapped|traded|changed|new|joined|became|become|started"
                    r"|instead|anymore|no longer|these days|since|finally|replaced|upgraded|took up|gave up)\b", re.I)
"""A sentence telling a change ("We've relocated to Marseille", "I drive a Mazda now"): the value it says
replaced an earlier one, so it is no first value, even when the earlier was never read."""


_WHEN = r"(?: now| currently| these days| nowadays| before| previously| then| at first| originally| initially| in [\w ]+)?"
FORMS = {
    "occupation": re.compile(r"^(?:what|which) (?:job|occupation|profession|career|line of work)"
                             r"(?: (?:did|does|do|is|was|has|had|are|were)\b|\W*$)"
                             r"|^(?:what|which)(?:'s| is| was| are| were) (?:\w+['’]s|my|his|her|their|your|the user['’]s)"
                             r" (?:current |previous |first |old |new |main )?(?:job|occupation|profession|career"
                             r"|line of work)" + _WHEN + r"\W*$|\bdo(?:es)? for (?:a living|work)\b|\bwork(?:s|ed|ing)? as\b"
                             r"|^what (?:does|do|did|is|was) \w+(?: \w+)? do(?:ing)?" + _WHEN + r"\W*$", re.I),
    "instrument": re.compile(r"^(?:what|which) (?:musical )?instruments?\b"
                             r"|^what (?:does|do|did|is|was) \w+(?: \w+)? play(?:ing)?" + _WHEN + r"\W*$", re.I),
    "diet": re.compile(r"^(?:what|which) (?:kind of |type of |sort of )?diet\b"
                       r"|^(?:is|was|are|am) \w+(?: \w+)? (?:still |now )?(?:a )?(?:vegetarian|vegan|pescatarian)\b", re.I),
    "language": re.compile(r"^(?:what|which) languages?\b", re.I),
}
"""The questions a value said answers: those asking the attribute of the person itself ("What is Omar's
job?", "What does Omar do for a living?", "Which instrument does Leo play?", "What diet is Rashid on?"),
not any question with its word ("What made John leave his IT job?")."""
_OWNED = re.compile(r"\b(?!(?:what|who|where|which|how|that|it|he|she|there|here)['’]s)[A-Za-z]+['’]s ([a-z]+)", re.I)
_NOT_STATE = re.compile(r"\bwhat (?:made|happened|caused|led|inspired|motivated|prompted)\b|\b(?:milestone|achieve[ds]?"
                        r"|accomplish\w*|won|win|goal|award|promotion|challenge|struggle|lesson|advice|tip)\b", re.I)
"""A question about an event or a feat around the attribute ("What made John leave his IT job?", "What career
milestone did John achieve?"), not the value held: a value said answers it only in a form of :data:`FORMS`."""
_OWN_NOUNS = frozenset("job occupation profession career line work diet instrument instruments language languages "
                       "favourite favorite main current previous first old new".split())


def asks_said(attribute: str, question: str) -> bool:
    """Whether ``question`` asks the person's own ``attribute`` in a form a value said answers (:data:`FORMS`),
    not a thing of theirs ("What type of diet do Joanna's turtles have?")."""
    form = FORMS.get(attribute)
    q = " ".join(question.split())
    if form is None:  # a typed value: any form asked of the person, not of someone of theirs ("Nadia's sister")
        own = values.CATEGORY.get(attribute, frozenset()) | PARTNER_NOUNS
        return values.typed(attribute) and not _NOT_STATE.search(q) \
            and not any(m.group(1).lower() in HUMANS - own for m in _OWNED.finditer(q))
    if not form.search(q) and _NOT_STATE.search(q):
        return False
    return all(m.group(1).lower() in _OWN_NOUNS for m in _OWNED.finditer(q))


def query_of(attribute: str, name: str) -> str:
    """The words a search for the turns naming a value of ``attribute`` looks for (the person's name first):
    a list's words, else the words the attribute is said with (:data:`values.SAID_WITH`)."""
    if attribute in LISTS:
        return f"{name} " + " ".join(sorted(LISTS[attribute]))
    family, _, thing = attribute.partition(":")
    return f"{name} {values.SAID_WITH.get(family, '')} {thing}".strip()


def _read(attribute: str, text: str) -> tuple[str | None, list[str], list[str], bool]:
    """A turn's value of ``attribute``, the values it ends, the names it ends that are of no type, and
    whether the value was only commented on: a count, a favourite or a frequency by
    :mod:`graphmem.memory.tallies`, a habit by :mod:`graphmem.memory.habits`, any other by its type
    (:func:`graphmem.memory.values.read`)."""
    family, _, thing = attribute.partition(":")
    if family == "count":
        return tallies.count(thing, text), [], [], False
    if family == "favourite":
        return tallies.favourite(thing, text), [], [], False
    if family == "frequency":
        return tallies.frequency(thing, text), [], [], False
    if family == "other":
        value, ended = habit_value(attribute, text)
        return value, ended, [], False
    got = values.read(attribute, text)
    return got.value, got.ended, got.ends, got.weak


def _same(a: str, b: str) -> bool:
    """Whether two values are one: the same stem ("drum", "drums") or one naming the other ("Civic", "Honda Civic")."""
    return stem(a) == stem(b) or values.same_value(a, b)


Timeline = tuple[list[tuple[Turn, str]], list[tuple[Turn, str]], datetime | None, tuple[Turn, str] | None]


def _timeline(attribute: str, mine: Sequence[Turn]) -> Timeline:
    """The values said in ``mine`` (in order; a value first heard as ended comes before the one that
    ended it: "from Lisbon to Porto") and the values that hold after the last turn (several for an
    attribute of :data:`MANY`, where a value adds unless a change is told), the day of the last turn
    that said a value or ended one, and the turn and value of the ending that left none held."""
    said: list[tuple[Turn, str]] = []
    held: list[tuple[Turn, str]] = []
    last: datetime | None = None
    gone: tuple[Turn, str] | None = None
    category = values.CATEGORY.get(attribute, frozenset())
    for t in mine:
        value, ended, ends, weak = _read(attribute, t.text)
        if value is not None or ended or any(_same(p[1], e) for p in held for e in ends):
            last = t.date
        before = bool(held)
        gone_by = [p[1] for p in held if values.mentioned_ended(t.text, p[1])  # "chloe and i broke up"
                   or values.subject_ends(attribute, t.text, p[1])]  # "Mo passed away in his sleep"
        if value is None and not ended and values.ended_event(attribute, t.text):
            gone_by = [p[1] for p in held]  # "the divorce came through": whoever it was
        ends = ends + gone_by
        if gone_by:
            last = t.date
        held = [p for p in held if not any(_same(p[1], e) for e in ends)]
        for e in ended:
            held = [] if e.lower() in category else [p for p in held if not _same(p[1], e)]
            if e.lower() not in category and not any(_same(v, e) for _, v in said):
                said.append((t, e))
        if before and not held:
            gone = (t, next(iter(ends + ended)))
        if value is not None and weak and attribute in ("instrument", "language") and not any(_same(v, value) for _, v in held):
            continue  # "Bass is good too": no instrument of theirs said (a pet is told of so: "The rabbits chewed...")
        if value is not None:
            keep = attribute in MANY and not (ended or SWITCH.search(t.text))
            held = [p for p in held if keep and not _same(p[1], value)] + [(t, value)]
            said.append((t, value))
            gone = None
    return said, held, last, gone


def said_value(attribute: str, person: str, turns: Sequence[Turn], moment: datetime | None, earlier: bool,
               first: bool, before: str = "", ending: bool = False
               ) -> tuple[Turn, str, datetime | None, tuple[Turn, ...]] | None:
    """The turn, value, day last changed and the turns of every value held of ``attribute`` for ``person``
    (a folded name) read off ``turns`` (the module's rules), as of ``moment``; None when no turn of theirs names one, or the one named had ended. Several
    values held (an attribute of :data:`MANY`) are one reply, the latest turn's first. ``before``: the
    later value an earlier-value question names ("before the cello"), whose predecessor is asked."""
    if not values.typed(attribute):  # every attribute of LISTS is typed too
        return None
    mine = sorted({t.id: t for t in turns if fold(t.speaker) == person and t.date is not None
                   and not is_assistant(t.speaker)
                   and (moment is None or t.date <= moment)}.values(), key=lambda t: t.date or datetime.min)  # dated, above
    said, held, last, gone = _timeline(attribute, mine)
    if first:  # the first of values that changed, or the one value said unless its sentence tells a change
        return (*said[0], said[0][0].date, ()) if said and (len({v.lower() for _, v in said}) > 1
                                                          or not CHANGE.search(said[0][0].text)) else None
    if earlier:
        if not said:
            return None
        at = next((i for i, (_, v) in enumerate(said) if before and _same(v, before)), len(said) - 1)
        latest = said[at][1]
        got = next((p for p in reversed(said[:at + 1]) if not _same(p[1], latest)), None)
        return (*got, got[0].date, ()) if got else None
    if not held:  # ``ending``: the clause that ended the value answers ("Does Nils still play?": "no more drumming")
        return (gone[0], _clause_of(gone[0].text, gone[1]), gone[0].date, ()) if ending and gone else None
    return held[-1][0], " and ".join(v for _, v in reversed(held)), last, tuple(t for t, _ in reversed(held))


def _clause_of(text: str, value: str) -> str:
    """What a turn said ended ``value`` with, the value left out so the reply names only the change: the
    clause that says it, cut before the value ("Got laid off from Oracle in January": "Got laid off"),
    or after it when it leads ("Biscuit died on Sunday": "died on Sunday")."""
    parts = [p.strip() for p in re.split(r"[.;!?,]+\s*", text) if p.strip()]
    key = stem(value.split()[0].lower()) if value else ""
    clause = next((p for p in parts if key and key in {stem(w) for w in re.findall(r"[a-z]+", p.lower())}),
                  parts[0] if parts else text)
    at = re.search(rf"\b{re.escape(value)}\b", clause, re.I) if value else None
    if at is None:
        return clause
    head = re.sub(r"(?:\s+(?:from|with|at|to|for|the|my|our|a|an|of|up))+$", "", clause[:at.start()].strip(), flags=re.I)
    return head if head else clause[at.end():].strip() or clause


def _whole(text: str, value: str, words: frozenset[str]) -> str:
    """The value as written in ``text``, with the listed words next to it ("double bass", "bass guitar")."""
    tokens = list(re.finditer(r"[A-Za-z][A-Za-z'-]*", text))
    at = next((i for i in range(len(tokens) - 1, -1, -1)
               if value in (tokens[i].group(0).lower(), singular(tokens[i].group(0).lower()))), None)
    if at is None:
        return value
    first = last = at
    while first > 0 and tokens[first - 1].group(0).lower() in words and text[tokens[first - 1].end():tokens[first].start()] == " ":
        first -= 1
    while last + 1 < len(tokens) and tokens[last + 1].group(0).lower() in words \
            and text[tokens[last].end():tokens[last + 1].start()] == " ":
        last += 1
    return text[tokens[first].start():tokens[last].end()]


def reply_of(attribute: str, turn: Turn, value: str) -> str:
    """The reply for a value read off ``turn``: as the turn wrote it, with the words of the thing around it
    (a value of a word list; a typed value is as written already)."""
    if attribute not in LISTS:
        return value
    return " and ".join(_whole(turn.text, v, LISTS[attribute]) for v in value.split(" and "))


def from_turns(attribute: str, people: Sequence[str], search: Callable[[str], Sequence[Turn]],
               found: Sequence[Turn], moment: datetime | None, earlier: bool, first: bool,
               before: str = "", ending: bool = False) -> tuple[Turn, str, datetime | None, tuple[Turn, ...]] | None:
    """For the first of ``people`` whose turns name a value of ``attribute``: the turn, the reply and the
    day last changed (:func:`said_value`), from the turns found and those a search of the attribute's
    words finds."""
    if not values.typed(attribute):  # every attribute of LISTS is typed too
        return None
    for person in people:
        turns = list(found) + list(search(query_of(attribute, person)))
        got = said_value(attribute, person, turns, moment, earlier, first, before, ending)
        if got is not None:
            several = len(got[3]) > 1  # each value widened in its own turn ("bass" in "the bass guitar")
            reply = " and ".join(reply_of(attribute, t, v) for t, v in zip(got[3], got[1].split(" and "))) \
                if several else reply_of(attribute, got[0], got[1])
            return got[0], reply, got[2], got[3]
    return None
