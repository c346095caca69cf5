"""The values of an attribute a sentence names, and the ones it says ended: typed, not by verb.

Why: a person's facts (:mod:`graphmem.claims.facts`) are read from the claim reader's clauses, and a
turn it reads no claim from ("Porto is home now, finally.", "Handed in my notice at Spotify. Starting at
Stripe Monday", "Felix and I broke up; seeing Ravi now") gives no fact, so ``ask`` read a fragment of
some turn ("Feels") or abstained. What such turns still hold is a value of the kind the question asks:
a place for where one lives, an organisation for whom one works, a person's name for a partner, an
animal, a vehicle, an instrument, a subject, a diet, a job, a number. So each attribute has a *type*
of value, told by word lists (:mod:`graphmem.text.things`; the places and subjects WordNet names,
:mod:`graphmem.text.wordnet_places`) and by capitalised names said next to the attribute's own cue
words ("moved", "home", "based" for a place; "joined", "at", "hired" for an organisation), and a
sentence's values are read clause by clause:

- a value is *ended* when a word that ends a thing comes just before it, with no other value between
  ("left Google", "sold the Civic", "broke up with Felix", "swapped the violin for...", "gave up keto",
  "from Lisbon to Porto", "instead of law", "used to keep rabbits", "my ex, Tom") or just after it
  ("Felix and I broke up", "Bruno passed away", "no car anymore");
- the clause's value is its last value not ended ("swapped the violin for the cello": the cello),
  in a clause of the speaker's own (the first person, or no other subject: "Porto is home now"),
  not one about someone else ("my sister lives in Leeds").

A word naming the attribute itself ("car", "job", "pet") ended ends whatever value it held ("I don't
have a car anymore"). :mod:`graphmem.memory.said` orders the values of a person's turns in time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from graphmem.claims.values import subject_ended
from graphmem.text.sentences import sentences
from graphmem.text.wordnet_places import PLACES_AMBIGUOUS, SUBJECTS
from graphmem.text.wordnet_places import PLACES as _NAMED
from graphmem.text.lemma import finite, verbish
from graphmem.text.terms import stem
from graphmem.text.lexicon import GREET, HUMANS, INTERJ, NOT_NAMES, TIME_ADV, wordset
from graphmem.text.things import (ANIMAL_WORDS, DIETS, INSTRUMENTS, LANGUAGES, MAKES, OCCUPATIONS, SUBJECTS_SAID, VEHICLES,
                                   singular)

__all__ = ["CATEGORY", "CLAUSE", "LISTED", "OPENERS", "SAID_WITH", "TOKEN", "SentenceValues", "ended_event", "mentioned_ended",
           "named_in", "read", "same_value", "subject_ends", "typed"]

PLACES = _NAMED | PLACES_AMBIGUOUS
"""The places WordNet names, "Reading" and "Georgia" too: a place here is read beside the attribute's cue
words ("moved to Reading"), never as a name opening a sentence."""
_SUBJECTS = SUBJECTS | SUBJECTS_SAID
_DIETS = DIETS | wordset("""plant-based low-carb carnivore whole30 mediterranean gluten dairy sugar-free
    pescetarian raw-vegan""") | {"intermittent fasting", "gluten free", "dairy free", "plant based", "low carb",
                                 "no meat", "meat"}
_VEHICLE_NOUNS = VEHICLES | wordset("bicycle bike ebike e-bike motorbike motorcycle scooter vespa tesla")
_LISTS: dict[str, frozenset[str]] = {
    "occupation": OCCUPATIONS | wordset("retired unemployed self-employed"),
    "instrument": INSTRUMENTS, "diet": frozenset(_DIETS), "language": LANGUAGES,
    "study": frozenset(_SUBJECTS) | LANGUAGES, "pet": ANIMAL_WORDS, "vehicle": frozenset(_VEHICLE_NOUNS),
}
"""The attributes a word list names a value of (a pet by its animal, a vehicle by its kind)."""
LISTED = frozenset(_LISTS)
"""Those attributes: a reply naming no word of the list is no value of the attribute (``ask``'s rule)."""
NAMED = frozenset({"residence", "employer", "partner", "pet", "vehicle"})
"""The attributes a capitalised name is a value of, next to the attribute's cue words."""
_CUES = {
    "residence": r"live|lives|living|lived|moved|move|moving|relocat\w*|home|based|settled|settling|flat|apartment"
                 r"|house|rent\w*|city|town|emigrat\w*|neighbou?rhood|from|stay\w*|still|here|back|posting|posted|flying out|out in|over in|expat|keys"
                 r"|landlord|unpacked|unpacking|lease",
    "employer": r"work\w*|job|joined|join|joining|hired|employ\w*|start\w*|role|position|intern\w*|office|company"
                r"|firm|notice|offer|contract|poached|laid|quit|left|leaving|boss|gig|staff|team|at|for",
    "partner": r"dating|date|dated|seeing|boyfriend|girlfriend|bf|gf|partner|husband|wife|married|marry|marrying"
               r"|engaged|fianc\w*|relationship|together|broke|split|dumped|anniversary|wedding|proposed|quits"
               r"|met someone|seeing each other|seeing someone|moving in|moved in|divorce\w*|date night|kissed",
    "pet": r"named|called|name|adopted|rescued|got|have|has|our|my",
    "vehicle": r"drive\w*|drove|car|bought|got|getting|lease\w*|sold|traded|ride|rides|riding|ev|electric|hybrid"
               r"|upgraded|swapped|new|owns?|van|truck|wheels|mot|mileage|engine|tyres?|tires?|garage|park\w*|petrol|diesel"
               r"|mechanic|service[d]?|insurance|motor",
}
SAID_WITH = {
    "residence": "live living moved home based relocated city flat apartment house settled",
    "employer": "work job joined hired company started office notice offer role",
    "partner": "dating seeing boyfriend girlfriend partner husband wife married engaged broke up together",
    "pet": "pet dog cat puppy kitten adopted named called rescue",
    "vehicle": "car drive driving bought sold traded van truck bike electric",
    "study": "study studying major degree course university uni college switched",
    "count": "have got", "favourite": "favourite favorite fave best", "other": "",
    "frequency": "once twice times week day every daily",
}
"""The words an attribute's values are said with: what a search for a person's sayings of it looks for."""
_CUE_RE = {k: re.compile(rf"\b(?:{v})\b", re.I) for k, v in _CUES.items()}
CATEGORY = {"vehicle": wordset("car vehicle wheels"), "pet": wordset("pet pets animal animals"),
            "occupation": wordset("job work"), "partner": wordset("partner relationship boyfriend girlfriend"),
            "instrument": wordset("instrument"), "study": wordset("course degree studies"), "diet": wordset("diet"),
            "employer": wordset("job company"), "residence": wordset("place")}
"""The words naming an attribute itself: ended, they end whatever value it held."""

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&.-]*[A-Za-z0-9]|[A-Za-z0-9]")
_CLAUSE = re.compile(r"[.;:!?]+(?:\s|$)|,\s*(?:but|and|so|then|now)\b|\s(?:but|and now|so now|and then)\s"
                     r"|(?<!\bme)(?<!\bi)\sand\s(?!i\b|me\b)|\s[-–—]+\s|\n", re.I)
