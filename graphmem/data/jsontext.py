"""JSON text parsed with limits, so a damaged or hostile file is one :class:`DataError`, never a traceback.

Python's ``json`` reads any valid JSON, but two valid documents still fail inside it: a number of
more than 4,300 digits (``int()`` refuses it with a ``ValueError``: converting it costs quadratic
time) and nesting about a thousand deep (a ``RecursionError``). Neither is caught as a
``JSONDecodeError``, and catching everything instead would hide our own bugs. So the limits are
ours and checked on purpose: the nesting before parsing, each number as it is read (the
``parse_int`` / ``parse_float`` hooks), and ``NaN`` / ``Infinity`` (which ``json`` accepts but JSON
does not have) refused. No input graphmem reads comes near the limits: a turn is a flat object, a
LoCoMo file nests seven deep.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from graphmem.errors import DataError

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "depth", "kind", "parse"]

MAX_DEPTH = 64
"""Arrays and objects nested deeper than this are refused (json itself fails near 1,000)."""

MAX_DIGITS = 1000
"""A number written with more characters than this is refused (``int()`` stops at 4,300 digits)."""

_ESCAPE = re.compile(rb"\\.", re.S)
_KEEP = b'"[]{}'
_DROP = bytes(c for c in range(256) if c not in _KEEP)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class _Refused(Exception):
    """A number or constant the hooks refuse, caught by :func:`parse` alone."""


def parse(text: str, where: str, line: int | None = None) -> Any:
    """The value of one JSON text; a ``DataError`` names ``where`` (a file), the line, and why.

    ``line``: the text is that line of the file (JSON Lines), so the message says ``line N``
    and the column; without it the place is the decoder's own line and column."""
    place = f"{where}: line {line}" if line is not None else where
    deep = depth(text)
    if deep > MAX_DEPTH:
        raise DataError(f"{place}: nested {deep} deep, more than the {MAX_DEPTH} this reader takes")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        at = f"column {exc.colno}" if line is not None else f"line {exc.lineno}, column {exc.colno}"
        raise DataError(f"{place}: not JSON ({at}: {exc.msg})") from None
    except _Refused as exc:
        raise DataError(f"{place}: {exc}") from None


def depth(text: str) -> int:
    """How deep arrays and objects nest in a JSON text (an over-estimate only for invalid JSON).

    Brackets inside strings do not count: every escape (``\\"`` among them) is dropped, then
    everything but quotes and brackets, then every quoted stretch. All of it runs in C, so it
    costs about what parsing does, and a line of a few brackets nothing."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0  # cannot nest deeper than it has brackets
    raw = _ESCAPE.sub(b"", text.encode("utf-8", "surrogatepass"))
    bare = b"".join(raw.translate(None, _DROP).split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, bare)), default=0)


def kind(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages ("got array", not "got list")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _int(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} characters, more than the {MAX_DIGITS} this reader takes")
    return int(digits)


def _float(digits: str) -> float:
    if len(digits) > MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} characters, more than the {MAX_DIGITS} this reader takes")
    value = float(digits)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"the number {digits[:20]}{'...' if len(digits) > 20 else ''} is beyond a float's range")
    return value


def _constant(name: str) -> float:
    raise _Refused(f"{name} is not JSON (a number must be finite)")
