"""A memory kept in one SQLite file: its turns, what the index read of each, and the claims read so far.

Why SQLite: it is a real embedded engine in the standard library, with transactions that a
crash cannot tear. Each ``ingest`` is one transaction (the new turns, and the earlier turns the
new ones made the index read again), so a process killed mid-ingest leaves the file as it was
before that ingest. Claims are read when first asked for (:mod:`graphmem.store.claims`): the file
keeps the claims read and, per conversation, the last turn read (table ``claims_read``), and each
turn's ingest moment (``at``, an undated turn's date). The file holds what the live index read of
every turn, so reopening rebuilds the postings without reading any dialogue again; and, from the
last close, the postings themselves (:mod:`graphmem.store.sqlite.snapshot`).

One writer, any number of readers: a writer takes an advisory lock on the file (``flock``) for as
long as it is open, so a second writer gets one clear line; readers open the file read-only
(SQLite's ``mode=ro``) and never write a byte, and the write-ahead log lets them read beside the
writer. Damage is found where it is read: ``quick_check`` when the file opens, SQLite's own page
checks, and each row's checksum (:mod:`graphmem.store.sqlite.schema`); it is one line naming the
file and how to salvage it (``graphmem repair``), never other data.
"""

from __future__ import annotations

import json
import os
import sqlite3
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from urllib.parse import quote

from graphmem.claims.gcpause import paused_gc
from graphmem.domain import Claim, Turn
from graphmem.errors import DataError, GraphmemError, MemoryFileInUse, StoreUnavailable
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.readings import Readings
from graphmem.store.sqlite import snapshot
from graphmem.store.claims import ClaimsChange, Waiting, ingest_moment
from graphmem.store.sqlite.schema import (PAGE_SIZE, READING_VERSION, SCHEMA, SCHEMA_VERSION, claim_cells, crc,
                                          metadata_of, reading_cells, reading_crc, record_crc, turn_rows, upgrade)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's own locks alone keep writers apart
    fcntl = None

__all__ = ["DamagedFile", "MemoryFile", "READING_VERSION", "SCHEMA_VERSION", "PAGE_SIZE"]

_VERSIONS = ("2", "3", "4", "5", "6", "7", "8")
"""The older versions a writer brings to this one when it opens their file."""

_TURN_COLUMNS = ("n, id, conversation, speaker, text, date, turn, at, said, terms, replied, types, spans, crc, rcrc, user,"
                 " metadata")


class DamagedFile(DataError):
    """A memory file whose pages or rows are not what was written: the message names the file and
    how to salvage what can be read."""


def _damaged(path: Path, what: str) -> DamagedFile:
    what = " ".join(what.replace("***", " ").split())  # SQLite's reports span lines: one line, its start
    what = what if len(what) <= 200 else what[:197] + "..."
    return DamagedFile(f"{path}: the memory file is damaged ({what}); salvage what can be read with"
                       f" graphmem repair --memory {path} --to NEW")


def _settings(options: MemoryOptions) -> str:
    """The index settings a file was read with: reopening with others would mix two readings."""
    keep = ("unaddressed", "speaker", "context", "context_weight", "context_reach", "answer_types", "spans", "k1", "b")
    return json.dumps({k: getattr(options, k) for k in keep}, sort_keys=True)


