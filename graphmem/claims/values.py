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
from graphmem.claims.clauses import Clause
from graphmem.claims.typed import NAME, NOT, REASON, STUDY_NOUN, mine, org, said, subject_of, type_of
from graphmem.claims.values_where import employer, job, residence
from graphmem.claims.values_whole import after, whole
from graphmem.domain import Claim
from graphmem.text.things import ANIMAL_WORDS, DIETS, INSTRUMENTS, LANGUAGES, NUMBERS, OCCUPATIONS, VEHICLES, singular
from graphmem.text.wordnet_places import SUBJECTS

__all__ = ["sentence_said"]
_PIECES = re.compile(r"\s*[;:,]\s*|\s+[-–—]+\s+|\s+(?:and|but|so)\s+(?:then\s+)?(?=i\b|i'|we\b|now\b)|(?<!(?-i:[A-Z]))\.\s+|[!?]+\s+", re.I)
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


def sentence_said(c: Claim, previous: str = "") -> list[Said]:
    """What the claim's sentence says of its speaker by the meaning of its values (see the module
    docstring): read once a sentence, for a claim about the speaker themselves. ``previous``: the
    sentence before it in the same turn, when one of its claims is the person's ("We got a puppy! Her
    name is Willow.": the name is the puppy's)."""
    if c.subject != c.speaker and c.speaker:
        return []
    sentence = c.sentence
    if not _CAPITAL.search(sentence) and not set(re.findall(r"[a-z][a-z'-]*|\d+", sentence.lower())) & _KEYS \
            and not _CUES.search(sentence.lower()):
        return []  # no name and no word of a type or of a cue: nothing to read (about half of a chat's sentences)
    out: list[Said] = whole(sentence) + (after(sentence, previous) if previous else [])
    across = {s.attribute for s in out if not s.ends}  # (said across a comma: "a van, a Vivaro-e" is the Vivaro-e)
    for piece in _PIECES.split(sentence):
        piece = piece.strip(" .!?\"'")
        if not piece or not mine(REASON.sub("", piece)):
            continue
        low = piece.lower()
        named = bool(_NAMED_IN.search(piece))
        for rule, gate in _RULES:
            if not (named if gate is None else any(w in low for w in gate)):
                continue  # (a rule needs a name or one of its words: most pieces skip most rules)
            got = rule(piece, sentence) or (rule(piece[0].lower() + piece[1:], sentence) if piece[:1].isupper()
                                            and piece.split(" ", 1)[0].lower() in _CUE_FIRST else [])
            if got:
                out += [s for s in got if s.ends or s.attribute not in across]
                break
    return out


