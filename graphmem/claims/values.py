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
from collections.abc import Callable

from graphmem.claims.attributes import Said, thing
from graphmem.claims.clauses import Clause, trim
from graphmem.claims.quality import works
from graphmem.domain import Claim
from graphmem.text.things import ANIMAL_WORDS, DIETS, INSTRUMENTS, NUMBERS, OCCUPATIONS, VEHICLES, singular
from graphmem.text.wordnet_places import PLACES, SUBJECTS

__all__ = ["sentence_said"]

_NAME = r"[A-Z][\w&'’.-]*(?:\s+(?:of\s+|de\s+|and\s+|&\s+)?[A-Z0-9][\w&'’.-]*)*"
_PIECES = re.compile(r"\s*[;:,]\s*|\s+[-–—]+\s+|\s+(?:and|but|so)\s+(?:then\s+)?(?=i\b|i'|we\b|now\b)|(?<!(?-i:[A-Z]))\.\s+", re.I)
_OTHERS = re.compile(r"\b(?:you|your|yours|he|she|his|him|her|they|their|them|my\s+(?:mum|mom|dad|sister|brother|son"
                     r"|daughter|friend|wife|husband|partner|boyfriend|girlfriend|boss|colleague|parents|kids?|cousin"
                     r"|aunt|uncle|nan|gran|grandma|grandad|flatmate|roommate|neighbou?r)'?s?)\b", re.I)
_NOT = re.compile(r"\b(?:not|no\s+longer|never|n't|anymore|any\s+more|used\s+to|would|could|might|if|maybe|hope|wish"
                  r"|want|plan|planning|thinking|considering)\b", re.I)
_REASON = re.compile(r"\bfor\s+(?:my|our)\s+\w+(?:'s|’s)\s+(?:new\s+)?(?:job|work|career|studies|course|health|family)\b", re.I)
"""A reason that names someone else ("relocated to Brighton for my partner's job"): the move is still the speaker's."""
_DWELLING = re.compile(
    r"\b(?i:(?:my|our|home\s+(?:these\s+days\s+|now\s+)?is)\s+(?:an?\s+)?(?:(?:new|own|tiny|little|small|first|rented|shared)\s+)*"
    r"(?:flat|apartment|place|house|home|cottage|condo|studio|bedsit|room)\s+(?:here\s+)?in)\s+(" + _NAME + r")"
    r"|\b(?i:(?:life|neighbou?rs|address|commute|landlord|local\s+\w+|new\s+life|postcode|zip\s+code|rent|renting|unpacked|settled)"
    r"\s+(?:(?:here|is|now)\s+)*(?:in|from\s+(?:my|our)\s+\w+\s+\w+\s+in)\s+(?:the\s+)?)(" + _NAME + r")")
"""Where a person lives, said by what they have there: "our flat in Paris", "life in Berlin", "renting in Hackney"."""
_TRIP = re.compile(r"\b(?:trip|holiday|vacation|weekend|conference|visit|visiting|wedding|festival|honeymoon|break"
                   r"|for\s+(?:a|the|two|three|a\s+few)\s+(?:days?|nights?|weeks?))\b", re.I)
_STAY = re.compile(r"\b(?:keys?|landlord|lease|boxes|packing|packed|movers?|removal|contract|job|post|role|position"
                   r"|for\s+good|new\s+(?:place|flat|house|home|apartment))\b", re.I)
_NOW = r"(?:\s+(?:now|at\s+last|finally|officially|as\s+of\s+\w+|from\s+today|these\s+days))*"
_JOB_HEAD = r"(?!now\b)[a-z][a-z-]*(?:\s+(?!now\b|at\b|as\b|for\b)[a-z][a-z-]*){0,2}?"


_CAPITAL = re.compile(r"(?:^|\s)(?!I\b|I'|I’)[A-Z]")
_KEYS = OCCUPATIONS | VEHICLES | INSTRUMENTS | DIETS | ANIMAL_WORDS | {w for x in SUBJECTS for w in x.split()} | frozenset("""
    single over done gone rip lost buried died passed promoted nursing teaching teach lecture plant-based meat fish dairy
    gluten sugar eggs drumming favourite favorite fav fave top that's makes making degree course major student school
    exams exam classes class semester apprenticeship flat apartment place house home life neighbours neighbors address
    commute landlord rent renting unpacked settled lease keys moved moving relocated live living lived based employer
    company contract offer job role shift payday married engaged date dates anniversary proposed traded swapped exchanged
    part-exchanged replaced instead switched changed transferred goodbye farewell sold ride wheels law medicine nursing
    midwifery music art design dentistry pharmacy computing plumbing""".split()) | frozenset(NUMBERS) | frozenset(
    str(i) for i in range(100))
