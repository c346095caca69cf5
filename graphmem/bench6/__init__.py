"""bench6: graphmem measured on bench6 (zh/en retrieval over LoCoMo evidence turns)."""

from graphmem.bench6.run import Adapter, load

__all__ = ["Adapter", "load"]
