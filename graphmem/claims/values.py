"""Facts read by the meaning of the value: a place, an organisation, a job, a vehicle, an instrument, a
diet, a subject of study or a pet's name in a person's own sentence, whatever its verb.

Why beside the clause rules (:mod:`graphmem.claims.attributes`): those read a verb and its object
("moved to Porto", "work as a nurse"), and people often name the value with no such verb, or with no
verb at all: "The flat here in Leeds gets gorgeous light", "Keys go back to the landlord tomorrow and
then I'm off to Leeds for the new contract", "Still at Google", "And now Gdansk", "I took the Monzo
offer", "Traded it in for a Kia", "Dropped chemistry and transferred onto pharmacology", "pescatarian it
is", "Fontaines D.C. have taken the top spot", "so that's three grandchildren now". Here a sentence is
cut into pieces at its commas, dashes and "and then"; a piece gives a value when its words name one of
a type (WordNet's places and disciplines: :mod:`graphmem.text.wordnet_places`; the job, instrument,
vehicle, diet and animal lists of :mod:`graphmem.text.things`; a capitalised name after "at", "with",
"the ... offer") beside a light cue that says the person holds it ("here in", "still at", "first day
at", "now") or that it starts or ends ("off to", "signed the lease", "last day at", "X for Y", "instead
of", "said goodbye to", "X's gone").

Precision comes first: a piece is read only when it is the speaker's own (their sentence, about
themselves: no "you", "he", "she", "they", no one else's "my sister's"), and a value is read only
with its cue. What these rules give is added to what the clause rules read from the same sentence; a
value the clause rules gave already is not said twice (:func:`graphmem.claims.facts.timeline`).
"""

from __future__ import annotations

import re

from graphmem.claims.attributes import Said, thing
from graphmem.claims.clauses import Clause
from graphmem.claims.quality import works
from graphmem.domain import Claim
from graphmem.text.things import ANIMAL_WORDS, DIETS, INSTRUMENTS, NUMBERS, OCCUPATIONS, VEHICLES, singular
from graphmem.text.wordnet_places import PLACES, SUBJECTS

__all__ = ["sentence_said"]

_NAME = r"[A-Z][\w&'’.-]*(?:\s+(?:of\s+|de\s+|and\s+|&\s+)?[A-Z0-9][\w&'’.-]*)*"
_PIECES = re.compile(r"\s*[;:,]\s*|\s+[-–—]+\s+|\s+(?:and|but|so)\s+(?:then\s+)?(?=i\b|i'|we\b|now\b)|\.\s+", re.I)
_OTHERS = re.compile(r"\b(?:you|your|yours|he|she|his|him|her|they|their|them|my\s+(?:mum|mom|dad|sister|brother|son"
                     r"|daughter|friend|wife|husband|partner|boyfriend|girlfriend|boss|colleague|parents|kids?|cousin"
                     r"|aunt|uncle|nan|gran|grandma|grandad|flatmate|roommate|neighbou?r)'?s?)\b", re.I)
_NOT = re.compile(r"\b(?:not|no\s+longer|never|n't|anymore|any\s+more|used\s+to|would|could|might|if|maybe|hope|wish"
                  r"|want|plan|planning|thinking|considering)\b", re.I)
_TRIP = re.compile(r"\b(?:trip|holiday|vacation|weekend|conference|visit|visiting|wedding|festival|honeymoon|break"
                   r"|for\s+(?:a|the|two|three|a\s+few)\s+(?:days?|nights?|weeks?))\b", re.I)
_STAY = re.compile(r"\b(?:keys?|landlord|lease|boxes|packing|packed|movers?|removal|contract|job|post|role|position"
                   r"|for\s+good|new\s+(?:place|flat|house|home|apartment))\b", re.I)
_NOW = r"(?:\s+(?:now|at\s+last|finally|officially|as\s+of\s+\w+|from\s+today|these\s+days))*"
_JOB_HEAD = r"(?!now\b)[a-z][a-z-]*(?:\s+(?!now\b|at\b|as\b|for\b)[a-z][a-z-]*){0,2}?"


