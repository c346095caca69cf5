"""Which of a person's attributes a question asks, and the fact that answers it as of the day asked.

Why: a question about a state ("What is Alice's job?", "Who does Bob work for now?", "Where is
Nadia based?") often shares no word with the turn that says it ("I work as a teacher", "I joined
Microsoft", "Porto is home now"), so a search by words finds the turn late or not at all, and an
older turn that happens to share the words comes first. The memory's facts
(:mod:`graphmem.claims.facts`) already know, per person, which attribute a turn gives a value
and when a later value ended it. So a question is mapped to an attribute and a person, and the
fact of that attribute that holds for that person as of the day asked answers it.

- **The attribute** is told by the words people use for it, any of which meets the others:
  job, occupation, profession, career, "do for a living", "work as" (occupation); live, home,
  based, reside, stay (residence, with where or which city); work for, work at, employer, company
  (employer); partner, boyfriend, girlfriend, husband, wife, spouse, seeing, dating, married to
  (partner); car, vehicle, drive (vehicle); pet, dog, cat (pet); play an instrument (instrument);
  study, major, degree (study); diet, vegetarian, vegan, eat meat (diet); speak, language
  (language); "favourite X" (``favourite:X``), "how many X" (``count:X``), "how often"
  (``frequency:...``). US and UK spellings are one (:func:`graphmem.text.spelling.american`).
- **The person** is a name the question holds that the memory has claims about; "I", "my", "me"
  and "the user" are the person asking: in a chat with an assistant, the one who is not the
  assistant.
- **The value** is what holds as of the moment asked: only what was said by then counts, so a
  fact later ended is still the answer as of a day before it ended. A question for the earlier
  value ("before", "used to", "previous", "initially", "first", "originally") gets the value that
  had ended by then: the first one for "first", "initially", "originally", else the latest ended.

A fact's attribute and value are its own (``Fact.attribute``, ``Fact.value``: read by
:mod:`graphmem.claims.attributes`), named as asked here: ``residence``, ``occupation``,
``employer``, ``partner``, ``pet``, ``vehicle``, ``instrument``, ``study``, ``diet``, ``language``,
``favourite:<thing>``, ``count:<thing>``, ``frequency:<thing>`` (an ``other:<verb>`` no question
form asks).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time

from graphmem.claims.facts import facts_of, kept
from graphmem.claims.people import fold
from graphmem.data.metadata import Where, matches
from graphmem.domain import Answer, Claim, Fact, Turn
from graphmem.index.query import Query
from graphmem.index.shape import is_assistant
from graphmem.memory.habits import habit_asked
from graphmem.memory.values import LISTED, named_in
from graphmem.memory.said import CHANGE, SAID_CONFIDENCE, asks_said, from_turns
from graphmem.store.base import Store
from graphmem.text.spelling import american
from graphmem.text.lexicon import HUMANS
from graphmem.text.things import PARTNER_NOUNS, ANIMAL_WORDS, DIETS, INSTRUMENTS, LANGUAGES, OCCUPATIONS
from graphmem.text.terms import content, stem, words

__all__ = ["FACT_CONFIDENCE", "Asked", "answered", "HINTS", "MANY", "answer_of", "asked", "asker", "attribute_of", "as_of_named", "from_facts", "hint", "people_asked", "selected", "value_of"]

MANY = frozenset({"pet", "language", "instrument"})
"""Attributes a person may hold several values of at once: asked now, every value held is the reply."""

_DO_WHEN = r"(?: now| these days| nowadays| before| previously| originally| at first| initially| for work| for a living)?"
_ANIMALS = ("pet|pets|animal|animals|dog|dogs|cat|cats|puppy|kitten|horse|horses|rabbit|rabbits|hamster|hamsters|parrot|budgie|fish"
            "|goldfish|turtle|tortoise|snake|lizard|gecko|ferret|guinea pig")
_INSTRUMENTS = ("instrument|instruments|guitar|piano|violin|cello|viola|drums|drum kit|bass|flute|saxophone|sax|trumpet"
                "|trombone|ukulele|harp|clarinet|banjo|mandolin|keyboard|accordion|harmonica")
_ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("occupation", r"\b(?:job|jobs|occupation|profession|career(?!-)|line of work|for a living|for work|work(?:s|ing)? as"
                   r"|(?:what|which) (?:role|position|title)(?! did)(?!.*\bplay))\b"
                   r"|\bwhat (?:is|was) (?:\w+'s|my|your|their|his|her) work\b"
                   r"|\bwhat (?:does|do|did|is|was) \w+(?: \w+)? do(?:ing)?" + _DO_WHEN
                   + r"(?: becoming [\w ]+)?\??$"),
    ("employer", r"\b(?:employer|employed|employs|employ|(?:which|what) (?:company|firm|organization|business)"
                 r"|(?:which|what) (?:agency|hospital|bank|school|startup|store|shop|supermarket|restaurant|studio"
                 r"|lab|outfit|team|practice|clinic)\b[\w' ]*\b(?:work\w*|employ\w*|at|for|job)\b"
                 r"|work(?:s|ing|ed)? (?:for|at)\b|where(?:'s| is| was| are| am| does| do| did)\b[\w ]*\bwork)"),
    ("residence", r"\bwhere\b[\w' ]*\b(?:live|lives|living|lived|reside|resides|residing|based|home|settled|staying"
                  r"|stay|stays|located)\b|^\W*where (?:is|are|was|were|do|does|did) \w+(?: \w+)? (?:originally |come |comes |)from\W*$"
                  r"|\b(?:which|what) (?:city|town|country|neighborhood|village|area|district|suburb|part of (?:town|the city))"
                  r"\b[\w' ]*\b(?:live|lives|living|reside|based|home|in now|move|moved|moving|relocate\w*)\b"
                  r"|\bhome ?(?:town|city)\b"),
    ("partner", r"\b(?:partner|boyfriend|girlfriend|husband|wife|spouse|fiance|fiancee|significant other|other half)\b"
                r"|\bwho\b[\w' ]*\b(?:seeing|dating|date|dated|married to|engaged to|in a relationship with"
                r"|go(?:ing)? out with|went out with|together with)\b|\bwho (?:is|was|are|were) \w+ with\b"),
    ("vehicle", r"\b(?:car|cars|vehicle|motorbike|motorcycle|scooter|van|truck)\b"
                r"|\bwhat\b[\w' ]*\b(?:driv(?:e|es|ing)|drove|ride|rides|riding|rode)\b"),
    ("pet", r"\b(?:" + _ANIMALS + r")\b"),
    ("instrument", r"\b(?:" + _INSTRUMENTS + r")\b"
                   r"|\bwhat\b(?:(?!\b(?:game|games|sport|sports|role|part|music|song|songs)\b)[\w' ])*"
                   r"\bplay(?:s|ing)?\b(?! (?:a |the )?(?:role|part|sport|game|games|video|football|soccer|tennis"
                   r"|basketball|golf|cricket|chess|cards?|match)\b)"),
    ("language", r"\blanguages?\b"),
    ("study", r"\b(?:study|studies|studying|studied|major|majoring|degree|course|learning)\b"),
    ("diet", r"\b(?:diet|vegetarian|vegan|pescatarian|eat meat|eats meat|eating meat)\b"
             r"|\b(?:can't|cannot|can not|don't|doesn't|not|won't)(?: \w+)? eat\b"),
    ("language", r"\blanguages?\b|\bwhat\b[\w' ]*\bspeaks?\b(?! (?:to|with|about)\b)"),
)
"""Each attribute and the words that ask it, in the order they are tried (the first that matches
wins: "where does Bob work" is the employer, not the residence; "what does she do for work" the
occupation). Written over the question in American spelling, lower case."""
_ATTRIBUTE_RE = tuple((name, re.compile(words_, re.I)) for name, words_ in _ATTRIBUTES)

_FAVOURITE = re.compile(r"\bfavorite\s+((?:kind of |type of |sort of )?[a-z]+(?: [a-z]+)?)"
                        r"|^\W*(?:which|what|who(?:se)?)\s+((?:kind of |type of |sort of )?[a-z]+)\s+(?:does|do|did|is|was)\s+"
                        r"[\w' ]*?\b(?:like|love|prefer|rate|enjoy)s?\s+(?:the\s+)?(?:best|most)\b", re.I)
_COUNT = re.compile(r"\bhow (?:many|much)\s+([a-z]+(?: [a-z]+)?)", re.I)
_OFTEN = re.compile(r"\bhow (?:often|frequently)\b(.*)$|\bhow many times\b(.*)$", re.I)
_STARTED = r"|when \w+ (?:just |first )?(?:started|began|joined)|start(?:ed)? (?:with|out)|to begin with"
_GAVE_UP = r"|(?:did|has|have) \w+ (?:give up|gave up|quit|stop|drop|sell|leave)"  # the latest value ended
_EARLIER = re.compile(r"\b(?:before|initially|originally|previous|previously|formerly|used to|use to|at first|first"
                      r"|earlier|at the (?:start|beginning)|away from" + _STARTED + _GAVE_UP + r")\b", re.I)
_FIRST = re.compile(r"\b(?:initially|originally|first|at first|at the (?:start|beginning)" + _STARTED + r")\b", re.I)
_NOW = re.compile(r"\b(?:now|currently|current|these days|still|anymore|any more|today)\b", re.I)
_ASKER = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|the user|user's)\b", re.I)
_ONE = re.compile(r"\b(?:what|which) (?:pet|dog|cat|animal|language|instrument)\b(?!s)", re.I)
_EVENT = re.compile(r"\s*(?:when|why|how (?!many\b|much\b|often\b|frequently\b)|since when|would|could|should|might|may|will)\b"
                    r"|.*\b(?:would|could|might|potentially|likely|if|want|wants|wanted|plan|plans|planning|hope"
                    r"|hopes|decided|dream|dreams|goal|goals|pursue|persue)\b", re.I)
_NAME = re.compile(r"\b([A-Z][a-z]+)(?:['’]s)?\b")
_BEFORE = re.compile(r"\bbefore (?:the |a |an |his |her |my |their |switching to |moving to |joining |getting )?"
                     r"(?!(?:i|he|she|they|we|you|it|that|this|then|now|\w+ing)\b)([a-z][\w-]*(?: [a-z][\w-]*)?)\W*$", re.I)
"""A later value named after "before" at the question's end ("before medicine", "before the Tacoma",
"before switching to Stripe"); not a clause ("before I moved") nor an act ("before moving")."""
_YES_NO = re.compile(r"^\W*(?:is|are|am|was|were|does|do|did|has|have)\b", re.I)  # "Does Nils still play?"
_KIN = re.compile(r"\b(?:my|our|the user's|the user’s)\s+([a-z]+)\b", re.I)
_NOT_NAMES = frozenset("what where who whom whose which when why how is are was were does do did has have had can "
                       "could would should will i my me the a an in on at for of to and or now currently "
                       "january february march april may june july august september october november december "
                       "monday tuesday wednesday thursday friday saturday sunday".split())


@dataclass(frozen=True)
class Asked:
    """What a question asks of a person: an attribute, whose, and whether its earlier value."""

    attribute: str
    """``residence``, ``occupation``... or ``favourite:<thing>``, ``count:<thing>``, ``frequency:<thing>``."""
    names: tuple[str, ...]
    """The folded names the question holds (each may be a person the memory knows)."""
    asker: bool
    """Whether it asks of the person asking ("I", "my", "the user")."""
    earlier: bool
    """Whether it asks for the earlier value ("before", "used to", "initially"...)."""
    first: bool
    """Whether the earlier value asked is the first one ("initially", "originally", "first")."""
    several: bool = True
    """Whether it asks for every value held ("What pets...", "Which languages..."), not one ("What pet...")."""
    before: str = ""
    """The later value the question names ("What did Aditi study before medicine?": ``medicine``), or ""."""


HINTS = {
    "occupation": "work job", "employer": "work job joined company", "residence": "live moved home",
    "partner": "boyfriend girlfriend partner husband wife dating", "vehicle": "car drive", "pet": "pet dog cat",
    "instrument": "play instrument", "study": "study major degree", "diet": "eat diet", "language": "speak language",
}
"""The words people say an attribute with: what a search looks for to learn who "I" is when the
question's own words find nothing (a memory of one user's notes, asked "Where's my home now?")."""


def hint(attribute: str) -> str:
    """The words to search for an attribute's sayings: :data:`HINTS`, or the thing of a ``favourite:``."""
    family, _, thing = attribute.partition(":")
    return HINTS.get(family, thing or family)


