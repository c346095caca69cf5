"""Forgetting in a memory file: it lasts (a reopened file answers as the memory that forgot), a
reader following the writer reads the file whole again, and the command line does it in one line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main

TURNS = [{"id": f"t{i}", "speaker": ("Ann", "Bob")[i // 4 % 2], "conversation": f"c{i % 4}",
          "text": f"Thanks, {('Bob', 'Ann')[i // 4 % 2]}! Turn {i} is about kayaks and the lake number {i}.",
          "date": f"2023-05-{1 + i // 10:02d}"} for i in range(80)]
QUERIES = ["kayak on the lake", "lake number 7", "Who thanked Bob?", "what happened on 3 May 2023?"]


def test_a_forgetting_lasts_and_a_reader_follows_it(tmp_path):
    path = tmp_path / "m.db"
    writer = Memory(path=path)
    writer.ingest(TURNS)
    reader = Memory(path=path, read_only=True)
    assert writer.forget(ids=["t7", "t8", "t40"]) == 3 and writer.forget(conversation="c3") == 19
    fresh = Memory()
    fresh.ingest([t for t in TURNS if t["id"] not in ("t7", "t8", "t40") and t["conversation"] != "c3"])
    for q in QUERIES:
        assert writer.search(q) == reader.search(q) == fresh.search(q), q
    assert reader.claims("c1") == fresh.claims("c1")
    reader.close()
    writer.close()
    with Memory(path=path) as again:  # reopened: the forgotten turns are nowhere, the rest as before
        assert len(again) == len(fresh) and list(again.turns()) == list(fresh.turns())
        for q in QUERIES:
            assert again.search(q) == fresh.search(q), q
        again.ingest([{"id": "t7", "speaker": "Ann", "text": "A new turn seven.", "conversation": "c0"}])
        assert again.search("new turn seven", k=1) == ["t7"]
    with Memory(path=path) as last:
        assert last.search("new turn seven", k=1) == ["t7"] and len(last) == len(fresh) + 1


def test_graphmem_forget_on_the_command_line(tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text("".join(json.dumps({**t, "user": "ann" if i < 10 else None}) + "\n" for i, t in enumerate(TURNS)))
    path = tmp_path / "m.db"
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", "--memory", str(path), str(turns), "--quiet"]).exit_code == 0
    done = runner.invoke(main, ["forget", "--memory", str(path), "--id", "t12", "--id", "t13"])
    assert done.exit_code == 0 and "2 turns forgotten" in done.output and "holds 78" in done.output
    done = runner.invoke(main, ["forget", "--memory", str(path), "--user", "ann"])
    assert done.exit_code == 0 and "10 turns forgotten" in done.output
    done = runner.invoke(main, ["forget", "--memory", str(path), "--conversation", "c2"])
    assert done.exit_code == 0 and "turns forgotten" in done.output
    nothing = runner.invoke(main, ["forget", "--memory", str(path)])
    assert nothing.exit_code == 2 and "say what to forget" in nothing.output
    with Memory(path=path, read_only=True) as mem:
        assert {t.conversation for t in mem.turns()} == {"c0", "c1", "c3"} and not list(mem.turns(user="ann"))


SECRET = [{"id": "s1", "speaker": "Ann", "conversation": "c9", "date": "2023-06-01",
           "text": "Vortigern keeps the locker code qxz99887766 under the kayak."},
          {"id": "s2", "speaker": "Bob", "conversation": "c9", "date": "2023-06-01",
           "text": "Only vortigern knows qxz99887766, Ann."}]
WORDS = (b"vortigern", b"qxz99887766", b"99887766")


def _traces(path) -> list[str]:
    """The files of the memory (the database, its log, its shared memory, any other beside it)
    holding a forgotten word, in any case."""
    return [f"{f.name}: {w.decode()}" for f in sorted(path.parent.iterdir()) if f.name.startswith(path.name)
            for w in WORDS if w in f.read_bytes().lower()]


def test_a_forgotten_turn_leaves_no_byte_in_the_file_its_log_or_its_saved_index(tmp_path):
    """The words of the forgotten turns are in none of the file's bytes once forget returns: not in its
    rows (secure_delete zeroes them), not in the saved index (the snapshot, dropped), not in the
    write-ahead log (cut to nothing), whether the turns were saved with a snapshot or not, and a
    reader open beside the writer does not keep them there."""
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(TURNS + SECRET)
    assert _traces(path)  # the snapshot and the rows hold them: the scan can see them
    with Memory(path=path) as mem:
        assert mem.store.file.snapshot_read
        mem.ingest([{"id": "x1", "speaker": "Ann", "conversation": "c9", "text": "The lake was calm today."}])
        reader = Memory(path=path, read_only=True)
        assert reader.search("vortigern locker code", k=1) == ["s1"]
        assert mem.forget(ids=["s1", "s2"]) == 2
        assert _traces(path) == []
        assert reader.search("vortigern locker code") == [] and mem.search("locker code qxz99887766") == []
        mem.ingest([{"id": "x2", "speaker": "Bob", "conversation": "c9", "text": "Calm water again."}])
        reader.close()
    assert _traces(path) == []
    with Memory(path=path) as mem:  # unsaved turns forgotten in the session that ingested them
        mem.ingest([{**t, "id": "n" + t["id"]} for t in SECRET])
        assert _traces(path)
        mem.forget(ids=["ns1", "ns2"])
        assert _traces(path) == []
    assert _traces(path) == []


def test_an_update_leaves_no_byte_of_the_text_it_replaced(tmp_path):
    """An update forgets the old turn as a forget does: its one transaction (the forgetting and the add
    together) commits, then the log is cut, so the old words are in none of the file's bytes."""
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(TURNS + SECRET)
    with Memory(path=path) as mem:
        assert _traces(path)
        mem.update("s1", text="Ann keeps the locker code somewhere else now.")
        mem.update("s2", text="Only Ann knows it, then.")
        assert _traces(path) == [] and mem.search("locker code", k=1) == ["s1"]
    assert _traces(path) == []