_COMMA = re.compile(_CLAUSE.pattern + r"|,", re.I)
"""Clauses of a sentence whose values a list names: every comma parts two ("Bass is good too, we need one")."""
_ENDS = wordset("""no not never quit quitting left leave leaving sold selling sell stopped stop stopping from ex
    gave give giving ditched ditching dropped drop dropping former formerly than goodbye farewell swapped swap notice
    swapping traded trade trading replaced replace replacing broke breaking split dumped divorced lost rehomed
    exchanged used instead past retired farewelled outgrew unlike""")
_ENDS_AFTER = wordset("anymore died passed broke split gone sold behind rip departed wasn't isn't wasnt isnt")
_PAIRS = {("so", "long"), ("bye", "bye"), ("got", "rid"), ("get", "rid"), ("getting", "rid"), ("split", "from"),
          ("moved", "out"), ("handed", "notice"), ("my", "notice"), ("resignation", "to"), ("notice", "to"),
          ("last", "day"), ("done", "with"), ("goodbye", "to"), ("farewell", "to"), ("bye", "to"), ("up", "with"), ("let", "go"), ("laid", "off"), ("hung", "up")}
"""Two words that end the value after them ("so long old Ford", "got rid of the Focus", "my notice at Spotify")."""
_PARTNER_BEFORE = wordset("""with dating seeing date dated married marry marrying to named called and boyfriend girlfriend
    husband wife partner fiance fiancee fiancé fiancée bf gf ex name that's thats someone""")