def _spelled(question: str) -> str:
    """The question in American spelling, each word as written otherwise."""
    return re.sub(r"[A-Za-z]+", lambda m: american(m.group(0).lower()) if american(m.group(0).lower())
                  != m.group(0).lower() else m.group(0), question)


def _thing(phrase: str) -> str:
    """A thing named after "favourite" or "how many": its content words, as written."""
    kept = [w for w in words(phrase) if content(w) and w not in ("kind", "type", "sort")]
    return " ".join(kept)


def _attribute(q: str) -> str | None:
    if (fav := _FAVOURITE.search(q)) and (thing := _thing(fav.group(1) or fav.group(2))):
        return f"favourite:{thing}"
    if often := _OFTEN.search(q):
        return f"frequency:{_thing(_NAME.sub('', often.group(1) or often.group(2) or ''))}"
    if (many := _COUNT.search(q)) and (thing := _thing(many.group(1))):
        return f"count:{thing}"
    return next((name for name, rx in _ATTRIBUTE_RE if rx.search(q)), None)


_WH = re.compile(r"\b(where|who|whom|what|which|how)\b", re.I)
_ANSWERS: dict[str, Callable[[str], bool]] = {
    "where": lambda a: a in ("residence", "employer") or a.startswith("other:"),
    "who": lambda a: a in ("partner", "employer") or a.startswith("other:"),
    "whom": lambda a: a in ("partner", "employer") or a.startswith("other:"),
}
"""What the first question word asks, told apart from the attribute its other words name: a place is
a residence or an employer, a person a partner or an employer; the other words ask any attribute."""


