"""The words and types the value reader (:mod:`graphmem.claims.values`) reads values by: places (WordNet's, a
name after "in"), organisations (a capitalised name that is no place), jobs, subjects of study, the makes and
nouns of vehicles, and whether a piece of a sentence is the speaker's own.

Why apart: the rules of :mod:`graphmem.claims.values` and :mod:`graphmem.claims.values_where` share them.
"""

from __future__ import annotations

import re

from graphmem.claims.attributes import Said
from graphmem.claims.clauses import Clause, trim
from graphmem.text.things import DIETS, INSTRUMENTS, LANGUAGES, MAKES, SUBJECTS_SAID, VEHICLES, singular
from graphmem.text.wordnet_places import PLACES, SUBJECTS

__all__ = ["DWELLING", "GERUND_JOB", "JOB_HEAD", "NAME", "NOT", "NOW", "OTHERS", "REASON", "STAY", "STUDY_NOUN", "TRIP",
           "mine", "org", "place", "said", "subject_of", "type_of"]

NAME = r"[A-Z][\w&'’.-]*(?:\s+(?:of\s+|de\s+|and\s+|&\s+)?[A-Z0-9][\w&'’.-]*)*"
OTHERS = re.compile(r"\b(?:you|your|yours|he|she|his|him|her|they|their|them)\b|(?:^|\b(?:and|but|so)\s+)(?:my|our)\s+(?:\w+\s+)?"
                    r"(?:mum|mom|dad|sister|brother|son|daughter|friend|wife|husband|partner|boyfriend|girlfriend|boss|colleague"
                    r"|parents|kids?|cousin|aunt|uncle|nan|gran|grandma|grandad|flatmate|roommate|neighbou?r)s?\b"
                    r"|\b(?:my|our)\s+(?:mum|mom|dad|sister|brother|son|daughter|friend|wife|husband|partner|boyfriend|girlfriend|boss"
                    r"|colleague|parents|kids?|cousin|aunt|uncle|nan|gran|grandma|grandad|flatmate|roommate|neighbou?r)(?:'s|’s|s')",
                    re.I)
"""Someone else the piece is about: a pronoun, someone of the speaker's as its subject ("my sister moved to
Leeds") or owner ("my sister's flat in Leeds"); "with my partner" is still the speaker's."""
NOT = re.compile(r"\b(?:not|no\s+longer|never|n't|anymore|any\s+more|used\s+to|would|could|might|if|maybe|hope|wish"
                  r"|want|wanted|wanna|plan|planning|thinking|considering|hoping|trying)\b", re.I)
REASON = re.compile(r"\bfor\s+(?:my|our)\s+\w+(?:'s|’s)\s+(?:new\s+)?(?:job|work|career|studies|course|health|family)\b", re.I)
"""A reason that names someone else ("relocated to Brighton for my partner's job"): the move is still the speaker's."""
DWELLING = re.compile(
    r"\b(?i:(?:my|our|home\s+(?:these\s+days\s+|now\s+)?is)\s+(?:an?\s+)?(?:(?:new|own|tiny|little|small|first|rented|shared)\s+)*"
    r"(?:flat|apartment|place|house|home|cottage|condo|studio|bedsit|room)\s+(?:here\s+)?in)\s+(" + NAME + r")"
    r"|\b(?i:(?:life|neighbou?rs|address|commute|landlord|local\s+\w+|new\s+life|postcode|zip\s+code|rent|renting|unpacked|settled)"
    r"\s+(?:(?:here|is|now)\s+)*(?:in|from\s+(?:my|our)\s+\w+\s+\w+\s+in)\s+(?:the\s+)?)(" + NAME + r")")
"""Where a person lives, said by what they have there: "our flat in Paris", "life in Berlin", "renting in Hackney"."""
TRIP = re.compile(r"\b(?:trip|holiday|vacation|weekend|conference|visit|visiting|wedding|festival|honeymoon|break"
                   r"|for\s+(?:a|the|two|three|a\s+few)\s+(?:days?|nights?|weeks?))\b", re.I)
