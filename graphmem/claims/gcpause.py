"""Building many small acyclic objects without the cyclic garbage collector's passes.

Claim extraction and the graph build both allocate on the order of a hundred thousand small
objects per run, none of them in a cycle; the collector's generational passes over them
cost time and free nothing, so both pause it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small acyclic objects.

    Reading allocates a great many tokens per run; with the collector on, its generational
    passes take a large share of the reading time and free nothing (no cycles are made; the
    figures: docs/locomo.md, "Figures behind the code").
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
