"""The arm that cheats: handed the turns the dataset names as evidence.

Perfect retrieval with everything else unchanged, so the distance between an arm and
the oracle is what better remembering is still worth, and the distance from the oracle
to 1.0 is what the reader costs everybody.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.bench.arms.base import Context
from graphmem.data.locomo import Question
from graphmem.answer.reader import Hit


class OracleArm:
    """Returns the annotated evidence turns, in the dataset's order, cut to k."""

    name = "oracle"

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        return [[self.ctx.hit(d) for d in q.evidence[:k]] for q in questions]
