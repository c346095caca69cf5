"""A memory's conversations ranked for a query, from the scores of their turns.

Why not each conversation at its best turn: a conversation that a question is about usually
speaks of it in several turns, while a conversation with one turn that happens to share the
question's words has only that one. So a conversation scores its best turn in full and, at a
fraction (``rest``), each of its next best (up to ``turns`` in all): the best turn still
leads, and a second and third matching turn break what would be near ties. Chosen on
LongMemEval's development half, where each session is a conversation and its session recall is
measured (docs/longmemeval.md, "A session's score"): every variant of "the best turn plus some
of the others" tried there beat the best turn alone; this one had the best mean of the session
figures over both views.

The embedded memory and the Neo4j memory compute the same sum (``search_conversations.cypher``
does it in the database): the best turn's score plus ``rest`` times the sum of the next ones,
added best first.
"""

from __future__ import annotations

import numpy as np

from graphmem.index.postings import top_k

__all__ = ["CONVERSATION_REST", "CONVERSATION_TURNS", "best_conversations", "conversation_scores"]

CONVERSATION_TURNS = 5
"""How many of a conversation's best turns its score counts (:func:`conversation_scores`)."""

CONVERSATION_REST = 0.3
"""The weight of each counted turn after a conversation's best one."""


def conversation_scores(convs: np.ndarray, scores: np.ndarray, turns: int = CONVERSATION_TURNS,
                        rest: float = CONVERSATION_REST) -> tuple[np.ndarray, np.ndarray]:
    """Each conversation holding a scored turn (``convs[i]`` is turn i's conversation number, sorted
    ascending on return) and its score: its best turn's, plus ``rest`` times the sum of its next
    ``turns - 1`` best, summed best first. Ties between a conversation's turns do not matter: equal
    scores add up alike."""
    if not len(convs):
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    order = np.lexsort((-scores, convs))  # by conversation, best turn first within each
    convs, scores = convs[order], scores[order]
    starts = np.flatnonzero(np.r_[True, convs[1:] != convs[:-1]])
    place = np.arange(len(convs)) - np.repeat(starts, np.diff(np.r_[starts, len(convs)]))
    others = np.where((place > 0) & (place < turns), scores, 0.0)
    return convs[starts], scores[starts] + rest * np.add.reduceat(others, starts)


def best_conversations(convs: np.ndarray, scores: np.ndarray, k: int, first: np.ndarray | None = None,
                       turns: int = CONVERSATION_TURNS, rest: float = CONVERSATION_REST) -> list[int]:
    """The k best conversation numbers, best first, ties by number; those in ``first`` (the
    conversations of the people a query names) before the rest, as a turn search puts them."""
    ids, totals = conversation_scores(convs, scores, turns, rest)
    if first is None or not len(first):
        return [int(c) for c in top_k(ids, totals, k)]
    inside = np.isin(ids, first)
    best = [int(c) for c in top_k(ids[inside], totals[inside], k)]
    return best + [int(c) for c in top_k(ids[~inside], totals[~inside], k - len(best))]
