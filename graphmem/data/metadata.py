"""A turn's metadata and a search's filter on it: validated once, matched alike in every store.

Why here, beside the records: what one store keeps, all must keep, and a filter must select the
same turns in RAM, in a file and in Neo4j. So a record's ``metadata`` is checked once
(:func:`checked`: a flat map of names to strings, numbers and booleans, each within its limit), a
``where`` filter is checked once (:func:`where_argument`: each name to a value or a list of values,
any of which matches), and every store matches by :func:`matches` or, in a full-text index, by
:func:`token` (one word per name and value, the same for ``1`` and ``1.0``, never for ``True``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from graphmem.domain import NO_METADATA, Metadata, Turn, Value
from graphmem.errors import DataError

__all__ = ["KEYS_LIMIT", "VALUE_LIMIT", "Where", "checked", "dumps", "loads", "matches", "selector", "token", "tokens",
           "where_argument"]

KEYS_LIMIT = 64
"""The most names one turn's metadata holds: tags, not a document (every store keeps them per turn)."""

VALUE_LIMIT = 1000
"""The longest string value, in characters (a tag or a short note; the turn's text is for prose)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}")
"""A metadata name: a letter or ``_``, then letters, digits, ``_``, ``.`` or ``-``, at most 64 in all:
what every store can key by and a caller can type on a command line."""

_INT_LIMIT = 2**63
"""Integers are kept as signed 64-bit by SQLite and Neo4j."""

Where = Mapping[str, tuple[Value, ...]]
"""A checked filter: each name to the values any of which a turn's metadata must hold under it."""


def _value(value: object, name: str, where: object) -> Value:
    """One value, checked: a string (valid Unicode, at most :data:`VALUE_LIMIT`), a whole number in
    64 bits, a finite float, or a boolean."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not -_INT_LIMIT <= value < _INT_LIMIT:
            raise DataError(f"{where}: metadata {name!r} is a whole number outside 64 bits")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise DataError(f"{where}: metadata {name!r} is {value!r}; a number must be finite")
        return value
    if isinstance(value, str):
        if len(value) > VALUE_LIMIT:
            raise DataError(f"{where}: metadata {name!r} is {len(value)} characters long, more than {VALUE_LIMIT}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise DataError(f"{where}: metadata {name!r} is not valid Unicode (character {e.start})") from None
        return value
    raise DataError(f"{where}: metadata {name!r} must be a string, a number or a boolean, not {type(value).__name__}")


def _name(name: object, where: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise DataError(f"{where}: metadata name {name!r} must be 1 to 64 letters, digits, '_', '.' or '-',"
                        " starting with a letter or '_'")
    return name


def checked(value: Any, where: object) -> Metadata:
    """A record's ``metadata`` (None or absent: empty), checked; ``where`` names the record."""
    if value is None:
        return NO_METADATA
    if isinstance(value, Metadata):
        return value
    if not isinstance(value, Mapping):
        raise DataError(f"{where}: 'metadata' must be an object of names to values, not {type(value).__name__}")
    if len(value) > KEYS_LIMIT:
        raise DataError(f"{where}: 'metadata' holds {len(value)} names, more than {KEYS_LIMIT}")
    if not value:
        return NO_METADATA
    return Metadata({_name(k, where): _value(v, k, where) for k, v in value.items()})


def where_argument(where: object) -> Where | None:
    """A search's ``where``: None, or names to a value (equal) or a list of values (any of them);
    every name must match."""
    if where is None:
        return None
    if not isinstance(where, Mapping):
        raise DataError(f"where must be an object of metadata names to values, not {type(where).__name__}")
    out: dict[str, tuple[Value, ...]] = {}
    for name, wanted in where.items():
        _name(name, "where")
        values = wanted if isinstance(wanted, (list, tuple)) else [wanted]
        if not values:
            raise DataError(f"where: metadata {name!r} is given an empty list (nothing could match)")
        out[name] = tuple(_value(v, name, "where") for v in values)
    return out


def _same(a: Value, b: Value) -> bool:
    """Equal and of one kind: a boolean matches only a boolean, a string a string, a number a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return a == b


def matches(metadata: Mapping[str, Value], where: Where | None) -> bool:
    """Whether a turn's metadata holds, under every name of ``where``, one of its values."""
    if not where:
        return True
    for name, values in where.items():
        held = metadata.get(name)
        if held is None or not any(_same(held, v) for v in values):
            return False
    return True


def selector(where: Where | None) -> Callable[[Turn], bool] | None:
    """Which turns an index may return under ``where``: None for no filter (the search as without one)."""
    if not where:
        return None
    return lambda turn: matches(turn.metadata, where)


def _canonical(value: Value) -> str:
    if isinstance(value, bool):
        return "b" + str(value).lower()
    if isinstance(value, str):
        return "s" + value
    if isinstance(value, float) and value.is_integer() and abs(value) < _INT_LIMIT:
        value = int(value)
    return "n" + repr(value)


def token(name: str, value: Value) -> str:
    """The one word a full-text index marks a turn holding ``value`` under ``name`` with
    (whitespace-free, whatever the value; ``1`` and ``1.0`` alike, ``True`` apart)."""
    return "~m" + hashlib.sha1(f"{name}\x00{_canonical(value)}".encode("utf-8")).hexdigest()[:24]


def tokens(metadata: Mapping[str, Value]) -> list[str]:
    """Every token of a turn's metadata (:func:`token`), sorted."""
    return sorted(token(k, v) for k, v in metadata.items())


def dumps(metadata: Mapping[str, Value]) -> str | None:
    """Metadata as a store keeps it in one cell or property (a file's column, a Neo4j property, which
    cannot hold a map): a JSON object, or None when it has none."""
    return json.dumps(dict(metadata), ensure_ascii=False) if metadata else None


def loads(cell: str | None) -> Metadata:
    """Metadata back from :func:`dumps` (JSON keeps a string, a whole number, a float and a boolean
    apart, as they were given)."""
    return Metadata(json.loads(cell)) if cell else NO_METADATA