_AT_WORK = re.compile(r"\b(?:work\w*|job|shifts?|rota|office|boss|manager|colleagues?|payday|contract|hired|employ\w*"
                      r"|salary|promot\w*|reorg|canteen|lanyard|induction|desk)\b", re.I)
_EMPLOYER_BEFORE = wordset("at for joined join joining with by to left quit from hired poached leaving")
_VEHICLE_BEFORE = wordset("a an the my our old new his her drive drives drove driving bought got sold selling in ride"
                          " rides riding own owns leased traded swapped")
_COMMENT = wordset("is are was were sounds sound seems seem looks look")
_CONTRACTIONS = wordset("it's he's she's there's here's let's that's")
_HIRES = wordset("hired hires made offered offers took poached signed headhunted recruited employs")
_OPENERS = TIME_ADV | INTERJ | GREET | wordset("big quick update news officially sadly anyway")
_NOT_ENDS = {("than", "other"), ("than", "rather"), ("from", "offer"), ("from", "call"), ("from", "email"),
             ("from", "recruiter"), ("from", "hired")}
"""An ending word after these is none ("other than", "an offer from DHL")."""
_STOP = wordset("for to with into by then now")
"""Words a change's new value follows ("swapped X for Y", "from X to Y"): an end before them is not Y's."""
_FIRST_PERSON = wordset("i i'm i've i'd i'll im ive we we're we've my our me us")
_SUBJECT = wordset("i i'm i've i'd i'll im ive we we're we've")
"""The speaker as a clause's subject ("I play the flute", not "our band needs a sax")."""
_THIRD = wordset("he she they he's she's they're his her their")


@dataclass
class SentenceValues:
    """A sentence's value of an attribute, the values it ends (in the order said), as written. (Not the
    claims' :class:`graphmem.claims.attributes.Said`, a statement read from a clause.)"""

    value: str | None = None
    ended: list[str] = field(default_factory=list)
    weak: bool = False
    """Whether the value was only commented on, in no clause of the first person ("Bass is good too"):
    it holds, but adds no value to several held."""
    ends: list[str] = field(default_factory=list)
    """Names it says ended that are of no type it knows ("We lost Bruno", "Biscuit died"): they end a
    value of that name held before, and are no value themselves."""


_SHORT = {"sax": "saxophone", "uke": "ukulele", "math": "mathematics", "maths": "mathematics", "bike": "bicycle",
          "drum": "drums", "keys": "keyboard", "vet": "veterinarian", "physio": "physiotherapist", "sf": "san francisco",
          "nyc": "new york", "la": "los angeles"}
"""Short names of a value and the name they shorten, so that both are one value."""


def same_value(a: str, b: str) -> bool:
    """Whether two values name one thing: one's words are all in the other ("Civic", "Honda Civic"), a
    short name meeting its long one ("sax", "saxophone")."""
    x = {singular(_SHORT.get(w, w)) for w in re.findall(r"[a-z0-9]+", a.lower())}
    y = {singular(_SHORT.get(w, w)) for w in re.findall(r"[a-z0-9]+", b.lower())}
    return bool(x) and bool(y) and (x <= y or y <= x)


