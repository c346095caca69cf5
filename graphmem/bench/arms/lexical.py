"""The baseline: every turn one weighted bag of stemmed terms, ranked by cosine."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.bench.arms.base import Context, turn_text
from graphmem.data.locomo import Question
from graphmem.answer.reader import Hit
from graphmem.bench.arms.vectors import Store


class VectorArm:
    """One vector per turn; the question is matched against all of them."""

    name = "vector"

    def __init__(self, ctx: Context):
        self.ctx = ctx
        turns = ctx.conv.turns
        self.store = Store(ctx.vocab.vectors(turn_text(t) for t in turns), {"dia_id": [t.id for t in turns]})

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        found = self.store.search(self.ctx.vocab.vectors(q.text for q in questions), k)
        ids = self.store.meta["dia_id"]
        return [[self.ctx.hit(ids[i]) for i, _ in row] for row in found]
