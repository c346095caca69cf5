"""What both integrations read off a memory: its ranked turns, with their scores when it gives them.

Why one place: ``Memory.search`` gives ids, ``Memory.records_for`` gives the turns, and a memory
with scored hits (``Memory.hits``, each turn with its score) gives the scores too. The integrations
ask here, so they report a score the day the memory gives one, and report none (never a made-up
one, such as a rank) before.
"""

from __future__ import annotations

from typing import Any

from graphmem.domain import Turn

__all__ = ["ranked", "turn_metadata"]


def ranked(memory: Any, query: str, k: int, *, conversation: str | None = None,
           user: str | None = None) -> list[tuple[Turn, float | None]]:
    """``memory``'s turns for ``query``, best first (at most ``k``), each with its score or None."""
    hits = getattr(memory, "hits", None)
    if callable(hits):  # a memory that scores its hits
        return [(h.turn, float(h.score) if h.score is not None else None)
                for h in hits(query, k=k, conversation=conversation, user=user)]
    return [(t, None) for t in memory.records_for(query, k=k, conversation=conversation, user=user)]


def turn_metadata(turn: Turn, score: float | None) -> dict[str, Any]:
    """A turn's metadata as a framework's document carries it: id, speaker, date (ISO 8601, or None),
    conversation, user, the turn's own metadata when it has any, and the score when there is one."""
    out: dict[str, Any] = dict(getattr(turn, "metadata", None) or {})
    out.update(id=turn.id, speaker=turn.speaker, date=turn.date.isoformat() if turn.date else None,
               conversation=turn.conversation, user=turn.user)
    if score is not None:
        out["score"] = score
    return out