def _named(tokens: list[str], i: int) -> int:
    """The end of a name starting at ``tokens[i]`` (capitalised words, and the model numbers after a
    brand: "Ford F-150", "Model 3"), or ``i`` when it is no name."""
    j = i
    if i == 0 and (verbish(tokens[0].lower()) or tokens[0].lower() in _OPENERS or tokens[0].lower().endswith("ly")):
        return i  # a clause's first word, capitalised as any is: "Married Emeka yesterday", "Honestly"
    while j < len(tokens) and tokens[j][:1].isupper() and tokens[j].lower() not in NOT_NAMES \
            and tokens[j].lower().replace("’", "'") not in _CONTRACTIONS \
            and not tokens[j].lower().startswith(("i'", "i’")) and tokens[j].lower() not in _FIRST_PERSON:
        j += 1
    if j > i:
        while j < len(tokens) and (tokens[j][:1].isdigit() or re.fullmatch(r"[A-Z]+-?\d+\w*", tokens[j])):
            j += 1
    return j


def _listed(low: list[str], i: int, words: frozenset[str]) -> int:
    """The end of the longest listed phrase (up to three words) starting at ``low[i]``, or ``i``."""
    for n in (3, 2, 1):
        phrase = " ".join(low[i:i + n])
        if len(low[i:i + n]) == n and (phrase in words or (n == 1 and singular(phrase) in words)):
            return i + n
    return i


def _low(tokens: list[str]) -> list[str]:
    """The tokens in lower case, a possessive's "'s" dropped ("Truck's in the shop": truck)."""
    return [re.sub(r"['’]s$", "", t.lower()) for t in tokens]


def _candidates(attribute: str, tokens: list[str], cued: bool, animals: bool = False) -> list[tuple[int, int]]:
    """Spans of ``tokens`` that are values of ``attribute``: listed words, or names in a sentence that
    says one of its cues (``cued``)."""
    low = _low(tokens)
    words = _LISTS.get(attribute, frozenset())
    named = attribute in NAMED and cued
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        end = _listed(low, i, words) if words else i
        if end == i and (named or (attribute == "vehicle" and low[i] in MAKES)):
            end = _named(tokens, i)
            name = " ".join(tokens[i:end])
            if end > i and not _fits(attribute, name, low, i, animals):
                end = i
        if end == i and attribute == "occupation":
            end = _job(low, i)
        if end > i:
            spans.append((i, end))
            i = end
        else:
            i += 1
    return spans


_AGENT = re.compile(r"[a-z]{3,}(?:er|or|ist|ian|ant|ent|man|woman|person|ologist|wright|smith)$")
_AS_A = wordset("i'm im am as officially became become now qualified trained work working job")


def _job(low: list[str], i: int) -> int:
    """The end of a job no list names, said as one ("I'm a dispatcher now", "work as a sound engineer"):
    after "a"/"an" that follows "I'm", "as", "became"..., an agent noun (-er, -or, -ist, -ian...), with one
    word before it ("driving instructor"); ``i`` when none starts at ``low[i]``."""
    if i < 2 or low[i - 1] not in ("a", "an") or low[i - 2] not in _AS_A:
        return i
    head = low[i] if i < len(low) else ""
    return i + 1 if _AGENT.match(head) and head not in _NOT_JOBS else i


_NOT_JOBS = wordset("""member number winner beginner loser fan lover user customer partner mother father brother
    sister daughter other together forever never whatever corner dinner summer winter weather letter center centre
    parent patient resident student client friend""")