class MemoryFile:
    """The SQLite file behind ``Memory(path=...)``: written by one process, read by any number."""

    def __init__(self, path: str | Path, options: MemoryOptions, writable: bool = True):
        self.path, self.writable = Path(path), writable
        self._lock_fd: int | None = None
        self._steps: list[tuple[str, Sequence[tuple]]] | None = None
        """The writes a :meth:`batch` holds for its one transaction (None: each write commits alone)."""
        self.db = self._writer() if writable else self._reader()
        try:
            with self.read("opening it"):
                self._prepare(options)
        except BaseException:  # whatever failed, the file's lock goes with the connection
            self._release()
            raise

    def _writer(self) -> sqlite3.Connection:
        """The one writer's connection, the file's advisory lock held until it closes. A file that
        exists must be a memory already: a writer makes new files only, and converts no one else's."""
        if self.path.exists():  # refused untouched: an empty file, a text file, another program's database
            probe = self._reader()
            try:
                self._is_memory(probe)
            finally:
                probe.close()
        self._lock_fd = _locked(self.path)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5)
            db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new file's pages; an existing file keeps its own
            # write-ahead log, synced at every commit: one fsync an ingest, a commit durable, readers beside
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA cell_size_check=ON")
            # a deleted row's bytes zeroed, not left in a free page: a forgotten turn is not read back
            db.execute("PRAGMA secure_delete=ON")
            return db
        except sqlite3.DatabaseError as e:
            self._release()
            raise self._refusal(e) from None

    def _reader(self) -> sqlite3.Connection:
        """A read-only connection: never creates, converts or writes the file (or its journal
        mode); on a read-only disk, one that assumes no writer (``immutable``)."""
        if not self.path.is_file():
            raise DataError(f"{self.path}: no such memory file (make one: graphmem ingest --memory {self.path} FILE)")
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        for extra in ("", "&immutable=1"):
            try:
                db = sqlite3.connect(uri + extra, uri=True, isolation_level=None, check_same_thread=False, timeout=5)
                db.execute("PRAGMA cell_size_check=ON")
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.OperationalError as e:
                if extra or "unable to open" not in str(e) and "readonly" not in str(e):
                    raise self._refusal(e) from None
            except sqlite3.DatabaseError as e:
                raise self._refusal(e) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _refusal(self, e: sqlite3.DatabaseError) -> GraphmemError:
        text = str(e)
        if "locked" in text or "busy" in text:
            return MemoryFileInUse(f"{self.path}: the memory file is busy ({text}); try again")
        if "malformed" in text or "corrupt" in text:  # an SQLite file whose pages do not hold together
            return _damaged(self.path, text)
        if "file is not a database" in text:
            return DataError(f"{self.path}: not a graphmem memory file, or a damaged one ({text})")
        return StoreUnavailable(f"{self.path}: cannot open the memory file ({text})")

    def _is_memory(self, db: sqlite3.Connection) -> None:
        """Refuse a database that is not a graphmem memory (it is left as it was)."""
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as e:
            raise self._refusal(e) from None
        if not {"meta", "turns", "claims"} <= tables:
            raise DataError(f"{self.path}: not a graphmem memory file (it has no table of turns); it was left as it was")

    def _prepare(self, options: MemoryOptions) -> None:
        """Check the file is a memory of this version, read with these settings, and whole; a
        writer makes a new file's schema and brings an older one to this version."""
        if self.writable:
            self.db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                self.db.execute(statement)
        self._is_memory(self.db)
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if self.writable and meta.get("version") in _VERSIONS:
            upgrade(self.db, meta["version"])
            meta["version"] = SCHEMA_VERSION
        wanted = {"version": SCHEMA_VERSION, "reading": READING_VERSION, "settings": _settings(options)}
        for key, value in wanted.items():
            if key in meta and meta[key] != value:
                raise DataError(f"{self.path}: the memory was saved with {key} {meta[key]}, not {value}"
                                + (" (salvage its turns into a new file: graphmem repair)" if key != "settings" else ""))
        if (check := self.db.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            raise _damaged(self.path, check)
        if self.writable:
            self.db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", [*wanted.items(), ("generation", "0")])
            self.db.execute("COMMIT")
        self.generation = int(meta.get("generation", "0"))
        """How many ingests the file has taken: a snapshot is of the file at one generation."""
        self.snapshot_read = False
        """Whether the last load took the postings from the snapshot (else it rebuilt them)."""
        self._snapshot_of: int | None = None  # the generation the file's snapshot is of, once known
        self._unpurged = False  # a forget's log still to cut (a reader kept it busy)
        self.ns: dict[str | None, list[int]] = {}
        """Each turn's number in the file, by its place in its user's index (they part once turns are forgotten)."""
        self.last = -1
        """The largest number a turn was given in the file, as far as this connection knows."""
        self.version = self._data_version()

    @contextmanager
    def read(self, doing: str, writing: bool = False) -> Iterator[None]:
        """SQLite's errors while ``doing`` as one line naming the file: damage, a busy file, a full
        disk (``writing``: an I/O error while writing is the disk's, not the file's damage)."""
        try:
            yield
        except sqlite3.DatabaseError as e:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:  # a rollback after a failed write may fail too: the transaction is gone either way
                    pass
            text = str(e)
            if "full" in text or (writing and "I/O error" in text):
                raise StoreUnavailable(f"{self.path}: cannot write the file ({text}: is the disk full?) while"
                                       f" {doing}; nothing of it was kept") from None
            if isinstance(e, sqlite3.OperationalError) and ("locked" in text or "busy" in text or "readonly" in text):
                raise self._refusal(e) from None
            raise _damaged(self.path, f"{text}, {doing}") from None

    def _data_version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """Whether another connection (the writer, for a reader) committed since this one last looked.
        SQLite's ``data_version`` moves only on other connections' commits, so a writer need not look
        again after its own writes (and only readers ask)."""
        with self.read("looking for new turns"):
            now = self._data_version()
        seen, self.version = self.version, now
        return now != seen

    def load(self, index_of: Callable[[str | None], LiveIndex], after: int = -1) -> list[Turn]:
        """Every saved turn numbered after ``after``, in ingest order, each put into its user's index
        (``index_of``): an empty index takes them as saved (nothing read again); a reader following a
        writer adds them, read again. ``ns`` then holds each turn's number in the file, by its place
        in its user's index (the two part once turns are forgotten). The collector paused: hundreds
        of thousands of small acyclic objects, whose passes free nothing."""
        with paused_gc(), self.read("reading its turns"):
            rows = self.db.execute(f"SELECT {_TURN_COLUMNS} FROM turns WHERE n > ? ORDER BY n", (after,)).fetchall()
            records = self._checked(rows)
            by_user: dict[str | None, tuple[list[tuple], list[Turn]]] = {}
            for row, record in zip(rows, records, strict=True):
                mine = by_user.setdefault(record.user, ([], []))
                mine[0].append(row)
                mine[1].append(record)
            if after < 0:
                saved = dict(self.db.execute("SELECT name, value FROM snapshot"))
                self.ns = {}
                kept = [self._restore(index_of(user), mine[0], mine[1], snapshot.part(saved, user))
                        for user, mine in by_user.items()]
                self.snapshot_read = bool(kept) and all(kept)
                self._snapshot_of = self.generation if self.snapshot_read else None
            else:
                for user, (_, theirs) in by_user.items():
                    index_of(user).add(theirs)
            for user, (theirs, _) in by_user.items():
                self.ns.setdefault(user, []).extend(row[0] for row in theirs)
            self.last = max(self.last, rows[-1][0]) if rows else self.last
            return records

    def _checked(self, rows: list[tuple]) -> list[Turn]:
        """The rows as turns, each checked against its checksums."""
        when: dict[str, datetime] = {}
        out = []
        for row in rows:
            n, tid, conv, speaker, text, said_on, turn, at, *reading, record, read, user, meta = row
            if record_crc(n, tid, conv, speaker, text, said_on, turn, at, user, meta) != record \
                    or reading_crc(n, *reading) != read:
                raise _damaged(self.path, f"turn {n}'s row is not what was written")
            if said_on and said_on not in when:  # a session's turns share a date
                when[said_on] = datetime.fromisoformat(said_on)
            out.append(Turn(tid, speaker, text, when.get(said_on) if said_on else None, conv, turn, user=user,
                            metadata=metadata_of(meta)))
        return out

    def _restore(self, index: LiveIndex, rows: list[tuple], records: list[Turn], saved: dict[str, bytes]) -> bool:
        """One user's rows into their empty index, its postings from their snapshot (``saved``) when
        it is the file's as it stands; returns whether it was."""
        said, terms, replied, types, spans = list(zip(*rows))[8:13]
        place = {row[0]: i for i, row in enumerate(rows)}  # a reply is kept as the number of the turn replied to
        kept = snapshot.kept(saved, self.generation, len(rows), index.options)
        index.restore(records, Readings(said=[r.text if s is None else s for r, s in zip(records, said)],
                                        terms=[t.split() for t in terms],
                                        replied=[None if j is None else place.get(j) for j in replied],
                                        types=[tuple(t.split(",")) if t else () for t in types],
                                        spans={i: _spans(s) for i, s in enumerate(spans) if s != "[]"}), kept)
        return kept is not None

    def save(self, parts: Mapping[str | None, tuple[LiveIndex, int]], at: datetime) -> None:
        """In one transaction: each user's turns from place ``first`` on in their index (``parts``),
        ingested at ``at`` (their claims waiting: they come after their conversations' last read
        turn), each under the file's next number, and the earlier ones read again."""
        # the new numbers appended in place, taken back if the write fails: a copy of every turn's
        # number would cost each ingest in proportion to the memory, not to the turns ingested
        grown, rows, again, start = [], [], [], self.last + 1
        try:
            for user, (index, first) in parts.items():
                ns = self.ns.setdefault(user, [])
                grown.append((ns, len(ns)))
                ns.extend(range(start, start + len(index) - first))
                start += len(index) - first
                rows += turn_rows(index, ns, first, at)
                again += self._again(index, ns, [i for i in sorted(index.changed) if i < first])
            self._write("ingesting", ("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows),
                        ("UPDATE turns SET said = ?, terms = ?, replied = ?, types = ?, spans = ?, rcrc = ? WHERE n = ?",
                         again),
                        ("UPDATE meta SET value = ? WHERE key = 'generation'", [(str(self.generation + 1),)]))
        except BaseException:  # nothing of it was kept: the file's numbers as they were
            for ns, held in grown:
                del ns[held:]
            raise
        self.last = start - 1
        self.generation += 1
        for index, _ in parts.values():
            index.changed.clear()

    @staticmethod
    def _again(index: LiveIndex, ns: Sequence[int], places: Sequence[int]) -> list[tuple]:
        """The ``UPDATE`` rows of turns read again (at these places of the index)."""
        out = []
        for i in places:
            reading = reading_cells(index, ns, i)
            out.append((*reading, reading_crc(ns[i], *reading), ns[i]))
        return out

    def forget(self, parts: Mapping[str | None, tuple[LiveIndex, Sequence[int]]], conversations: Sequence[str]) -> None:
        """In one transaction: the turns at these places of each user's index (``parts``) gone, with their claims; the conversations
        they were in read again for claims (their claims and marks dropped: every turn waits); the
        turns the forgetting made the index read again rewritten; the saved index (the snapshot: its
        terms are every turn's stems) dropped. A reader following the file sees the ``forgotten``
        count move on and reads the file whole again. Then the log is copied into the file and cut
        to nothing (:meth:`_purge`), so no byte of the forgotten turns is left to read."""
        gone = [(self.ns[user][i],) for user, (_, places) in parts.items() for i in places]
        again = [row for user, (index, _) in parts.items()
                 for row in self._again(index, self.ns[user], [i for i in sorted(index.changed) if i not in index.dead])]
        convs = [(c,) for c in conversations]
        self._write("forgetting", ("DELETE FROM claims WHERE id IN (SELECT id FROM turns WHERE conversation = ?)", convs),
                    ("DELETE FROM claims_read WHERE conversation = ?", convs),
                    ("DELETE FROM turns WHERE n = ?", gone),
                    ("UPDATE turns SET said = ?, terms = ?, replied = ?, types = ?, spans = ?, rcrc = ? WHERE n = ?", again),
                    ("UPDATE meta SET value = ? WHERE key = 'generation'", [(str(self.generation + 1),)]),
                    ("INSERT INTO meta VALUES ('forgotten', '1') ON CONFLICT (key) DO UPDATE"
                     " SET value = CAST(value AS INTEGER) + 1", [()]),
                    ("DELETE FROM snapshot", [()]))
        self.generation += 1
        self._snapshot_of = None
        for index, _ in parts.values():
            index.changed.clear()
        if self._steps is None:
            self._purge()
        else:  # inside a batch: the log is cut once its one transaction commits
            self._purging = True

    def _purge(self, warn: bool = True) -> None:
        """The write-ahead log copied into the file and cut to nothing: until then its frames of earlier
        transactions hold the forgotten rows as they were written, and the file's pages their old
        versions (``secure_delete`` zeroes a row's bytes in the new ones). A checkpoint waits for
        readers mid-read (the busy timeout, 5 s); one still reading then leaves the log for the next
        forget or close to cut, a warning, not an error: the forgetting itself is committed."""
        with self.read("cutting its log after forgetting", writing=True):
            busy = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        self._unpurged = bool(busy)
        if busy and warn:
            warnings.warn(f"{self.path}: a reader kept the write-ahead log busy; the forgotten turns' bytes"
                          f" stay in {self.path}-wal until the next forget or close", RuntimeWarning, stacklevel=4)

    def forgotten(self) -> int:
        """How many times turns were forgotten from this file (a reader reads it whole again when it moves)."""
        with self.read("reading its state"):
            row = self.db.execute("SELECT value FROM meta WHERE key = 'forgotten'").fetchone()
        return int(row[0]) if row else 0

    def keep_claims(self, change: ClaimsChange, read: Sequence[str]) -> None:
        """In one transaction: the claims of the turns whose claims are new or changed, and the
        turns ``read`` no longer waiting (each conversation's mark moved on to the last of them: they
        are all its waiting turns)."""
        if not self.writable:  # a reader reads claims and keeps them in memory: the writer writes its own
            return
        said = [claim_cells(d, n, c) for d, cs in change.claims.items() for n, c in enumerate(cs)]
        self._write("keeping claims", ("DELETE FROM claims WHERE id = ?", [(d,) for d in change.claims]),
                    ("INSERT INTO claims VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", said),
                    ("INSERT INTO claims_read SELECT conversation, max(n) FROM turns"
                     " WHERE id IN (SELECT value FROM json_each(?)) GROUP BY conversation"
                     " ON CONFLICT (conversation) DO UPDATE SET upto = max(upto, excluded.upto)",
                     [(json.dumps(list(read)),)] if read else []))

    @contextmanager
    def batch(self, doing: str) -> Iterator[None]:
        """Every write made inside, as ONE transaction at its end (an update: a forgetting and an
        add): all of it lands, or none, and the file's generation is as it was. A forgetting inside cuts
        the log after that transaction, as a forgetting alone does (:meth:`_purge`)."""
        generation, self._steps, self._purging = self.generation, [], False
        try:
            yield
            steps, self._steps = self._steps, None
            self._write(doing, *steps)
        except BaseException:
            self._steps, self.generation = None, generation
            raise
        if self._purging:
            self._purge()

    def _write(self, doing: str, *steps: tuple[str, Sequence[tuple]]) -> None:
        """Each statement over its rows, all in one transaction: all of it lands, or none (inside
        :meth:`batch`, kept for its transaction)."""
        if self._steps is not None:
            self._steps.extend(steps)
            return
        with self.read(doing, writing=True):
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
        claims by its id, and its turns still waiting; each turn with the moment it was ingested."""
        read: list[tuple[Turn, datetime]] = []
        waiting: list[tuple[Turn, datetime]] = []
        now = ingest_moment()
        with self.read(f"reading conversation {conversation!r}"):
            upto = self.db.execute("SELECT upto FROM claims_read WHERE conversation = ?", (conversation,)).fetchone()
            rows = self.db.execute(f"SELECT {_TURN_COLUMNS} FROM turns WHERE conversation = ? ORDER BY n",
                                   (conversation,)).fetchall()
            for row, turn in zip(rows, self._rows_checked(rows, conversation), strict=True):
                at = row[7]
                (read if upto is not None and row[0] <= upto[0] else waiting).append(
                    (turn, datetime.fromisoformat(at) if at else now))
            claims: dict[str, list[Claim]] = {}
            for row in self.db.execute("SELECT c.* FROM claims c JOIN turns t ON t.id = c.id WHERE t.conversation = ?"
                                       " ORDER BY t.n, c.seq", (conversation,)):
                if crc(row[:11]) != row[11]:
                    raise _damaged(self.path, f"a claim of turn {row[0]!r} is not what was written")
                claims.setdefault(row[0], []).append(Claim(row[2], row[3], row[4], bool(row[5]), row[6], row[0],
                                                           datetime.fromisoformat(row[7]), tuple(json.loads(row[8])),
                                                           row[9], row[10]))
        return read, {d: tuple(cs) for d, cs in claims.items()}, waiting

    def _rows_checked(self, rows: list[tuple], conversation: str) -> list[Turn]:
        """A conversation's rows (found through an index) as turns, each row checked and of it."""
        out = []
        for row in rows:
            turn = self._checked([row])[0]
            if turn.conversation != conversation:
                raise _damaged(self.path, f"the index of conversations points at a turn of {turn.conversation!r}")
            out.append(turn)
        return out

    def close(self, indexes: Mapping[str | None, LiveIndex] | None = None) -> None:
        """Close the file; a writer with ``indexes`` (what the file holds: each user's) first keeps their
        postings in the snapshot, unless it is already of this generation. A snapshot that cannot be written is a
        warning, not an error: it is a cache, nothing acknowledged is lost, and a close may run while
        the caller's own exception is raised (the next open rebuilds the postings)."""
        try:
            if self._unpurged:  # a reader kept the log busy at the last forget: cut it now, if it can be
                self._purge(warn=False)
            if self.writable and indexes and self._snapshot_of != self.generation \
                    and not any(index.dead for index in indexes.values()):
                saved = [row for user, index in indexes.items() if len(index)
                         for row in snapshot.rows(index, self.generation, user)]
                self._write("keeping its index", ("DELETE FROM snapshot", [()]), ("INSERT INTO snapshot VALUES (?, ?)", saved))
        except Exception as e:  # noqa: BLE001 (whatever failed, the turns are intact)
            warnings.warn(f"{self.path}: closed without keeping its index ({type(e).__name__}: {e}); its turns"
                          " are intact, and the next open rebuilds the index", RuntimeWarning, stacklevel=3)
        finally:
            self._release()

    def _release(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor drops its flock
            self._lock_fd = None


def _locked(path: Path) -> int | None:
    """The file's writer lock (an advisory ``flock``, apart from SQLite's own locks, which readers
    share): taken now, or one line saying another writer holds it."""
    if fcntl is None:  # pragma: no cover
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise StoreUnavailable(f"{path}: cannot open the memory file for writing ({e.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise MemoryFileInUse(f"{path}: the memory is open for writing elsewhere (another process, or another"
                              " Memory here); close it there first, or open it read-only to search it") from None
    return fd


def _spans(saved: str) -> list[tuple[date, date]]:
    return [(date.fromordinal(a), date.fromordinal(b)) for a, b in json.loads(saved)]
