"""Which turns are the asker's own: in an exchange with an assistant, the person's.

Why: a question in the first person ("What book am I currently reading?", "What was my last
name before I changed it?") asks about the one asking, and in a memory of a person's chats with
an assistant that is the person, never the assistant. The assistant answers at length and
restates the person's words, so its long turn can outrank the person's short one that holds the
answer. Among the turns a first-person question matches, the person's own count one more query
term, weighted by its BM25 idf over the turns that hold it (as a date the question names is), so
a close call goes to what the person said. Only matched turns gain: the rule reorders, it never
makes a turn match.

Who the person is comes from the data, as the dialogue's shape does (:mod:`graphmem.index.shape`):
in a conversation where an assistant speaks, every other speaker's turns. Two-party dialogue
(LoCoMo's, bench6's: no assistant speaks) has no asker's turns, so nothing changes there. The
figures on both development sets: docs/longmemeval.md (``bench/longmemeval_compare.py --compare
asker-off``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from graphmem.domain import Turn
from graphmem.index.arrays import Grow
from graphmem.index.shape import is_assistant
from graphmem.text.terms import words

__all__ = ["FIRST_PERSON", "Askers", "asks_of_self"]

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
"""The words by which a question speaks of its asker ("I'm" is read as "i" and "m")."""


def asks_of_self(query: str) -> bool:
    """Whether a query speaks of its asker in the first person."""
    return not FIRST_PERSON.isdisjoint(words(query))


class Askers:
    """Per turn, whether it is the asker's own (a person's, in a conversation an assistant
    speaks in), kept as turns arrive: an assistant's first turn in a conversation marks that
    conversation's earlier turns by people, once."""

    def __init__(self) -> None:
        self.mine = Grow(np.bool_, 1024)
        self.count = 0
        self._assisted: set[str] = set()

    def add(self, r: Turn, earlier: Sequence[int], records: Sequence[Turn]) -> list[int]:
        """The turn after the last, ``r``; ``earlier``: its conversation's turns before it.
        Returns the earlier turns it made the asker's (a store that keeps the mark rewrites them)."""
        assistant = is_assistant(r.speaker)
        people: list[int] = []
        if assistant and r.conversation not in self._assisted:
            self._assisted.add(r.conversation)
            people = [i for i in earlier if not is_assistant(records[i].speaker)]
            self.mine.view()[people] = True
            self.count += len(people)
        own = not assistant and r.conversation in self._assisted
        self.mine.append(own)
        self.count += own
        return people

    def restore(self, records: Sequence[Turn]) -> None:
        """Every record's mark at once (an empty index restored), as :meth:`add` leaves them."""
        machine = {s: is_assistant(s) for s in {r.speaker for r in records}}
        self._assisted = {r.conversation for r in records if machine[r.speaker]}
        mine = np.fromiter((r.conversation in self._assisted and not machine[r.speaker] for r in records),
                           dtype=np.bool_, count=len(records))
        self.mine = Grow.of(mine)
        self.count = int(mine.sum())

    def boost(self, of_asker: bool, docs: np.ndarray, scores: np.ndarray, idf: Callable[[float], float]) -> np.ndarray:
        """``scores`` of the matched ``docs``, the asker's own raised by one term's ``idf`` when
        the query speaks of its asker (``of_asker``; the same array when nothing changes)."""
        if not self.count or not len(docs) or not of_asker:
            return scores
        mine = self.mine.view()[docs]
        if not mine.any():
            return scores
        return scores + mine * idf(self.count)