def _fits(attribute: str, name: str, low: list[str], i: int, animals: bool = False) -> bool:
    """Whether a capitalised name at ``low[i]`` is of the attribute's type: a place (listed, or after
    "in", "to", "from") for a residence, no place for an employer or a person, a name after a naming
    word for a pet."""
    before = low[i - 1] if i > 0 else ""
    place = name in PLACES
    if attribute == "residence":
        return place or before in ("in", "to", "from", "near", "outside")
    if attribute == "pet":
        if i == 0 and low[1:2] and (finite(low[1]) or low[1] in ("a", "an", "the", "my", "our")) and not place \
                and name.lower() not in HUMANS:
            return animals or low[1] in ("a", "an")  # "Pickle ate a sock. beagles!", "Tofu, a ginger lad"
        named = before in ("named", "called") or low[max(0, i - 2):i] == ["name", "is"]
        return named or (not place and i > 0 and name.lower() not in HUMANS and any(w in ANIMAL_WORDS for w in low))
    if attribute == "vehicle":
        first = name.split()[0].lower()
        return not place and name.lower() not in HUMANS and (first in MAKES or (
            before in _VEHICLE_BEFORE and not (name.isupper() and len(name) <= 3)))
    if attribute == "partner":
        return not place and (i == 0 or before in _PARTNER_BEFORE) and len(name.split()) <= 2
    if before == "the" and animals and not place:
        return True  # "the BBC rota is cursed": a turn about work names the place of it
    if before == "the" and i > 1:
        before = low[i - 2]
    if i == 0 and low[1:2] and low[1] in _HIRES:
        return not place  # "Saatchi made me an offer", "Monzo hired me"
    if i == 0 and animals and not place and low[1:2] and low[1] in ("is", "on", "from", "starting", "rota") \
            and low[2:3] not in (["my"], ["our"], ["a"], ["an"], ["the"]):
        return True  # "Deloitte is long hours", "Mott MacDonald on Monday", in a turn about work
    return (not place or before in ("at", "for", "joined")) and before in _EMPLOYER_BEFORE  # "at Tesco", "joined Monzo"


def _ended(low: list[str], spans: list[tuple[int, int]], k: int) -> bool:
    """Whether the value at ``spans[k]`` is ended by the words around it (the module's rules)."""
    start, end = spans[k]
    lo = spans[k - 1][1] if k > 0 else 0
    for j in range(start - 1, max(lo, start - 5) - 1, -1):
        if low[j] in _ENDS or (j > 0 and (low[j - 1], low[j]) in _PAIRS):
            return not (j > 0 and (low[j], low[j - 1]) in _NOT_ENDS)
        if low[j] in _STOP:
            break
        if j > 0 and low[j - 1] == "instead" and low[j] == "of":
            return True
    hi = spans[k + 1][0] if k + 1 < len(spans) else len(low)
    after = low[end:min(hi, end + 5)]
    return any(w in _ENDS_AFTER and (w != "passed" or low[end + x + 1:end + x + 2] in (["away"], ["on"]))
               for x, w in enumerate(after))  # "the MOT passed" ends nothing; "Bruno passed away" does


_CHANGE_VERBS = wordset("""switched switch switching moved move moving transferred transfer changed change swapped
    relocated relocating converted went gone upgraded""")


def _changed_to(low: list[str], a: int) -> bool:
    """Whether the value at ``low[a]`` is what a change went to ("switched to pharmacy", "changed my major
    to computer science", "moved over to KPMG"): after "to" or "into", a verb of change just before."""
    j = a - 1
    while j >= 0 and low[j] in ("the", "a", "an", "my", "our"):
        j -= 1
    return j >= 1 and low[j] in ("to", "into") and any(w in _CHANGE_VERBS for w in low[max(0, j - 4):j])


def _own(low: list[str]) -> bool:
    """Whether a clause may be the speaker's own: in the first person, or with no other person as its
    subject ("my sister lives in Leeds", "he drives a Golf" are not)."""
    kin = any(w in ("my", "our") and low[k + 1:k + 2] and low[k + 1] in HUMANS for k, w in enumerate(low))
    if any(w in _FIRST_PERSON for w in low) and not (kin and not any(w in _SUBJECT for w in low)):
        return True  # "my neighbour's rabbit Biscuit" is the neighbour's
    return not any(w in _THIRD or w in HUMANS for w in low[:3])