_HEAD = re.compile(r"^\W*(?:in |for |with |at |on |of )?(?:what|which)\s+(?:(?:kind|kinds|type|types|sort) of\s+)?"
                   r"(?!(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|might)\b)([a-z'-]+)")
_THING_VERB = {
    "pet": re.compile(r"\b(?:have|own|owns|owned|keep|keeps|kept)\b"),
    "instrument": re.compile(r"\bplay(?:s|ing|ed)?\b"),
    "vehicle": re.compile(r"\b(?:drive|drives|driving|drove|ride|rides|riding|rode|own|owns|owned)\b"),
}
"""The attributes named by a thing (an animal, an instrument, a car): a question asks one only when the
thing is what it asks ("What pets...", "Which instrument...") or it asks what the person has, plays or
drives; "What technique is Audrey using to discipline her dogs?" names dogs and asks a technique."""


_OWNED = re.compile(r"^\W*(?:what|which|who)(?:'s| is| was| are| were) (?:the names? of )?(?:\w+'s|my|your|his|her"
                    r"|their|our|the user's) (?:first |previous |old |new |current |other |latest |last )?([a-z]+)"
                    r"(?: (?:called|named|now|currently|these days|before|then|originally|initially|at first|"
                    r"in [\w ]+))*\W*$")
