"""A saved memory keeps its postings when it closes (graphmem.store.sqlite.snapshot) and reopens from
them only while they are the file's as it stands: what it then holds must be what a rebuild
from the turns holds, bit for bit; a stale, partial or foreign snapshot is never read."""

from __future__ import annotations

import random
import sqlite3

import pytest

from graphmem import Memory
from graphmem.index.options import MemoryOptions
from tests.unit.memory.test_live import _held, _questions, _records

WEIGHT = 0.5 + 2**-30
"""A reply weight no float32 holds (dyadic, so its sums are exact): widened postings are kept too."""


def _feed(path, records, options=MemoryOptions()) -> dict:
    """Ingest in batches and one at a time (shuffled numbered turns: replies read again, postings
    replaced), close, and give what the memory held just before it closed."""
    with Memory(path=path, options=options) as mem:
        for start in range(0, 900, 300):
            mem.ingest(records[start:start + 300])
        for r in records[900:]:
            mem.ingest([r])
        held = _held(mem.store.index)
        held["layout"] = _layout(mem.store.index.postings)
    return held


def _layout(p) -> tuple:
    """How the postings are laid out beyond what they hold: which terms' documents are in order
    (a posting read again may be appended out of order) and which frequencies are widened, once
    every waiting list is moved into its arrays (as closing moves them: a list holds plain floats)."""
    for j in range(len(p._tail)):
        p._flush(j)
    return p._sorted, [str(w.view().dtype) for w in p._tfs], sorted(p.index, key=p.index.get)


def _drop_snapshot(path) -> None:
    db = sqlite3.connect(path)
    db.execute("DELETE FROM snapshot")
    db.commit()
    db.close()


@pytest.mark.parametrize("options", [MemoryOptions(), MemoryOptions(context_weight=WEIGHT)])
def test_a_snapshot_reopens_to_exactly_what_a_rebuild_holds(dataset, tmp_path, options):
    records = _records(dataset, numbered=True)[:1300]
    random.Random(3).shuffle(records)
    path = tmp_path / "m.db"
    live = _feed(path, records, options)
    layout = live.pop("layout")
    assert not all(layout[0]) and (options.context_weight != WEIGHT or "float64" in layout[1])  # both kinds kept
    with Memory(path=path, options=options) as kept:
        assert kept.store.file.snapshot_read
        assert _held(kept.store.index) == live and _layout(kept.store.index.postings) == layout
        answers = [kept.search(q) for q in _questions(dataset)[:300]]
    _drop_snapshot(path)
    with Memory(path=path, options=options) as rebuilt:
        assert not rebuilt.store.file.snapshot_read
        assert _held(rebuilt.store.index) == live
        assert [rebuilt.search(q) for q in _questions(dataset)[:300]] == answers
    with Memory(path=path, options=options) as again:  # the rebuild's close wrote a snapshot again
        assert again.store.file.snapshot_read and _held(again.store.index) == live


def test_a_snapshot_taken_before_the_last_ingest_is_not_read(dataset, tmp_path):
    records = _records(dataset)[:400]
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(records[:300])
    mem = Memory(path=path)
    assert mem.store.file.snapshot_read
    mem.ingest(records[300:])
    held = _held(mem.store.index)
    mem.store.file._release()  # the process dies before it closes (its lock goes with it): the snapshot is of 300 turns
    mem.store.file = None
    with Memory(path=path) as again:
        assert not again.store.file.snapshot_read
        assert _held(again.store.index) == held


def test_a_snapshot_reread_after_a_later_ingest_holds_every_turn(dataset, tmp_path):
    """Reopened from a snapshot, then fed: the next open reads the new snapshot, with every turn."""
    records = _records(dataset)[:500]
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(records[:250])
    with Memory(path=path) as mem:
        assert mem.store.file.snapshot_read
        mem.ingest(records[250:])
        held = _held(mem.store.index)
    with Memory(path=path) as mem:
        assert mem.store.file.snapshot_read and len(mem) == 500 and _held(mem.store.index) == held


def _saved_300(dataset, tmp_path):
    """A saved memory of LoCoMo's first 300 turns, closed (its snapshot written), and what it held."""
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(_records(dataset)[:300])
        return path, _held(mem.store.index)