@lru_cache(maxsize=8192)
def read(attribute: str, text: str) -> SentenceValues:
    """The value of ``attribute`` ``text`` names and the values it ends (the module's rules): the value a
    change went to, else the last one not ended of a clause said in the first person, else of a clause of
    the speaker's own with no person named (``weak``: "Tacoma handles the trailer great")."""
    family = attribute.split(":")[0]
    out = SentenceValues()
    animals = (family == "pet" and any(w in ANIMAL_WORDS for w in _low(_TOKEN.findall(text)))) \
        or (family == "employer" and bool(_AT_WORK.search(text)))  # the attribute's strong cue: an animal, work
    cued = family in NAMED and (bool(_CUE_RE[family].search(text)) or animals)
    got: dict[str, str] = {}  # "target", "mine", "weak", "place": the values of each standing
    for clause in (_CLAUSE if family in NAMED else _COMMA).split(text):
        _clause(family, clause, cued, out, got, animals)
    out.value = got.get("target") or got.get("mine") or got.get("other") or got.get("weak")
    out.weak = out.value is not None and out.value == got.get("weak") and not ({"target", "mine", "other"} & set(got))
    if family == "residence" and "place" in got and (out.value is None or out.value not in PLACES):
        out.value, out.weak = got["place"], False  # a place WordNet names before one it does not ("Washington Park")
    return out


def _clause(family: str, text: str, cued: bool, out: SentenceValues, got: dict[str, str], animals: bool = False) -> None:
    """Read one clause's values into ``got`` (by standing) and its endings into ``out``."""
    tokens = _TOKEN.findall(text)
    asks = text.rstrip().endswith("?")
    low = _low(tokens)
    spans = _candidates(family, tokens, cued, animals)
    other = not _own(low)
    own = not other and not asks
    mine = own and any(w in _SUBJECT for w in low)
    category = CATEGORY.get(family, frozenset())
    for k, (a, b) in enumerate(spans):
        value = " ".join(tokens[a:b])
        shown = _pet(tokens, low, a, b, text) if family == "pet" else value
        if _ended(low, spans, k):
            out.ended.append(value)
        elif not own or low[a] in category:
            if family == "residence" and value in PLACES and not other:
                got.setdefault("place", value)  # "hikes near Denver? I live there": a place beside the saying
        elif _changed_to(low, a):
            got["target"] = shown
        elif family == "pet" and low[a] in ANIMAL_WORDS and any(
                tokens[x][:1].isupper() and low[x] not in ANIMAL_WORDS for x, _ in spans):
            continue  # "Walking Bruno..., the old dog": the name, with its animal
        else:
            comment = b < len(low) and low[b] in _COMMENT  # "Bass is good too": said of the thing, not of one's own
            got["mine" if mine else "weak" if comment else "other"] = shown
            if family == "residence" and value in PLACES:
                got["place"] = value
    for j, w in enumerate(low):
        inside = any(a <= j < b for a, b in spans)
        if inside or not _ended(low, [(j, j + 1)], 0):
            continue
        if family in NAMED and tokens[j][:1].isupper() and w not in NOT_NAMES:
            out.ends.append(tokens[j])
        elif not spans and w in category:
            out.ended.append(w)
        elif family in _LISTS and (kin := _stems(family).get(stem(w))):
            out.ended.append(kin)  # "no more drumming" ends the drums


@lru_cache(maxsize=16)
def _stems(family: str) -> dict[str, str]:
    """Each listed one-word value of ``family`` by its stem: an ending is heard in another form of the word."""
    return {stem(w): w for w in _LISTS[family] if " " not in w}


