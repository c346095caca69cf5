"""The value a question asks for, and whether a turn states one: what makes two sayings the same slot.

Why: "How many species of birds have I seen in my local park?" is answered by "I've spotted 27
different species so far" and, a week later, by "a Northern Flicker, which brings my total species
count to 32". The later turn uses other words for the same thing, so it covers the question less
than the earlier one, and the store may rank it below the first five turns found. What the two
share beyond their topic is the *kind of value* the question asks (a count) stated in each: a
turn of the same person that states the asked kind of value about the question's topic, said
later, is a new value of the same slot (:func:`graphmem.memory.updates.prefer_current`).

The kinds are read off the question's wording (a count, a clock time, a weekday, a duration) and
off a turn's text by patterns; a question that asks none of them ("What did Caroline paint?")
has no slot here, and the update rules read only the first turns found for it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.text.dates import WEEKDAYS

__all__ = ["asked_value", "states"]

_NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty"
                 "|hundred|dozen|a couple|a few")
_UNITS = r"(?:minute|hour|day|night|week|month|year)s?"

_ASKS = (
    ("time", re.compile(r"\bwhat time\b|\bat what time\b|\b(?:best|finish(?:ing)?|race|lap|record) time\b", re.I)),
    ("frequency", re.compile(r"\bhow (?:often|frequently)\b|\b(?:more|less) (?:often|frequently)\b"
                             r"|\bhow many times (?:a|an|per|each|every) (?:day|week|month|year)\b", re.I)),
    ("weekday", re.compile(r"\b(?:what|which) days? of the week\b", re.I)),
    ("duration", re.compile(r"^\s*how long\b(?! ago)|\bfor how long\b", re.I)),
    ("count", re.compile(r"\bhow (?:many|much)\b", re.I)),
)
"""Each kind of value and the question wording that asks it, the most specific first ("how many
days" asks a count; "what time" a time, and so does a "best time" or "finish time", a race's; "how often" or
"more frequently than before" a frequency, stated as "twice a week", "every morning", "daily"). A weekday is asked as "what day of the week": a day a
thing recurs on, which holds until changed; "what day did she go?" asks the date of an event."""

_TIMES = rf"(?:once|twice|thrice|(?:\d+|{_NUMBER_WORDS}|several) times?)"
_STATES = {
    "frequency": re.compile(rf"\b{_TIMES}\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|fortnight)\b"
                            r"|\bevery (?:day|morning|evening|night|week|weekday|weekend|other day)\b"
                            r"|\b(?:daily|weekly|monthly|nightly)\b", re.I),
    "time": re.compile(r"\b\d{1,2}(?::\d\d)?\s*(?:a\.?m\b\.?|p\.?m\b\.?)|\b\d{1,2}:\d\d\b|\b(?:noon|midnight)\b",
                       re.I),
    "weekday": re.compile(r"\b(?:" + "|".join(WEEKDAYS) + r")s?\b", re.I),
    "duration": re.compile(rf"\b(?:\d+(?:\.\d+)?|an?|{_NUMBER_WORDS})(?:\s+|-){_UNITS}\b", re.I),
    "count": re.compile(rf"(?<![\d:.])\b\d+(?:[.,]\d+)?\b(?!:\d)|\b(?:{_NUMBER_WORDS}|once|twice|thrice)\b", re.I),
}
"""What stating each kind of value looks like in a turn."""


@lru_cache(maxsize=1024)
def asked_value(question: str) -> str | None:
    """The kind of value the question asks for ("count", "time", "frequency", "weekday", "duration"), or None."""
    return next((kind for kind, rx in _ASKS if rx.search(question)), None)


@lru_cache(maxsize=4096)
def states(kind: str, text: str) -> bool:
    """Whether ``text`` states a value of ``kind`` (cached: the same turns are found again and again)."""
    return _STATES[kind].search(text) is not None