def _place(name: str) -> bool:
    return name in PLACES or name.split(" ")[0] in PLACES


def _org(name: str) -> bool:
    """A capitalised name that is no place, no pronoun and no weekday or month: an organisation, when
    said after "at", "with", "joined", "the ... offer"."""
    first = name.split(" ")[0]
    return not _place(name) and first not in ("I", "I'm", "Home", "Work", "Uni", "School", "Christmas", "Easter") \
        and not re.match(r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July"
                         r"|August|September|October|November|December", first)


def _mine(piece: str) -> bool:
    """Is the piece about the speaker (no one else named by a pronoun or as someone of theirs)?"""
    return not _OTHERS.search(piece)


def _lower(v: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"^(?:the|a|an|my|our)\s+", "", v.strip(" .,!?;:'\"").lower()))


def _said(attribute: str, value: str, text: str, **kw: bool) -> Said:
    """A statement of ``value``, shown as the clause ``text`` (its first word the verb: "work at Bosch")."""
    verb, _, obj = text.strip(" .,!?").partition(" ")
    return Said(attribute, _lower(value), Clause("", verb, False, obj), **kw)


def sentence_said(c: Claim) -> list[Said]:
    """What the claim's sentence says of its speaker by the meaning of its values (see the module
    docstring): read once a sentence, for a claim about the speaker themselves."""
    if c.subject != c.speaker and c.speaker:
        return []
    out: list[Said] = []
    sentence = c.sentence
    for piece in _PIECES.split(sentence):
        piece = piece.strip(" .!?\"'")
        if not piece or not _mine(piece):
            continue
        for rule in (_residence, _employer, _job, _swap, _gone, _study, _diet, _pet, _top, _count):
            got = rule(piece, sentence)
            if got:
                out += got
                break
    return out


def _residence(piece: str, sentence: str) -> list[Said]:
    if _NOT.search(piece):
        return []
    if m := re.search(rf"\b(?:here|back)\s+in\s+(?:the\s+)?({_NAME})", piece):
        return [_said("residence", m.group(1), f"live in {m.group(1)}")] if _place(m.group(1)) else []
    if (m := re.search(rf"\b(?:the|my|our)\s+({_NAME})\s+(?:flat|apartment|place|house|home|room|studio|condo)\b", piece)) \
            and _place(m.group(1)):
        gone = re.search(r"\b(?:keys?\s+back|hand(?:ing|ed)?\s+(?:back|over)|moving\s+out|move\s+out|moved\s+out|leaving"
                         r"|left|sold|selling|goodbye|last\s+night)\b", piece, re.I)
        return [_said("residence", m.group(1), f"live in {m.group(1)}", ends=bool(gone))]
    if (m := re.search(rf"\b(?:off|on|up|down|over|out|headed|heading)\s+(?:to|for)\s+({_NAME})", piece)) \
            and _place(m.group(1)) and _STAY.search(sentence) and not _TRIP.search(sentence):
        return [_said("residence", m.group(1), f"move to {m.group(1)}")]  # "then I'm off to Leeds for the new contract"
    if (m := re.search(rf"\b(?:signed\s+(?:the|a)\s+lease|got\s+the\s+keys|put\s+down\s+roots|settled)\b.*?\b(?:in|on|for)\s+"
                       rf"(?:a\s+[\w-]+\s+in\s+)?({_NAME})", piece, re.I)) and _place(m.group(1)):
        return [_said("residence", m.group(1), f"live in {m.group(1)}")]
    if (m := re.fullmatch(rf"(?:and\s+|so\s+)?(?:now|then)\s+({_NAME})|({_NAME})\s+now|(?:still\s+)?in\s+({_NAME})(?:\s+now)?",
                          piece)) and _place(name := next(g for g in m.groups() if g)):
        return [_said("residence", name, f"live in {name}")]  # "And now Gdansk", "Still in Leeds"
    return []