DAMAGE = {
    "truncate": "UPDATE snapshot SET value = substr(value, 1, 16) WHERE name = 'docs'",
    "odd-length": "UPDATE snapshot SET value = substr(value, 1, 5) WHERE name = 'docs'",
    "zeroed": "UPDATE snapshot SET value = zeroblob(length(value)) WHERE name = 'docs'",
    "drop-row": "DELETE FROM snapshot WHERE name = 'length'",
    "bad-json": "UPDATE snapshot SET value = CAST('{bad' AS BLOB) WHERE name = 'head'",
    "head-list": "UPDATE snapshot SET value = CAST('[1]' AS BLOB) WHERE name = 'head'",
    "head-generation": "UPDATE snapshot SET value = CAST(replace(CAST(value AS TEXT), '\"generation\": 1',"
                       " '\"generation\": 7') AS BLOB) WHERE name = 'head'",
    "head-term": "UPDATE snapshot SET value = CAST(replace(CAST(value AS TEXT), '\"terms\": [\"', '\"terms\": [\"x')"
                 " AS BLOB) WHERE name = 'head'",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_snapshot_is_not_read(dataset, tmp_path, damage):
    """Cut short, zeroed, a part missing, a head that is no JSON object or of another generation:
    the memory opens, rebuilt from its turns (a zeroed part of the right size is caught by its CRC)."""
    path, live = _saved_300(dataset, tmp_path)
    db = sqlite3.connect(path)
    assert db.execute(DAMAGE[damage]).rowcount == 1
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert not mem.store.file.snapshot_read
        assert _held(mem.store.index) == live


def _rewritten_head(text: bytes) -> bytes:
    import zlib

    return b"%08x" % zlib.crc32(text) + text


@pytest.mark.parametrize("edit", ["nested", "total", "duplicate-term", "doc-out-of-range"])
def test_a_snapshot_whose_checksums_agree_but_whose_content_does_not_is_not_read(dataset, tmp_path, edit):
    """Edited with its checksums made anew: a head too deep to parse, a total that is no number, a term
    twice, a document past the last turn. The memory opens rebuilt, never fails, never holds those."""
    import json
    import zlib

    import numpy as np

    path, live = _saved_300(dataset, tmp_path)
    db = sqlite3.connect(path)
    parts = dict(db.execute("SELECT name, value FROM snapshot"))
    head = json.loads(parts["head"][8:])
    if edit == "nested":
        text = b"[" * 100_000
    else:
        if edit == "total":
            head["total"] = "abc"
        elif edit == "duplicate-term":
            head["terms"][1] = head["terms"][0]
        else:
            docs = np.frombuffer(parts["docs"], dtype=np.int32).copy()
            docs[0] = 300  # one past the last turn
            db.execute("UPDATE snapshot SET value = ? WHERE name = 'docs'", (docs.tobytes(),))
            head["crc"]["docs"] = zlib.crc32(docs.tobytes())
        text = json.dumps(head).encode()
    db.execute("UPDATE snapshot SET value = ? WHERE name = 'head'", (_rewritten_head(text),))
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert not mem.store.file.snapshot_read
        assert _held(mem.store.index) == live


def test_a_snapshot_made_under_other_settings_is_not_read(tmp_path):
    """``MemoryOptions.shape`` is no setting the file is refused for, yet it decides which reply
    fields the postings hold: reopened under another, the memory must be the one those settings build."""
    chat = [{"id": str(n), "speaker": who, "text": text, "conversation": "chat", "date": "2023-05-20", "turn": n}
            for n, (who, text) in enumerate([("user", "I bought a blue kettle."), ("assistant", "A kettle! Lovely."),
                                              ("user", "It was thirty dollars."), ("assistant", "Good price.")] * 20)]
    path = tmp_path / "m.db"
    with Memory(path=path, options=MemoryOptions(shape=True)) as mem:
        mem.ingest(chat)
    with Memory(path=path, options=MemoryOptions(shape=False)) as other:
        assert not other.store.file.snapshot_read
        held = _held(other.store.index)
    fresh = Memory(options=MemoryOptions(shape=False))
    fresh.ingest(chat)
    assert held == _held(fresh.store.index)


def test_a_snapshot_that_cannot_be_written_is_a_warning_and_loses_nothing(dataset, tmp_path, monkeypatch):
    from graphmem.store.sqlite import snapshot

    def broken(index, generation):
        raise MemoryError("no room for the snapshot")

    records = _records(dataset)[:200]
    path = tmp_path / "m.db"
    monkeypatch.setattr(snapshot, "rows", broken)
    with pytest.warns(RuntimeWarning, match="closed without keeping its index"):
        with pytest.raises(KeyError, match="the caller's own"):  # the caller's exception is not replaced
            with Memory(path=path) as mem:
                mem.ingest(records)
                held = _held(mem.store.index)
                raise KeyError("the caller's own")
    monkeypatch.undo()
    with Memory(path=path) as again:
        assert not again.store.file.snapshot_read and _held(again.store.index) == held


def test_an_empty_memory_closes_and_reopens(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path):
        pass
    with Memory(path=path) as mem:
        assert len(mem) == 0 and mem.search("anything") == []
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}])
    with Memory(path=path) as mem:
        assert mem.store.file.snapshot_read and mem.search("Who adopted a dog?") == ["a"]


def test_each_users_index_is_kept_apart_and_reopens_to_what_it_held(dataset, tmp_path):
    """Each user's turns have an index of their own (issue #47), kept in the snapshot under rows of their
    own: a file of three users (and turns of none) reopens each from its snapshot to what it held, and
    from a rebuild to the same; each user's index is that of a memory holding their turns alone."""
    records = _records(dataset)[:600]
    users = [None, "ann", "bob", "cy"]
    mine = [{**r, "user": users[i % 4]} for i, r in enumerate(records)]
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(mine[:300])
        for r in mine[300:330]:
            mem.ingest([r])
        mem.ingest(mine[330:])
        live = {u: _held(mem.store.index_of(u)) for u in users}
    for reopen in ("snapshot", "rebuilt"):
        if reopen == "rebuilt":
            _drop_snapshot(path)
        with Memory(path=path) as again:
            assert again.store.file.snapshot_read == (reopen == "snapshot")
            assert {u: _held(again.store.index_of(u)) for u in users} == live
    for u in users:
        alone = Memory()
        alone.ingest([r for r in mine if r["user"] == u])
        assert _held(alone.store.index_of(u)) == live[u], u
