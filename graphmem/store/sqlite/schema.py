"""What a memory file holds, row by row, and the checksum that says a row is what was written.

Why checksums: SQLite checks its pages' structure (``PRAGMA quick_check``, ``cell_size_check``),
not what a row says, so a flipped byte inside a turn's text reads back as other text. Every row a
memory reads back carries a CRC-32 of its cells, written with it and checked when it is read: a
damaged row is an error naming the file, never other data. A turn keeps two (its record, never
rewritten; its reading, rewritten when a later turn makes the index read it again); a claim one.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING

from graphmem.data.metadata import dumps as metadata_cell, loads as metadata_of
from graphmem.domain import Claim, Turn
from graphmem.store.sqlite import snapshot

if TYPE_CHECKING:
    from graphmem.index.live import LiveIndex

__all__ = ["PAGE_SIZE", "READING_VERSION", "SCHEMA", "SCHEMA_VERSION", "claim_cells", "crc", "metadata_cell",
           "metadata_of", "reading_cells", "record_crc", "reading_crc", "turn_cells", "turn_rows", "upgrade"]

SCHEMA_VERSION = "9"
"""2: the claims read of each turn (table ``claims``); a turn's ``said`` is NULL when it is its text
(no vocative taken out). 3: the turns whose claims are not read yet and each turn's ingest moment
(``at``). 4: the postings as they stood at the last close (table ``snapshot``) and the file's
``generation``, moved on by every ingest. 5: per conversation, the last turn whose claims were read
(table ``claims_read``) instead of a row per waiting turn. 6: a CRC-32 per row (``crc``, and a turn's
``rcrc`` of its reading), checked when the row is read, and the user a turn belongs to (``user``). 7: claims
of dialogue of more than two speakers (6 read none: their turns wait again). 8: a turn's metadata (``metadata``, a
JSON object; NULL when it has none, as every turn of an older file). 9: claims of a conversation of one speaker
(8 read none: its turns wait again). An older file is brought to this version when
a writer opens it; code of an older version refuses a newer file (it would write rows without them)."""

READING_VERSION = "4"
"""The version of what the index reads of a turn (vocatives, stems, days, answer types): a file
read by other rules would answer otherwise than a memory built anew, so it is refused. Raise it
whenever those rules change. 3: a British spelling is stemmed as the American one
(:mod:`graphmem.text.spelling`). 4: the claims read a value by its type (:mod:`graphmem.claims.values`) and
a chat user's own turns. A file of an older reading is refused on open, naming ``graphmem repair``, which
ingests its turns into a new file that reads them afresh."""

PAGE_SIZE = 16384
"""The page size a new memory file is made with (SQLite's default is 4096): a saved turn is a row of
a few hundred bytes in three B-trees, and larger pages make its insert cheaper (docs/memory.md)."""

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS turns (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
    " conversation TEXT NOT NULL, speaker TEXT NOT NULL, text TEXT NOT NULL, date TEXT, turn INTEGER,"
    " said TEXT, terms TEXT NOT NULL, replied INTEGER, types TEXT NOT NULL, spans TEXT NOT NULL, at TEXT,"
    " crc INTEGER, rcrc INTEGER, user TEXT, metadata TEXT)",
    "CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns (conversation, n)",
    "CREATE TABLE IF NOT EXISTS claims (id TEXT NOT NULL, seq INTEGER NOT NULL, subject TEXT NOT NULL,"
    " predicate TEXT NOT NULL, object TEXT NOT NULL, negated INTEGER NOT NULL, sentence TEXT NOT NULL,"
    " date TEXT NOT NULL, mentions TEXT NOT NULL, topic TEXT NOT NULL, speaker TEXT NOT NULL, crc INTEGER,"
    " PRIMARY KEY (id, seq)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS claims_read (conversation TEXT PRIMARY KEY, upto INTEGER NOT NULL) WITHOUT ROWID",
    snapshot.SCHEMA,
)


def crc(cells: Iterable[object]) -> int:
    """The CRC-32 of a row's cells, each written as text (None apart from "", a number apart from
    its digits as a string): what the row held when it was written."""
    text = "\x1f".join("\x00" if v is None else f"{type(v).__name__[0]}{v}" for v in cells)
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


def record_crc(n: int, tid: str, conversation: str, speaker: str, text: str, when: str | None, turn: int | None,
               at: str | None, user: str | None = None, metadata: str | None = None) -> int:
    """The checksum of a turn's record (written once): a turn without a user or metadata sums the
    cells it summed before they were kept, so an upgraded file's rows need no new checksum."""
    extra = (user,) if user is not None or metadata is not None else ()
    return crc((n, tid, conversation, speaker, text, when, turn, at) + extra + ((metadata,) if metadata is not None else ()))



def reading_crc(n: int, said: str | None, terms: str, replied: int | None, types: str, spans: str) -> int:
    """The checksum of what the index read of a turn (rewritten when it is read again)."""
    return crc((n, said, terms, replied, types, spans))


