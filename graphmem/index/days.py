"""Which turns were said on, or speak of, a run of days.

Why an index of its own: a question naming a date ("on 4 December 2023", "in May 2023") matches
the turns said then and the turns that speak of it ("yesterday", said on 5 December), and it
must touch only those, not every turn. Said days are kept by day, spoken-of spans by the months
they touch.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from graphmem.text.dates import months_touched

__all__ = ["Days"]


class Days:
    """Which turns were said on, or speak of, a run of days: said days by day, spans by month,
    so a question naming a date touches the turns of that date, not every turn."""

    def __init__(self) -> None:
        self.said: dict[int, list[int]] = {}
        self.spans: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def add(self, doc: int, said: date | None, spans: Sequence[tuple[date, date]]) -> None:
        if said is not None:
            self.said.setdefault(said.toordinal(), []).append(doc)
        for a, b in spans:
            for key in months_touched(a, b):
                self.spans.setdefault(key, []).append((doc, a.toordinal(), b.toordinal()))

    def restore(self, said: Sequence[date | None], spans: dict[int, list[tuple[date, date]]], first: int = 0) -> None:
        """Many documents' said days (``said[doc - first]``, documents ``first`` on, after every
        one held) and spans at once, as :meth:`add` called in document order leaves them: each
        day's and each month's documents in ascending order."""
        ordinal = {d: d.toordinal() for d in set(said) if d is not None}
        for doc, d in enumerate(said, first):
            if d is not None:
                self.said.setdefault(ordinal[d], []).append(doc)
        for doc in sorted(spans):
            self.add(doc, None, spans[doc])

    def overlapping(self, lo: date, hi: date) -> list[int]:
        out = [d for day in range(lo.toordinal(), hi.toordinal() + 1) for d in self.said.get(day, ())]
        lo_n, hi_n = lo.toordinal(), hi.toordinal()
        for key in months_touched(lo, hi):
            out.extend(doc for doc, a, b in self.spans.get(key, ()) if a <= hi_n and lo_n <= b)
        return out
