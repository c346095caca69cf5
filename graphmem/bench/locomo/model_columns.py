"""The model columns' names and order, apart from the model client so the report can name them
without importing HTTP machinery on every run.

``<memory>+model`` is a memory read by the model; ``closed`` is the model with no evidence at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.bench.arms.registry import base

__all__ = ["SUFFIX", "CLOSED", "model_columns"]

SUFFIX = "+model"
CLOSED = "closed"
"""The contamination control's column: no evidence, no floor."""


def model_columns(arms: Sequence[str]) -> list[str]:
    """The arm list with ``<memory>+model`` after each memory's last column, then ``closed``.

    One column per distinct memory: ``graph`` and ``graph+set`` cite the same turns, so they
    share ``graph+model``.
    """
    last = {base(a): i for i, a in enumerate(arms)}
    out: list[str] = []
    for i, arm in enumerate(arms):
        out.append(arm)
        if last[base(arm)] == i:
            out.append(base(arm) + SUFFIX)
    return out + [CLOSED]
