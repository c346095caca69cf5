"""The memory in one SQLite file: the RAM store (:mod:`graphmem.store.ram.store`) kept in a
:class:`graphmem.store.sqlite.file.MemoryFile`, written by one process and read by any number.

Why a reader follows the file: it holds the file's turns in its index, as the writer does, and the
writer may add turns while it reads; before each read it asks the file whether anything was
committed since (one cheap question) and, if so, indexes the turns added since, so what a reader
finds is what the file held when it asked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

from graphmem.domain import Turn
from graphmem.errors import MisuseError
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.index.vocabulary import LiveVocabulary
from graphmem.store.claims import MemoryClaims
from graphmem.store.ram.store import RamStore
from graphmem.store.sqlite.file import PAGE_SIZE, READING_VERSION, SCHEMA_VERSION, MemoryFile

__all__ = ["FileStore", "PAGE_SIZE", "READING_VERSION", "SCHEMA_VERSION"]

F = TypeVar("F", bound=Callable[..., Any])


def _following(method: F) -> F:
    """A read that first brings a reader up to date with what the writer committed."""
    @wraps(method)
    def read(self: FileStore, *args: Any, **kwargs: Any) -> Any:
        self._follow()
        return method(self, *args, **kwargs)

    return read  # type: ignore[return-value]


class FileStore(RamStore):
    """The RAM store kept in one SQLite file (:class:`MemoryFile`): each add is one transaction of
    the file, written last, so an add the file refuses leaves the memory and its file as they were.
    ``read_only``: a reader, which never writes the file and follows its writer."""

    def __init__(self, path: str | Path, options: MemoryOptions = MemoryOptions(), scope: bool = True,
                 read_only: bool = False):
        super().__init__(options, scope)
        self.read_only = read_only
        self.file = MemoryFile(path, options, writable=not read_only)
        try:
            self._restore()
        except BaseException:  # a file that cannot be restored keeps no lock
            self.file.close()
            raise
        self.where = str(path)

    def _restore(self) -> None:
        """The file's turns and their reading restored into new indexes (each user's), nothing read again."""
        self.indexes = {}
        self._forgotten_seen = self.file.forgotten()
        records = self.file.load(self.index_of)
        self._ids = dict(_places(records, {}))
        self._users = {}
        self._met(records)
        self._claims = MemoryClaims(self.file)

    def _follow(self) -> None:
        """A reader: the turns the writer committed since it last looked, indexed now (the file read
        whole again when the writer forgot turns: a reader's index cannot drop what it never saw go)."""
        if not (self.read_only and self.file.changed()):
            return
        if self.file.forgotten() != self._forgotten_seen:
            self._restore()
            return
        sizes = {user: len(index) for user, index in self.indexes.items()}
        added = self.file.load(self.index_of, self.file.last)
        self._ids.update(_places(added, sizes))
        self._met(added)
        self._claims = MemoryClaims(self.file)  # a conversation's claims are read again from the file

    def add(self, turns: Sequence[Turn]) -> None:
        if self.read_only:
            raise MisuseError(f"{self.where}: this memory was opened read-only; open it to write (read_only=False)")
        super().add(turns)

    def _keep(self, firsts: dict[str | None, int], now: datetime) -> None:
        """The new turns, their reading and their claims waiting: one transaction, last."""
        self.file.save({user: (self.indexes[user], first) for user, first in firsts.items()}, now)

    def _rewind(self, firsts: dict[str | None, int]) -> None:
        """The memory as its file holds it (the last write's transaction did not commit)."""
        self._restore()

    def forget(self, ids: Collection[str]) -> int:
        if self.read_only:
            raise MisuseError(f"{self.where}: this memory was opened read-only; open it to write (read_only=False)")
        return super().forget(ids)

    def update(self, turns: Sequence[Turn]) -> None:
        """The RAM store's update, its forgetting and its add written as one transaction of the file
        (:meth:`MemoryFile.batch`): a failure leaves the memory as its file holds it, as it was."""
        if self.read_only:
            raise MisuseError(f"{self.where}: this memory was opened read-only; open it to write (read_only=False)")
        try:
            with self.file.batch("updating"):
                old = list(RamStore.held(self, [t.id for t in turns]))
                RamStore.forget(self, old)
                RamStore.add(self, turns)
        except BaseException:
            self._restore()
            raise

    def _forgotten(self, places: dict[str | None, list[int]], conversations: Sequence[str]) -> None:
        """The forgetting, one transaction of the file, written last."""
        self.file.forget({user: (self.indexes[user], held) for user, held in places.items()}, conversations)

    held = _following(RamStore.held)
    turns = _following(RamStore.turns)
    keys = _following(RamStore.keys)
    search = _following(RamStore.search)
    conversations = _following(RamStore.conversations)
    claims = _following(RamStore.claims)
    speakers = _following(RamStore.speakers)
    claims_about = _following(RamStore.claims_about)

    def weights(self, query: Query, found: Sequence[Turn], user: str | None = None) -> LiveVocabulary:
        return RamStore.weights(self, query, found, user)

    def __len__(self) -> int:
        self._follow()
        return RamStore.__len__(self)

    def close(self) -> None:
        """Close the file, a writer's postings kept for the next open."""
        self.file.close(self.indexes)


def _places(records: Sequence[Turn], sizes: dict[str | None, int]) -> Iterator[tuple[str, int]]:
    """Each record's id and place in its user's index, the records added in order to indexes of
    ``sizes`` turns (moved on as they are counted)."""
    for r in records:
        at = sizes.get(r.user, 0)
        sizes[r.user] = at + 1
        yield r.id, at

