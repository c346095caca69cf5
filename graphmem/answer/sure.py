"""The confidence in a memory's answer: how much of the question its best turn covers.

``sure`` is computed once outside the arms and over whole turns, so it means the same
thing in every column; the bench compares it against a floor to decide whether to reply
at all. It never sees a question's category or the arm that produced the evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.text.terms import TermWeights, Vocabulary, analyse


def coverage(vocab: TermWeights, question: str, turn_text: str | None, unseen: bool = False) -> float:
    """How much of the question's weighted terms one turn accounts for, in [0, 1].

    Weighted by rarity (idf), so matching a name or a rare noun counts for more than
    matching "feel". ``unseen``: a question term no turn holds counts too, at the largest
    weight there is (``vocab.unseen``), never covered; by default it is left out
    (:meth:`Vocabulary.weights`), as the specification's Sure is computed. A question about
    something the memory never heard of ("my iPad", "Tom") is then less sure, not as sure.
    """
    if turn_text is None:
        return 0.0
    terms = analyse(question)
    asked = vocab.weights(terms)
    if unseen:
        asked.update((t, vocab.unseen) for t in dict.fromkeys(terms) if t not in asked)
    total = sum(asked.values())
    if total == 0:
        return 0.0
    have = set(analyse(turn_text))
    return sum(w for t, w in asked.items() if t in have) / total


class Ceiling:
    """The most of a question any one turn of a conversation accounts for (its best coverage).

    Built once per conversation from the same vocabulary, so it depends on the question
    and the conversation only: never on an arm, and not on the graph (``--blind`` leaves
    it unchanged).
    """

    def __init__(self, vocab: Vocabulary, turn_texts: Sequence[str]):
        self.vocab = vocab
        self.present = (vocab.vectors(turn_texts) > 0).astype(np.float64).tocsr()

    def __call__(self, question: str) -> float:
        asked = self.vocab.weights(analyse(question))
        total = sum(asked.values())
        if total == 0 or self.present.shape[0] == 0:
            return 0.0
        w = np.zeros(self.present.shape[1])
        for term, weight in asked.items():
            w[self.vocab.index[term]] = weight
        return float((self.present @ w).max()) / total


def sure(vocab: TermWeights, question: str, turn_text: str | None, ceiling: float | None = None,
         unseen: bool = False) -> float:
    """The confidence in a memory's best turn, in [0, 1].

    Computed once outside the arms and over the whole turn the best hit cites, whatever
    unit the arm indexed, so it means the same thing in every column (an arm indexing
    short pieces is not made to look less sure). With ``ceiling=None`` it is the turn's
    coverage of the question (the specification's Sure, the bench's default). With the
    conversation's ceiling (:class:`Ceiling`) it is ``coverage * coverage / ceiling``,
    the absolute coverage times the relative one (``graphmem bench --confidence
    relative``). Why relative: an adversarial question asks about one person what the
    other did; a memory scoped to the named person returns that person's nearest saying,
    which often covers a third of the question, while the turn covering it best was said
    by the other person. A memory that returns the best-covering turn is not discounted.
    Measured on LoCoMo (docs/locomo.md, "What was tried, and what was not kept"): it tells
    answerable from adversarial questions apart better for the graph and path arms, and
    hardly moves vector's (which returns the best-covering turn whoever said it, so it has
    nothing to gain); it is quieter at any one floor.
    ``unseen``: see :func:`coverage` (the memory's ``ask`` counts unseen terms; the bench does not).
    """
    cover = coverage(vocab, question, turn_text, unseen)
    if ceiling is None:
        return cover
    return cover * cover / ceiling if ceiling > 0 else 0.0