"""The words a rule here needs one of, when the sentence names nothing with a capital."""


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
    verb, _, obj = trim(text.strip(" .,!?")).partition(" ")
    value = _lower(trim(value))
    return Said(attribute, singular(value) if attribute == "instrument" else value, Clause("", verb, False, obj), **kw)


def sentence_said(c: Claim) -> list[Said]:
    """What the claim's sentence says of its speaker by the meaning of its values (see the module
    docstring): read once a sentence, for a claim about the speaker themselves."""
    if c.subject != c.speaker and c.speaker:
        return []
    sentence = c.sentence
    if not _CAPITAL.search(sentence) and not set(re.findall(r"[a-z][a-z'-]*|\d+", sentence.lower())) & _KEYS:
        return []  # no name and no word of a type or of a cue: nothing to read (about half of a chat's sentences)
    out: list[Said] = _whole(sentence)
    for piece in _PIECES.split(sentence):
        piece = piece.strip(" .!?\"'")
        if not piece or not _mine(_REASON.sub("", piece)):
            continue
        low = piece.lower()
        named = bool(_NAMED_IN.search(piece))
        for rule, gate in _RULES:
            if not (named if gate is None else any(w in low for w in gate)):
                continue  # (a rule needs a name or one of its words: most pieces skip most rules)
            got = rule(piece, sentence)
            if got:
                out += got
                break
    return out


