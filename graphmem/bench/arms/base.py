"""What every memory ("arm") is to the bench: ranked citations for a batch of questions.

An arm is built over one conversation's ``Context`` and answers ``cite(questions, k)``
with, per question, at most ``k`` hits best first. Everything after retrieval (the
confidence, the reader, the floor, the metric) is shared and lives outside the arms, so
the arms are interchangeable and two columns differ only in what the arm remembers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from graphmem.data.locomo import Question, Sample
from graphmem.domain import Turn
from graphmem.answer.reader import Hit
from graphmem.text.terms import Vocabulary


def turn_text(turn: Turn) -> str:
    """The text a turn is indexed and judged by: what was said.

    The photo caption stays on the Turn but is not indexed: measured on LoCoMo, adding
    it lowers the vector arm's evidence recall (0.466 -> 0.460) and F1.
    """
    return turn.text


@dataclass
class Context:
    """One conversation as every arm sees it: its turns, one vocabulary, and what was read."""

    conv: Sample
    vocab: Vocabulary
    reading: Any = None
    graph: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, conv: Sample) -> Context:
        return cls(conv, Vocabulary([turn_text(t) for t in conv.turns]))

    def hit(self, dia_id: str, text: str | None = None) -> Hit:
        """A hit citing a turn, quoting ``text`` (default: the whole turn)."""
        turn = self.conv.turn_by_id[dia_id]
        return Hit(dia_id, turn_text(turn) if text is None else text, turn.date)


class Arm(Protocol):
    """A memory over one conversation."""

    name: str

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        """Per question, at most k hits, best first; an empty list means nothing found."""
        ...
