"""graphmem: a graph-backed conversational memory and the LoCoMo benchmark that measures it."""

from graphmem.errors import GraphmemError


def __getattr__(name: str) -> type:
    """``graphmem.Memory`` without importing numpy and scikit-learn for every ``import graphmem``.

    Every ``import graphmem.<module>`` runs this package first, the command line's too, so the
    memory is imported when its name is first asked for, not here at the top.
    """
    if name in ("Memory", "Answer"):
        from graphmem.memory import api as memory  # lazy: numpy, scipy and scikit-learn only for the memory

        return getattr(memory, name)
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")


__all__ = ["GraphmemError", "Memory", "Answer"]
__version__ = "0.1.0"
