"""A memory kept in one SQLite file: its turns, what the index read of each, and the claims read so far.

Why SQLite: it is a real embedded engine in the standard library, with transactions that a
crash cannot tear. Each ``ingest`` is one transaction (the new turns, and the earlier turns the
new ones made the index read again), so a process killed mid-ingest leaves the file as it was
before that ingest. Claims are read when first asked for (:mod:`graphmem.store.claims`): the
file keeps the claims read and, per conversation, the last turn read (table ``claims_read``: the
turns after it still wait, as a conversation's waiting turns are read together), and each turn's
ingest moment (column ``at``, an undated turn's date); a reading's claims are written in a
transaction of their own; claims are derived from the turns, so one a crash loses is read again. The file holds what the live index read of every turn
(:class:`graphmem.index.live.Reading`: the utterance without vocatives, its stems, the turn
it replies to, its answer types and the days it speaks of), so reopening rebuilds the
postings without reading any dialogue again; and, from the last close, the postings themselves
(:mod:`graphmem.store.snapshot`), read instead of rebuilt while no ingest has come since.

One process owns a file at a time: the connection takes SQLite's exclusive lock when it opens
(``locking_mode=EXCLUSIVE``) and keeps it until it closes, so a second process gets one clear
error instead of a memory that silently misses the other's writes. Within the process, the
memory's lock lets one thread ingest while others search.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from graphmem.claims.gcpause import paused_gc
from graphmem.domain import Claim, Turn
from graphmem.errors import DataError, MemoryFileInUse
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.readings import Readings
from graphmem.store import snapshot
from graphmem.store.claims import ClaimsChange, MemoryClaims, Waiting, ingest_moment
from graphmem.store.ram import RamStore

__all__ = ["FileStore", "MemoryFile", "MemoryFileInUse"]

SCHEMA_VERSION = "5"
"""2: the claims read of each turn (table ``claims``); a turn's ``said`` is NULL when it is its text
(no vocative taken out): the common case, read back without a second copy of the text. 3: the
turns whose claims are not read yet (table ``unread``) and each turn's ingest moment (``at``); a
file of version 2 has read every one, so it opens as version 3 with an empty ``unread`` and no
``at`` (its undated turns dated, should their claims be read again, when they are). 4: the
postings as they stood at the last close (table ``snapshot``, :mod:`graphmem.store.snapshot`)
and the file's ``generation``, moved on by every ingest; a file of version 3 has no snapshot, and
code of version 3 refuses a file of 4 (it would write turns without moving the generation on,
and a stale snapshot would then pass for a current one). 5: per conversation, the last turn whose
claims were read (table ``claims_read``) instead of a row per waiting turn (table ``unread``): an
ingest writes no row to say its turns wait (a B-tree insert a turn less, a small share of what a
saved turn costs: docs/memory.md, "Figures behind the code"), and a conversation's waiting
turns are always those after its last read (they are read together,
:meth:`graphmem.store.claims.MemoryClaims._drain`); a file of 3 or 4 opens with each
conversation's last read turn for its mark and no ``unread``; code of 4 refuses a file of 5
(it would write turns without marking them waiting)."""
READING_VERSION = "2"
"""The version of what the index reads of a turn (vocatives, stems, days, answer types): a file
read by other rules would answer otherwise than a memory built anew, so it is refused. Raise it
whenever those rules change."""

PAGE_SIZE = 16384
"""The page size a new memory file is made with (SQLite's default is 4096)."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS turns (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
    " conversation TEXT NOT NULL, speaker TEXT NOT NULL, text TEXT NOT NULL, date TEXT, turn INTEGER,"
    " said TEXT, terms TEXT NOT NULL, replied INTEGER, types TEXT NOT NULL, spans TEXT NOT NULL, at TEXT)",
    "CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns (conversation, n)",
    "CREATE TABLE IF NOT EXISTS claims (id TEXT NOT NULL, seq INTEGER NOT NULL, subject TEXT NOT NULL,"
    " predicate TEXT NOT NULL, object TEXT NOT NULL, negated INTEGER NOT NULL, sentence TEXT NOT NULL,"
    " date TEXT NOT NULL, mentions TEXT NOT NULL, topic TEXT NOT NULL, speaker TEXT NOT NULL,"
    " PRIMARY KEY (id, seq)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS claims_read (conversation TEXT PRIMARY KEY, upto INTEGER NOT NULL) WITHOUT ROWID",
    snapshot.SCHEMA,
)


