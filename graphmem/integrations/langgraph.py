"""A LangGraph store backed by a graphmem memory: LangGraph's long-term memory, searched by graphmem.

    from graphmem import Memory
    from graphmem.integrations.langgraph import GraphmemStore

    store = GraphmemStore(Memory(path="agent.db"), index={"fields": ["text"]})
    store.put(("ann", "memories"), "m1", {"text": "I adopted a dog called Rex."})
    store.search(("ann",), query="Who is Rex?")      # [SearchItem(namespace=('ann', 'memories'), key='m1', ...)]
    graph = builder.compile(store=store)              # a LangGraph graph's nodes reach it as `store`

How LangGraph's words map to graphmem's:

- a namespace's first label is the graphmem **user** (a partition no search crosses), and the whole
  namespace, its labels joined by ``.``, is the **conversation**; the item's key and namespace make
  the turn's id;
- a value is one **turn**: its text is what LangGraph's own ``index={"fields": [...]}`` picks from
  the value (``get_text_at_path``, default ``["$"]``: the whole document), its speaker the value's
  ``speaker`` when it is a string (else ``speaker=``), its date when it was put; ``index=False`` on a
  put, or no text at the fields, keeps the item unsearched by a query (it is still got, listed and
  filtered, as in LangGraph's stores);
- ``search(prefix, query=...)`` ranks with graphmem's search over each user's turns, the items
  under the prefix it found first (with the memory's score when it gives one), then the others
  under the prefix; ``filter`` compares the value's fields as LangGraph's stores do (``$eq``,
  ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``, nested maps).

The value itself, the times and the key are kept in a side table (:mod:`graphmem.integrations.langgraph_side`):
graphmem's turns hold text, not JSON documents. A re-put forgets the item's turn and adds the new
one, as ``graphmem forget`` then ``ingest`` would; a memory with ``update`` (a turn changed in
place) and turn metadata can take over those steps there. Embeddings (``index={"embed": ...}``) are
refused: graphmem ranks with its own index. Needs the ``langgraph`` extra.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from os import PathLike
from typing import Any

from graphmem.data.records import KEY_LIMIT, SPEAKER_LIMIT, placed
from graphmem.errors import GraphmemError, MisuseError, install

try:
    from langgraph.store.base import (BaseStore, GetOp, IndexConfig, Item, ListNamespacesOp, MatchCondition, Op,
                                      PutOp, Result, SearchItem, SearchOp, get_text_at_path, tokenize_path,
                                      validate_op_namespace)
except ImportError as exc:  # the extra is missing: one line saying how to add it
    raise GraphmemError(f"graphmem.integrations.langgraph needs langgraph: {install('langgraph')}") from exc
from graphmem.integrations.langgraph_side import Row, Side, joined
from graphmem.integrations.turns import ranked
from graphmem.store.ram.store import RamStore
from graphmem.store.sqlite.store import FileStore

__all__ = ["GraphmemStore"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class GraphmemStore(BaseStore):
    """LangGraph's ``BaseStore`` over a graphmem ``Memory`` (in RAM, a file or Neo4j).

    ``side``: the side table's SQLite file (default: ``:memory:`` beside a memory in RAM, the
    memory's file plus ``.langgraph`` beside a file; give one beside Neo4j). ``index``: LangGraph's
    index configuration, of which graphmem reads ``fields``. ``speaker``: the turns' speaker when a
    value names none. The store does not close the memory: its owner does."""

    supports_ttl = False

    def __init__(self, memory: Any, *, side: str | PathLike | None = None, index: IndexConfig | None = None,
                 speaker: str = "user"):
        if index and (index.get("embed") is not None or index.get("dims") is not None):
            raise MisuseError("graphmem ranks with its own index, not embeddings: give index={'fields': [...]} only")
        self.memory = memory
        self.index_config = index
        self.speaker = speaker
        self._fields = [_path(f) for f in ((index or {}).get("fields") or ["$"])]
        self.side = Side(_side_path(memory, side))
        self._lock = threading.RLock()

    def close(self) -> None:
        """Close the side table (the memory stays open: its owner closes it)."""
        self.side.close()

    def __enter__(self) -> GraphmemStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations: the reads first, in order, then the writes (the last put of an item
        wins), as LangGraph's in-memory store does."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        with self._lock:
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._namespaces(op))
                elif isinstance(op, PutOp):
                    puts[(op.namespace, op.key)] = op
                    results.append(None)
                else:
                    raise MisuseError(f"unknown store operation: {type(op).__name__}")
            if puts:
                self._write(list(puts.values()))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread: the memory and the side table block."""
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, list(ops))

    def _get(self, op: GetOp) -> Item | None:
        row = self.side.get(op.namespace, op.key)
        return None if row is None or not self._held(row) else Item(value=row.value, key=row.key, namespace=row.namespace,
                                             created_at=row.created_at, updated_at=row.updated_at)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        rows = [r for r in self.side.under(op.namespace_prefix) if matches(r.value, op.filter) and self._held(r)]
        order: list[tuple[Row, float | None]] = [(r, None) for r in rows]
        if op.query:
            found = self._ranked(op.query, rows)
            seen = {(r.namespace, r.key) for r, _ in found}
            order = found + [(r, None) for r in rows if (r.namespace, r.key) not in seen]
        return [SearchItem(namespace=r.namespace, key=r.key, value=r.value, created_at=r.created_at,
                           updated_at=r.updated_at, score=score)
                for r, score in order[op.offset:op.offset + op.limit]]

    def _held(self, row: Row) -> bool:
        """Whether the memory still holds the row's turn: an item whose turn was forgotten through the
        memory itself (``Memory.forget``) is gone from the store too (an item with no text to index has
        no turn, and stays)."""
        return row.turn is None or self.memory.get(row.turn, user=row.user) is not None

    def _ranked(self, query: str, rows: Sequence[Row]) -> list[tuple[Row, float | None]]:
        """The rows the memory finds for ``query``, best first: each user's turns searched whole
        (k is every turn the memory holds, so no row under the prefix is cut off by the user's other
        turns, the store's or not), then kept to ``rows``."""
        wanted = {(r.namespace, r.key) for r in rows if r.turn is not None}
        found: list[tuple[Row, float | None]] = []
        for user in dict.fromkeys(r.user for r in rows if r.turn is not None):
            hits = ranked(self.memory, query, max(len(self.memory), 1), user=user)
            held = self.side.by_turn(user, [t.id for t, _ in hits])
            found += [(held[t.id], score) for t, score in hits
                      if t.id in held and (held[t.id].namespace, held[t.id].key) in wanted]
        if any(score is not None for _, score in found):
            found.sort(key=lambda f: -(f[1] or 0.0))  # users' hits merged by score (stable within a user)
        return found

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        names = [n for n in self.side.namespaces() if all(_matched(c, n) for c in op.match_conditions or ())]
        names = sorted({n[:op.max_depth] for n in names}) if op.max_depth is not None else sorted(names)
        return names[op.offset:op.offset + op.limit]

    def _write(self, puts: list[PutOp]) -> None:
        """Apply the puts: every new turn validated first, the replaced turns forgotten, the new ones
        added, then the side table written in one transaction."""
        now = datetime.now(timezone.utc)
        before = {(op.namespace, op.key): self.side.get(op.namespace, op.key) for op in puts}
        records, rows = [], []
        for op in puts:
            if op.value is None:
                continue
            old = before[(op.namespace, op.key)]
            user, text = _name(op.namespace[0], SPEAKER_LIMIT), self._text(op.value, op.index)
            turn = _name(json.dumps([*op.namespace, op.key]), KEY_LIMIT) if text else None
            if turn is not None:
                records.append({"id": turn, "speaker": self._speaker(op.value), "text": text,
                                "date": now.replace(tzinfo=None), "conversation": _name(joined(op.namespace), KEY_LIMIT),
                                "user": user})
            rows.append(Row(op.namespace, op.key, dict(op.value), turn, user, old.created_at if old else now, now))
        placed(records)  # every new turn valid before anything changes (a DataError names the bad one)
        gone: dict[str, list[str]] = {}
        for old in before.values():
            if old is not None and old.turn is not None:
                gone.setdefault(old.user, []).append(old.turn)
        for user, turns in gone.items():
            self.memory.forget(ids=turns, user=user)
        if records:
            self.memory.ingest(records)
        with self.side.transaction():
            for op in puts:
                if op.value is None:
                    self.side.delete(op.namespace, op.key)
            for row in rows:
                self.side.put(row)

    def _text(self, value: Mapping[str, Any], index: Any) -> str:
        """The text a value is searched by: its indexed fields' texts, one per line."""
        if index is False:
            return ""
        paths = self._fields if index is None else [_path(f) for f in index]
        texts = [t for path in paths for t in get_text_at_path(value, path)]
        return "\n".join(t for t in texts if isinstance(t, str) and t.strip())

    def _speaker(self, value: Mapping[str, Any]) -> str:
        said = value.get("speaker")
        return said if isinstance(said, str) and said.strip() and len(said) <= SPEAKER_LIMIT \
            and not _CONTROL.search(said) else self.speaker


