"""Questions about what a person does by habit, asked by its verb, and the value their own turns give it.

Why: "Where do I volunteer on Saturdays?", "Which team does the user support?" ask an attribute no list
names: the verb is the attribute ("volunteer", "support") and its object the value ("at the food bank",
"Chelsea"). The claim reader files such statements as open-ended facts (``other:<verb>``), and when it
reads none ("I've switched to supporting Brighton lol"), ``ask`` read a fragment of some turn. So:

- a question asks a habit when it asks *what*, *where*, *which* or *who* of a person's verb in the
  present ("do"/"does", optionally "now", "these days", "on Saturdays"), or in the past with a date or
  an earlier-value word ("did ... in May 2023", "did ... before"), and its verb is no verb of an
  attribute :mod:`graphmem.memory.asked` already reads (live, work, drive, play, study, eat...) nor of
  an event ("happen", "say", "think"): the attribute is ``other:<lemma>``, matching the fact's;
- a turn's value of it is the phrase after that verb in a clause of the speaker ("I volunteer at the food
  bank on Saturdays": "the food bank"; "switched to supporting Brighton": "Brighton"), trimmed of time
  words; a clause ending the habit ("Stopped the food bank", "quit volunteering") ends the value it names.
"""

from __future__ import annotations

import re

from graphmem.text.lemma import lemma

__all__ = ["habit_asked", "habit_value"]

_SKIP = frozenset("""be have do live work drive ride play study eat speak get go make say think know happen want like
    love feel need mean call name use see look find give take tell come become keep own prefer enjoy""".split())
"""Verbs a habit question does not ask by: the attributes read elsewhere, owning, liking, and events."""
_ASK = re.compile(r"^\W*(?:where|who|(?:what|which)(?: \w+)?)\s+(do|does|did)\s+(?:i|the user|[A-Z][a-z]+)\s+"
                  r"(?:(?:currently|usually|still|now|normally|typically|often|generally|mostly|always|regularly|mainly)\s+)?"
                  r"([a-z]+)\b(.*)$", re.I)
_DATED = re.compile(r"\b(?:in|on|during|by)\s+(?:\w+\s+)?(?:19|20)\d\d\b|\b(?:before|previously|originally|used to|at first"
                    r"|initially|first)\b", re.I)
_TRIM = re.compile(r"\s+(?:on|every|each|at the|this|last|most|most of)\s+(?:\w+days?|weekends?|week|morning|evening|"
                   r"night|month|year)s?\b.*$|\s+(?:now|these days|nowadays|anymore|again|lol|haha|instead|too|as well"
                   r"|at the moment|for now)\b.*$", re.I)
_LEAD = re.compile(r"^(?:at|in|for|with|to|on|the|a|an|my|our)\s+", re.I)
_CLAUSE = re.compile(r"[.;!?]+(?:\s|$)|,\s*|\s(?:but|so|because)\s", re.I)
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_STOPPED = re.compile(r"\b(?:stopped|quit|dropped|left|gave up|no longer|not anymore|finished with|done with)\b", re.I)


def habit_asked(question: str) -> tuple[str, bool] | None:
    """``other:<lemma>`` for a question asking a habit by its verb (the module's rules), and whether it asks
    in the past; None for any other question."""
    m = _ASK.match(" ".join(question.split()))
    if m is None:
        return None
    verb = lemma(m.group(2).lower())
    if verb in _SKIP or len(verb) < 3:
        return None
    past = m.group(1).lower() == "did"
    if past and not _DATED.search(m.group(3)):
        return None  # "What did Caroline research?": an event, not a habit
    return f"other:{verb}", past


def _after(text: str, verb: str) -> tuple[str | None, list[str]]:
    """The phrase after ``verb`` in a turn's last clause that says it, and the phrases its clauses end."""
    value: str | None = None
    ended: list[str] = []
    for clause in _CLAUSE.split(text):
        tokens = list(_WORD.finditer(clause))
        for t in tokens:
            if lemma(t.group(0).lower()) != verb:
                continue
            rest = _TRIM.sub("", clause[t.end():]).strip(" ,")
            rest = _LEAD.sub("", _LEAD.sub("", rest))
            words = rest.split()
            if not words or len(words) > 6:
                continue
            head = clause[:t.start()]
            if _STOPPED.search(head):
                ended.append(" ".join(words))
            else:
                value = " ".join(words)
        if value is None and _STOPPED.search(clause):
            thing = _LEAD.sub("", _TRIM.sub("", _STOPPED.split(clause)[-1]).strip(" ,"))
            if thing and len(thing.split()) <= 4:
                ended.append(thing)
    return value, ended


def habit_value(attribute: str, text: str) -> tuple[str | None, list[str]]:
    """A turn's value of the habit ``attribute`` (``other:<lemma>``) and the values it ends."""
    return _after(text, attribute.partition(":")[2])