def _switched(piece: str, sentence: str) -> list[Said]:
    """"Since I switched to a Tesla", "upgraded to a Model Y": a new value of the kind its words name."""
    if m := re.search(r"\b(?:switched|changed|moved|upgraded|downgraded|converted)\s+(?:over\s+)?to\s+(?:an?\s+|the\s+)?([A-Za-z][\w -]*)$", piece,
                      re.I):
        if (kind := type_of(m.group(1))) in ("vehicle", "instrument", "diet"):
            return [said(kind, m.group(1), f"have {m.group(1)}", alone=True)]
    if (m := re.search(rf"\b(learning|learn|speak|studying)\s+({NAME})", piece)) and not NOT.search(piece):
        if m.group(2).lower() in LANGUAGES:
            verb = "speak" if m.group(1) == "speak" else "learn"
            return [said("language", m.group(2), f"{verb} {m.group(2)}")]  # "I've been learning Spanish for a year"
    if (m := re.search(rf"\b(?i:joined|work\s+at|work\s+for|working\s+at|working\s+for|started\s+at)\s+(?:an?\s+)?(?:\w+\s+)?"
                       rf"(?i:startup|start-up|company|firm|agency|studio|charity|bank|consultancy|shop|restaurant)\s+(?i:called|named)"
                       rf"\s+({NAME})", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "I joined a startup called Pika"
    return []


def _swap(piece: str, sentence: str) -> list[Said]:
    """"Traded it in for a Kia EV6", "part-exchanged the Fiesta for a Yaris", "swapped the fiddle for a cello",
    "doing law now instead of history", "transferred onto pharmacology": the old value ends, the new starts."""
    if m := re.search(r"\b(?:traded|trade|trading|swapped|swap|swapping|part[- ]exchanged|part[- ]exed|exchanged|replaced)"
                      r"\s+(?:in\s+)?(?:the\s+|my\s+|our\s+|an?\s+)?(.+?)\s+(?:in\s+)?for\s+(?:an?\s+|the\s+)?(.+)$", piece, re.I):
        old, new = m.group(1), re.split(r"\s+(?:today|yesterday|last\s+\w+|this\s+\w+|on\s+\w+day)\b", m.group(2))[0]
        kind = type_of(new) or type_of(old)
        if kind is None:
            return []
        gone = "" if old.lower() in ("it", "her", "him", "that", "mine") else old
        return [said(kind, gone, f"had {old}", ends=True), said(kind, new, f"got {new}", alone=True)]
    if m := re.search(r"\b(?:switched|changed|moved|went|transferred|swapped)\s+(?:over\s+)?(?:(?:my|our)\s+(?:course|major|degree|subject)\s+)?"
                      r"from\s+(?:the\s+|my\s+|an?\s+)?([a-z][\w -]*?)"
                      r"\s+to\s+(?:the\s+|an?\s+)?([a-z][\w -]*)$", piece, re.I):
        kind = type_of(m.group(2)) or type_of(m.group(1))
        if kind is not None and kind != "residence":
            return [said(kind, m.group(1), f"had {m.group(1)}", ends=True),
                    said(kind, m.group(2), f"do {m.group(2)}", alone=True)]  # "I switched from law to medicine"
    if m := re.search(r"\b(?:doing|studying|reading|taking|playing|driving|on)\s+(?:the\s+|an?\s+)?([a-z][\w -]*?)\s+(?:now\s+)?"
                      r"instead\s+of\s+(?:the\s+|an?\s+)?([a-z][\w -]*)$", piece, re.I):
        kind = type_of(m.group(1)) or type_of(m.group(2))
        if kind is not None:
            return [said(kind, m.group(2), f"had {m.group(2)}", ends=True),
                    said(kind, m.group(1), f"do {m.group(1)}", alone=True)]  # "I'm doing law now instead of history"
    if (m := re.search(r"\b(?:transferred|transferring|switched|switching|moved|changed)\s+(?:over\s+)?(?:onto|to|into)\s+"
                       r"(?:an?\s+|the\s+)?([a-z][a-z -]*?)(?:\s+(?:degree|course|programme|program|major))?"
                       r"(?:\s+(?:this|last|next)\s+(?:term|semester|year|week|month))?$", piece, re.I)) \
            and m.group(1).lower() in SUBJECTS:
        return [said("study", m.group(1), f"study {m.group(1)}", alone=True)]  # "transferred onto pharmacology"
    return []


def _bought(piece: str, sentence: str) -> list[Said]:
    """"picked up a second-hand Mazda 3", "bought a Skoda": a vehicle by its make or its noun; "car-free now": none."""
    if re.search(r"\bcar-free\b|\bno\s+(?:longer\s+)?(?:have|own)\s+a\s+car\b|\bnot\s+driving\s+any\s*more\b|\bgave\s+up\s+(?:the|my)\s+car\b",
                 piece, re.I) and not re.search(r"\b(?:bike|bicycle|scooter|e-bike|moped|motorbike)\b", sentence, re.I):
        return [Said("vehicle", "", Clause("", "sell", False, "the car"), ends=True)]
    if (m := re.search(r"\b(?i:my|our)\s+(?:new\s+|current\s+)?(?:ride|car|wheels|motor|vehicle|bike)\s+(?:is|'s)\s+(?:now\s+)?(?:an?\s+|the\s+)?"
                       r"(.+)$", piece)) and not NOT.search(piece) and (type_of(m.group(1)) == "vehicle" or m.group(1)[:1].isupper()):
        return [said("vehicle", m.group(1), f"drive a {m.group(1)}")]  # "My new ride is a Honda Civic"
    if (m := re.search(r"\b(?:commute|ride|get\s+around|go\s+everywhere)\s+on\s+(?:my|our|an?)\s+(?:\w+\s+)?([A-Za-z][\w-]*)$", piece)) \
            and type_of(m.group(1)) == "vehicle":
        return [said("vehicle", m.group(1), f"ride a {m.group(1)}")]  # "I commute on my Vespa"
    if (m := re.search(r"\b(?:bought|got|picked\s+up|leased|renting|rented|hired)\s+(?:myself\s+|me\s+|us\s+)?(?:an?|the)\s+"
                       r"(?:(?:new|used|second-hand|secondhand|electric|little|old)\s+)*([a-z][a-z-]*)\b", piece)) \
            and (m.group(1) in VEHICLES or m.group(1) in ("e-bike", "ebike", "campervan")) and not NOT.search(piece):
        return [said("vehicle", m.group(1), f"have a {m.group(1)}")]  # "Bought myself an e-bike"
    if (m := re.match(r"^(?:yeah\s+|yes\s+)?(?i:the|my|our)\s+(?:old\s+|trusty\s+)?([A-Z][\w-]*)(?:'s|’s|\s+is|\s+has)\s+(?!gone\b|sold\b|history\b)",
                      piece)) and type_of(m.group(1)) == "vehicle" and not NOT.search(piece):
        return [said("vehicle", m.group(1), f"drive the {m.group(1)}")]  # "the Fiesta's held together with gaffer tape"
    if (m := re.search(r"\b(?i:mot|service|insurance|tyres|tires|oil\s+change|brakes)\s+(?:on|for)\s+(?:the|my|our)\s+(?:old\s+)?"
                       r"([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)", piece)):
        return [said("vehicle", m.group(1), f"drive the {m.group(1)}")]  # "MOT on the Astra passed, just"
    if (m := re.search(r"\b(?:picked\s+up|bought|collected|leased|took\s+delivery\s+of|got|renting|rented|hired)\s+(?:an?|the|my|our)\s+"
                       r"(?:(?:new|used|second-hand|secondhand|shiny|electric|little|old|hybrid)\s+)*"
                       r"([A-Z][\w-]*\s+(?:scooter|motorbike|motorcycle|bike|van|estate|hatchback|campervan))\b", piece)):
        return [said("vehicle", m.group(1), f"drive a {m.group(1)}")]  # "Bought a secondhand Yamaha scooter"
    if (m := re.search(r"\b(?:picked\s+up|bought|collected|leased|took\s+delivery\s+of|got|renting|rented|hired)\s+(?:an?|the|my|our)\s+"
                       r"(?:(?:new|used|second-hand|secondhand|shiny|electric|little|old|hybrid|red|blue|black|white|silver)\s+)*"
                       r"([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)", piece)) and type_of(m.group(1)) == "vehicle" and not NOT.search(piece):
        return [said("vehicle", m.group(1), f"drive a {m.group(1)}")]
    return []


def _used(piece: str, sentence: str) -> list[Said]:
    """"I used to play the violin", "used to drive a Golf": a value held once and no more (its history, not what holds)."""
    if m := re.search(r"\bused\s+to\s+(?:play|drive|ride|study|be|eat|have|own)\s+(?:the\s+|an?\s+|my\s+)?([A-Za-z][\w -]*?)(?:\s+but\b.*)?$",
                      piece, re.I):
        value = m.group(1)
        if (kind := type_of(value)) in ("vehicle", "instrument", "study", "diet"):
            return [said(kind, value, f"had {value}"), said(kind, value, f"had {value}", ends=True)]
    return []


def _gone(piece: str, sentence: str) -> list[Said]:
    """"said goodbye to Biscuit", "the Transit's gone": whatever value of the person's it names ends."""
    if m := re.search(r"\b(?:said|say|saying)\s+(?:goodbye|good-bye|farewell)\s+to\s+(?:the\s+|my\s+|our\s+|old\s+)*"
                      r"([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)*)", piece, re.I):
        return [said("*", m.group(1), f"said goodbye to {m.group(1)}", ends=True)]
    if m := re.match(r"^(?:and\s+)?(?:the\s+|my\s+|our\s+|old\s+)*([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(?:'s|’s|\s+is|\s+has)\s+"
                     r"(?:gone|sold|history|been\s+sold)$", piece):
        return [said("*", m.group(1), f"{m.group(1)} gone", ends=True)]
    if m := re.search(r"\b(?i:we|i)\s+(?:just\s+|sadly\s+)?(?i:lost|buried)\s+(?:our\s+|my\s+)?(?:[a-z]+\s+)?([A-Z][\w'-]+)", piece):
        return [said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "We lost Rufus last week": if one of theirs
    if m := re.search(r"\b(?i:i'm|i\s+am|we're|we\s+are)\s+(?i:done|finished)\s+with\s+(?:the\s+|my\s+)?([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)*)", piece):
        return [said("*", m.group(1), f"done with {m.group(1)}", ends=True)]  # "I'm done with Google"
    if m := re.search(r"\b(?i:left|leaving)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+(?i:behind)\b", piece):
        return [said("*", m.group(1), f"left {m.group(1)}", ends=True)]  # "We've left Leeds behind for good"
    if m := re.search(r"\b(?i:put)\s+(?:our\s+|my\s+)?(?:[a-z]+\s+)?([A-Z][\w'-]*)\s+(?i:down|to\s+sleep)\b", piece):
        return [said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "We had to put Mo down"
    if m := re.match(r"^([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+(?:let\s+me\s+go|laid\s+me\s+off|fired\s+me|made\s+me\s+redundant|sacked\s+me)\b", piece):
        return [said("employer", m.group(1), f"left {m.group(1)}", ends=True)]  # "Google let me go last week"
    if re.search(r"\b(?i:i|we)\s+(?:finally\s+|just\s+)?graduated\b|^(?i:graduated)\b", piece) and not NOT.search(piece):
        return [Said("study", "", Clause("", "graduate", False, ""), ends=True)]  # "I graduated!"
    if m := re.match(r"^([A-Z][\w'-]*)\s+(?:went|has\s+gone|is\s+going|moved)\s+to\s+live\s+(?:with|at)\b", piece):
        return [said("*", m.group(1), f"rehomed {m.group(1)}", ends=True)]  # "Dash went to live at my mum's for good"
    if m := re.match(r"^(?:rip|r\.i\.p\.?|rest\s+in\s+peace)\s+(?:little\s+|sweet\s+|old\s+)?([A-Za-z][\w'-]*)", piece, re.I):
        return [said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "RIP nibbles"
    if (m := re.search(r"\b(?:our|my)\s+(?:(?:old|little|sweet|beloved|poor)\s+)*([a-z]+)\s+([A-Za-z][\w'-]*)\s+(?:has\s+|sadly\s+|just\s+)*"
                       r"(?:died|passed\s+away|passed|was\s+put\s+down|ran\s+away|went\s+missing)\b", piece, re.I)) \
            and singular(m.group(1).lower()) in ANIMAL_WORDS:
        return [said("*", m.group(2), f"lost {m.group(2)}", ends=True)]  # "our old cat smokey died last week"
    if m := re.search(r"\b(?:since|after|now\s+that)\s+([A-Z][\w'-]*)\s+(?:passed|died|passed\s+away)\b", piece):
        return [said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "Down to one cat since Bean passed"
    if m := re.match(r"^(?:sad\s+news\s+)?(?:our\s+|my\s+)?(?!(?i:i|we|you|he|she|they|it)\b)([A-Za-z][\w'-]*)\s+(?:has\s+|sadly\s+|just\s+)*(?:passed\s+away|died"
                     r"|was\s+put\s+down|ran\s+away|went\s+missing)\b", piece, re.I):
        return [said("*", m.group(1), f"lost {m.group(1)}", ends=True)]  # "gordon passed away": if one of theirs
    return []


def _study(piece: str, sentence: str) -> list[Said]:
    if (m := re.search(r"\b(?:now\s+)?(?:on|doing|started|starting|enrolled\s+on|enrolled\s+in)\s+(?:an?|the|my)\s+([a-z][a-z ]*?)\s+"
                       r"(?:course|degree|programme|program|apprenticeship|diploma|masters?|ba|bsc|msc)\b", piece, re.I)) \
            and not NOT.search(piece) and m.group(1).lower() in SUBJECTS:
        return [said("study", m.group(1), f"study {m.group(1)}")]  # "now on a midwifery course instead"
    if not NOT.search(piece):
        for m in re.finditer(rf"\b([A-Za-z]+(?:\s+[a-z]+)?)\s+{STUDY_NOUN}\b", piece):
            if re.search(r"\b(?:from|about|your|his|her|their)\s+(?:(?:an?|the|some|this|that|these)\s+)?(?:\w+\s+)?$",
                         piece[:m.start()], re.I):
                continue  # "supporting musicians from a music program": not the speaker's studies
            for words in (m.group(1), m.group(1).split()[-1]):
                if (subject := subject_of(words)) and words.lower() not in ("my", "the", "a", "first", "second", "final"):
                    return [said("study", subject, f"study {subject}")]  # "my law degree", "a 2nd year medical student"
        if (m := re.search(r"\b(?:i'm|i\s+am|year|years|now|currently|been)\s+(?:\w+\s+)?studying\s+([a-z]+(?:\s+[a-z]+)?)", piece, re.I)) \
                and (subject := subject_of(m.group(1)) or subject_of(m.group(1).split()[0])):
            return [said("study", subject, f"study {subject}")]  # "I'm a first year studying economics"
        if m := re.search(r"\b(?i:starting|started|doing|enrolled\s+on|enrolled\s+in|studying\s+for|finished)\s+(?:an?|my|the)\s+"
                          r"(HNC|HND|MBA|PGCE|BTEC|MSc|MA|BA|BSc|PhD|NVQ|GCSEs?|A-levels?|LLB|LLM|MPhil|MRes)\b", piece):
            return [said("study", m.group(1), f"study for a {m.group(1)}")]  # "starting an HNC in building services"
        if (m := re.search(r"\b(?:apprenticeship|course|degree|diploma|training|qualification|phd|masters?)\s+in\s+([a-z][a-z ]*?)"
                           r"(?:\s+at\b.*)?$", piece, re.I)) or (m := re.search(
                r"\b(?:to\s+study|(?:i'm|i\s+am)\s+reading)\s+([A-Za-z][a-z]*(?:\s+[a-z]+)?)", piece, re.I)):
            if subject := subject_of(m.group(1)) or (m.group(1).lower().strip() if re.match(r"(?i:course|degree|diploma|phd|masters?)",
                                                                                            m.group(0).split()[0]) and len(m.group(1).split()) <= 3
                                                     else subject_of(m.group(1).split()[-1])):
                return [said("study", subject, f"study {subject}")]  # "an apprenticeship in plumbing", "to study design"
    if m := re.search(r"\b(?:dropped|quit|dropping|left|leaving|gave\s+up|giving\s+up)\s+(?:out\s+of\s+)?(?:my\s+|the\s+)?([a-z][a-z ]*?)(?:\s+(?:degree|course|"
                      r"module|major))?$", piece, re.I):
        if m.group(1).lower() in SUBJECTS:
            return [said("study", m.group(1), f"dropped {m.group(1)}", ends=True)]
    return []


def _diet(piece: str, sentence: str) -> list[Said]:
    """"pescatarian it is", "so pescatarian I guess", "pescatarian from today", "Vegan for a year now"; "cut out
    meat", "back to eating meat"."""
    low = piece.lower().replace("plant based", "plant-based")
    if m := re.search(r"\b(?:cut\s+out|given\s+up|gave\s+up|quit|stopped\s+eating|ditched)\s+(meat|red\s+meat|dairy|gluten|sugar|fish"
                      r"|pork|alcohol|booze|caffeine|eggs)\b", low):
        return [said("diet", "no " + m.group(1), f"eat no {m.group(1)}")]  # "I've cut out meat completely"
    if m := re.search(r"\b(?:back\s+to\s+eating|eating\s+(?=\w+\s+again)|started\s+eating)\s+(meat|fish|dairy|eggs|chicken)\b", low):
        return [said("diet", f"eats {m.group(1)}", f"eat {m.group(1)}")]  # "I went back to eating meat"
    if re.search(r"\b(?:not|no\s+longer|never|n't|anymore|used\s+to|restaurant|food|options?|menu|recipes?|friends?|place"
                 r"|cafe|meal|dish|dishes|cheese|version)\b", low):
        return []
    if m := re.fullmatch(r"(?:so\s+|now\s+|and\s+|officially\s+|fully\s+|back\s+to\s+being\s+|(?:i'm|i\s+am|i've\s+been|been|i've\s+gone|gone"
                         r"|going|went|i\s+went|turned|became|i'm\s+going|i've\s+turned|i've\s+become)\s+)*([a-z-]+)(?:\s+(?:it\s+is|i\s+guess"
                         r"|i\s+suppose|now|from\s+today|from\s+now\s+on|these\s+days|for\s+good|for\s+(?:a|one|two|three|\w+)\s+\w+"
                         r"(?:\s+now)?|again|officially))*", low):
        if m.group(1) in DIETS or m.group(1) == "plant-based":
            return [said("diet", m.group(1), f"be {m.group(1)}")]
    return []


def _pet(piece: str, sentence: str) -> list[Said]:
    """"there's a kitten, Pepper", "a beagle called Mabel", "her name is Pepper" (after an animal)."""
    if m := re.search(r"\b(?:an?|new|little|the)\s+([a-z]+)\s+(?:called|named)\s+([A-Z][\w'-]+)", piece):
        if singular(m.group(1)) in ANIMAL_WORDS:
            return [said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}")]
    if (m := re.match(r"^(?:(?:[Aa]nd\s+)?[Nn]ow\s+)?[Tt]here's\s+(?:an?\s+|the\s+)?(?:new\s+|little\s+)?([a-z]+)$", piece)) \
            and singular(m.group(1)) in ANIMAL_WORDS and (n := re.search(rf"\b{m.group(1)},\s+([A-Z][\w'-]+)", sentence)):
        return [said("pet", n.group(1), f"have a {singular(m.group(1))} {n.group(1)}")]
    return []


def _top(piece: str, sentence: str) -> list[Said]:
    """"Fontaines D.C. have taken the top spot": the favourite said before has a new value; "fav food has
    always been ramen", "pho has overtaken ramen as my favourite food", "Spirited Away is still my favourite film"."""
    fav = r"(?:fav|fave|favourite|favorite)"
    if m := re.match(rf"^(?i:my\s+)?(?i:all-time\s+)?(?i:{fav})\s+([a-z]+)\s+(?:has\s+always\s+been|has\s+been|is|was|will\s+always\s+be"
                     r"|is\s+still|is\s+now)\s+(.+)$", piece):
        return [said(f"favourite:{thing(m.group(1))}", m.group(2), f"favourite {m.group(1)}: {m.group(2)}")]
    if m := re.match(rf"^(\S+(?:\s+\S+){{0,3}}?)\s+(?:(?:has|have|'s)\s+)?(?:now\s+|officially\s+|just\s+|finally\s+)?(?:overtaken|replaced|beaten"
                     r"|dethroned)"
                     rf"\s+[\w' -]+?\s+as\s+(?:my|our)\s+(?:new\s+)?(?i:{fav})\s+([a-z]+)", piece):
        return [said(f"favourite:{thing(m.group(2))}", m.group(1), f"favourite {m.group(2)}: {m.group(1)}")]
    if m := re.match(rf"^({NAME})\s+(?:is|are)\s+(?:still\s+|now\s+|officially\s+)?(?:my|our)\s+(?:new\s+|all-time\s+)?(?i:{fav})\s+"
                     r"([a-z]+)$", piece):
        return [said(f"favourite:{thing(m.group(2))}", m.group(1), f"favourite {m.group(2)}: {m.group(1)}")]
    if m := re.match(rf"^({NAME})\s+(?:has|have|'s|’s)\s+(?:now\s+)?(?:taken|claimed|grabbed|stolen)\s+(?:over\s+)?(?:the\s+)?"
                     r"(?:top\s+spot|number\s+one\s+spot|crown|top\s+of\s+the\s+list)", piece):
        return [said("favourite:it", m.group(1), f"favourite: {m.group(1)}")]
    return []


def _new_top(piece: str, sentence: str) -> list[Said]:
    """"the jollof your mum made is my new favourite": the favourite said before (of whatever thing) has a new value."""
    if m := re.match(r"^(?:the\s+|that\s+)?([\w' -]+?)(?:\s+(?:your|that|which|you|i|we|at|from)\b.*?)?\s+is\s+(?:now\s+)?(?:my|our)\s+"
                     r"(?:new\s+|absolute\s+)?(?:fav|fave|favourite|favorite)$", piece, re.I):
        if len(m.group(1).split()) <= 3 and m.group(1).lower() not in ("it", "this", "that", "he", "she", "they"):
            return [said("favourite:it", m.group(1), f"favourite: {m.group(1)}")]
    return []


def _count(piece: str, sentence: str) -> list[Said]:
    """"so that's three grandchildren now", "which makes four cats"."""
    nums = "|".join(sorted(NUMBERS, key=len, reverse=True))
    if m := re.match(rf"^(?i:with)\s+(\d+|{nums})\s+(kids|children|dogs|cats|grandchildren|grandkids|boys|girls)\b", piece):
        figure = NUMBERS.get(m.group(1).lower(), m.group(1))  # "With two kids under five, sleep is a myth"
        return [said(f"count:{thing(m.group(2))}", figure, f"have {m.group(1)} {m.group(2)}")]
    if m := re.match(rf"^(?:so\s+|and\s+)?(?:now\s+)?(?:that's|that\s+is|that\s+makes|which\s+makes|making\s+it|it's|it\s+is)\s+(\d+|{nums})\s+"
                     r"(?:\w+\s+)??([a-z]+)$", re.sub(r"\s+now$", "", re.sub(r"\s+and\s+.*$", "", piece)), re.I):
        figure = NUMBERS.get(m.group(1).lower(), m.group(1))
        return [said(f"count:{thing(m.group(2))}", figure, f"have {m.group(1)} {m.group(2)}")]
    return []


def _partner(piece: str, sentence: str) -> list[Said]:
    """"Ten years married to Sabine today", "Third date with Anja tonight", "engaged to Rui"."""
    if NOT.search(piece):
        return []
    if m := re.search(r"\b(?i:married|engaged)\s+to\s+([A-Z][a-z'’-]+)|\b(?i:dates?|anniversary(?:\s+\w+)?)\s+with\s+"
                      r"([A-Z][a-z'’-]+)", piece):
        name = m.group(1) or m.group(2)
        return [said("partner", name, f"be with {name}")]
    if m := re.match(r"^([A-Z][a-z'’-]+)\s+(?:finally\s+|just\s+)?(?:proposed|popped\s+the\s+question)\b", piece):
        return [said("partner", m.group(1), f"be engaged to {m.group(1)}")]  # "Tom proposed last night"
    if m := re.match(r"^(?i:me\s+and|i\s+and)\s+([A-Z][a-z'’-]+)\s+(?:are|have|were)\s+(?:officially\s+)?(?:over|done|finished|split"
                     r"|broken\s+up|separated)", piece):
        return [said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "Me and Dan are over"
    if m := re.search(r"\b(?i:my)\s+(?:ex\s+)?(?:husband|wife|partner|boyfriend|girlfriend|bf|gf|fianc[eé]e?|ex)\s+(?:([A-Z][a-z'’-]+)\s+)?"
                      r"(?i:and\s+i|and\s+me)\s+(?:have\s+|had\s+|finally\s+)?(?:split|broke\s+up|separated|divorced|are\s+over"
                      r"|are\s+done|called\s+it\s+(?:off|quits))", piece):
        return [said("partner", m.group(1) or "", f"broke up with {m.group(1) or 'them'}", ends=True)]
    if m := re.search(r"\b(?:me|i)\s+and\s+my\s+(?:ex\s+)?(?:\w+\s+)?([A-Z][a-z'’-]+)\s+(?:have\s+|had\s+)?(?:split|broke\s+up|separated"
                      r"|divorced)", piece, re.I):
        return [said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "me and my ex Jordan broke up"
    if m := re.search(r"\b(?:seeing|dating|going\s+out\s+with)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))\s+(?:new\s+|lovely\s+)?"
                      r"(?:called|named)\s+([A-Z][a-z'’-]+)", piece, re.I):
        return [said("partner", m.group(1), f"be with {m.group(1)}")]  # "now seeing someone new called Sam"
    if m := re.match(r"^(?:so\s+)?([A-Z][a-z'’-]+)\s+and\s+(?i:i|me)\s+(?:are|have|were)\s+(?:officially\s+)?(?:done|over|no\s+more|finished|split\s+up|broken\s+up"
                     r"|separated|separating)", piece):
        return [said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "Marcus and I are done"
    if m := re.search(r"\bmy\s+ex(?:-\w+)?,?\s+([A-Z][a-z'’-]+)", piece, re.I):
        return [said("partner", m.group(1), f"broke up with {m.group(1)}", ends=True)]  # "My ex, Tom, keeps texting"
    if re.search(r"\b(?:the|my|our)\s+divorce\s+(?:came\s+through|went\s+through|is\s+final|was\s+finali[sz]ed|is\s+done|came\s+thru)", piece,
                 re.I):
        return [Said("partner", "", Clause("", "divorce", False, ""), ends=True)]  # "the divorce came through on tuesday"
    if re.match(r"^(?i:i'm|i\s+am|i've\s+been|been)\s+(?:officially\s+|now\s+|happily\s+)?single\b", piece):
        return [Said("partner", "", Clause("", "be", False, "single"), ends=True)]  # "I've been single since the divorce"
    if re.fullmatch(r"(?i:we're|we\s+are|we've|we\s+have)\s+(?:officially\s+|finally\s+)?(?:done|over|finished|split\s+up"
                    r"|broken\s+up|separated)", piece):
        return [Said("partner", "", Clause("", "break", False, "up"), ends=True)]  # "We're done."
    return []


def _playing(piece: str, sentence: str) -> list[Said]:
    """"I drum in a punk band" (an instrument said as a verb); "no more drumming", "stopped drumming": it ends."""
    if (m := re.match(r"^(?:i|we)\s+(?:still\s+|also\s+)?(drum|fiddle)\b", piece, re.I)) and not NOT.search(piece):
        return [said("instrument", m.group(1), f"play the {m.group(1)}")]
    if (m := re.search(r"\b(?:ordered|bought|got|picked\s+up|took\s+up|taking\s+up|started|starting|hired|rented)\s+(?:an?|the|my)\s+"
                       r"(?:(?:new|tenor|alto|bass|electric|acoustic|second-hand|secondhand|cheap|little)\s+)*([a-z]+)\b", piece, re.I)) \
            and m.group(1).lower() in INSTRUMENTS and not NOT.search(piece):
        return [said("instrument", m.group(1), f"play the {m.group(1).lower()}")]  # "Ordered a tenor recorder instead"
    if (m := re.search(r"\b(?:stopping|stopped|quitting|quit|dropping|dropped|giving\s+up|gave\s+up|sold|selling|put|putting)\s+(?:the\s+|my\s+)?"
                       r"([a-z]+)\b(?:\s+away)?", piece, re.I)) and m.group(1).lower() in INSTRUMENTS and (
            not m.group(0).lower().startswith("put") or m.group(0).lower().endswith("away")):
        return [said("*", m.group(1), f"stopped {m.group(1).lower()}", ends=True)]  # "stopping the cello for good"
    if m := re.search(r"\b(?:no\s+more|stopped|quit|gave\s+up|giving\s+up|done\s+with)\s+([a-z]+?)(?:m?ing)\b", piece, re.I):
        stem = m.group(1).lower()
        if stem in INSTRUMENTS or stem + "e" in INSTRUMENTS:
            return [said("*", stem, f"stopped {stem}", ends=True)]
    return []


def _next(piece: str, sentence: str) -> list[Said]:
    """"And now Bosch!": a name that is no place, after "now", is the next value of whatever the person's
    last named value was of (an employer, a partner): attribute ``^`` (:func:`graphmem.claims.facts.timeline`)."""
    if (m := re.fullmatch(rf"({NAME})\s+(?i:on\s+monday|from\s+monday|on\s+the\s+\w+|next\s+week|next\s+month|in\s+\w+)", piece)) \
            and org(m.group(1)) and re.search(r"\b(?:last\s+day|notice|leaving|left|quit|resigned|offer|start)", sentence, re.I):
        return [said("^", m.group(1), f"be with {m.group(1)}")]  # "Last day at Arup, cake and a card. Mott MacDonald on Monday."
    if (m := re.search(r"\b(?:it's|it\s+is)\s+(?:the|a|my)\s+([a-z-]+)\b.*\bnow\b", piece, re.I)) and m.group(1) in VEHICLES:
        return [said("vehicle", m.group(1), f"ride the {m.group(1)}")]  # "it's the bike and a bus pass now"
    if (m := re.fullmatch(rf"(?i:and\s+|but\s+)?(?i:now|these\s+days)\s+({NAME})", piece)) and org(m.group(1)):
        return [said("^", m.group(1), f"be with {m.group(1)}")]
    return []


_CUE_FIRST = frozenset("""started starting start joined engaged married dating seeing moved moving relocated living based
    left leaving quit dropped swapped traded sold bought picked got took accepted signed doing studying reading finally
    officially still now first last another back been week day new transferred switched changed said rip cut gave
    going went""".split())
"""A piece's first word, capitalised at a sentence's start, that a rule reads in lower case ("Started at Google")."""
_NAMED_IN = re.compile(r"(?!I\b|I'|I’)[A-Z]|\b(?:live|living|based|moved|moving|relocat)")
_RULES: tuple[tuple[Callable[[str, str], list[Said]], tuple[str, ...] | None], ...] = (
    (residence, None), (employer, None),
    (job, ("offer", "job", "role", "position", "post", "place", "apprentice", "now", "last", "officially", "as of",
            "today", "qualified", "newly", "as a", "as an", "that's me", "ing ", "teach", "lectur", "promoted", "moved up",
            "stepped up", "being", "retired", "employed", "freelanc", "between jobs", "out of work", "mum", "mom", "dad", "parent")),
    (_swap, ("for", "instead", "from", "transfer", "switch", "onto", "into")),
    (_used, ("used to",)),
    (_switched, ("switch", "changed", "moved", "upgraded", "downgraded", "converted", "learn", "speak", "studying", "called",
                 "named")),
    (_gone, ("done with", "finished with", "behind", "put ", "let me go", "laid me off", "fired me", "redundant", "sacked",
             "graduated", "to live", "goodbye", "farewell", "gone", "sold", "history", "rip", "r.i.p", "rest in peace", "lost", "buried",
             "passed away", "died", "put down", "ran away", "missing")),
    (_bought, ("the ", "my ", "our ", "mot ", "service", "insurance", "tyres", "tires", "brakes", "driving", "ride", "car", "wheels", "motor", "vehicle", "bike", "commute", "get around", "everywhere", "bought", "got",
               "picked up", "leased", "rent", "hired", "collected", "delivery")),
    (_study, ("hnc", "hnd", "mba", "pgce", "btec", "msc", "ba ", "bsc", "nvq", "gcse", "llb", "llm", "mphil", "mres", "degree", "course", "major", "student", "school", "exam", "class", "lecture", "module", "program", "dissert",
              "thesis", "finals", "semester", "a-level", "gcse", "diploma", "apprentice", "training", "qualification", "phd",
              "master", "study", "reading", "dropped", "quit", "left", "leaving", "gave up", "giving up")),
    (_diet, tuple(DIETS) + ("plant", "meat", "fish", "dairy", "gluten", "sugar", "pork", "alcohol", "booze", "caffeine",
                            "eggs", "chicken")),
    (_pet, ("called", "named", "there's")),
    (_partner, ("married", "engaged", "date", "anniversary", "proposed", "popped", "over", "done", "finished", "split",
                "broke", "separated", "single", "divorce", "called", "named", "ex", "no more", "going out")),
    (_playing, ("drum", "fiddle", "ing", "ordered", "bought", "got", "took", "started", "hired", "rented", "stopp", "quit", "dropp",
                "gave", "sold", "put")),
    (_top, ("top", "crown", "fav", "overtaken", "replaced", "beaten", "dethroned")),
    (_new_top, ("fav",)),
    (_count, ("that's", "that is", "makes", "making", "it's", "it is", "with")),
    (_next, ("now", "these days", "monday", "next", " on ", " in ")),
)
"""Each rule in the order tried (the first that reads a piece wins), with the words it needs one of (None: a name)."""
_CUES = re.compile("|".join(sorted({re.escape(w.strip()) for _, gate in _RULES if gate for w in gate if len(w.strip()) > 3},
                                   key=len, reverse=True)))
"""Any rule's words, for a sentence with no name and no typed word ("I'm self-employed now")."""


_LEAD = r"^(?:(?:so|sadly|well|and|but|oh|yeah|update|(?:sad|bad|awful|terrible)\s+news)\b[:,]?\s+)*"
_ONES = r"(?:(?i:our|my)\s+(?:(?i:old|little|sweet|beloved|poor|dear|lovely|darling|ex)\s+)*([a-z]+)\s+)?"
_SUBJECT = re.compile(_LEAD + _ONES + r"(?!(?:I|We|You|He|She|It|They|This|That|There|Everything|Nothing|Someone)\b)"
                      r"([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\s+(?:(?:has|had|have|sadly|just|finally|officially|actually)\s+)*"
                      r"(.*)$", re.I)
_WHEN = "on in at last yesterday today this overnight earlier after before and peacefully now"


def _then(*more: str) -> str:
    """A lookahead: the end of the clause, or a time word (or one of ``more``) next ("Mo passed on Tuesday")."""
    return r"(?=\s*$|\s*[,;:!.]|\s+(?:" + "|".join(_WHEN.split() + list(more)) + r")\b)"



_DIED = re.compile(r"(?:passed\s+away|passed" + _then("away") + r"|died|did\s*n['’]?t\s+make\s+it" + _then()
                   + r"|(?:was|got|had\s+to\s+be)\s+put\s+(?:down|to\s+sleep)|(?:is|'s|’s)\s+gone" + _then("forever", r"for\s+good")
                   + r"|crossed\s+the\s+rainbow\s+bridge)", re.I)
_LEFT = re.compile(r"(?:moved\s+out|walked\s+out|left\s+(?:me|us)" + _then("for") + r"|and\s+(?:i|me)\s+(?:have\s+|had\s+|are\s+|were\s+"
                   r"|'ve\s+)?(?:officially\s+|finally\s+|just\s+)?(?:split(?:\s+up)?|broke\s+up|broken\s+up|done|over|finished"
                   r"|separated|separating|divorced|called\s+it\s+(?:quits|off))" + _then("for") + ")", re.I)
_WE_SPLIT = re.compile(_LEAD + r"(?:we|we've|we\s+have)\s+(?:finally\s+|officially\s+|just\s+)*(?:split(?:\s+up)?|broke\s+up|broken\s+up)"
                       + _then("for"), re.I)
_PARTNERS = frozenset("boyfriend girlfriend partner husband wife bf gf fiance fiancee fiancé fiancée".split())


def subject_ended(sentence: str) -> list[Said]:
    """A value of the speaker's that a sentence says ended with the value as its subject: a pet or a person
    who died ("Mo passed away in his sleep", "Biscuit didn't make it", "our old cat Pepper died last week":
    whatever value of theirs it names, ``*``) or a partner who left ("Felix moved out", "Ravi and I are done",
    "we split": the partner). Not a name that passed something ("Mo passed the exam"), moved somewhere
    ("Mo moved to a bigger tank") or left something ("left me a mouse"), nor someone else's ("Jo's dog died").
    Why apart from the pieces' rules: the name is the sentence's subject, so its claim is not the speaker's,
    and "Ravi and I" is cut in two there."""
    if "?" in sentence:
        return []  # "Mo died?"
    if _WE_SPLIT.match(sentence):
        return [Said("partner", "", Clause("", "break", False, "up"), ends=True)]
    m = _SUBJECT.match(sentence.strip())
    if not m or (m.group(1) and singular(m.group(1).lower()) not in ANIMAL_WORDS | _PARTNERS):
        return []
    name, rest = m.group(2), m.group(3)
    if _DIED.match(rest):
        return [said("*", name, f"lost {name}", ends=True)]
    if _LEFT.match(rest) and (not m.group(1) or m.group(1).lower() in _PARTNERS):
        return [said("partner", name, f"broke up with {name}", ends=True)]
    return []