def _path(field: str) -> str | list[str]:
    """A field as LangGraph's stores read it: ``$`` (the whole value) as it is, any other path tokenized."""
    return field if field == "$" else tokenize_path(field)


def _side_path(memory: Any, side: str | PathLike | None) -> str | PathLike:
    """Where the side table lives: as given, or beside the memory (a file's, or in RAM with one in RAM)."""
    if side is not None:
        return side
    store = memory.store
    if isinstance(store, FileStore):
        return f"{store.where}.langgraph"
    if isinstance(store, RamStore):
        return ":memory:"
    raise MisuseError(f"the memory is kept at {store.where}: give side= a file for the store's items (their values)")


def _name(text: str, limit: int) -> str:
    """A label as a graphmem name: control characters written as ``\\uXXXX`` (a backslash doubled
    first, so two labels never read alike); one longer than the names' limit by its SHA-256."""
    escaped = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text.replace("\\", "\\\\"))
    return escaped if len(escaped) <= limit else "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _matched(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether a namespace matches a prefix or suffix condition (``*`` matches any one label)."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path):]
    return all(p == "*" or p == n for p, n in zip(path, part))


def matches(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """Whether a value holds every condition of a LangGraph filter (a key with dots, such as
    ``user.level``, reaches into nested maps when the value has no field of that whole name)."""
    return all(_holds(_at(value, k), want) for k, want in (conditions or {}).items())


def _at(value: Mapping[str, Any], key: str) -> Any:
    if key in value or "." not in key:
        return value.get(key)
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


_OPERATORS = {"$eq": lambda a, b: a == b, "$ne": lambda a, b: a != b,
              "$gt": lambda a, b: float(a) > float(b), "$gte": lambda a, b: float(a) >= float(b),
              "$lt": lambda a, b: float(a) < float(b), "$lte": lambda a, b: float(a) <= float(b)}


def _holds(have: Any, want: Any) -> bool:
    """One condition: operators (``{"$gt": 3}``), a nested map, a list item by item, or equality."""
    if isinstance(want, Mapping):
        if any(str(k).startswith("$") for k in want):
            unknown = [k for k in want if k not in _OPERATORS]
            if unknown:
                raise MisuseError(f"unknown filter operator {unknown[0]!r}: use {', '.join(_OPERATORS)}")
            try:
                return all(_OPERATORS[k](have, v) for k, v in want.items())
            except (TypeError, ValueError):  # a value of another kind than the bound: not matched
                return False
        return isinstance(have, Mapping) and all(_holds(have.get(k), v) for k, v in want.items())
    if isinstance(want, (list, tuple)):
        return isinstance(have, (list, tuple)) and len(have) == len(want) and all(map(_holds, have, want))
    return have == want
