"""The LangGraph store's side table: each item's namespace, key, JSON value, times and turn id.

Why a table of its own beside the memory: a LangGraph value is any JSON document (nested maps,
lists), and a namespace any depth of labels; a graphmem turn holds a text (what is searched), a
speaker, a date, a conversation and a user. So the memory holds what is searched, and this table
holds what is given back: the value whole, when it was put, and which turn it was indexed as.
It is one SQLite database (``:memory:`` beside a memory in RAM, a file beside a file or Neo4j),
written in one transaction per batch. Kept apart here so the store can move what the memory learns
to hold (a turn's metadata, ``Memory.get``/``update``) into the memory without touching the rest.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from os import PathLike
from typing import Any

__all__ = ["Row", "Side", "joined", "split"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    turn TEXT,
    user TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
);
CREATE INDEX IF NOT EXISTS items_turn ON items (user, turn);
"""


def joined(namespace: tuple[str, ...]) -> str:
    """A namespace as one string: its labels joined by ``.``, which LangGraph forbids inside a label,
    so two namespaces never join alike."""
    return ".".join(namespace)


def split(namespace: str) -> tuple[str, ...]:
    """The labels of a :func:`joined` namespace."""
    return tuple(namespace.split("."))


@dataclass(frozen=True)
class Row:
    """One item as the table holds it."""

    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]
    turn: str | None
    user: str
    created_at: datetime
    updated_at: datetime


class Side:
    """The side table in one SQLite database (``path``: a file, or ``:memory:``)."""

    def __init__(self, path: str | PathLike = ":memory:"):
        self.where = str(path)
        self._db = sqlite3.connect(self.where, check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction: every write inside it lands, or none does."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def get(self, namespace: tuple[str, ...], key: str) -> Row | None:
        """The item under ``namespace`` and ``key``, or None."""
        with self._lock:
            found = self._db.execute("SELECT namespace, key, value, turn, user, created_at, updated_at FROM items"
                                     " WHERE namespace = ? AND key = ?", (joined(namespace), key)).fetchone()
        return None if found is None else _row(found)

    def under(self, prefix: tuple[str, ...]) -> list[Row]:
        """Every item whose namespace starts with ``prefix`` (all of them for ``()``), in the order
        they were first put."""
        where, args = "", ()
        if prefix:
            head = joined(prefix)
            where, args = " WHERE namespace = ? OR substr(namespace, 1, ?) = ?", (head, len(head) + 1, head + ".")
        with self._lock:
            rows = self._db.execute("SELECT namespace, key, value, turn, user, created_at, updated_at FROM items"
                                    + where + " ORDER BY rowid", args).fetchall()
        return [_row(r) for r in rows]

    def by_turn(self, user: str, turns: Iterable[str]) -> dict[str, Row]:
        """The items indexed as these turns of ``user``, by turn id."""
        wanted = list(turns)
        out: dict[str, Row] = {}
        with self._lock:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for r in self._db.execute("SELECT namespace, key, value, turn, user, created_at, updated_at FROM items"
                                          f" WHERE user = ? AND turn IN ({marks})", (user, *chunk)):
                    out[r[3]] = _row(r)
        return out

    def namespaces(self) -> list[tuple[str, ...]]:
        """Every namespace holding an item."""
        with self._lock:
            return [split(n) for (n,) in self._db.execute("SELECT DISTINCT namespace FROM items")]

    def put(self, row: Row) -> None:
        """Write an item (inside :meth:`transaction`); one put before keeps its place and created_at."""
        self._db.execute(
            "INSERT INTO items (namespace, key, value, turn, user, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, turn = excluded.turn,"
            " user = excluded.user, updated_at = excluded.updated_at",
            (joined(row.namespace), row.key, json.dumps(row.value, ensure_ascii=False), row.turn, row.user,
             row.created_at.isoformat(), row.updated_at.isoformat()))

    def delete(self, namespace: tuple[str, ...], key: str) -> None:
        """Remove an item (inside :meth:`transaction`)."""
        self._db.execute("DELETE FROM items WHERE namespace = ? AND key = ?", (joined(namespace), key))


def _row(found: tuple) -> Row:
    namespace, key, value, turn, user, created, updated = found
    return Row(split(namespace), key, json.loads(value), turn, user, datetime.fromisoformat(created),
               datetime.fromisoformat(updated))
