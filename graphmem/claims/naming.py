"""Naming claims, and who is a person: what an introduction says of whose someone is and what they are.

"my son Max", "a puppy named Pixie", "Oscar, my guinea pig": the words that introduce a third
party also say whose they are, and how the owner calls them. The reader records each such
introduction as a claim of its owner, (speaker, 'call', 'Max', topic='my son') -- "my son is
called Max" -- which :func:`graphmem.claims.graph.reason` reads.

They also say what the third party is, and so who of a conversation's named parties is a person
(:func:`persons`): a speaker, or a third party whom an introduction names as a human ("my friend
Jenna", "my colleague Rob", "someone named David") and none as an animal or a thing ("a dog called
Rex", "my cat Luna", "I named it Ned", "my faithful furry friend Daisy"). An introduction that
names no kind ("her name is Coco", "I named him Buddy") takes the last such noun said before the
name in its sentence ("Our one-year-old is so cute, his name is Kyle!"). Why an animal word wins:
a pet is often called a friend or a baby, a person seldom a dog. Why no evidence is no person: a
capitalised name in a turn is often a pet, a place or a thing, and a person is a named human.
Every named party keeps its node and its claims either way; the rule decides whom a load reports
as people (the LoCoMo figures: docs/neo4j.md, "People").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from graphmem.claims.people import People, fold
from graphmem.claims.records import said_on
from graphmem.domain import Claim, Turn
from graphmem.text.lexicon import ANIMALS, HUMANS, NAMING_VERBS, OWNERS, RELATIONS, wordset
from graphmem.text.sentences import tokens

__all__ = ["naming", "persons"]

_NOT_HUMAN = ANIMALS | wordset("it its furry")
"""Words of an introduction that make it one of an animal or a thing: an animal's noun, ``it``
("I named it Ned", "its name is ..."), ``furry`` ("my faithful furry friend Daisy")."""


def naming(text: str, toks: Sequence[str], low: Sequence[str], i: int, who: str, speaker: str, other: str,
           turn: Turn) -> Claim | None:
    """The naming claim of the introduction of ``who`` at token ``i`` of a sentence said by ``speaker`` to
    ``other``: its owner calls someone by that name ("my son Max"), or None when the words around the name
    say of no one whose it is."""
    p1 = low[i - 1] if i >= 1 else ""
    p2 = low[i - 2] if i >= 2 else ""
    n = len(low)
    topic = ""
    owner = speaker
    j = i - 2 if p1 == "," else i - 1
    listed = p1 == "," and i + 1 < n and low[i + 1] in ("and", ",")  # "my gf, Toby, and I": a list
    if j >= 1 and low[j] in RELATIONS and not listed:  # my son Max / our new puppy, Pixie
        for k in range(j - 1, max(-1, j - 4), -1):
            if low[k] in ("my", "our", "your"):
                owner = other if low[k] == "your" else speaker
                topic = " ".join(toks[k : j + 1]).replace(" '", "'")
                break
            if low[k] in OWNERS or not low[k].isalpha():
                break
    if not topic and p1 in NAMING_VERBS and p2 in RELATIONS:  # a puppy named Pixie
        topic = toks[i - 2]
    if not topic and p1 in ("him", "her", "it", "them") and p2 in NAMING_VERBS:  # named her Tilly
        topic = toks[i - 1]
    if not topic and p1 in ("is", "are", "was", "'s") and p2 in ("name", "names") and i >= 3:
        topic = f"{low[i - 3]} {p2}"  # her name is Coco
    if not topic and i + 2 < n and low[i + 1] in (",", "is", "was") and low[i + 2] in ("my", "our", "your"):
        for k in range(i + 3, min(n, i + 7)):  # Oscar, my guinea pig
            if low[k] in RELATIONS:
                if k + 1 < n and low[k + 1] == "'s":  # "Max is my mother's cat": the cat
                    continue
                owner = other if low[i + 2] == "your" else speaker
                topic = " ".join(toks[i + 2 : k + 1]).replace(" '", "'")
                break
    if not topic:
        return None
    return Claim(owner, "call", toks[i], False, text, turn.id, said_on(turn), (who,), topic, speaker)


def persons(people: People, claims: Iterable[Claim]) -> frozenset[str]:
    """The keys of the conversation's people: its speakers, and each third party whose naming
    claims (the claims of its introductions) name it as a human and never as an animal or a thing
    (the rule: the module docstring). A naming claim is told from the verb ("I'll call Jo") as
    :func:`graphmem.claims.graph.reason` tells it: it has a topic, and its object is the name of
    the one person it mentions."""
    third, known = frozenset(people.third_parties), people.names()
    kinds: dict[str, set[bool]] = {}
    for c in claims:
        if c.predicate == "call" and c.topic and len(c.mentions) == 1 and c.mentions[0] in third:
            if known.get(fold(c.object)) == c.mentions[0]:
                human = _human(c)
                if human is not None:
                    kinds.setdefault(c.mentions[0], set()).add(human)
    return frozenset(people.speakers) | {k for k, said in kinds.items() if said == {True}}


def _human(c: Claim) -> bool | None:
    """What the introduction a naming claim records says its third party is: a human (True), an
    animal or a thing (False), or nothing (None)."""
    words = c.topic.lower().split()
    if not _NOT_HUMAN.isdisjoint(words):
        return False
    if not HUMANS.isdisjoint(words):
        return True
    toks, low, _ = tokens(c.sentence)  # "her name is Coco": the last noun of a kind before the name
    at = toks.index(c.object) if c.object in toks else len(toks)
    for w in reversed(low[:at]):
        if w in ANIMALS or w in HUMANS:
            return w in HUMANS
    return None