def _residence(piece: str, sentence: str) -> list[Said]:
    if _NOT.search(piece):
        return []
    if (m := re.match(rf"^(?i:i'm|i\s+am|we're|we\s+are)\s+(?i:now\s+|still\s+|currently\s+|living\s+|based\s+|settled\s+)*in\s+"
                      rf"({_NAME})", piece)) and _place(m.group(1)) and not _TRIP.search(piece):
        return [_said("residence", m.group(1), f"live in {m.group(1)}")]  # "I'm in Glasgow and it rains constantly"
    if m := _DWELLING.search(piece):
        name = m.group(1) or m.group(2)
        if m.group(1) or _place(name):
            return [_said("residence", name, f"live in {name}")]  # "Our flat in Paris is tiny", "life in Berlin"
    if (m := re.match(rf"^(?i:i've\s+|we've\s+)?(?i:been|lived)\s+in\s+({_NAME})\s+(?:for\s+)?(?:\w+|\d+)\s+(?:years?|months?)", piece)) \
            and _place(m.group(1)):
        return [_said("residence", m.group(1), f"live in {m.group(1)}")]  # "Been in Toronto three years now"
    if (m := re.search(rf"\b(?i:left|leaving|swapped|traded)\s+({_NAME})\s+for\s+({_NAME})", piece)) and _place(m.group(2)):
        return [_said("residence", m.group(1), f"left {m.group(1)}", ends=True),
                _said("residence", m.group(2), f"live in {m.group(2)}")]  # "Left London for Lisbon in March"
    if (m := re.match(rf"^({_NAME})\s+here\s+(?:i|we)\s+come$", piece)) and _place(m.group(1)):
        return [_said("residence", m.group(1), f"move to {m.group(1)}")]  # "Phoenix here I come"
    if (m := re.search(r"\b(?:live|living|lives|based|(?:moved|moving|relocated)\s+(?:from\s+[a-z]+(?:\s+[a-z]+)?\s+)?to)\s+(?:in\s+)?"
                       r"([a-z][a-z]+(?:\s+[a-z]+)?)\b",
                       piece)) and ((name := m.group(1).title()) in PLACES or (name := name.split()[0]) in PLACES):
        return [_said("residence", name, f"live in {name}")]  # a chat in lower case: "i live in manchester"
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
    if (m := re.fullmatch(rf"(?i:and\s+|so\s+)?(?i:now|then)\s+({_NAME})|({_NAME})\s+now|(?i:still\s+)?in\s+({_NAME})(?:\s+now)?",
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
    if (m := re.match(rf"^(?:(?:another|a|my|the)\s+)?(?:shift|payday|night\s+shift|early\s+shift|(?:mon|tues|wednes|thurs|fri)day"
                      rf"|week|day)\s+at\s+(?:the\s+)?({_NAME})",
                      piece, re.I)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Shift at Tesco 6 till 2"
    if (m := re.search(rf"\b(?:took|take|taking|accepted|accept|accepting|got|landed|signed|said\s+yes\s+to)\s+"
                       rf"(?:the|their|an?)\s+({_NAME})\s+(?:offer|job|role|position|contract|gig)\b", piece)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "I took the Monzo offer"
    if (m := re.search(rf"\b(?i:my)\s+(?:new\s+|current\s+)?(?i:employer|company|firm|workplace)\s+(?:is|'s)\s+(?:now\s+)?(?:the\s+)?({_NAME})",
                       piece)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "My new employer is the NHS"
    if (m := re.search(rf"\b(?i:signed|got|accepted|took|start(?:ed|ing)?)\s+(?:my|the|a|an|their)\s+(?:new\s+)?(?i:contract|offer|job|role"
                       rf"|position|internship|placement)\s+(?:with|at)\s+(?:the\s+)?({_NAME})", piece)) and _org(m.group(1)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Signed my contract with Google today!"
    if (m := re.search(rf"\b(?i:leaving|left|quit|quitting)\s+({_NAME})\b.*?\bfor\s+(?:an?\s+|the\s+)?(?:new\s+)?(?i:role|job|position"
                       rf"|post)\s+(?:at|with)\s+(?:the\s+)?({_NAME})", piece)) and _org(m.group(1)) and _org(m.group(2)):
        return [_said("employer", m.group(1), f"left {m.group(1)}", ends=True),
                _said("employer", m.group(2), f"work at {m.group(2)}")]  # "Leaving Amazon next month for a role at Shopify"
    if (m := re.match(rf"^(?i:i've\s+)?(?i:been)\s+(?:with|at)\s+(?:the\s+)?({_NAME})\s+(?:for|since)\b", piece)) and _org(m.group(1)) \
            and (m.group(1).isupper() or works(sentence)):
        return [_said("employer", m.group(1), f"work at {m.group(1)}")]  # "Been with IKEA for six years"
    if (m := re.search(rf"\b(?i:quit|left|leaving|leave)\s+({_NAME})\s+(?i:to|and)\s+(?i:join|start\s+at|go\s+to|move\s+to|work\s+for)\s+"
                       rf"({_NAME})", piece)) and _org(m.group(1)) and _org(m.group(2)):
        return [_said("employer", m.group(1), f"left {m.group(1)}", ends=True),
                _said("employer", m.group(2), f"work at {m.group(2)}")]  # "I quit Deloitte to join KPMG"
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
    if (m := re.search(rf"\b(?:shifts?|years?|months?|job|work|working|day|days)\s+as\s+an?\s+({_JOB_HEAD})$", piece, re.I)) \
            and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [_said("occupation", m.group(1), f"work as {m.group(1)}")]  # "Twelve-hour shifts as a paramedic"
    if m := re.search(r"\b(?i:i've\s+been|i'm|i\s+am|been|still)\s+(nursing|teaching|lecturing|tutoring|farming|bartending|freelancing"
                      r"|nannying|waitressing|waitering)\s+(?:for\s+\w+\s+(?:years?|months?)|full[- ]time|part[- ]time|at\b|in\b|now\b|since\b)",
                      piece):
        job = _GERUND_JOB[m.group(1).lower()]
        return [_said("occupation", job, f"work as a {job}")]  # "I've been nursing for ten years"
    if re.search(r"\b(?i:i|we)\s+(?:still\s+|now\s+)?(?:teach|lecture)\b.*\bat\s+(?:a|the|my)\s+[\w ]*(?:school|college|university|academy)\b",
                 piece):
        return [_said("occupation", "teacher", "work as a teacher")]  # "I teach year 6 at a primary school"
    if m := re.search(r"\b(?i:promoted|moved\s+up|stepped\s+up)\s+to\s+(?:be\s+)?(?:an?\s+|the\s+)?([a-z][a-z -]{2,40}?)$", piece):
        return [_said("occupation", m.group(1), f"work as {m.group(1)}")]  # "I got promoted to head of sales"
    if m := re.match(r"^(?:so\s+|well\s+)?that's\s+me\s+(retired|(?:an?\s+)?[a-z]+(?:\s+[a-z]+)?)\b", piece, re.I):
        value = re.sub(r"^an?\s+", "", m.group(1).lower())
        if value == "retired" or value.split()[-1] in OCCUPATIONS:
            out = [_said("occupation", value, f"be {value}")]
            return out + ([Said("employer", "", Clause("", "retire", False, "retired"), ends=True)] if value == "retired"
                          else [])
    return []


_GERUND_JOB = {"nursing": "nurse", "teaching": "teacher", "lecturing": "lecturer", "tutoring": "tutor", "farming": "farmer",
               "bartending": "bartender", "freelancing": "freelancer", "nannying": "nanny", "waitressing": "waitress",
               "waitering": "waiter"}
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
    if _subject(value):
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
    if m := re.search(r"\b(?:switched|changed|moved|went|transferred|swapped)\s+(?:over\s+)?(?:(?:my|our)\s+(?:course|major|degree|subject)\s+)?"
                      r"from\s+(?:the\s+|my\s+|an?\s+)?([a-z][\w -]*?)"
                      r"\s+to\s+(?:the\s+|an?\s+)?([a-z][\w -]*)$", piece, re.I):
        kind = _kind(m.group(2)) or _kind(m.group(1))
        if kind is not None and kind != "residence":
            return [_said(kind, m.group(1), f"had {m.group(1)}", ends=True),
                    _said(kind, m.group(2), f"do {m.group(2)}", alone=True)]  # "I switched from law to medicine"
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


def _bought(piece: str, sentence: str) -> list[Said]:
    """"picked up a second-hand Mazda 3", "bought a Skoda": a vehicle by its make or its noun."""
    if (m := re.search(r"\b(?i:my|our)\s+(?:new\s+|current\s+)?(?:ride|car|wheels|motor|vehicle|bike)\s+(?:is|'s)\s+(?:now\s+)?(?:an?\s+|the\s+)?"
                       r"(.+)$", piece)) and not _NOT.search(piece) and (_kind(m.group(1)) == "vehicle" or m.group(1)[:1].isupper()):
        return [_said("vehicle", m.group(1), f"drive a {m.group(1)}")]  # "My new ride is a Honda Civic"
    if (m := re.search(r"\b(?:commute|ride|get\s+around|go\s+everywhere)\s+on\s+(?:my|our|an?)\s+(?:\w+\s+)?([A-Za-z][\w-]*)$", piece)) \
            and _kind(m.group(1)) == "vehicle":
        return [_said("vehicle", m.group(1), f"ride a {m.group(1)}")]  # "I commute on my Vespa"
    if (m := re.search(r"\b(?:bought|got|picked\s+up|leased|renting|rented|hired)\s+(?:myself\s+|me\s+|us\s+)?(?:an?|the)\s+"
                       r"(?:(?:new|used|second-hand|secondhand|electric|little|old)\s+)*([a-z][a-z-]*)\b", piece)) \
            and (m.group(1) in VEHICLES or m.group(1) in ("e-bike", "ebike", "campervan")) and not _NOT.search(piece):
        return [_said("vehicle", m.group(1), f"have a {m.group(1)}")]  # "Bought myself an e-bike"
    if (m := re.search(r"\b(?:picked\s+up|bought|collected|leased|took\s+delivery\s+of|got|renting|rented|hired)\s+(?:an?|the|my|our)\s+"
                       r"(?:(?:new|used|second-hand|secondhand|shiny|electric|little|old|hybrid|red|blue|black|white|silver)\s+)*"
                       r"([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)", piece)) and _kind(m.group(1)) == "vehicle" and not _NOT.search(piece):
        return [_said("vehicle", m.group(1), f"drive a {m.group(1)}")]
    return []


def _gone(piece: str, sentence: str) -> list[Said]:
    """"said goodbye to Biscuit", "the Transit's gone": whatever value of the person's it names ends."""
    if m := re.search(r"\b(?:said|say|saying)\s+(?:goodbye|good-bye|farewell)\s+to\s+(?:the\s+|my\s+|our\s+|old\s+)*"
                      r"([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)*)", piece, re.I):
        return [_said("*", m.group(1), f"said goodbye to {m.group(1)}", ends=True)]
    if m := re.match(r"^(?:and\s+)?(?:the\s+|my\s+|our\s+|old\s+)*([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(?:'s|’s|\s+is|\s+has)\s+"
                     r"(?:gone|sold|history|been\s+sold)$", piece):
        return [_said("*", m.group(1), f"{m.group(1)} gone", ends=True)]
    if m := re.search(r"\b(?i:we|i)\s+(?:just\s+|sadly\s+)?(?i:lost|buried)\s+(?:our\s+|my\s+)?(?:[a-z]+\s+)?([A-Z][\w'-]+)", piece):
        return [_said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "We lost Rufus last week": if one of theirs
    if m := re.match(r"^(?:rip|r\.i\.p\.?|rest\s+in\s+peace)\s+(?:little\s+|sweet\s+|old\s+)?([A-Za-z][\w'-]*)", piece, re.I):
        return [_said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "RIP nibbles"
    if (m := re.search(r"\b(?:our|my)\s+(?:(?:old|little|sweet|beloved|poor)\s+)*([a-z]+)\s+([A-Za-z][\w'-]*)\s+(?:has\s+|sadly\s+|just\s+)*"
                       r"(?:died|passed\s+away|passed|was\s+put\s+down|ran\s+away|went\s+missing)\b", piece, re.I)) \
            and singular(m.group(1).lower()) in ANIMAL_WORDS:
        return [_said("*", m.group(2), f"lost {m.group(2)}", ends=True)]  # "our old cat smokey died last week"
    if m := re.search(r"\b(?:since|after|now\s+that)\s+([A-Z][\w'-]*)\s+(?:passed|died|passed\s+away)\b", piece):
        return [_said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "Down to one cat since Bean passed"
    if m := re.match(r"^(?:sad\s+news\s+)?(?:our\s+|my\s+)?(?!(?i:i|we|you|he|she|they|it)\b)([A-Za-z][\w'-]*)\s+(?:has\s+|sadly\s+|just\s+)*(?:passed\s+away|died"
                     r"|was\s+put\s+down|ran\s+away|went\s+missing)\b", piece, re.I):
        return [_said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "gordon passed away": if one of theirs
    return []


_MORE_SUBJECTS = frozenset("""nursing midwifery law medicine business accounting marketing music art design graphic design
    dentistry pharmacy computing plumbing carpentry journalism film photography fashion english french spanish german
    italian chinese japanese history maths math physics chemistry biology economics politics philosophy psychology
    sociology geography drama nutrition teaching engineering architecture finance veterinary science""".split())
_ADJ_SUBJECT = {"medical": "medicine", "nursing": "nursing", "law": "law", "dental": "dentistry", "vet": "veterinary science",
                "veterinary": "veterinary science", "business": "business", "art": "art", "music": "music",
                "engineering": "engineering", "architecture": "architecture", "drama": "drama", "film": "film"}
_STUDY_NOUN = r"(?:degree|course|major|student|school|exams?|classes|lectures|modules?|programme|program|dissertation|thesis|finals" \
              r"|semester|coursework|a-levels?|gcses?|diploma)"


def _subject(words: str) -> str | None:
    """A subject of study a phrase names ("history", "computer science", "medical": medicine), or None."""
    low = words.lower().strip()
    if low in SUBJECTS or low in _MORE_SUBJECTS:
        return low
    return _ADJ_SUBJECT.get(low)


def _study(piece: str, sentence: str) -> list[Said]:
    if (m := re.search(r"\b(?:now\s+)?(?:on|doing|started|starting|enrolled\s+on|enrolled\s+in)\s+(?:an?|the|my)\s+([a-z][a-z ]*?)\s+"
                       r"(?:course|degree|programme|program|apprenticeship|diploma|masters?|ba|bsc|msc)\b", piece, re.I)) \
            and not _NOT.search(piece) and m.group(1).lower() in SUBJECTS:
        return [_said("study", m.group(1), f"study {m.group(1)}")]  # "now on a midwifery course instead"
    if not _NOT.search(piece):
        for m in re.finditer(rf"\b([A-Za-z]+(?:\s+[a-z]+)?)\s+{_STUDY_NOUN}\b", piece):
            if re.search(r"\b(?:from|about|your|his|her|their)\s+(?:(?:an?|the|some|this|that|these)\s+)?(?:\w+\s+)?$",
                         piece[:m.start()], re.I):
                continue  # "supporting musicians from a music program": not the speaker's studies
            for words in (m.group(1), m.group(1).split()[-1]):
                if (subject := _subject(words)) and words.lower() not in ("my", "the", "a", "first", "second", "final"):
                    return [_said("study", subject, f"study {subject}")]  # "my law degree", "a 2nd year medical student"
        if (m := re.search(r"\b(?:apprenticeship|course|degree|diploma|training|qualification|phd|masters?)\s+in\s+([a-z][a-z ]*?)"
                           r"(?:\s+at\b.*)?$", piece, re.I)) or (m := re.search(
                r"\b(?:to\s+study|(?:i'm|i\s+am)\s+reading)\s+([A-Za-z][a-z]*(?:\s+[a-z]+)?)", piece, re.I)):
            if subject := _subject(m.group(1)) or _subject(m.group(1).split()[-1]):
                return [_said("study", subject, f"study {subject}")]  # "an apprenticeship in plumbing", "to study design"
    if m := re.search(r"\b(?:dropped|quit|dropping|left|leaving|gave\s+up|giving\s+up)\s+(?:out\s+of\s+)?(?:my\s+|the\s+)?([a-z][a-z ]*?)(?:\s+(?:degree|course|"
                      r"module|major))?$", piece, re.I):
        if m.group(1).lower() in SUBJECTS:
            return [_said("study", m.group(1), f"dropped {m.group(1)}", ends=True)]
    return []


def _diet(piece: str, sentence: str) -> list[Said]:
    """"pescatarian it is", "so pescatarian I guess", "pescatarian from today", "Vegan for a year now"; "cut out
    meat", "back to eating meat"."""
    low = piece.lower().replace("plant based", "plant-based")
    if m := re.search(r"\b(?:cut\s+out|given\s+up|gave\s+up|quit|stopped\s+eating|ditched)\s+(meat|red\s+meat|dairy|gluten|sugar|fish"
                      r"|pork|alcohol|booze|caffeine|eggs)\b", low):
        return [_said("diet", "no " + m.group(1), f"eat no {m.group(1)}")]  # "I've cut out meat completely"
    if m := re.search(r"\b(?:back\s+to\s+eating|eating\s+(?=\w+\s+again)|started\s+eating)\s+(meat|fish|dairy|eggs|chicken)\b", low):
        return [_said("diet", f"eats {m.group(1)}", f"eat {m.group(1)}")]  # "I went back to eating meat"
    if re.search(r"\b(?:not|no\s+longer|never|n't|anymore|used\s+to|restaurant|food|options?|menu|recipes?|friends?|place"
                 r"|cafe|meal|dish|dishes|cheese|version)\b", low):
        return []
    if m := re.fullmatch(r"(?:so\s+|now\s+|and\s+|officially\s+|fully\s+|back\s+to\s+being\s+|(?:i'm|i\s+am|i've\s+been|been)\s+)*([a-z-]+)(?:\s+(?:it\s+is|i\s+guess"
                         r"|i\s+suppose|now|from\s+today|from\s+now\s+on|these\s+days|for\s+(?:a|one|two|three|\w+)\s+\w+"
                         r"(?:\s+now)?|again|officially))*", low):
        if m.group(1) in DIETS or m.group(1) == "plant-based":
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
    """"Fontaines D.C. have taken the top spot": the favourite said before has a new value; "fav food has
    always been ramen", "pho has overtaken ramen as my favourite food", "Spirited Away is still my favourite film"."""
    fav = r"(?:fav|fave|favourite|favorite)"
    if m := re.match(rf"^(?i:my\s+)?(?i:all-time\s+)?(?i:{fav})\s+([a-z]+)\s+(?:has\s+always\s+been|has\s+been|is|was|will\s+always\s+be"
                     r"|is\s+still|is\s+now)\s+(.+)$", piece):
        return [_said(f"favourite:{thing(m.group(1))}", m.group(2), f"favourite {m.group(1)}: {m.group(2)}")]
    if m := re.match(rf"^(\S+(?:\s+\S+){{0,3}}?)\s+(?:has|have|'s)\s+(?:now\s+|officially\s+)?(?:overtaken|replaced|beaten|dethroned)"
                     rf"\s+[\w' -]+?\s+as\s+(?:my|our)\s+(?:new\s+)?(?i:{fav})\s+([a-z]+)", piece):
        return [_said(f"favourite:{thing(m.group(2))}", m.group(1), f"favourite {m.group(2)}: {m.group(1)}")]
    if m := re.match(rf"^({_NAME})\s+(?:is|are)\s+(?:still\s+|now\s+|officially\s+)?(?:my|our)\s+(?:new\s+|all-time\s+)?(?i:{fav})\s+"
                     r"([a-z]+)$", piece):
        return [_said(f"favourite:{thing(m.group(2))}", m.group(1), f"favourite {m.group(2)}: {m.group(1)}")]
    if m := re.match(rf"^({_NAME})\s+(?:has|have|'s|’s)\s+(?:now\s+)?(?:taken|claimed|grabbed|stolen)\s+(?:over\s+)?(?:the\s+)?"
                     r"(?:top\s+spot|number\s+one\s+spot|crown|top\s+of\s+the\s+list)", piece):
        return [_said("favourite:it", m.group(1), f"favourite: {m.group(1)}")]
    return []


def _count(piece: str, sentence: str) -> list[Said]:
    """"so that's three grandchildren now", "which makes four cats"."""
    nums = "|".join(sorted(NUMBERS, key=len, reverse=True))
    if m := re.match(rf"^(?:so\s+|and\s+)?(?:now\s+)?(?:that's|that\s+is|that\s+makes|which\s+makes|making\s+it|it's|it\s+is)\s+(\d+|{nums})\s+"
                     r"(?:\w+\s+)??([a-z]+)$", re.sub(r"\s+now$", "", piece), re.I):
        figure = NUMBERS.get(m.group(1).lower(), m.group(1))
        return [_said(f"count:{thing(m.group(2))}", figure, f"have {m.group(1)} {m.group(2)}")]
    return []


def _whole(sentence: str) -> list[Said]:
    """Values said across a comma: "We adopted a kitten too, her name is Pepper", "bought me an electric
    van, a Vivaro-e"."""
    out = []
    if (m := re.search(r"\b(?:an?|the|our|my)\s+(?:new\s+|little\s+|rescue\s+)*([a-z]+)\b[^.!?]*?,\s+(?:her|his|its)\s+name"
                       r"\s+is\s+([A-Z][\w'-]+)", sentence)) and singular(m.group(1)) in ANIMAL_WORDS:
        out.append(_said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))
    if (m := re.search(r"\b(?:bought|got|picked\s+up|leased|bought\s+me|got\s+me|gave\s+me)\s+(?:an?|the)\s+(?:new\s+|electric\s+"
                       r"|used\s+|little\s+|second-hand\s+|secondhand\s+|hybrid\s+)*([a-z]+),\s+(?:an?\s+|the\s+)?"
                       r"([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)", sentence)) and m.group(1) in VEHICLES and not _OTHERS.search(
            sentence[:m.start()]):
        out.append(_said("vehicle", m.group(2), f"drive a {m.group(2)}"))
    if (m := re.search(r"\b(?:our|my)\s+(?:new\s+|little\s+|rescue\s+|baby\s+)*([a-z]+),\s+([A-Z][\w'-]+)", sentence)) \
            and singular(m.group(1)) in ANIMAL_WORDS:
        out.append(_said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))  # "our new kitten, Miso!"
    if (m := re.search(r"\bmy\s+([a-z]+)\s+([a-z]{3,})\s+(?:keeps|is|has|was|won't|doesn't|loves|hates|just|got|needs)\b", sentence)) \
            and singular(m.group(1)) == m.group(1) in ANIMAL_WORDS and sentence[:1].islower():
        out.append(_said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))  # a chat: "my cat pickle keeps..."
    if m := re.search(r"\b(?i:my\s+)?(?:all-time\s+)?(?i:fav|fave|favourite|favorite)\s+([a-z]+)\s+used\s+to\s+be\s+(.+?),?\s+but\s+(?:now\s+)?"
                      r"(?:it's|it\s+is|its)\s+(?:now\s+)?([^,.!?]+)", sentence):
        attribute = f"favourite:{thing(m.group(1))}"  # "my fav movie used to be titanic but now it's interstellar"
        out += [_said(attribute, m.group(2), f"favourite {m.group(1)}: {m.group(2)}"),
                _said(attribute, m.group(3), f"favourite {m.group(1)}: {m.group(3)}")]
    if m := re.search(r"\bmet\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))\b[^.!?]*?\b(?:her|his|their)\s+"
                      r"name(?:'s|’s|\s+is)\s+([A-Z][\w'-]+)", sentence):
        out.append(_said("partner", m.group(1), f"be with {m.group(1)}"))  # "Met someone - her name's Imani"
    return out


def _partner(piece: str, sentence: str) -> list[Said]:
    """"Ten years married to Sabine today", "Third date with Anja tonight", "engaged to Rui"."""
    if _NOT.search(piece):
        return []
    if m := re.search(r"\b(?:married|engaged)\s+to\s+([A-Z][a-z'’-]+)|\b(?:dates?|anniversary(?:\s+\w+)?)\s+with\s+"
                      r"([A-Z][a-z'’-]+)", piece):
        name = m.group(1) or m.group(2)
        return [_said("partner", name, f"be with {name}")]
    if m := re.match(r"^([A-Z][a-z'’-]+)\s+(?:finally\s+|just\s+)?(?:proposed|popped\s+the\s+question)\b", piece):
        return [_said("partner", m.group(1), f"be engaged to {m.group(1)}")]  # "Tom proposed last night"
    if m := re.match(r"^(?i:me\s+and|i\s+and)\s+([A-Z][a-z'’-]+)\s+(?:are|have|were)\s+(?:officially\s+)?(?:over|done|finished|split"
                     r"|broken\s+up|separated)", piece):
        return [_said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "Me and Dan are over"
    if m := re.search(r"\b(?i:my)\s+(?:ex\s+)?(?:husband|wife|partner|boyfriend|girlfriend|bf|gf|fianc[eé]e?|ex)\s+(?:([A-Z][a-z'’-]+)\s+)?"
                      r"(?i:and\s+i|and\s+me)\s+(?:have\s+|had\s+|finally\s+)?(?:split|broke\s+up|separated|divorced|are\s+over"
                      r"|are\s+done|called\s+it\s+(?:off|quits))", piece):
        return [_said("partner", m.group(1) or "", f"broke up with {m.group(1) or 'them'}", ends=True)]
    if m := re.search(r"\b(?:me|i)\s+and\s+my\s+(?:ex\s+)?(?:\w+\s+)?([A-Z][a-z'’-]+)\s+(?:have\s+|had\s+)?(?:split|broke\s+up|separated"
                      r"|divorced)", piece, re.I):
        return [_said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "me and my ex Jordan broke up"
    if m := re.search(r"\b(?:seeing|dating)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))\s+(?:new\s+|lovely\s+)?"
                      r"(?:called|named)\s+([A-Z][a-z'’-]+)", piece, re.I):
        return [_said("partner", m.group(1), f"be with {m.group(1)}")]  # "now seeing someone new called Sam"
    if re.match(r"^(?i:i'm|i\s+am|i've\s+been|been)\s+(?:officially\s+|now\s+|happily\s+)?single\b", piece):
        return [Said("partner", "", Clause("", "be", False, "single"), ends=True)]  # "I've been single since the divorce"
    if re.fullmatch(r"(?i:we're|we\s+are|we've|we\s+have)\s+(?:officially\s+|finally\s+)?(?:done|over|finished|split\s+up"
                    r"|broken\s+up|separated)", piece):
        return [Said("partner", "", Clause("", "break", False, "up"), ends=True)]  # "We're done."
    return []


def _playing(piece: str, sentence: str) -> list[Said]:
    """"I drum in a punk band" (an instrument said as a verb); "no more drumming", "stopped drumming": it ends."""
    if (m := re.match(r"^(?:i|we)\s+(?:still\s+|also\s+)?(drum|fiddle)\b", piece, re.I)) and not _NOT.search(piece):
        return [_said("instrument", m.group(1), f"play the {m.group(1)}")]
    if m := re.search(r"\b(?:no\s+more|stopped|quit|gave\s+up|giving\s+up|done\s+with)\s+([a-z]+?)(?:m?ing)\b", piece, re.I):
        stem = m.group(1).lower()
        if stem in INSTRUMENTS or stem + "e" in INSTRUMENTS:
            return [_said("*", stem, f"stopped {stem}", ends=True)]
    return []


def _next(piece: str, sentence: str) -> list[Said]:
    """"And now Bosch!": a name that is no place, after "now", is the next value of whatever the person's
    last named value was of (an employer, a partner): attribute ``^`` (:func:`graphmem.claims.facts.timeline`)."""
    if (m := re.fullmatch(rf"(?i:and\s+|but\s+)?(?i:now|these\s+days)\s+({_NAME})", piece)) and _org(m.group(1)):
        return [_said("^", m.group(1), f"be with {m.group(1)}")]
    return []


_NAMED_IN = re.compile(r"(?!I\b|I'|I’)[A-Z]|\b(?:live|living|based|moved|moving|relocat)")
_RULES: tuple[tuple[Callable[[str, str], list[Said]], tuple[str, ...] | None], ...] = (
    (_residence, None), (_employer, None),
    (_job, ("offer", "job", "role", "position", "post", "place", "apprentice", "now", "last", "officially", "as of",
            "today", "qualified", "newly", "as a", "as an", "that's me", "ing ", "teach", "lectur", "promoted", "moved up",
            "stepped up")),
    (_swap, ("for", "instead", "from", "transfer", "switch", "onto", "into")),
    (_gone, ("goodbye", "farewell", "gone", "sold", "history", "rip", "r.i.p", "rest in peace", "lost", "buried",
             "passed away", "died", "put down", "ran away", "missing")),
    (_bought, ("ride", "car", "wheels", "motor", "vehicle", "bike", "commute", "get around", "everywhere", "bought", "got",
               "picked up", "leased", "rent", "hired", "collected", "delivery")),
    (_study, ("degree", "course", "major", "student", "school", "exam", "class", "lecture", "module", "program", "dissert",
              "thesis", "finals", "semester", "a-level", "gcse", "diploma", "apprentice", "training", "qualification", "phd",
              "master", "study", "reading", "dropped", "quit", "left", "leaving", "gave up", "giving up")),
    (_diet, tuple(DIETS) + ("plant", "meat", "fish", "dairy", "gluten", "sugar", "pork", "alcohol", "booze", "caffeine",
                            "eggs", "chicken")),
    (_pet, ("called", "named", "there's")),
    (_partner, ("married", "engaged", "date", "anniversary", "proposed", "popped", "over", "done", "finished", "split",
                "broke", "separated", "single", "divorced", "called", "named")),
    (_playing, ("drum", "fiddle", "ing")),
    (_top, ("top", "crown", "fav", "overtaken", "replaced", "beaten", "dethroned")),
    (_count, ("that's", "that is", "makes", "making", "it's", "it is")),
    (_next, ("now", "these days")),
)
"""Each rule in the order tried (the first that reads a piece wins), with the words it needs one of (None: a name)."""