"""A question asking what a person's thing is: "What is the name of Hamid's dog?", "What were Mei's
cats called?", "What was Oliver's first pet?", "What is Tariq's car now?"."""


def _asks_thing(q: str, attribute: str) -> bool:
    """Whether a question naming a thing of ``attribute`` asks for it (always, for other attributes)."""
    verb = _THING_VERB.get(attribute)
    if verb is None:
        return True
    owned = _OWNED.match(q.lower())
    if owned and any(rx.search(owned.group(1)) for name, rx in _ATTRIBUTE_RE if name == attribute):
        return True
    head = _HEAD.match(q.lower())
    if head:
        return any(rx.search(head.group(1)) for name, rx in _ATTRIBUTE_RE if name == attribute)
    return bool(verb.search(q.lower()))


def _wh(q: str) -> str:
    """The question's first question word, lower case, or ""."""
    m = _WH.search(q)
    return m.group(1).lower() if m else ""


def asked(question: str) -> Asked | None:
    """The attribute and person a question asks about, or None for a question of no attribute."""
    q = _spelled(" ".join(question.split()))
    if _EVENT.match(q):
        return None  # an event's date, length, manner or reason, a guess or an intention: not a state held
    attribute = _attribute(q)
    if attribute is None and (habit := habit_asked(q)) is not None:
        attribute = habit[0]  # "Where do I volunteer on Saturdays?": other:volunteer
    if attribute is None or not _ANSWERS.get(_wh(q), lambda a: True)(attribute) or not _asks_thing(q, attribute):
        return None  # "Where did Ann take Rex?" names a pet but asks a place
    if (kin := _KIN.search(q)) and kin.group(1).lower() in HUMANS and kin.group(1).lower() not in PARTNER_NOUNS \
            and not attribute.startswith("count:"):
        return None  # "Where does my sister live?": someone of the asker's, whom the memory does not know by name
    names = tuple(dict.fromkeys(fold(n) for n in _NAME.findall(question) if n.lower() not in _NOT_NAMES))
    earlier = bool(_EARLIER.search(q)) and not _NOW.search(q)
    owned = _OWNED.match(q.lower())
    several = not _ONE.search(q) and not (owned and not owned.group(1).endswith("s"))
    before = _BEFORE.search(q)
    return Asked(attribute, names, bool(_ASKER.search(q)), earlier, earlier and bool(_FIRST.search(q)), several,
                 before.group(1).lower() if earlier and before else "")


