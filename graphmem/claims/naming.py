"""Naming claims: what an introduction says of whose someone is and what they are to them.

"my son Max", "a puppy named Pixie", "Oscar, my guinea pig": the words that introduce a third
party also say whose they are, and how the owner calls them. The reader records each such
introduction as a claim of its owner, (speaker, 'call', 'Max', topic='my son') -- "my son is
called Max" -- which :func:`graphmem.claims.graph.reason` reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.domain import Claim, Turn
from graphmem.text.lexicon import NAMING_VERBS, OWNERS, RELATIONS

__all__ = ["naming"]


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
    return Claim(owner, "call", toks[i], False, text, turn.id, turn.date, (who,), topic, speaker)

