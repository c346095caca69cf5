"""Salvage a damaged memory file: every turn that reads back as it was written, into a new file.

Why turns only: a memory file keeps the dialogue (each turn's record) and what was read from it
(the index's reading, the claims, the snapshot of the postings); all of the latter can be read again
from the turns, none of the turns from anything else. So salvaging reads the turns table a range of
rows at a time (a range a damaged page breaks is read again row by row), keeps each row whose record
checksum agrees (:mod:`graphmem.store.sqlite_schema`), and ingests them into a new memory, which reads
them afresh. The damaged file is opened read-only and never written. A file whose first page is
damaged cannot be opened by SQLite at all, and then nothing can be salvaged by this tool.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.store.sqlite_schema import metadata_of, record_crc
from graphmem.store.users import unscoped_turn

__all__ = ["Salvage", "readable"]

_RANGE = 256
"""Rows read at a time; a range that fails is read again one row at a time."""

_COLUMNS = "n, id, conversation, speaker, text, date, turn, at, crc, user, {metadata}"
"""A turn's record; ``metadata`` NULL in a file older than version 8, which has no such column."""


@dataclass
class Salvage:
    """What can be read of a damaged file: its turns that read back as written, and what was lost."""

    turns: list[Turn] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """The rows that could not be read, or did not read back as written (by their number)."""

    def lost_line(self) -> str:
        if not self.lost:
            return "nothing was lost"
        return f"{len(self.lost)} could not be read ({', '.join(self.lost[:5])}{', ...' if len(self.lost) > 5 else ''})"


def readable(old: Path) -> Salvage:
    """The turns of ``old`` whose rows read back as written, in the order they were ingested."""
    if not old.is_file():
        raise DataError(f"{old}: no such memory file")
    report = Salvage()
    db = _open(old)
    try:
        last = _last(db)
        columns = _COLUMNS.format(metadata=_metadata_column(db))
        for lo in range(0, last + 1, _RANGE):
            report.turns += _range(db, lo, min(lo + _RANGE, last + 1), report, columns)
        return report
    finally:
        db.close()


def _open(old: Path) -> sqlite3.Connection:
    uri = f"file:{quote(str(old.resolve()))}?mode=ro&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True)
        db.execute("SELECT 1 FROM turns LIMIT 1").fetchall()
        return db
    except sqlite3.DatabaseError as e:
        raise DataError(f"{old}: SQLite cannot read the file's table of turns ({e}): nothing can be salvaged") from None


def _last(db: sqlite3.Connection) -> int:
    """The highest turn number, or an upper bound read off the table's size when the index fails."""
    try:
        return int(db.execute("SELECT max(n) FROM turns").fetchone()[0] or -1)
    except sqlite3.DatabaseError:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        return pages * 64  # far more rows than pages hold: the missing ones are simply not there


def _metadata_column(db: sqlite3.Connection) -> str:
    """``metadata`` when the file's table of turns has it (version 8 on), else a NULL in its place."""
    try:
        names = {row[1] for row in db.execute("PRAGMA table_info(turns)")}
    except sqlite3.DatabaseError:
        names = set()
    return "metadata" if "metadata" in names else "NULL"


def _range(db: sqlite3.Connection, lo: int, hi: int, report: Salvage, columns: str) -> list[Turn]:
    try:
        rows = db.execute(f"SELECT {columns} FROM turns WHERE n >= ? AND n < ? ORDER BY n", (lo, hi)).fetchall()
    except sqlite3.DatabaseError:
        rows = []
        for n in range(lo, hi):
            try:
                rows += db.execute(f"SELECT {columns} FROM turns WHERE n = ?", (n,)).fetchall()
            except sqlite3.DatabaseError:
                report.lost.append(f"turn {n}")
    out = []
    for n, tid, conv, speaker, text, date, turn, at, checksum, user, meta in rows:
        if checksum is not None and record_crc(n, tid, conv, speaker, text, date, turn, at, user, meta) != checksum:
            report.lost.append(f"turn {n}")
            continue
        try:
            when = datetime.fromisoformat(date) if date else None
        except (TypeError, ValueError):
            report.lost.append(f"turn {n}")
            continue
        try:
            metadata = metadata_of(meta)
        except ValueError:  # not JSON: the row is not what was written
            report.lost.append(f"turn {n}")
            continue
        out.append(unscoped_turn(Turn(tid, speaker, text, when, conv, turn, user=user, metadata=metadata)))
    return out