def _spans(saved: str) -> list[tuple[date, date]]:
    return [(date.fromordinal(a), date.fromordinal(b)) for a, b in json.loads(saved)]


def _cells(i: int, r: Turn, said: str, terms: Sequence[str], replied: int | None, types: Sequence[str],
           spans: Sequence[tuple[date, date]]) -> tuple:
    """Turn ``i``'s row of ``turns`` but its ingest moment, from what the index read of it (its
    said is NULL when it is the text; most turns speak of no day: ``"[]"`` without the encoder)."""
    days = json.dumps([[a.toordinal(), b.toordinal()] for a, b in spans]) if spans else "[]"
    return (i, r.id, r.conversation, r.speaker, r.text, r.date.isoformat() if r.date else None, r.number,
            None if said == r.text else said, " ".join(terms), replied, ",".join(types), days)


def _settings(options: MemoryOptions) -> str:
    """The index settings a file was read with: reopening with others would mix two readings."""
    keep = ("unaddressed", "speaker", "context", "context_weight", "context_reach", "answer_types", "spans", "k1", "b")
    return json.dumps({k: getattr(options, k) for k in keep}, sort_keys=True)


class MemoryFile:
    """The SQLite file behind ``Memory(path=...)``."""

    def __init__(self, path: str | Path, options: MemoryOptions):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0.5)
            # a new file's pages (an existing file keeps its own): a saved turn is a row of a few
            # hundred bytes in three B-trees, and at 16 KiB rather than 4 its insert costs less
            # (a scratch timing: docs/memory.md, "What it costs as it grows")
            self.db.execute(f"PRAGMA page_size={PAGE_SIZE}")
            self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
            # write-ahead log, synced at every commit: one fsync an ingest, and a commit is durable
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("BEGIN IMMEDIATE")  # takes the file's lock now, held until close
        except sqlite3.OperationalError as e:
            if "locked" in str(e):
                raise MemoryFileInUse(f"{self.path}: the memory is open elsewhere (another process, or another Memory here); close it there first") from None
            raise DataError(f"{self.path}: cannot open the memory file ({e})") from None
        except sqlite3.DatabaseError as e:
            raise DataError(f"{self.path}: not a graphmem memory file ({e})") from None
        try:
            self._prepare(options)
        except BaseException as e:  # whatever failed, the file's lock goes with the connection
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            self.db.close()
            if isinstance(e, sqlite3.DatabaseError):
                raise DataError(f"{self.path}: not a graphmem memory file ({e})") from None
            raise

    def _prepare(self, options: MemoryOptions) -> None:
        for statement in _SCHEMA:
            self.db.execute(statement)
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if meta.get("version") in ("2", "3", "4"):
            self._upgrade(meta["version"])
            meta["version"] = SCHEMA_VERSION
        wanted = {"version": SCHEMA_VERSION, "reading": READING_VERSION, "settings": _settings(options)}
        for key, value in wanted.items():
            if key in meta and meta[key] != value:
                raise DataError(f"{self.path}: the memory was saved with {key} {meta[key]}, not {value}")
        self.db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", [*wanted.items(), ("generation", "0")])
        self.generation = int(meta.get("generation", "0"))
        """How many ingests the file has taken: a snapshot is of the file at one generation."""
        self.snapshot_read = False
        """Whether the last load took the postings from the snapshot (else it rebuilt them)."""
        self._snapshot_of: int | None = None  # the generation the file's snapshot is of, once known
        self.db.execute("COMMIT")

    def _upgrade(self, version: str) -> None:
        """An older file brought to this version, within the open's transaction: 2 read every
        claim and kept no ingest moment; 3 and 4 kept a row per waiting turn (``unread``), and a
        conversation's mark is its last turn not among them; 3 has no snapshot (the table is made
        with the schema: the next close writes one)."""
        if version == "2":
            self.db.execute("ALTER TABLE turns ADD COLUMN at TEXT")
            self.db.execute("INSERT INTO claims_read SELECT conversation, max(n) FROM turns GROUP BY conversation")
        else:
            self.db.execute("INSERT INTO claims_read SELECT conversation, max(n) FROM turns t"
                            " WHERE NOT EXISTS (SELECT 1 FROM unread u WHERE u.id = t.id) GROUP BY conversation")
            self.db.execute("DROP TABLE unread")
        self.db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (SCHEMA_VERSION,))

    def load(self, index: LiveIndex) -> list[Turn]:
        """Every saved turn, in ingest order, restored into ``index`` (the collector paused:
        hundreds of thousands of small acyclic objects, whose passes would free nothing)."""
        with paused_gc():
            return self._load(index)

    def _load(self, index: LiveIndex) -> list[Turn]:
        rows = self.db.execute("SELECT id, conversation, speaker, text, date, turn, said, terms, replied, types, spans"
                               " FROM turns ORDER BY n").fetchall()
        if not rows:
            index.restore([], Readings([], [], [], [], {}))
            return []
        ids, convs, speakers, texts, dates, turns, said, terms, replied, types, spans = zip(*rows)  # columns
        when = {d: datetime.fromisoformat(d) for d in set(dates) if d}  # a session's turns share a date
        records = list(map(Turn, ids, speakers, texts, map(when.get, dates), convs, turns))
        kept = snapshot.kept(dict(self.db.execute("SELECT name, value FROM snapshot")), self.generation, len(rows),
                             index.options)
        index.restore(records, Readings(said=[t if s is None else s for t, s in zip(texts, said)],
                                        terms=[t.split() for t in terms], replied=list(replied),
                                        types=[tuple(t.split(",")) if t else () for t in types],
                                        spans={i: _spans(s) for i, s in enumerate(spans) if s != "[]"}), kept)
        self.snapshot_read = kept is not None
        self._snapshot_of = self.generation if kept is not None else None
        return records

    def save(self, index: LiveIndex, first: int, at: datetime) -> None:
        """In one transaction: the records from ``first`` on, ingested at ``at`` (their claims
        waiting: they come after their conversations' last read turn), and the earlier ones read again."""
        rows = self._rows(index, first, at.isoformat())
        again = [(*self._row(index, i)[7:], i) for i in sorted(index.changed) if i < first]
        self._write(("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows),
                    ("UPDATE turns SET said = ?, terms = ?, replied = ?, types = ?, spans = ? WHERE n = ?", again),
                    ("UPDATE meta SET value = ? WHERE key = 'generation'", [(str(self.generation + 1),)]))
        self.generation += 1
        index.changed.clear()

    def keep_claims(self, change: ClaimsChange, read: Sequence[str]) -> None:
        """In one transaction: the claims of the turns whose claims are new or changed, those of
        the conversations dropped (a third speaker) deleted, and the turns ``read`` no longer waiting
        (each conversation's mark moved on to the last of them: they are all its waiting turns)."""
        said = [(d, n, c.subject, c.predicate, c.object, int(c.negated), c.sentence, c.date.isoformat(),
                 json.dumps(c.mentions), c.topic, c.speaker) for d, cs in change.claims.items() for n, c in enumerate(cs)]
        self._write(("DELETE FROM claims WHERE id IN (SELECT id FROM turns WHERE conversation = ?)",
                     [(c,) for c in change.dropped]),
                    ("DELETE FROM claims WHERE id = ?", [(d,) for d in change.claims]),
                    ("INSERT INTO claims VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", said),
                    ("INSERT INTO claims_read SELECT conversation, max(n) FROM turns"
                     " WHERE id IN (SELECT value FROM json_each(?)) GROUP BY conversation"
                     " ON CONFLICT (conversation) DO UPDATE SET upto = max(upto, excluded.upto)",
                     [(json.dumps(list(read)),)] if read else []))

    def _write(self, *steps: tuple[str, Sequence[tuple]]) -> None:
        """Each statement over its rows, all in one transaction: all of it lands, or none."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql, rows in steps:
                if rows:
                    self.db.executemany(sql, rows)
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:  # a failed COMMIT may have rolled back already
                self.db.execute("ROLLBACK")
            raise

    def conversation(self, conversation: str) -> tuple[Waiting, dict[str, tuple[Claim, ...]], Waiting]:
        """One conversation's saved turns whose claims were read, in ingest order, each turn's
        claims by its id, and its turns still waiting; each turn with the moment it was ingested
        (a file of version 2 kept none: this moment stands in, as it did there)."""
        read: list[tuple[Turn, datetime]] = []
        waiting: list[tuple[Turn, datetime]] = []
        now = ingest_moment()
        upto = self.db.execute("SELECT upto FROM claims_read WHERE conversation = ?", (conversation,)).fetchone()
        for row in self.db.execute("SELECT id, speaker, text, date, turn, at, n FROM turns WHERE conversation = ?"
                                   " ORDER BY n", (conversation,)):
            record = Turn(row[0], row[1], row[2], datetime.fromisoformat(row[3]) if row[3] else None, conversation, row[4])
            (read if upto is not None and row[6] <= upto[0] else waiting).append(
                (record, datetime.fromisoformat(row[5]) if row[5] else now))
        claims: dict[str, list[Claim]] = {}
        for row in self.db.execute("SELECT c.* FROM claims c JOIN turns t ON t.id = c.id WHERE t.conversation = ?"
                                   " ORDER BY t.n, c.seq", (conversation,)):
            claims.setdefault(row[0], []).append(Claim(row[2], row[3], row[4], bool(row[5]), row[6], row[0],
                                                       datetime.fromisoformat(row[7]), tuple(json.loads(row[8])), row[9], row[10]))
        return read, {d: tuple(cs) for d, cs in claims.items()}, waiting

    @staticmethod
    def _rows(index: LiveIndex, first: int, moment: str) -> list[tuple]:
        """:meth:`_row` of records ``first`` on, each with the ingest ``moment``, column by column."""
        read = index.readings(first)
        return [(*_cells(i, r, said, terms, replied, types, read.spans.get(i, ())), moment)
                for i, r, said, terms, replied, types in zip(range(first, len(index)), index.records[first:], read.said,
                                                               read.terms, read.replied, read.types, strict=True)]

    @staticmethod
    def _row(index: LiveIndex, i: int) -> tuple:
        """Turn i's row of ``turns`` but its ingest moment (most turns speak of no day: ``"[]"``
        without asking the encoder)."""
        read = index.reading(i)
        return _cells(i, index.records[i], read.said, read.terms, read.replied, read.types, read.spans)

    def close(self, index: LiveIndex | None = None) -> None:
        """Close the file; with ``index`` (what the file holds), first keep its postings in the
        snapshot, unless the snapshot is already of this generation. A snapshot that cannot be
        written leaves the file as it was, its old snapshot stamped with an older generation (the
        next open rebuilds the postings), and is a warning, not an error: it is a cache, nothing
        acknowledged is lost, and a close may run while the caller's own exception is raised."""
        try:
            if index is not None and self._snapshot_of != self.generation:
                self._write(("DELETE FROM snapshot", [()]),
                            ("INSERT INTO snapshot VALUES (?, ?)", snapshot.rows(index, self.generation)))
        except Exception as e:  # noqa: BLE001 (whatever failed, the turns are intact)
            warnings.warn(f"{self.path}: closed without keeping its index ({type(e).__name__}: {e}); its turns"
                          " are intact, and the next open rebuilds the index", RuntimeWarning, stacklevel=3)
        finally:
            self.db.close()


class FileStore(RamStore):
    """The RAM store kept in one SQLite file (:class:`MemoryFile`): each add is one transaction of
    the file, written last, so an add the file refuses leaves the memory and its file as they were."""

    def __init__(self, path: str | Path, options: MemoryOptions = MemoryOptions(), scope: bool = True):
        super().__init__(options, scope)
        self.file = MemoryFile(path, options)
        try:
            self._restore()
        except BaseException:  # a file that cannot be restored keeps no lock
            self.file.close()
            raise
        self.where = str(path)

    def _restore(self) -> None:
        """The file's turns and their reading restored into a new index, nothing read again."""
        self.index = LiveIndex(self.options, self.scope)
        records = self.file.load(self.index)
        self._ids = {r.id: i for i, r in enumerate(records)}
        self._claims = MemoryClaims(self.file)

    def _keep(self, first: int, now: datetime) -> None:
        """The new turns, their reading and their claims waiting: one transaction, last."""
        self.file.save(self.index, first, now)

    def _rewind(self, first: int) -> None:
        """The memory as its file holds it (the last add's transaction did not commit)."""
        self._restore()

    def close(self) -> None:
        """Close the file, its postings kept for the next open."""
        self.file.close(self.index)
