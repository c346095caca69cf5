"""Which store a memory opens, from what its caller says: ``backend``, ``path``, settings.

Why here and not in the memory: the memory holds one store and never asks which kind it is;
choosing one from a caller's words happens once, in this factory, and each kind says what it
cannot serve (a file keeps the lexical index only; Neo4j takes no file) in one line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from graphmem.errors import MisuseError
from graphmem.index.options import MemoryOptions
from graphmem.store.base import Store
from graphmem.store.neo4j.store import Neo4jStore
from graphmem.store.ram.store import RamStore
from graphmem.store.sqlite.store import FileStore

__all__ = ["BACKENDS", "open_store"]


NEO4J_SETTINGS = frozenset({"uri", "user", "password", "database", "timeout", "candidates", "client"})
"""The keyword settings ``backend="neo4j"`` takes (its connection, how long a call may wait for the
server, and how many candidates Lucene proposes)."""


def _ram(path: str | os.PathLike | None, options: MemoryOptions, scope: bool, dense: bool, read_only: bool = False,
         **extra: Any) -> Store:
    if extra:
        raise MisuseError(f"unknown option {', '.join(map(repr, sorted(extra)))}: the embedded memory takes none"
                          " (the connection settings are backend='neo4j''s)")
    if path is None:
        return RamStore(options, scope, dense)
    if dense:
        raise MisuseError("Memory(path=...) keeps the lexical index in its file: not with dense=True")
    return FileStore(path, options, scope, read_only)


def _neo4j(path: str | os.PathLike | None, options: MemoryOptions, scope: bool, dense: bool, read_only: bool = False,
           **neo4j: Any) -> Store:
    if path is not None:
        raise MisuseError("Memory(backend='neo4j') keeps its turns in the database: not with path=...")
    unknown = set(neo4j) - NEO4J_SETTINGS
    if unknown:
        raise MisuseError(f"unknown option {', '.join(map(repr, sorted(unknown)))}: backend='neo4j' takes"
                          f" {', '.join(sorted(NEO4J_SETTINGS))}")
    return Neo4jStore(options, scope, dense, **neo4j)


BACKENDS: dict[str, Callable[..., Store]] = {"memory": _ram, "neo4j": _neo4j}
"""Each backend's name and how it opens: ``memory`` (RAM, or a file with ``path``), ``neo4j``."""


def open_store(backend: str, path: str | os.PathLike | None, options: MemoryOptions, scope: bool, dense: bool,
               read_only: bool = False, **neo4j: Any) -> Store:
    """The store a memory asked for by name (``MisuseError`` for an unknown one); ``read_only``: a
    file opened for reading only (Neo4j's readers need no mode: the memory refuses their writes)."""
    opener = BACKENDS.get(backend)
    if opener is None:
        raise MisuseError(f"unknown backend {backend!r}: choose {' or '.join(map(repr, BACKENDS))}")
    return opener(path, options, scope, dense, read_only, **neo4j)