def asker(found: Sequence[Turn], speakers: Iterable[str] = ()) -> str | None:
    """The person "I", "my" or "the user" names: the speaker of the first turn found who is not an
    assistant, else the first such speaker of ``speakers`` (of the conversation asked); folded."""
    who = next((t.speaker for t in found if not is_assistant(t.speaker)), None) \
        or next((s for s in speakers if not is_assistant(s)), None)
    return fold(who) if who else None


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(american(w)) for w in words(text) if content(w))


def _same(asked_: str, said: str) -> bool:
    """Whether a fact's attribute is the one asked: the same name, or for a ``favourite``, ``count``
    or ``frequency`` the same family and a word of the thing in common (either spelling)."""
    if ":" not in asked_ or ":" not in said:
        return asked_ == said
    family, thing = asked_.split(":", 1)
    theirs, what = said.split(":", 1)
    if family != theirs:
        return False
    return not _stems(thing) or bool(_stems(thing) & _stems(what))


def attribute_of(f: Fact) -> tuple[str, str] | None:
    """A fact's attribute and value (its object where it has no value of its own), or None for a
    fact made without one, or one that denies its value ("I don't eat meat": no value it holds)."""
    if not f.attribute or f.negated:
        return None
    return f.attribute, f.value or f.object


_THINGS = INSTRUMENTS | OCCUPATIONS | ANIMAL_WORDS | DIETS | LANGUAGES


def _whole(obj: str, value: str) -> str:
    """``value`` widened to the name of a thing it is part of in the fact's object: the words of things
    next to it ("double" in "the double bass" is "double bass", "guitar" in "the bass guitar instead" "bass
    guitar"), one space apart; a name (capitalised) as it is; ``value`` when the object lacks it."""
    at = obj.lower().find(value.lower())
    if not value or at < 0 or value[:1].isupper() or obj[at:at + 1].isupper():
        return value
    tokens = [m for m in re.finditer(r"[\w'-]+", obj)]
    inside = [i for i, m in enumerate(tokens) if m.end() > at and m.start() < at + len(value)]
    if not inside:
        return value
    first, last = inside[0], inside[-1]

    def joins(i: int, j: int) -> bool:  # token j may join the run next to token i: one space apart, a content word
        gap = obj[min(tokens[i].end(), tokens[j].end()):max(tokens[i].start(), tokens[j].start())]
        word = tokens[j].group(0).lower()
        return gap == " " and word in _THINGS and tokens[i].group(0).lower() in _THINGS
    while first > 0 and joins(first, first - 1):
        first -= 1
    while last + 1 < len(tokens) and joins(last, last + 1):
        last += 1
    return obj[min(tokens[first].start(), at):max(tokens[last].end(), at + len(value))]


def value_of(f: Fact, value: str) -> str:
    """The value as the turn wrote it (its case), widened to the name it is part of (:func:`_whole`),
    where the sentence holds it; else as given."""
    value = _whole(f.object, value)
    for text in (f.sentence, f.object):
        at = text.lower().find(value.lower())
        if value and at >= 0:
            return text[at:at + len(value)]
    return value


