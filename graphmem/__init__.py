"""graphmem: a graph-backed conversational memory and the LoCoMo benchmark that measures it."""

from graphmem.errors import GraphmemError


def __getattr__(name: str):
    """``graphmem.Memory`` without importing numpy and scikit-learn for every ``import graphmem``."""
    if name in ("Memory", "Answer"):
        from graphmem.memory import api as memory

        return getattr(memory, name)
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")


__all__ = ["GraphmemError", "Memory", "Answer"]
__version__ = "0.1.0"
