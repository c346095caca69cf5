"""The learned-embedding arms: ``dense`` (multilingual-e5-small alone) and ``fused`` (with the lexical cosine).

Apart from the lexical arm because they need the optional extra ``dense``: the model is
loaded (by :func:`graphmem.search.dense.shared`) only when the first of them is built, so
the registry can name them on a machine without it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.bench.arms.base import Context, turn_text
from graphmem.data.locomo import Question
from graphmem.answer.reader import Hit
from graphmem.search import dense
from graphmem.bench.arms.vectors import Store


class DenseArm:
    """Every turn embedded with multilingual-e5-small, ranked by cosine (optional extra ``dense``).

    The same unit as ``vector`` (one turn), a learned embedding of it instead of weighted
    terms: each sentence is embedded with its speaker and a turn scores as its best
    sentence (:class:`graphmem.search.dense.Turns`, which has the measurements). Vectors are
    cached on disk with ``GRAPHMEM_DENSE_CACHE`` (encoding LoCoMo costs minutes of CPU once).
    """

    name = "dense"

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.turns = ctx.conv.turns
        self.embedded = dense.Turns(dense.shared(), [(t.speaker, turn_text(t)) for t in self.turns])
        self.lexical = Store(ctx.vocab.vectors(turn_text(t) for t in self.turns), {"dia_id": [t.id for t in self.turns]})

    def scores(self, questions: Sequence[Question]) -> np.ndarray:
        """Per question, one score per turn."""
        return self.embedded.scores([q.text for q in questions])

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        out = []
        for row in self.scores(questions):
            order = np.argsort(-row, kind="stable")[:k]
            out.append([self.ctx.hit(self.turns[i].id) for i in order if row[i] > 0])
        return out


class FusedArm(DenseArm):
    """Lexical and dense cosines fused per question (min-max, equal weight): ``vector`` and ``dense`` together."""

    name = "fused"

    def scores(self, questions: Sequence[Question]) -> np.ndarray:
        lexical = (self.ctx.vocab.vectors(q.text for q in questions) @ self.lexical.vectors.T).toarray()
        return dense.fuse(lexical, super().scores(questions))