def answer_of(facts: Sequence[Fact], a: Asked, moment: datetime | None) -> tuple[list[Fact], str] | None:
    """The facts that answer ``a`` and the reply, from one person's facts as known by ``moment``
    (``facts``: their history, each ``valid_to`` set by what was said by then), or None.

    Now: the value that holds (every value held, for an attribute of :data:`MANY`). Earlier: the
    first value said for "first"/"initially", else the latest that had ended (none when none ended)."""
    mine = [(f, av[1]) for f in facts if (moment is None or f.valid_from <= moment)
            and (av := attribute_of(f)) is not None and _same(a.attribute, av[0])]
    if not mine:
        return None
    if a.earlier:
        ended = [(f, v) for f, v in mine if f.valid_to is not None and (moment is None or f.valid_to <= moment)]
        if a.first and (ended or len({v.lower() for _, v in mine}) > 1):  # the first of values that changed
            f, v = min(mine, key=lambda p: p[0].valid_from)
            return [f], value_of(f, v)
        if a.first and len(mine) == 1 and not CHANGE.search(mine[0][0].sentence):  # the one value known, first
            f, v = mine[0]
            return [f], value_of(f, v)
        if not ended and a.before:  # "before medicine": the latest value said that is not the one named
            if not any(_stems(a.before) & _stems(value_of(f, v)) for f, v in mine):  # not read: it came later
                f, v = max(mine, key=lambda p: p[0].valid_from)
                return [f], value_of(f, v)
        if not ended:
            return None
        f, v = max(ended, key=lambda p: (p[0].valid_to, p[0].valid_from))
        return [f], value_of(f, v)
    holding = [(f, v) for f, v in mine if f.valid_to is None or (moment is not None and f.valid_to > moment)]
    if not holding:
        return None
    holding.sort(key=lambda p: p[0].valid_from, reverse=True)
    if a.attribute.split(":")[0] not in MANY or not a.several:
        f, v = holding[0]
        return [f], value_of(f, v)
    seen: dict[str, Fact] = {}
    for f, v in holding:
        seen.setdefault(value_of(f, v).lower(), f)
    values = [value_of(f, v) for f, v in holding if seen.get(value_of(f, v).lower()) is f]
    return list(seen.values()), " and ".join(values)


def people_asked(a: Asked, found: Sequence[Turn], speakers: Sequence[str] = (),
                 search: Callable[[str], Sequence[Turn]] | None = None) -> list[str]:
    """Whom a question asks about, in the order tried: the names it holds, then for "I", "my", "the
    user" the asker (:func:`asker` of the turns found, the conversation's speakers, else of a search of
    the attribute's words), else the speaker chat logs call ``user``."""
    who = asker(found, speakers) if a.asker else None
    if a.asker and who is None and search is not None:
        who = asker(search(hint(a.attribute)))
    return list(dict.fromkeys(list(a.names) + ([who] if who else ["user"] if a.asker else [])))


def from_facts(question: str, found: Sequence[Turn], moment: datetime | None,
               claims_about: Callable[[str], Sequence[Claim]], speakers: Sequence[str] = (),
               search: Callable[[str], Sequence[Turn]] | None = None) -> tuple[list[Fact], str] | None:
    """The facts that answer ``question`` as of ``moment`` and the reply (:func:`answer_of`), for
    the first person it asks about who has one: a name it holds, or the asker (``found``: the
    turns the search found, best first; ``speakers``: those of the conversation asked; ``search``:
    when neither names the asker, the turns a search of the attribute's own words finds). Only
    claims said by ``moment`` are read, so an end said later is no end yet. None: no answer."""
    a = asked(question)
    if a is None:
        return None
    for person in people_asked(a, found, speakers, search):
        claims = kept(claims_about(person), lambda c: person in (c.subject, c.speaker)
                      and (moment is None or c.date <= moment))  # (the speaker's: an ending of theirs)
        got = answer_of(facts_of(claims, person, None, history=True), a, moment) if claims else None
        if got is not None:
            return got
    return None


SAID_DEPTH = 20
"""How many turns a search of an attribute's words reads for the person's sayings of a value."""

FACT_CONFIDENCE = 0.9
"""The confidence of a reply read off a fact that holds (measure ``fact``): the question's attribute and
person both met a fact of the memory's, a match of meaning rather than of words, so it stands above the
default floor; below 1, as the rules that read facts and questions miss (docs/what_holds.md)."""


def selected(store: Store, person: str, user: str | None, scope: str | None = None,
             where: Where | None = None) -> Sequence[Claim]:
    """The claims about ``person`` (a key) read from the turns a question may use: of the conversation
    asked (``scope``) and selected by ``where`` (a turn's metadata). Why: a fact is read from its turn,
    so a turn the caller filtered out must neither answer nor end a fact that answers."""
    claims = store.claims_about(person, user)
    if (scope is None and not where) or not claims:
        return claims
    held = store.held({c.turn_id for c in claims}, user)
    return kept(claims, lambda c: (t := held.get(c.turn_id)) is not None
                and (scope is None or t.conversation == scope) and (not where or matches(t.metadata, where)))