def _employer(piece: str, sentence: str) -> list[Said]:
    if re.search(r"\b(?:not|no\s+longer|never|would|could|might|if|maybe|hope|wish|want)\b", piece, re.I):
        return []
    if (m := re.match(rf"^(?:and\s+)?(?:still|now|currently)\s+(?:at|with)\s+(?:the\s+)?({_NAME})", piece)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Still at Google"
    if (m := re.match(rf"^(?:my\s+)?(first|last|final)\s+(?:day|shift|week)\s+(?:at|with)\s+(?:the\s+)?({_NAME})", piece, re.I)) \
            and _org(m.group(2)):
        return [_said("employer", m.group(2), f"work at {m.group(2)}", ends=m.group(1).lower() != "first")]
    if (m := re.match(rf"^(?:(?:another|a|my|the)\s+)?(?:shift|payday|night\s+shift|early\s+shift)\s+at\s+(?:the\s+)?({_NAME})",
                      piece, re.I)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Shift at Tesco 6 till 2"
    if (m := re.search(rf"\b(?:took|take|taking|accepted|accept|accepting|got|landed|signed|said\s+yes\s+to)\s+"
                       rf"(?:the|their|an?)\s+({_NAME})\s+(?:offer|job|role|position|contract|gig)\b", piece)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "I took the Monzo offer"
    if (m := re.search(rf"\b(?:start(?:ing|ed|s)?|begin(?:ning|s)?|began)\s+at\s+(?:the\s+)?({_NAME})", piece)) \
            and _org(m.group(1)) and not re.match(r"\d", m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Starting at Stripe on Monday"
    if (m := re.search(rf"\b(?:i'm|i\s+am|i've\s+been|been)\s+with\s+({_NAME})\b", piece, re.I)) and works(sentence) \
            and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "I'm with Stripe now, started Monday"
    if (m := re.match(rf"^({_NAME})\s+(?:made|promoted)\s+me\s+(?:an?\s+|the\s+)?({_JOB_HEAD})$", piece)) and _org(m.group(1)) \
            and m.group(2).split()[-1] in OCCUPATIONS:
        return [_said("employer", m.group(1), f"work at {m.group(1)}"),
                _said("occupation", m.group(2), f"work as {m.group(2)}")]  # "Aldi made me assistant manager"
    return []


def _job(piece: str, sentence: str) -> list[Said]:
    if re.search(r"\b(?:not|no\s+longer|never|would|could|might|if|maybe|hope|wish|want|you)\b", piece, re.I):
        return []
    if (m := re.search(rf"\b(?:took|take|taking|accepted|accept|got|landed|said\s+yes\s+to)\s+(?:the|an?)\s+({_JOB_HEAD})\s+"
                       r"(?:training\s+)?(?:offer|job|role|position|post|place|placement|apprenticeship)\b", piece, re.I)) \
            and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [_said("occupation", m.group(1), f"work as {m.group(1)}")]  # "I took the physiotherapist training offer"
    if (m := re.fullmatch(rf"(?:(?:i'm|i\s+am|now|a|an|officially|finally|newly|fully|qualified)\s+)*({_JOB_HEAD}){_NOW}",
                          piece, re.I)) and re.search(r"\b(?:now|at\s+last|officially|as\s+of|from\s+today|qualified|newly)\b",
                                                     piece, re.I) and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [_said("occupation", m.group(1), f"be {m.group(1)}")]  # "Head chef now"
    if m := re.match(r"^(?:so\s+|well\s+)?that's\s+me\s+(retired|(?:an?\s+)?[a-z]+(?:\s+[a-z]+)?)\b", piece, re.I):
        value = re.sub(r"^an?\s+", "", m.group(1).lower())
        if value == "retired" or value.split()[-1] in OCCUPATIONS:
            out = [_said("occupation", value, f"be {value}")]
            return out + ([Said("employer", "", Clause("", "retire", False, "retired"), ends=True)] if value == "retired"
                          else [])
    return []


_TYPED = (("vehicle", VEHICLES), ("instrument", INSTRUMENTS), ("diet", DIETS))
_MAKES = frozenset("tesla honda toyota ford bmw audi volkswagen vw mercedes nissan kia hyundai subaru mazda volvo jeep "
                   "chevy chevrolet fiat peugeot renault porsche lexus skoda citroen rivian polestar vespa".split())


def _kind(value: str) -> str | None:
    """The attribute a value's words say it is of: a vehicle (a vehicle word or a make), an instrument, a
    diet, a subject of study, a place; None when no list names it."""
    words = [singular(w) for w in re.findall(r"[a-z-]+", value.lower())]
    if set(words) & _MAKES or words and words[-1] in VEHICLES:
        return "vehicle"
    for attribute, listed in _TYPED:
        if words and words[-1] in listed:
            return attribute
    if value.lower() in SUBJECTS:
        return "study"
    if _place(value.strip()):
        return "residence"
    return None


def _swap(piece: str, sentence: str) -> list[Said]:
    """"Traded it in for a Kia EV6", "part-exchanged the Fiesta for a Yaris", "swapped the fiddle for a cello",
    "doing law now instead of history", "transferred onto pharmacology": the old value ends, the new starts."""
    if m := re.search(r"\b(?:traded|trade|trading|swapped|swap|swapping|part[- ]exchanged|part[- ]exed|exchanged|replaced)"
                      r"\s+(?:in\s+)?(?:the\s+|my\s+|our\s+|an?\s+)?(.+?)\s+(?:in\s+)?for\s+(?:an?\s+|the\s+)?(.+)$", piece, re.I):
        old, new = m.group(1), re.split(r"\s+(?:today|yesterday|last\s+\w+|this\s+\w+|on\s+\w+day)\b", m.group(2))[0]
        kind = _kind(new) or _kind(old)
        if kind is None:
            return []
        gone = "" if old.lower() in ("it", "her", "him", "that", "mine") else old
        return [_said(kind, gone, f"had {old}", ends=True), _said(kind, new, f"got {new}", alone=True)]
    if m := re.search(r"\b(?:doing|studying|reading|taking|playing|driving|on)\s+(?:the\s+|an?\s+)?([a-z][\w -]*?)\s+(?:now\s+)?"
                      r"instead\s+of\s+(?:the\s+|an?\s+)?([a-z][\w -]*)$", piece, re.I):
        kind = _kind(m.group(1)) or _kind(m.group(2))
        if kind is not None:
            return [_said(kind, m.group(2), f"had {m.group(2)}", ends=True),
                    _said(kind, m.group(1), f"do {m.group(1)}", alone=True)]  # "I'm doing law now instead of history"
    if (m := re.search(r"\b(?:transferred|transferring|switched|switching|moved|changed)\s+(?:over\s+)?(?:onto|to|into)\s+"
                       r"(?:an?\s+|the\s+)?([a-z][a-z -]*?)(?:\s+(?:degree|course|programme|program|major))?$", piece, re.I)) \
            and m.group(1).lower() in SUBJECTS:
        return [_said("study", m.group(1), f"study {m.group(1)}", alone=True)]  # "transferred onto pharmacology"
    return []


def _gone(piece: str, sentence: str) -> list[Said]:
    """"said goodbye to Biscuit", "the Transit's gone": whatever value of the person's it names ends."""
    if m := re.search(r"\b(?:said|say|saying)\s+(?:goodbye|good-bye|farewell)\s+to\s+(?:the\s+|my\s+|our\s+|old\s+)*"
                      r"([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)*)", piece, re.I):
        return [_said("*", m.group(1), f"said goodbye to {m.group(1)}", ends=True)]
    if m := re.match(r"^(?:and\s+)?(?:the\s+|my\s+|our\s+|old\s+)*([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(?:'s|’s|\s+is|\s+has)\s+"
                     r"(?:gone|sold|history|been\s+sold)$", piece):
        return [_said("*", m.group(1), f"{m.group(1)} gone", ends=True)]
    return []


def _study(piece: str, sentence: str) -> list[Said]:
    if m := re.search(r"\b(?:dropped|quit|dropping)\s+(?:out\s+of\s+)?(?:my\s+|the\s+)?([a-z][a-z ]*?)(?:\s+(?:degree|course|"
                      r"module|major))?$", piece, re.I):
        if m.group(1).lower() in SUBJECTS:
            return [_said("study", m.group(1), f"dropped {m.group(1)}", ends=True)]
    return []


def _diet(piece: str, sentence: str) -> list[Said]:
    """"pescatarian it is", "so pescatarian I guess", "pescatarian from today", "Vegan for a year now"."""
    low = piece.lower()
    if re.search(r"\b(?:not|no\s+longer|never|n't|anymore|used\s+to|restaurant|food|options?|menu|recipes?|friends?|place"
                 r"|cafe|meal|dish|dishes|cheese|version)\b", low):
        return []
    if m := re.fullmatch(r"(?:so\s+|now\s+|and\s+|officially\s+|fully\s+|back\s+to\s+being\s+)*([a-z-]+)(?:\s+(?:it\s+is|i\s+guess"
                         r"|i\s+suppose|now|from\s+today|from\s+now\s+on|these\s+days|for\s+(?:a|one|two|three|\w+)\s+\w+"
                         r"(?:\s+now)?|again|officially))*", low):
        if m.group(1) in DIETS:
            return [_said("diet", m.group(1), f"be {m.group(1)}")]
    return []


def _pet(piece: str, sentence: str) -> list[Said]:
    """"there's a kitten, Pepper", "a beagle called Mabel", "her name is Pepper" (after an animal)."""
    if m := re.search(r"\b(?:an?|new|little|the)\s+([a-z]+)\s+(?:called|named)\s+([A-Z][\w'-]+)", piece):
        if singular(m.group(1)) in ANIMAL_WORDS:
            return [_said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}")]
    if (m := re.match(r"^(?:(?:[Aa]nd\s+)?[Nn]ow\s+)?[Tt]here's\s+(?:an?\s+|the\s+)?(?:new\s+|little\s+)?([a-z]+)$", piece)) \
            and singular(m.group(1)) in ANIMAL_WORDS and (n := re.search(rf"\b{m.group(1)},\s+([A-Z][\w'-]+)", sentence)):
        return [_said("pet", n.group(1), f"have a {singular(m.group(1))} {n.group(1)}")]
    return []


def _top(piece: str, sentence: str) -> list[Said]:
    """"Fontaines D.C. have taken the top spot": the favourite said before has a new value."""
    if m := re.match(rf"^({_NAME})\s+(?:has|have|'s|’s)\s+(?:now\s+)?(?:taken|claimed|grabbed|stolen)\s+(?:over\s+)?(?:the\s+)?"
                     r"(?:top\s+spot|number\s+one\s+spot|crown|top\s+of\s+the\s+list)", piece):
        return [_said("favourite:it", m.group(1), f"favourite: {m.group(1)}")]
    return []


def _count(piece: str, sentence: str) -> list[Said]:
    """"so that's three grandchildren now", "which makes four cats"."""
    nums = "|".join(sorted(NUMBERS, key=len, reverse=True))
    if m := re.match(rf"^(?:so\s+|and\s+)?(?:that's|that\s+is|that\s+makes|which\s+makes|making\s+it)\s+(\d+|{nums})\s+"
                     r"(?:\w+\s+)??([a-z]+)$", re.sub(r"\s+now$", "", piece), re.I):
        figure = NUMBERS.get(m.group(1).lower(), m.group(1))
        return [_said(f"count:{thing(m.group(2))}", figure, f"have {m.group(1)} {m.group(2)}")]
    return []