def turn_cells(i: int, r: Turn, said: str, terms: Sequence[str], replied: int | None, types: Sequence[str],
               spans: Sequence[tuple[date, date]]) -> tuple:
    """Turn ``i``'s reading cells (said, terms, replied, types, spans) as its row keeps them (its
    said is NULL when it is the text; most turns speak of no day: ``"[]"`` without the encoder)."""
    days = json.dumps([[a.toordinal(), b.toordinal()] for a, b in spans]) if spans else "[]"
    return None if said == r.text else said, " ".join(terms), replied, ",".join(types), days


def turn_row(i: int, r: Turn, reading: tuple, at: str | None) -> tuple:
    """Turn ``i``'s whole row of ``turns``, its two checksums last."""
    when = r.date.isoformat() if r.date else None
    meta = metadata_cell(r.metadata)
    return (i, r.id, r.conversation, r.speaker, r.text, when, r.number, *reading, at,
            record_crc(i, r.id, r.conversation, r.speaker, r.text, when, r.number, at, r.user, meta),
            reading_crc(i, *reading), r.user, meta)


def claim_cells(turn_id: str, seq: int, c: Claim) -> tuple:
    """One claim's row of ``claims``, its checksum last."""
    cells = (turn_id, seq, c.subject, c.predicate, c.object, int(c.negated), c.sentence, c.date.isoformat(),
             json.dumps(c.mentions), c.topic, c.speaker)
    return (*cells, crc(cells))


def upgrade(db: sqlite3.Connection, version: str) -> None:
    """An older file brought to this version, within the open's transaction: 2 read every claim and
    kept no ingest moment; 3 and 4 kept a row per waiting turn (``unread``); before 6 no row had a
    checksum (each is computed from what the row holds now); before 8 no turn held metadata (a column of
    NULLs: a checksum sums a NULL metadata as before); before 7 a conversation of more than two speakers kept no
    claims, and marked its turns read (so they wait again, to be read when asked for); before 9 neither did a
    conversation of one speaker. The column is added where it is missing, so a file numbered 8 by a branch
    that reread one speaker's turns without adding it opens too."""
    if int(version) < 6:
        _checksums(db, version)
    if "metadata" not in {row[1] for row in db.execute("PRAGMA table_info(turns)")}:
        db.execute("ALTER TABLE turns ADD COLUMN metadata TEXT")
    unread = "count(DISTINCT speaker) = 1" + (" OR count(DISTINCT speaker) > 2" if int(version) < 7 else "")
    db.execute("DELETE FROM claims_read WHERE conversation IN"
               f" (SELECT conversation FROM turns GROUP BY conversation HAVING {unread})")
    db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (SCHEMA_VERSION,))


def _checksums(db: sqlite3.Connection, version: str) -> None:
    """A file older than 6 brought to 6: its waiting turns marked as 5 marks them, a checksum on every row."""
    if version == "2":
        db.execute("ALTER TABLE turns ADD COLUMN at TEXT")
        db.execute("INSERT INTO claims_read SELECT conversation, max(n) FROM turns GROUP BY conversation")
    elif version in ("3", "4"):
        db.execute("INSERT INTO claims_read SELECT conversation, max(n) FROM turns t"
                   " WHERE NOT EXISTS (SELECT 1 FROM unread u WHERE u.id = t.id) GROUP BY conversation")
        db.execute("DROP TABLE unread")
    db.execute("ALTER TABLE turns ADD COLUMN crc INTEGER")
    db.execute("ALTER TABLE turns ADD COLUMN rcrc INTEGER")
    db.execute("ALTER TABLE turns ADD COLUMN user TEXT")
    db.execute("ALTER TABLE claims ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT n, id, conversation, speaker, text, date, turn, at, said, terms, replied, types, spans"
                      " FROM turns").fetchall()
    db.executemany("UPDATE turns SET crc = ?, rcrc = ? WHERE n = ?",
                   [(record_crc(*r[:8]), reading_crc(r[0], *r[8:]), r[0]) for r in rows])
    claims = db.execute("SELECT id, seq, subject, predicate, object, negated, sentence, date, mentions, topic, speaker"
                        " FROM claims").fetchall()
    db.executemany("UPDATE claims SET crc = ? WHERE id = ? AND seq = ?", [(crc(c), c[0], c[1]) for c in claims])


def turn_rows(index: LiveIndex, ns: Sequence[int], first: int, at: datetime) -> list[tuple]:
    """The ``INSERT`` rows of the index's turns from place ``first`` on, ingested at ``at``."""
    moment, read = at.isoformat(), index.readings(first)  # the new turns' readings column by column
    return [turn_row(ns[i], r, _numbered(ns, turn_cells(i, r, said, terms, replied, types, read.spans.get(i, ()))), moment)
            for i, r, said, terms, replied, types in zip(range(first, len(index)), index.records[first:],
                                                           read.said, read.terms, read.replied, read.types, strict=True)]


def _numbered(ns: Sequence[int], cells: tuple) -> tuple:
    """A turn's reading cells with its reply given as the file's number of the turn replied to."""
    said, terms, replied, types, spans = cells
    return said, terms, None if replied is None else ns[replied], types, spans


def reading_cells(index: LiveIndex, ns: Sequence[int], i: int) -> tuple:
    """The reading cells of the turn at place ``i`` of the index, as read now, its reply numbered."""
    read = index.reading(i)
    return _numbered(ns, turn_cells(i, index.records[i], read.said, read.terms, read.replied, read.types, read.spans))