def as_of_named(question: str, moment: datetime | None) -> datetime | None:
    """The moment a question about a state asks of: the end of the period it names ("Where was Priya
    living in August 2022?": what held by the end of August 2022) when that comes before ``moment``
    (the day asked), else ``moment``. Why: a state asked "in" a past month is what held then, not now."""
    named = Query.parse(question, moment).dates
    if not named:
        return moment
    until = datetime.combine(max(end for _, end in named), time.max)
    return until if moment is None or until < moment else moment


def answered(store: Store, question: str, found: list[Turn], k: int, scope: str | None, user: str | None,
             moment: datetime | None, where: Where | None) -> tuple[Answer, list[Turn]] | None:
    """``ask``'s answer from what holds (:func:`from_facts`) and the turns found, the facts' turns first
    (each value's, for several; brought in when the search missed them), read from ``store`` under the
    memory's lock, from the claims of the turns asked only (:func:`selected`); None when no fact
    answers: then the turns found are read."""
    speakers = store.speakers(scope, user) if scope is not None else []
    moment = as_of_named(question, moment)

    def search(words: str, n: int = k) -> list[Turn]:
        return [t for t, _ in store.search(Query.parse(words, moment), n, scope, user, where)]
    got = from_facts(question, found, moment, lambda p: selected(store, p, user, scope, where), speakers, search)
    a = asked(question)
    said = _said(question, found, k, speakers, moment, search) if got is None or (a and (not a.earlier or a.first)) else None
    if got is None or (said is not None and _later(said[2], got, a)):
        return (said[0], said[1]) if said else None
    facts, reply = got
    ids = list(dict.fromkeys(f.turn_id for f in facts))
    held = store.held(ids, user)
    if any(i not in held or (scope is not None and held[i].conversation != scope)
           or (where and not matches(held[i].metadata, where)) for i in ids):
        return None
    first = [held[i] for i in ids]
    found = first + [t for t in found if t.id not in {f.id for f in first}]
    cited = found[:max(k, len(first))]  # every value's turn, though k is fewer
    return Answer(reply, tuple(t.id for t in cited), FACT_CONFIDENCE, "fact", facts[0].sentence, first[0].id), found


def _later(changed: datetime | None, got: tuple[list[Fact], str], a: Asked | None) -> bool:
    """Whether the person's turns changed the attribute after the facts that answer (``got``) were said: a
    change the claims read no fact of ("And now Gdansk.", "Biscuit died"). For several values held, a change
    the same day counts ("Sold my sax... Took up the bass guitar"), and so does a reply naming no value of
    the attribute's type ("no meat"). Asked the first value, the mirror: a value named before every fact."""
    if changed is None:
        return False
    if a is not None and a.earlier:
        return all(changed < f.valid_from for f in got[0])
    facts, reply = got
    if a is not None and not named_in(a.attribute, reply) and a.attribute.split(":")[0] in LISTED:
        return all(f.valid_from <= changed for f in facts)
    if a is not None and a.attribute in MANY and len(facts) > 1:
        return all(f.valid_from <= changed for f in facts)
    return all(f.valid_from < changed for f in facts)


def _said(question: str, found: list[Turn], k: int, speakers: Sequence[str], moment: datetime | None,
          search: Callable[..., list[Turn]]) -> tuple[Answer, list[Turn], datetime | None] | None:
    """``ask``'s answer from a value of the attribute asked read off the person's own turns
    (:mod:`graphmem.memory.said`): its turn cited first, and the day the person's turns last changed
    it; None when none names one."""
    a = asked(question)
    if a is None or not asks_said(a.attribute, question):
        return None
    tail = question[m.end():] if a.earlier and (m := re.search(r"\bbefore\b", question, re.I)) else ""
    before = a.before or named_in(a.attribute, tail)  # "before relocating to Portugal": Portugal
    got = from_turns(a.attribute, people_asked(a, found, speakers, search), lambda w: search(w, SAID_DEPTH),
                     found, moment, a.earlier, a.first, before, bool(_YES_NO.match(question)))
    if got is None:
        return None
    turn, reply, changed, turns = got  # the store gives turns under the caller's names
    first = list({t.id: t for t in [turn, *turns]}.values())
    found = first + [t for t in found if t.id not in {f.id for f in first}]
    cited = tuple(t.id for t in found[:max(k, len(first))])  # every value's turn, though k is fewer
    return Answer(reply, cited, SAID_CONFIDENCE, "said", turn.text, turn.id), found, changed