STAY = re.compile(r"\b(?:keys?|landlord|lease|boxes|packing|packed|movers?|removal|contract|job|post|role|position"
                   r"|for\s+good|new\s+(?:place|flat|house|home|apartment))\b", re.I)
NOW = r"(?:\s+(?:now|at\s+last|finally|officially|as\s+of\s+\w+|from\s+today|these\s+days))*"
JOB_HEAD = r"(?!now\b)[a-z][a-z-]*(?:\s+(?!now\b|at\b|as\b|for\b)[a-z][a-z-]*){0,2}?"


def place(name: str) -> bool:
    """Whether a capitalised name is a place WordNet names, or starts with one ("Leeds city centre")."""
    return name in PLACES or name.split(" ")[0] in PLACES


def org(name: str) -> bool:
    """A capitalised name that is no place, no pronoun and no weekday or month: an organisation, when
    said after "at", "with", "joined", "the ... offer"."""
    first = name.split(" ")[0]
    return not place(name) and first not in ("I", "I'm", "Home", "Work", "Uni", "School", "Christmas", "Easter") \
        and not re.match(r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July"
                         r"|August|September|October|November|December", first)


def mine(piece: str) -> bool:
    """Is the piece about the speaker (no one else named by a pronoun or as someone of theirs)?"""
    return not OTHERS.search(piece)


def _plain(v: str) -> str:
    """A value as a fact keeps it: lower case, one space, no leading article or "my"/"our", no edge punctuation
    (as :func:`graphmem.claims.attributes._value`, less its other determiners)."""
    return re.sub(r"\s+", " ", re.sub(r"^(?:the|a|an|my|our)\s+", "", v.strip(" .,!?;:'\"").lower()))


def said(attribute: str, value: str, text: str, **kw: bool) -> Said:
    """A statement of ``value``, shown as the clause ``text`` (its first word the verb: "work at Bosch")."""
    verb, _, obj = trim(text.strip(" .,!?")).partition(" ")
    value = _plain(trim(value))
    return Said(attribute, singular(value) if attribute == "instrument" else value, Clause("", verb, False, obj), **kw)


GERUND_JOB = {"nursing": "nurse", "teaching": "teacher", "lecturing": "lecturer", "tutoring": "tutor", "farming": "farmer",
               "bartending": "bartender", "freelancing": "freelancer", "nannying": "nanny", "waitressing": "waitress",
               "waitering": "waiter"}
"""A job said as the doing ("I've been nursing for ten years") and the one who does it."""
TYPED = (("vehicle", VEHICLES), ("instrument", INSTRUMENTS), ("diet", DIETS))


def type_of(value: str) -> str | None:
    """The attribute a value's words say it is of: a vehicle (a vehicle word or a make), an instrument, a
    diet, a subject of study, a place; None when no list names it."""
    words = [singular(w) for w in re.findall(r"[a-z-]+", value.lower())]
    if set(words) & MAKES or words and words[-1] in VEHICLES:
        return "vehicle"
    for attribute, listed in TYPED:
        if words and words[-1] in listed:
            return attribute
    if subject_of(value):
        return "study"
    if place(value.strip()):
        return "residence"
    return None


MORE_SUBJECTS = SUBJECTS_SAID | LANGUAGES
ADJ_SUBJECT = {"medical": "medicine", "nursing": "nursing", "law": "law", "dental": "dentistry", "vet": "veterinary science",
                "veterinary": "veterinary science", "business": "business", "art": "art", "music": "music",
                "engineering": "engineering", "architecture": "architecture", "drama": "drama", "film": "film"}
STUDY_NOUN = r"(?:degree|course|major|student|school|exams?|classes|lectures|modules?|programme|program|dissertation|thesis|finals" \
              r"|semester|coursework|a-levels?|gcses?|diploma)"


def subject_of(words: str) -> str | None:
    """A subject of study a phrase names ("history", "computer science", "medical": medicine), or None."""
    low = words.lower().strip()
    if low in SUBJECTS or low in MORE_SUBJECTS:
        return low
    return ADJ_SUBJECT.get(low)
