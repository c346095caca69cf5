"""JSON Lines files: one object a line, every bad line named by file and line number.

A line ends at ``"\\n"`` and nowhere else (a ``"\\r\\n"`` end too, its ``"\\r"`` being JSON
whitespace). ``str.splitlines()`` would also split at U+2028, U+0085 and the other Unicode line
breaks, which JSON allows raw inside a string, and so refuse a valid line as "not JSON". The bytes
are decoded line by line, so a byte that is not UTF-8 is named by its line too; a UTF-8 byte order
mark before the first line is skipped, as editors on Windows write one. Each line is parsed with
:mod:`graphmem.data.jsontext`'s limits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphmem.data.files import read_bytes
from graphmem.data.jsontext import kind, parse
from graphmem.errors import DataError

__all__ = ["rows"]

_BOM = b"\xef\xbb\xbf"


def rows(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; a ``DataError`` names the first bad one."""
    path = Path(path)
    raw = read_bytes(path)
    if raw.startswith(_BOM):
        raw = raw[len(_BOM):]
    out = []
    for n, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        row = parse(_decoded(path, n, line), str(path), n)
        if not isinstance(row, dict):
            raise DataError(f"{path}: line {n}: expected a JSON object, got {kind(row)}")
        out.append((n, row))
    if not out:
        raise DataError(f"{path}: no rows ({'an empty file' if not raw else 'only blank lines'}; "
                        "JSON Lines holds one JSON object a line)")
    return out


def _decoded(path: Path, n: int, line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: line {n}: not UTF-8 text (byte {exc.start + 1} of the line)") from None
