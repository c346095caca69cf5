"""An update that fails midway leaves the memory as it was: in RAM (the add refused after the
forgetting: the old turn is put back) and in a file (its one transaction not committed: the memory
read again from the file, which holds the old turn)."""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.errors import StoreUnavailable
from graphmem.index.live import LiveIndex
from graphmem.store.sqlite.file import MemoryFile

RECORDS = [
    {"id": "a", "speaker": "Ann", "text": "I adopted a dog called Rex.", "date": "2023-05-08"},
    {"id": "b", "speaker": "Bob", "text": "Rex is a lovely name.", "date": "2023-05-08"},
    {"id": "c", "speaker": "Ann", "text": "We walk by the lake.", "date": "2023-05-09"},
]


def _as_held(mem: Memory) -> tuple:
    return (len(mem), sorted((t.id, t.text) for t in mem.turns()), mem.search("dog Rex lake", k=3),
            mem.claims())


def test_a_failed_update_in_ram_keeps_the_old_turn(monkeypatch):
    mem, before = Memory(), Memory()
    mem.ingest(RECORDS)
    before.ingest(RECORDS[1:] + RECORDS[:1])  # the old turn put back comes last, as re-ingested
    added = LiveIndex.add

    def refused(self, turns):
        if any(t.text == "I adopted a cat." for t in turns):
            raise MemoryError("no room")
        return added(self, turns)

    monkeypatch.setattr(LiveIndex, "add", refused)
    with pytest.raises(MemoryError):
        mem.update("a", text="I adopted a cat.")
    monkeypatch.undo()
    assert _as_held(mem) == _as_held(before)
    assert mem.update("a", text="I adopted a cat.").text == "I adopted a cat." and mem.search("cat") == ["a"]


def test_a_failed_update_of_a_file_writes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(RECORDS)
    reference = Memory()
    reference.ingest(RECORDS)
    written = MemoryFile._write

    def refused(self, doing, *steps):
        if self._steps is None and doing == "updating":
            raise StoreUnavailable(f"{self.path}: cannot write the file (disk full)")
        return written(self, doing, *steps)

    with Memory(path=path) as mem:
        monkeypatch.setattr(MemoryFile, "_write", refused)
        with pytest.raises(StoreUnavailable, match="disk full"):
            mem.update("b", text="Rex is a silly name.")
        monkeypatch.undo()
        assert _as_held(mem) == _as_held(reference)  # the memory as its file holds it
        assert mem.update("b", text="Rex is a silly name.").text == "Rex is a silly name."
    with Memory(path=path, read_only=True) as again:
        assert again.get("b").text == "Rex is a silly name." and len(again) == 3


def test_a_reader_follows_its_writers_update(tmp_path):
    """A reader open beside the writer sees an update whole once committed: the new turn, not the old."""
    path = tmp_path / "m.db"
    with Memory(path=path) as writer:
        writer.ingest(RECORDS)
        with Memory(path=path, read_only=True) as reader:
            assert reader.search("dog", k=1) == ["a"]
            writer.update("a", text="I adopted a cat called Rex.", metadata={"pet": "cat"})
            assert reader.get("a").text == "I adopted a cat called Rex." and reader.search("dog") == []
            assert reader.search("Rex", where={"pet": "cat"}) == ["a"] and len(reader) == 3
