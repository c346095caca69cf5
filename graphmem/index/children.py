"""Each turn's replies: the turns that read it as the turn they reply to.

Why its own structure: the live index asks for a turn's replies when that turn is read again (its
words are their second field), and it holds this for every turn of a memory that may hold
hundreds of thousands. Most turns have exactly one reply, so a dict of one-element lists would
spend a dict entry and a list on nearly every turn (docs/memory.md, "Figures behind the code");
here the first reply is one 4-byte slot of an array and only the rare further replies go in a
dict of lists. The order is the order they were added, as a list's is.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence

__all__ = ["Children"]


class Children:
    """Turn number -> the turns replying to it, in the order they were added."""

    def __init__(self) -> None:
        self._first = array("i")
        """Per turn, its first reply, or -1."""
        self._more: dict[int, list[int]] = {}

    def add(self, j: int, i: int) -> None:
        """Turn ``i`` now replies to turn ``j``."""
        first = self._first
        if j >= len(first):
            first.extend([-1] * (j + 1 - len(first)))
        if first[j] < 0:
            first[j] = i
        else:
            self._more.setdefault(j, []).append(i)

    def restore(self, replied: Sequence[int | None]) -> None:
        """Fill an empty Children from every turn's replied-to turn, as :meth:`add` would one turn
        at a time in turn order (a reopened memory restores some hundred thousand at once)."""
        first = [-1] * len(replied)
        for i, j in enumerate(replied):
            if j is not None:
                if first[j] < 0:
                    first[j] = i
                else:
                    self._more.setdefault(j, []).append(i)
        self._first = array("i", first)

    def remove(self, j: int, i: int) -> None:
        """Turn ``i`` no longer replies to turn ``j`` (``ValueError`` if it did not)."""
        more = self._more.get(j)
        if j < len(self._first) and self._first[j] == i:
            self._first[j] = more.pop(0) if more else -1
        elif more is not None:
            more.remove(i)
        else:
            raise ValueError(f"turn {i} does not reply to turn {j}")
        if more is not None and not more:
            del self._more[j]

    def get(self, j: int) -> list[int]:
        """The turns replying to turn ``j`` (none: an empty list)."""
        if j >= len(self._first) or self._first[j] < 0:
            return []
        return [self._first[j], *self._more.get(j, ())]

    def items(self) -> Iterator[tuple[int, list[int]]]:
        """(turn, its replies) for every turn with a reply, in turn order."""
        for j, first in enumerate(self._first):
            if first >= 0:
                yield j, self.get(j)
