"""What a clause says of its person's attributes: where they live, what they work as and for whom,
their partner, pets, vehicle, instruments, studies, diet, languages, favourites, counts and
frequencies of things, and, for everything else, an open-ended ``other:<predicate>``.

Why attributes and not verbs: "I moved to Porto", "Porto is home now" and "I'm based in Porto" say
one thing, where the person lives, with three verbs; "I left Google and joined Microsoft", "I sold
the Civic" and "Felix and I broke up" each end a value without naming its successor. A clause is
read into :class:`Said` statements: a value given to an attribute (``residence``: "porto"), or a
value that stopped holding (``ends``: the Civic sold, the cat that passed away, a break-up, with no
value: every partner). :mod:`graphmem.claims.facts` turns them into facts with time: a later value of
a one-valued attribute ends the earlier, a many-valued one (``pet``, ``instrument``, ``language``,
``other:*``) adds a value unless a statement ends one, and a negation ends the value it denies.

Each rule reads how people say the attribute, with the word lists of :mod:`graphmem.text.things`; a
clause no rule reads keeps its predicate (``other:be``, ``other:play``). Small talk gives nothing
("Good to see you", "Big news", "so excited").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from graphmem.claims.clauses import Clause, clauses, trim
from graphmem.claims.quality import POINTING, PRONOUNS, TALK, plain, small_talk, works
from graphmem.domain import Claim
from graphmem.text.things import (
    ANIMAL_WORDS, DIETS, DOING, INSTRUMENTS, LANGUAGES, MAKES, NUMBERS, OCCUPATIONS, PARTNER_NOUNS, VEHICLES, singular, uk,
)

__all__ = ["MANY", "Said", "plain", "said_of", "small_talk", "thing"]

MANY = frozenset({"pet", "instrument", "language"})
"""The attributes that hold many values at once (and every ``other:*``): a new value adds to them."""


@dataclass(frozen=True, slots=True)
class Said:
    """One statement of a clause about an attribute."""

    attribute: str
    value: str
    """Lower case; "" with ``ends`` ends every value of the attribute."""
    clause: Clause
    negated: bool = False
    ends: bool = False
    """The value stopped holding ("sold the Civic"): no fact of its own, it ends one."""
    alone: bool = False
    """The value replaces the others even of a many-valued attribute ("switched to the cello")."""


_DET = r"(?:(?:the|a|an|my|our|his|her|their|this|that|some)\s+)?"
_PLACE = r"([A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|de|do|da|upon|on|of)(?=\s+[A-Z]|$|\s*[,.]))*(?:\s+[A-Z][\w'’-]*)?)"
_IN_PLACE = re.compile(rf"\b(?:in|at|near|to|into)\s+(?:the\s+)?{_PLACE}")
_TO_PLACE = re.compile(rf"\b(?:to|into)\s+(?:the\s+)?{_PLACE}")
_NAME = re.compile(r"\b([A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?)")
_ORG = re.compile(r"\b(?:at|for|by|joined|join)\s+(?:the\s+)?([A-Z][\w&'’.-]*(?:\s+(?:of\s+|and\s+|&\s+)?"
                  r"[A-Z][\w&'’.-]*)*)")
_AS = re.compile(r"\bas\s+(?:an?\s+|the\s+)?([a-z][a-z -]*?)(?=\s+(?:at|for|in|with|on)\b|$|[,.])", re.I)
_A_NOUN = re.compile(r"^(?:now\s+|also\s+|still\s+|officially\s+)?an?\s+([a-z][a-z -]*?)"
                     r"(?=\s+(?:at|for|in|with|on|from|now|and|but|here|there)\b|$|\s*[,;.!])",
                     re.I)
_FAVOURITE = re.compile(r"\b(?:favou?rite|fave|fav)\s+([a-z][a-z -]*)$", re.I)
_COUNT = re.compile(r"^(?:(?:now|just|only|about|around|over|nearly|almost)\s+)?(\d[\d,]*|"
                    + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")\s+(?:new\s+|little\s+|young\s+)?"
                    r"([a-z][a-z-]+)", re.I)
_FREQ = re.compile(r"\b((?:once|twice|three times|four times|five times|\d+\s+times|\w+\s+times)\s+(?:a|per|each|every)"
                   r"\s+(?:day|week|month|year|fortnight)|every\s+(?:other\s+)?(?:day|week|morning|evening|night|month"
                   r"|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|daily|weekly|monthly|nightly"
                   r"|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends))\b",
                   re.I)
_VEHICLE_WORDS = VEHICLES
_ENDING = frozenset({"leave", "quit", "sell", "ditch", "dump"})  # its object stops holding: an ending, not a fact
_ENDED_PET = frozenset({"die", "pass", "run", "lose", "put", "rehome", "give"})
_FOOD = re.compile(r"^(?:eat(?:ing)?\s+|drink(?:ing)?\s+)?([a-z][a-z -]*)$", re.I)


def said_of(c: Claim, before: Claim | None = None) -> tuple[Said, ...]:
    """Every statement the claim's clauses make (small talk none; an unread clause ``other:<verb>``).
    ``before``: the claim read just before it; when both are of one sentence, an "it" or "that" as
    the subject names the thing that claim began with ("Watched Past Lives and it's my new favourite")."""
    if c.predicate == "call" and c.topic and re.fullmatch(r"[A-Z][\w'’-]*", c.object):
        if c.topic.lower() in ("him", "her", "it") and before is not None and before.turn_id == c.turn_id and (
                animal := next((w for w in re.findall(r"[a-z]+", before.object.lower()) if w in ANIMAL_WORDS), None)):
            named = Clause("", "have", False, f"a {singular(animal)} {c.object}")  # "Got a rabbit! Named him Pickles."
            return (Said("pet", c.object.lower(), named),)
        return _naming(c)
    out: list[Said] = []
    for clause in clauses(c):
        if small_talk(clause):
            continue
        if clause.topic.lower() in ("it", "that") and before is not None and before.sentence == c.sentence and (
                m := re.match(r"^(?:the\s+)?([A-Z][\w'’-]*(?:\s+[A-Z0-9][\w'’-]*)*)", before.object)):
            clause = replace(clause, topic=m.group(1), other=False)
        if clause.other or clause.topic.lower() in PRONOUNS:
            continue  # "It's like having ...": about something else
        found = _attributes(clause, c)
        if not found and plain(clause):
            obj = trim(re.split(r",\s", clause.object)[0])  # an open-ended value: its first item, not a list or an aside
            found = [Said("*", _value(obj), clause, ends=True) if clause.predicate in _ENDING and not re.match(
                r"(?:for|on|to|at|in|with|early|late|home|work|\w+ing)\b", obj) else  # "leave ikea" ends; "quit smoking" holds
                Said(f"other:{clause.predicate}", _value(obj), replace(clause, object=obj), clause.negated)]
        out.extend(found)
    return tuple(out)


def _naming(c: Claim) -> tuple[Said, ...]:
    """A naming claim ("my son Max", "our cat Luna": :mod:`graphmem.claims.naming`): the owner's pet,
    partner, or relation (``other:son``) by name; a name given to no one of theirs ("someone called
    Ravi", "a puppy named Rex") says nothing of its own: the clause it is part of says it."""
    owned = re.match(r"^(?:my|our)\s+(?:new\s+|little\s+|baby\s+|best\s+|older\s+|younger\s+)*([a-z-]+)$", c.topic,
                     re.I)
    if owned is None:
        return ()
    noun = owned.group(1).lower()
    clause = Clause(c.topic, "have", False, f"a {singular(noun)} {c.object}")  # "my son Max": have a son Max
    if singular(noun) in ANIMAL_WORDS:  # "our cat Max passed away": Max's own claim is not the owner's, this one is
        gone = re.search(rf"\b{re.escape(c.object)}\b\s+(?:has\s+|had\s+|just\s+|sadly\s+)*(?:passed|died|ran\s+away"
                         r"|was\s+put\s+down|went\s+missing|is\s+gone)", c.sentence)
        return (Said("pet", c.object.lower(), clause, ends=gone is not None),)
    if noun in PARTNER_NOUNS:
        return (Said("partner", c.object.lower(), clause),)
    return (Said(f"other:{singular(noun)}", c.object.lower(), clause),)


def _value(text: str) -> str:
    """A value as the facts compare it: lower case, no leading determiner, no end punctuation."""
    v = re.sub(r"^(?:the|a|an|my|our|his|her|their|this|that|some)\s+", "", text.strip(" .,!;:'\"").lower())
    return re.sub(r"\s+", " ", v)


def _attributes(k: Clause, c: Claim) -> list[Said]:
    """The attribute statements of one clause, tried rule by rule (the first that reads it wins,
    except that a job at a place gives both the occupation and the employer)."""
    for rule in (_residence, _work, _partner, _pet, _vehicle, _instrument, _study, _diet, _language, _favourite,
                 _count, _frequency, _ending):
        found = rule(k, c)
        if found:
            return found
    return []


def _residence(k: Clause, c: Claim) -> list[Said]:
    p, obj, neg = k.predicate, k.object, k.negated
    place = None
    if p in ("live", "reside", "settle", "stay", "base") or p == "be" and re.match(
            r"(?:now\s+|still\s+|back\s+)*(?:based|living|settled)\s", obj):
        place = _IN_PLACE.search(obj)
    elif (m := re.match(rf"^(?i:now\s+|still\s+)?(?i:living|based)\s+(?:in|near)\s+{_PLACE}", k.topic)) and not k.person:
        return [Said("residence", _value(m.group(1)), k, neg)]  # "Living in Osaka is expensive"
    elif p in ("rent", "buy", "share", "own", "find") and re.search(r"\b(?:place|flat|apartment|house|room|condo|studio|home)\s+"
                                                                  r"(?:in|near)\s+[A-Z]", obj):
        place = _IN_PLACE.search(obj)  # "rent a little place in Austin"
    elif p in ("move", "relocate"):
        place = _TO_PLACE.search(obj) or (None if re.search(r"\bfrom\b", obj) else _IN_PLACE.search(obj))
    elif p == "be" and not k.topic and not k.under and re.match(rf"^(?:now\s+|still\s+|back\s+)?in\s+{_PLACE}(?:$|,|\s+(?:now|for\s+(?:good|\w+\s+"
                                                r"(?:years?|months?))))", k.said or obj) and not re.search(
            r"\b(?:for\s+(?:a|the|my|our)\s+(?:conference|trip|holiday|vacation|week|weekend|visit|wedding|work)"
            r"|visiting|on\s+holiday|on\s+vacation|on\s+business)\b", k.said or obj, re.I):
        place = None if re.search(r"\b(?:was|were)\s+in\b|\b(?:when|if|once|until|whenever)\s+(?:i'm|i\s+am|we're|we\s+are)\s+in\b",
                                  c.sentence, re.I) else _IN_PLACE.search(obj)
        # "I'm in Glasgow now", "I've been in Lisbon for three years"; not "I was in Chicago, it was awesome"
    elif p == "be" and k.topic[:1].isupper() and re.match(r"^(?:my|our)?\s*(?:new\s+)?home\b|^where\s+(?:i|we)\s+"
                                                          r"(?:live|are\s+based|call\s+home)\b", obj, re.I):
        return [Said("residence", _value(k.topic), k, neg)]  # "Porto is home now"
    elif p == "be" and re.match(r"^(?:my|our)?\s*(?:new\s+)?home$", k.topic, re.I) and (m := _NAME.search(obj)):
        return [Said("residence", _value(m.group(1)), k, neg)]  # "home is Porto now"
    elif p == "call" and (m := re.match(rf"^{_PLACE}\s+home\b", obj)):
        return [Said("residence", _value(m.group(1)), k, neg)]
    if place and place.group(1).isupper() and len(place.group(1)) > 1:
        return []  # "moved over to KPMG": an organisation, not a place (graphmem.claims.values_where reads it)
    return [Said("residence", _value(place.group(1)), k, neg)] if place else []


def _job(text: str) -> str | None:
    """The job a noun phrase names ("data analyst", "head chef"), by its head word."""
    words = text.lower().split()
    return " ".join(words) if words and words[-1] in OCCUPATIONS and len(words) <= 4 else None


def _work(k: Clause, c: Claim) -> list[Said]:
    """Occupation and employer: "work as a chef at X", "became a pilot", "joined Microsoft",
    "left Google", "got a job at Spotify as an analyst", "quit my job", "I'm a nurse at X"."""
    p, obj, neg = k.predicate, k.object, k.negated
    out: list[Said] = []
    if p in ("leave", "quit") and re.match(r"^(?:my\s+)?(?:job|work|position|role)\b", obj, re.I):
        out += [Said("occupation", "", k, ends=True), Said("employer", "", k, ends=True)]
        if org := _ORG.search(obj):
            out[-1] = Said("employer", _value(org.group(1)), k, ends=True)
        return out
    if p in ("leave", "quit") and (m := re.match(rf"^{_DET}([A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)$", obj)):
        return [Said("*", _value(m.group(1)), k, ends=True)]  # "left Google", "left Adelaide": whichever it was
    if p == "hand" and re.match(r"^in\s+(?:my\s+)?(?:notice|resignation)\b", obj) or p == "resign":
        org = _ORG.search(re.sub(r"\b(?:from|to)\b", "at", obj))
        return [Said("employer", _value(org.group(1)) if org else "", k, ends=True)]  # "handed in my notice at X"
    if p == "be" and not k.topic and (m := re.match(r"^(?:\w+\s+)?(?:years?|months?)\s+(?:now\s+)?(?:at|with)\s+(?:the\s+)?"
                                                    r"([A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)", obj)):
        return [Said("employer", _value(m.group(1)), k, neg)]  # "Three years at the NHS this month"
    if p in ("get", "be") and (m := re.match(r"^(?:just\s+)?(?:hired|taken\s+on|recruited|headhunted|poached)\s+(?:at|by)\s+"
                                             r"(?:the\s+|an?\s+[\w-]+\s+(?:called|named)\s+)?([A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)", obj)):
        return [Said("employer", _value(m.group(1)), k, neg)]  # "got hired at Atlassian"
    if p in ("get", "be") and re.match(r"^(?:laid\s+off|fired|let\s+go|made\s+redundant|sacked)\b", obj, re.I):
        org = _ORG.search(re.sub(r"\bfrom\b", "at", obj))
        return [Said("employer", _value(org.group(1)) if org else "", k, ends=True)]
    if p == "be" and not k.topic and (m := re.match(r"^(?:now\s+|still\s+)?at\s+(?:the\s+)?([A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)",
                                                    obj)) and not re.match(r"(?:the\s+)?(?:Home|Work)\b", m.group(1)):
        return [Said("employer", _value(m.group(1)), k, k.negated)]  # "Still at Google", "I've been at Hawaiian Airlines"
    if p == "retire" and k.person or p == "be" and not k.topic and re.match(
            r"^(?:now\s+|officially\s+|finally\s+|fully\s+|happily\s+)*retired$", obj, re.I):
        return [Said("occupation", "retired", k, neg), Said("employer", "", k, ends=True)]
    job = None
    if re.search(r"(?:'d|\bwould|\bcould|\bshould|\bmight|\bmust|'ll|\bwill)\s+(?:\w+\s+)?(?:be|become)\s+an?\s", c.sentence, re.I):
        return out  # "you'd be a great counselor", "you must be a good salesperson": no one's job
    if p in ("work", "start", "get", "find", "land", "become", "train", "be", "take", "accept", "retrain", "qualify") and (
            m := _AS.search(obj)):
        job = _job(m.group(1)) or (m.group(1).lower() if p in ("work", "become", "retrain", "qualify") else None)
    elif p in ("be", "become") and (m := _A_NOUN.match(obj)) and not re.search(r"\b(?:is|are|was|were)\b", k.said or obj):
        job = _job(m.group(1))
    # each its own words: "work at Shopify as a backend dev" is "as a backend dev" and "at Shopify"
    if job and m is not None:  # (m: the words the job was read from)
        out.append(Said("occupation", job, replace(k, object=m.group(0).strip(" ,.")) if m.group(0).lower().startswith("as ")
                        else k, neg))
    employer = p in ("work", "join", "intern", "teach") or p in ("start", "get", "land", "find", "accept") and re.search(
        r"\b(?:job|position|role|work|working|internship)\b", obj) or (job is not None and p == "be")
    if employer and (org := _ORG.search(obj)) and org.group(1).lower() not in ("home", "i"):
        out.append(Said("employer", _value(org.group(1)), replace(k, object=org.group(0)) if job else k, neg))
    elif p == "join" and (m := re.match(rf"^{_DET}([A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)", obj)):
        out.append(Said("employer", _value(m.group(1)), k, neg))
    return out


def _partner(k: Clause, c: Claim) -> list[Said]:
    p, obj, neg, topic = k.predicate, k.object, k.negated, k.topic.lower()
    if p in ("break", "split") and obj.lower().startswith("up") or p in ("divorce", "separate", "dump"):
        m = _NAME.search(obj)
        ended = _value(m.group(1)) if m else next((x for x in c.mentions if x), "")
        return [Said("partner", ended, k, ends=True)]
    if p in ("date", "marry", "see") and (m := re.match(r"^(?:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))?\s*"
                                                        r"(?:called|named)?\s*([A-Z][a-z'’-]+)", obj)) and (
            p != "see" or re.search(r"\bseeing\b", c.sentence, re.I)):
        return [Said("partner", _value(m.group(1)), k, neg)]
    named = [x for x in c.mentions if x and x != c.subject]
    if named and k is not None and (p in ("date", "marry") or p == "be" and re.match(r"^together\b", obj)
                                    or re.search(r"\b(?:years?|months?)\s+together\b|\banniversary\b", obj)):
        return [Said("partner", named[0], k, neg)]  # "Connor and I have been dating for years", "Me and Jo are together"
    if p == "call" and re.match(r"^it\s+(?:off|quits)\b", obj, re.I):
        return [Said("partner", named[0] if named else "", k, ends=True)]  # "Connor and I called it quits"
    if p in ("be", "get") and (m := re.match(r"^(?:now\s+)?(?:engaged|married)\s+to\s+([A-Z][a-z'’-]+)", obj)):
        return [Said("partner", _value(m.group(1)), k, neg)]
    if p == "see" and (m := re.match(r"^(?:someone|somebody|a\s+(?:guy|girl|man|woman|lady))?\s*(?:called|named)?\s*"
                                     r"([A-Z][a-z'’-]+)", obj)) and re.search(r"\bseeing\b", c.sentence, re.I):
        return [Said("partner", _value(m.group(1)), k, neg)]
    if p == "be" and (m := re.match(r"^with\s+([A-Z][a-z'’-]+)$", obj)) and not works(c.sentence) and (neg or re.search(
            r"\b(?:now|these days|together)\b", k.said)):
        return [Said("partner", _value(m.group(1)), k, neg)]  # "I'm with Harriet now", "no longer with Tom"
    if p in ("start", "begin", "be") and (m := re.match(r"^(?:now\s+)?(?:seeing|dating)\s+(?:someone|somebody|a\s+(?:guy|girl|man"
                                                       r"|woman|lady))?\s*(?:called|named)?\s*([A-Z][a-z'’-]+)", obj)):
        return [Said("partner", _value(m.group(1)), k, neg)]
    if p in ("get", "be") and re.match(r"^(?:married|engaged)$", obj) and (named := [x for x in c.mentions if x]):
        return [Said("partner", named[0], k, neg)]  # "Deepa and I got married"
    owner = re.match(r"^(?:my|our)\s+(?:new\s+)?(\w+)$", topic)
    if owner and owner.group(1) in PARTNER_NOUNS and p in ("be", "call") and (m := _NAME.search(obj)):
        return [Said("partner", _value(m.group(1)), k, neg)]
    return []


def _pet(k: Clause, c: Claim) -> list[Said]:
    p, obj, topic = k.predicate, k.object, k.topic
    words = {w.lower() for w in re.findall(r"[\w'-]+", topic)}
    if words & ANIMAL_WORDS or (topic[:1].isupper() and p in _ENDED_PET and not words & PARTNER_NOUNS):
        if p in ("die", "di", "pass", "run") and (p != "run" or obj.lower().startswith("away")) and (p != "pass" or
                                                                                                obj.lower().startswith("away")):
            name = [w for w in re.findall(r"[A-Z][\w'-]+", topic) if w.lower() not in ("our", "my")]
            keys = [singular(w) for w in words & ANIMAL_WORDS] + [n.lower() for n in name]
            return [Said("pet", keys[-1] if keys else "", k, ends=True)]
    said = k.said or obj
    if p in ("adopt", "rescue", "foster") and (m := re.match(r"^([A-Z][\w'-]+)\b", said)) and re.search(
            r"\b(?:" + "|".join(sorted(ANIMAL_WORDS)) + r")\b", said, re.I):
        return [Said("pet", m.group(1).lower(), k, k.negated)]  # "Adopted Salsa from the shelter, black cat"
    if p in ("have", "own", "get", "adopt") and (m := _COUNT.match(said)) and singular(m.group(2).lower()) in ANIMAL_WORDS \
            and (names := re.findall(r"\b[A-Z][\w'-]+", said[m.end():])):
        kind = singular(m.group(2).lower())  # "two cats, Mochi and Bean": "a cat Mochi", "a cat Bean"
        return [Said("pet", n.lower(), replace(k, object=f"a {kind} {n}"), k.negated) for n in names]
    first = re.findall(r"[A-Za-z'-]+", said)[:4]
    animal = next((w for w in first if singular(w.lower()) in ANIMAL_WORDS), None)
    if animal is not None and not re.match(r"^(?:to|with|at|for|in|on)\b", said) and not _COUNT.match(said) \
            and not re.search(r"\byou\b", said, re.I) \
            and not re.search(r"\b(?:stuffed|toy|plush|cuddly|soft)\b", said, re.I):
        called = re.search(r"\b(?:named|called|calling\s+(?:him|her|it))\s+([A-Z][\w'-]+)", c.object)
        value = (called.group(1) if called else singular(animal.lower())).lower()
        if p in ("adopt", "get", "have", "rescue", "buy", "welcome", "own", "foster", "pick", "bring"):
            return [Said("pet", value, k, k.negated)]
        if p in ("lose", "rehome", "sell") or p == "give" and re.search(r"\baway\b", obj) or p == "put" and "down" in obj:
            return [Said("pet", value, k, ends=True)]
    return []


def _vehicle(k: Clause, c: Claim) -> list[Said]:
    p, obj = k.predicate, k.object
    noun = _value(obj)
    words = set(noun.split())
    carlike = bool(words & (_VEHICLE_WORDS | MAKES))
    head = re.split(r"\s+(?:for|to|with|at|in|on|around|every|most|because)\b", noun)[0]
    if (m := re.match(r"^(?:my|our)\s+(?:new\s+|old\s+|little\s+|trusty\s+)*(.+)$", k.topic, re.I)) and set(
            m.group(1).lower().split()) & MAKES and not k.negated:
        return [Said("vehicle", m.group(1).lower(), k)]  # "my Ford Focus keeps making a noise": it is theirs
    if p == "get" and noun.startswith("rid of") and carlike:
        return [Said("vehicle", re.sub(r"^rid of\s+(?:the\s+|my\s+)?", "", noun), k, ends=True)]
    if p == "go" and (m := re.match(r"^for\s+(?:an?\s+|the\s+)?(.+)$", head)) and carlike:
        return [Said("vehicle", m.group(1), k)]  # "we went for a Skoda Enyaq"
    if p in ("drive", "ride") and head and not re.match(r"(?:to|through|around|home|back|by|into|from|past|across|down"
                                                        r"|up|over|a lot|everywhere|there|here|me|us|them|him|her|it|off"
                                                        r"|out|in|on)\b", noun) and not re.search(
            r"\b(?:kids|children|people|friends|family|son|daughter|mum|mom|dad|wife|husband)\b", noun) and (
            p == "drive" or carlike):
        return [Said("vehicle", head, k, k.negated)]
    if p in ("buy", "get", "lease", "leas") and carlike and not k.negated:
        return [Said("vehicle", head, k)]
    if p in ("have", "own") and k.negated and words & _VEHICLE_WORDS:
        return [Said("vehicle", "", k, ends=True)]  # "I don't have a car anymore"
    if p in ("swap", "trade", "exchange", "replace") and (m := re.match(r"^(.+?)\s+(?:in\s+)?for\s+(.+)$", k.object, re.I)):
        old, new = _value(m.group(1)), re.sub(r"^(?:an?|the)\s+", "", m.group(2), flags=re.I)
        if set(f"{old} {new}".lower().split()) & (_VEHICLE_WORDS | MAKES):
            new, old = new.split(", ")[-1], "" if old in ("it", "her", "him", "that") else old  # "Traded it in for a Kia"
            return [Said("vehicle", old, k, ends=True), Said("vehicle", _value(new), replace(k, object=f"for a {new}"))]
    if p in ("sell", "total", "crash", "wreck", "scrap", "trade") and carlike:
        return [Said("vehicle", re.sub(r"\s+in$", "", noun), k, ends=True)]
    return []


def _instrument(k: Clause, c: Claim) -> list[Said]:
    p, obj = k.predicate, k.object.lower()
    if (m := re.match(r"^(?:my\s+)?(\w+)\s+(?:practice|lessons?|classes|class|teacher|exam|grade)$", k.topic.lower())) \
            and m.group(1) in INSTRUMENTS and not k.negated:
        return [Said("instrument", singular(m.group(1)), k)]  # "Saxophone practice went well"
    if p == "switch" and (m := re.search(r"(?:from\s+(?:the\s+)?(\w+)\s+)?to\s+(?:the\s+)?(\w+)", obj)) \
            and m.group(2) in INSTRUMENTS:
        out = [Said("instrument", singular(m.group(1)), k, ends=True)] if m.group(1) in INSTRUMENTS else []
        return out + [Said("instrument", singular(m.group(2)), replace(k, object=f"to the {m.group(2)}"), alone=True)]
    m = re.match(r"^(?:up\s+|playing\s+)?(?:the\s+|a\s+|my\s+|an\s+)?(?:new\s+|electric\s+|acoustic\s+|bass\s+(?=guitar))?(\w+)", obj)
    if not m or m.group(1) not in INSTRUMENTS:
        return []
    thing = singular(m.group(1))
    if p in ("play", "learn", "practise", "practice", "take", "pick", "study", "start", "begin") and not k.negated:
        return [Said("instrument", thing, k)]
    if p in ("give", "quit", "stop", "drop", "sell") or p == "play" and k.negated:
        return [Said("instrument", thing, k, ends=True)]
    return []


_SWAP = re.compile(r"^(?:over\s+)?from\s+(?:the\s+|my\s+|an?\s+)?(.+?)\s+to\s+(?:the\s+|an?\s+)?(.+)$"
                   r"|^(?:the\s+|my\s+|an?\s+)?(.+?)\s+(?:in\s+)?(?:for|with)\s+(?:the\s+|an?\s+)?(.+)$", re.I)


def _ending(k: Clause, c: Claim) -> list[Said]:
    """An ending that names no attribute ("sold Duman", "got rid of the focus", "gave away my bike"):
    it ends whatever open value of the person's it names (attribute ``*``); a swap ("switched from
    law to medicine", "swapped X for Y", "went from Tesco to Aldi") ends one and gives the other to
    the attribute the first was of (``&``)."""
    if k.predicate in ("switch", "change", "go", "move", "swap", "trade", "exchange", "replace", "transfer") and (
            m := _SWAP.match(k.object)) and (m.group(1) or k.predicate in ("swap", "trade", "exchange", "replace")):
        old, new = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return [Said("*", _value(old), k, ends=True), Said("&", _value(new), replace(k, object=new))]
    m = re.match(r"^(?:rid\s+of\s+)?(?:the|my|our|a|an)?\s*([\w' -]+?)(?:\s+(?:to|for|with|at|because)\b.*)?$", k.object)
    if m and (k.predicate in ("sell", "drop", "stop", "rehome", "rehom") or k.predicate == "get" and k.object.lower().startswith("rid of")
              or k.predicate == "give" and re.search(r"\baway\b", k.object)):
        return [Said("*", _value(re.sub(r"\s+away$", "", m.group(1))), k, ends=True)]
    return []


def _study(k: Clause, c: Claim) -> list[Said]:
    p, obj = k.predicate, k.object
    subject = None
    if (m := re.match(r"^my\s+([a-z][\w -]*?)\s+(?:course|degree|major|classes|lectures|modules?|dissertation|thesis)$",
                      k.topic, re.I)) and not k.negated:
        return [Said("study", _value(m.group(1)), k)]  # "My architecture course has me pulling all-nighters"
    if re.search(r"\bno\s+more\s+(?:studying|studies|school|uni|classes|lectures|exams)\b", k.said or obj, re.I) or re.search(
            r"\bno\s+more\s+studying\b", c.sentence, re.I) and "studying" in obj:
        return [Said("study", "", k, ends=True)]  # "No more studying for me"
    if p == "study" and not re.match(r"^(?:for|with|hard|a lot|all|at|together|late|abroad)\b", obj) and (
            m := re.match(r"^(?:in\s+)?([a-z][\w -]*?)(?:\s+(?:at|in)\s+.*)?$", obj)):
        subject = m.group(1)
    elif p in ("major", "majore") and (m := re.match(r"^in\s+([\w -]+?)(?:\s+at\s+.*)?$", obj)):
        subject = m.group(1)
    elif p in ("switch", "change") and (m := re.search(r"\bmajor\s+(?:from\s+[\w -]+?\s+)?to\s+([\w -]+)$", obj)):
        subject = m.group(1)
    elif p in ("switch", "change", "move", "transfer") and (m := re.match(
            r"^(?:over\s+)?to\s+(?:an?\s+|the\s+)?([\w -]+?)\s+(?:degree|course|major|programme|program)\b", obj, re.I)):
        subject = m.group(1)  # "switched to a biology degree"
    elif p == "drop" and (m := re.match(r"^out\s+of\s+(?:my\s+|the\s+)?([\w -]+?)(?:\s+(?:degree|course|at\s+.*))?$", obj)):
        return [Said("study", _value(m.group(1)), k, ends=True)]  # "dropped out of architecture"
    elif p == "do" and (m := re.match(r"^(?:an?\s+)?([\w -]*?(?:bootcamp|apprenticeship|course|degree))$", obj, re.I)):
        subject = m.group(1)  # "I'm doing a coding bootcamp now"
    elif re.search(r"\b(?:my|a)\s+(?:degree|masters?|master's|phd|bachelor's|diploma)\s+in\b", obj, re.I) and (
            m := re.search(r"\b(?:degree|masters?|master's|phd|bachelor's|diploma)\s+in\s+([\w -]+?)(?:\s+at\s+.*)?$",
                           obj, re.I)) and not k.negated and p not in TALK - {"do", "start"}:
        subject = m.group(1)  # "Enrolled on a master's in urban planning", "writing up my PhD in marine biology"
    elif p in ("be", "do", "start", "begin", "pursue") and (
            m := re.search(r"\b(?:degree|masters?|master's|phd|bachelor's|course|diploma)\s+in\s+([\w -]+?)(?:\s+at\s+.*)?$",
                           obj, re.I)):
        subject = m.group(1)
    return [Said("study", _value(subject), k, k.negated)] if subject else []


def _diet(k: Clause, c: Claim) -> list[Said]:
    p, obj = k.predicate, re.sub(r"\b(gluten|dairy|lactose|sugar|meat|nut)\s+free\b", r"\1-free", k.object.lower())
    if p == "give" and (m := re.match(r"^up\s+(?:on\s+)?(?:the\s+)?([\w-]+)(?:\s+diet)?$", obj)) and m.group(1) in DIETS:
        return [Said("diet", m.group(1), k, ends=True)]  # "Gave up on keto"
    if p in ("do", "try", "start") and (m := re.match(r"^((?:intermittent\s+)?fasting|[\w-]+\s+diet|(?:the\s+)?"
                                                       r"(?:5:2|16:8|whole30|atkins|mediterranean)(?:\s+diet)?)$", obj)):
        return [Said("diet", m.group(1), k, k.negated)]  # "Doing intermittent fasting instead"
    if p == "be" and (m := re.match(r"^([\w-]+)\s+(?:week|day|month)\s+\w+$", obj)) and m.group(1) in DIETS:
        return [Said("diet", m.group(1), k)]  # "Keto week two"
    m = re.match(r"^(?:now\s+|fully\s+|strictly\s+|a\s+)?([\w-]+)(?:\s+diet)?$", obj) or \
        re.match(r"^on\s+an?\s+([\w-]+)\s+diet$", obj)
    if p in ("be", "go", "turn", "become", "stay") and m and m.group(1) in DIETS:
        return [Said("diet", m.group(1), k, k.negated)]
    if p == "eat" and k.negated and (f := _FOOD.match(obj)):
        return [Said("diet", "no " + f.group(1), k)]
    if p == "eat" and re.match(r"^(?:meat|fish|dairy|eggs|pork|beef|chicken|bacon)$", obj) and re.search(
            r"\b(?:again|now|anymore)\b", k.said):
        return [Said("diet", f"eats {obj}", k)]  # "I eat meat again": the vegetarian years are over
    if p in ("stop", "quit", "cut") and (f := re.match(r"^(?:out\s+)?eating\s+([a-z][a-z -]*)$", obj)):
        return [Said("diet", "no " + f.group(1), k)]
    return []


def _language(k: Clause, c: Claim) -> list[Said]:
    p, obj = k.predicate, k.object.lower()
    if p == "speak" or p == "be" and re.match(r"^(?:fluent|native|conversational|bilingual)\b", obj):
        found = [w for w in re.findall(r"[a-z]+", (k.said or obj).lower()) if w in LANGUAGES]
        return [Said("language", w, k, k.negated) for w in found]
    return []


_MODALS = frozenset({"it", "that's", "it's", "might", "may", "could", "would", "will", "must", "should"})


def _favourite(k: Clause, c: Claim) -> list[Said]:
    if k.predicate != "be":
        return []
    if (m := _FAVOURITE.search(k.topic)) and k.object and re.match(r"^(?:(?:one|some)\s+of\s+)?(?:my|our)\b", k.topic, re.I):
        return [Said(f"favourite:{thing(m.group(1))}", _value(k.object), k, k.negated)]
    if k.topic and k.topic.lower() not in POINTING | _MODALS and (m := re.match(r"^(?:my|our)\s+(?:new\s+|all-time\s+|absolute\s+)*(?:favou?rite|fave|fav)\s+([a-z][a-z -]*)$", k.object,
                                  re.I)):
        return [Said(f"favourite:{thing(m.group(1))}", _value(k.topic), k, k.negated)]
    return []


def thing(text: str) -> str:
    """The thing a favourite, a count or a frequency is of: its last word, singular, UK spelling."""
    words = text.lower().split()
    return DOING.get(words[-1], uk(singular(words[-1]))) if words else ""



def _count(k: Clause, c: Claim) -> list[Said]:
    if k.predicate in ("be", "cut", "go", "drop", "up") and (m := re.match(
            r"^(?:on|at|down\s+to|up\s+to|to)\s+(?:about\s+|around\s+|just\s+|only\s+)?(\S+)\s+([a-z]+)\s+(?:a|per)\s+"
            r"(?:day|week|month)\b", k.said or k.object, re.I)) and (m.group(1).isdigit() or m.group(1).lower() in NUMBERS):
        figure = NUMBERS.get(m.group(1).lower(), m.group(1))  # "I'm on five coffees a day", "cut down to one a day"
        return [Said(f"count:{thing(m.group(2))}", figure, k, k.negated)]
    if k.predicate not in ("have", "own", "get", "be", "hit", "reach"):
        return []
    obj = re.sub(r"^(?:at|up\s+to)\s+", "", k.object) if k.predicate in ("be", "hit", "reach") else k.object
    m = _COUNT.match(obj)
    if not m or m.group(2)[:1].isupper() or m.group(2).lower() in ("of", "times", "more", "days", "weeks", "months", "years", "minutes", "hours", "from",
                                       "in", "for", "on", "at", "to", "with", "example", "thing", "day", "time", "way", "or",
                                       "and", "so", "than"):
        return []
    figure = NUMBERS.get(m.group(1).lower(), m.group(1).replace(",", ""))
    return [Said(f"count:{thing(m.group(2))}", figure, k, k.negated)]


def _frequency(k: Clause, c: Claim) -> list[Said]:
    said = k.said or k.object
    m = _FREQ.search(said)
    if k.topic and not re.match(r"^(?:my|our)\b|.*\b(?:i|we)$", k.topic, re.I):
        return []  # "Fox Hollow is a great trail to hike on weekends": of the trail
    if not m or k.predicate in TALK - {"go", "get", "have", "make", "take", "do"} or k.predicate == "be" and not k.topic \
            and not re.match(r"^[A-Za-z]+\s*$", said[:m.start()]):  # "Gym three times a week" says it, "I'm busy daily" not
        return []
    before = said[:m.start()].strip()
    if re.search(r"\b(?:it|them|him|her|this|that|these|those|one)\b", before, re.I) and not (
            k.predicate in ("up", "increase", "bump", "cut", "drop", "reduce", "raise", "push")
            and re.match(r"^(?:it|that)\s+(?:up\s+|down\s+)?to$", before, re.I)) or not before and k.predicate in (
            "go", "do", "get", "have", "make", "take", "be"):
        return []  # "losing it every week", "we go a few times a week": of what is said elsewhere
    words = [w for w in re.findall(r"[a-z]+", before.lower()) if w not in ("to", "the", "a", "an", "my", "at", "in", "often",
                                                                           "usually", "only", "or", "just", "about")]
    if not words and k.predicate in ("go", "do", "get", "have", "make", "take", "be"):
        return []  # "we don't go often, twice a year": of what is said elsewhere
    of = thing(words[-1]) if words else k.predicate
    return [Said(f"frequency:{of}", m.group(1).lower(), k, k.negated)]
