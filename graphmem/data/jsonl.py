"""JSON Lines files: one object a line, every bad line named by file and line number."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphmem.data.files import read_text
from graphmem.errors import DataError


def rows(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; a ``DataError`` names the first bad one."""
    path = Path(path)
    text = read_text(path)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"{path}: line {n}: not JSON ({e.msg}, column {e.colno})") from None
        if not isinstance(row, dict):
            raise DataError(f"{path}: line {n}: expected a JSON object, got {type(row).__name__}")
        out.append((n, row))
    if not out:
        raise DataError(f"{path}: no rows")
    return out