def _pet(tokens: list[str], low: list[str], a: int, b: int, clause: str = "") -> str:
    """A pet as a reply, a phrase of its clause: its animal and name together when they are said within
    a few words ("a beagle called Mabel", "Miso, my tabby"), else what was said."""
    value = " ".join(tokens[a:b])
    near = [j for j in range(max(0, a - 4), min(len(tokens), b + 4)) if j < a or j >= b]
    if low[a] in ANIMAL_WORDS:
        other = next((j for j in near if j >= b and tokens[j][:1].isupper() and low[j] not in NOT_NAMES), None)
    else:
        other = next((j for j in near if low[j] in ANIMAL_WORDS and low[j] not in CATEGORY["pet"]), None)
    if other is None or not clause:
        return value
    first, last = (tokens[a], tokens[other]) if other >= b else (tokens[other], tokens[b - 1])
    m = re.search(re.escape(first) + r"[^.!?;]{0,40}?" + re.escape(last), clause)
    return m.group(0) if m else value


def named_in(attribute: str, text: str) -> str:
    """The last value of ``attribute`` ``text`` names, whoever it is of and ended or not ("relocating to
    Portugal": Portugal), or "": what a question names after "before"."""
    family = attribute.split(":")[0]
    if family not in _LISTS and family not in NAMED:
        return ""
    tokens = _TOKEN.findall(text)
    spans = _candidates(family, tokens, True)
    return " ".join(tokens[spans[-1][0]:spans[-1][1]]) if spans else ""


_ENDED_EVENTS = {
    "partner": re.compile(r"\b(?:divorce(?:d)?|broke up|break-?up|split up|separated|called it off|dumped me|we're done"
                          r"|we are done|are done|ended it|ended things|moved (?:her|his) stuff out)\b", re.I),
    "employer": re.compile(r"\b(?:laid off|made redundant|got fired|was fired|got sacked|handed in my notice|resigned"
                           r"|quit my job|left my job|retired)\b", re.I),
    "vehicle": re.compile(r"\b(?:sold (?:the|my) car|car (?:was|got) (?:written off|stolen)|written off|scrapped)\b", re.I),
}
"""Events that end an attribute's value without naming it ("the divorce came through", "got laid off")."""


def ended_event(attribute: str, text: str) -> bool:
    """Whether ``text`` tells an event that ends the attribute's value (:data:`_ENDED_EVENTS`)."""
    rx = _ENDED_EVENTS.get(attribute.split(":")[0])
    return bool(rx and rx.search(text))


def mentioned_ended(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` in any case ("chloe and i broke up") where the words around it end it."""
    tokens = _TOKEN.findall(text)
    low = _low(tokens)
    want = [w.lower() for w in _TOKEN.findall(value)]
    n = len(want)
    return any(low[i:i + n] == want and (any(w in _STRONG for w in low[max(0, i - 3):i])
                                         or any(w in _ENDS_AFTER for w in low[i + n:i + n + 5]))
               for i in range(len(low) - n + 1)) if n else False


def subject_ends(attribute: str, text: str, value: str) -> bool:
    """Whether a sentence of ``text`` ends ``value`` of ``attribute`` with the value as its subject ("Mo
    passed away in his sleep", "Felix moved out", "we split": :func:`graphmem.claims.values.subject_ended`)."""
    kind = attribute.split(":")[0]
    return any(s.attribute in ("*", kind) and (same_value(s.value, value) if s.value else s.attribute == kind)
               for sentence in sentences(text) for s in subject_ended(sentence))


_STRONG = wordset("left leaving quit sold dumped divorced goodbye farewell lost rehomed ditched")
"""Words that end the value after them wherever it is said (not "from", "than", "no": "a friend from leeds")."""


def typed(attribute: str) -> bool:
    """Whether a value of ``attribute`` is read off a sentence by its type: by this module (a list's word, a
    name beside the attribute's cues), or, for counts, favourites, frequencies and habits, by
    :mod:`graphmem.memory.tallies` and :mod:`graphmem.memory.habits`."""
    return attribute.split(":")[0] in _LISTS or attribute in NAMED or attribute.startswith(("count:", "favourite:", "other:", "frequency:"))


CLAUSE, TOKEN, OPENERS = _CLAUSE, _TOKEN, _OPENERS
"""The clause splitter, token pattern and clause openers, for the readers of counts and favourites
(:mod:`graphmem.memory.tallies`)."""
