"""graphmem: a graph-backed conversational memory and the LoCoMo benchmark that measures it."""

from graphmem.errors import GraphmemError

__all__ = ["GraphmemError"]
__version__ = "0.1.0"
