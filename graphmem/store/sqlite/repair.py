"""Salvage a damaged memory file: every turn that reads back as it was written, into a new file.

Why turns only: a memory file keeps the dialogue (each turn's record) and what was read from it
(the index's reading, the claims, the snapshot of the postings); all of the latter can be read again
from the turns, none of the turns from anything else. So salvaging reads the turns table a range of
rows at a time (a range a damaged page breaks is read again row by row), keeps each row whose record
checksum agrees (:mod:`graphmem.store.sqlite.schema`), and ingests them into a new memory, which reads
them afresh. The damaged file is opened read-only and never written. A file whose first page is
damaged cannot be opened by SQLite at all, and then nothing can be salvaged by this tool.

A file cut short (a copy that stopped, a disk that filled) says in its header that it has more pages
than it has: SQLite then refuses to read even the list of tables, unless ``writable_schema`` is on,
when it takes the file's own size and reads what is there. The connection is read-only and
``immutable``, so the pragma writes nothing; the pages that are gone fail their reads one row at a
time like any damaged page. Where the rows end is not known when the table's last pages are gone:
the highest row number any readable part of the table or its indexes names, and rows past it are
read until a stretch of :data:`_BEYOND` row numbers yields none.
"""

from __future__ import annotations

import mmap
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.store.sqlite.pages import leaf_rows
from graphmem.store.sqlite.schema import metadata_of, record_crc
from graphmem.store.users import unscoped_turn

__all__ = ["Salvage", "readable"]

_RANGE = 256
"""Rows read at a time; a range that fails is read again one row at a time."""

_BEYOND = 4 * _RANGE
"""How many row numbers past the last one known are tried before the table is taken to end: the gap a
forgetting leaves is skipped as long as one of the indexes names a row beyond it."""

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
        live = _live(db)
        last, lo, kept = max((n for _, n in live), default=-1), 0, {}
        columns = _COLUMNS.format(metadata=_metadata_column(db))
        while lo <= max(last, *kept, -1) + _BEYOND:
            kept.update(_range(db, lo, lo + _RANGE, report, columns))
            lo += _RANGE
    finally:
        db.close()
    kept.update(_off_the_pages(old, live, kept))
    last = max(last, *kept, -1)
    report.lost = [f"turn {n}" for n in sorted({int(lost.split()[-1]) for lost in report.lost} - set(kept))
                   if n <= last]
    report.turns = [kept[n] for n in sorted(kept)]
    return report


def _off_the_pages(old: Path, live: set[tuple[str, int]], kept: dict[int, Turn]) -> dict[int, Turn]:
    """The turns the table's own structure could not reach, read off its leaf pages
    (:mod:`graphmem.store.sqlite.pages`), each kept only when its checksum agrees and an index of the live
    table names its id and number: a forgotten turn's bytes left on a page never come back."""
    found: dict[int, Turn] = {}
    with old.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        for n, values in leaf_rows(data):
            if n in kept or n in found or len(values) < 14 or (values[1], n) not in live:
                continue
            tid, conv, speaker, text, date, turn, at, checksum = (values[i] for i in (1, 2, 3, 4, 5, 6, 12, 13))
            user, meta = (values[i] if len(values) > i else None for i in (15, 16))
            turn_ = _turn(n, tid, conv, speaker, text, date, turn, at, checksum, user, meta)
            if turn_ is not None and checksum is not None:
                found[n] = turn_
    return found


def _open(old: Path) -> sqlite3.Connection:
    uri = f"file:{quote(str(old.resolve()))}?mode=ro&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True)
        db.execute("PRAGMA writable_schema=ON")  # a file cut short: its pages as the file holds them (above)
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise DataError(f"{old}: SQLite cannot read the file's list of tables ({e}): nothing can be salvaged") from None
    if "turns" not in tables:
        raise DataError(f"{old}: the file has no table of turns (not a graphmem memory): nothing can be salvaged")
    return db


def _live(db: sqlite3.Connection) -> set[tuple[str, int]]:
    """Each (id, number) of a live turn that the table or one of its indexes gives, read as far as each
    reads: where the rows end, and which rows read off the pages are live."""
    live: set[tuple[str, int]] = set()
    for query in ("SELECT id, n FROM turns NOT INDEXED ORDER BY n", "SELECT id, n FROM turns NOT INDEXED ORDER BY n DESC",
                  # the id index holds (id, n): read from both ends, it names rows past a damaged page of either
                  "SELECT id, n FROM turns INDEXED BY sqlite_autoindex_turns_1 ORDER BY id",
                  "SELECT id, n FROM turns INDEXED BY sqlite_autoindex_turns_1 ORDER BY id DESC"):
        try:
            for tid, n in db.execute(query):  # as many as can be read before a damaged page stops it
                if isinstance(tid, str) and isinstance(n, int):
                    live.add((tid, n))
        except sqlite3.DatabaseError:
            continue
    return live


def _metadata_column(db: sqlite3.Connection) -> str:
    """``metadata`` when the file's table of turns has it (version 8 on), else a NULL in its place."""
    try:
        names = {row[1] for row in db.execute("PRAGMA table_info(turns)")}
    except sqlite3.DatabaseError:
        names = set()
    return "metadata" if "metadata" in names else "NULL"


def _range(db: sqlite3.Connection, lo: int, hi: int, report: Salvage, columns: str) -> list[tuple[int, Turn]]:
    """The rows numbered ``lo`` to ``hi - 1`` that read back as written, by number."""
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
        if not isinstance(n, int) or not lo <= n < hi:  # bytes of a damaged page, not a row of this range
            continue
        turn_ = _turn(n, tid, conv, speaker, text, date, turn, at, checksum, user, meta)
        if turn_ is None:
            report.lost.append(f"turn {n}")
        else:
            out.append((n, turn_))
    return out


def _turn(n: int, tid: object, conv: object, speaker: object, text: object, date: object, turn: object,
          at: object, checksum: object, user: object, meta: object) -> Turn | None:
    """A turn's row as a turn, or None when it does not read back as written."""
    if not all(isinstance(cell, str) for cell in (tid, conv, speaker, text)) or not isinstance(meta, str | None) or \
            (checksum is not None and record_crc(n, tid, conv, speaker, text, date, turn, at, user, meta) != checksum):
        return None
    try:
        when = datetime.fromisoformat(date) if date else None
        metadata = metadata_of(meta)
    except (TypeError, ValueError):  # not a date, not JSON: the row is not what was written
        return None
    return unscoped_turn(Turn(tid, speaker, text, when, conv, turn, user=user, metadata=metadata))
