"""A memory file under faults: files that are not memories are refused untouched, damage is an error
naming the file (never other data), readers share a file with its one writer, a full disk keeps what
was acknowledged and says how to resume, and repair salvages what can be read."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main
from graphmem.errors import GraphmemError, MemoryFileInUse, MisuseError
from tests.conftest import REPO

TURNS = [{"id": f"t{i}", "speaker": "Ann" if i % 2 else "Bob", "conversation": f"c{i % 3}",
          "text": f"Turn {i}: we talked about kayaks, the lake number {i} and a dog called Rex.",
          "date": f"2023-05-{1 + i % 28:02d}"} for i in range(120)]
QUERIES = ["kayak on the lake", "Who has a dog?", "lake number 7", "Rex", "what did we talk about in May 2023?"]


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (body TEXT)")
    db.execute("INSERT INTO notes VALUES ('my own data')")
    db.commit()
    db.close()


@pytest.mark.parametrize("make", ["empty", "text", "foreign"])
def test_a_file_that_is_not_a_memory_is_refused_and_left_byte_identical(tmp_path, make):
    path = tmp_path / "notes.txt"
    if make == "empty":
        path.write_bytes(b"")
    elif make == "text":
        path.write_text("shopping: eggs, milk\n")
    else:
        _foreign(path)
    before = path.read_bytes()
    runner = CliRunner()
    for argv in (["ask", "Who has a dog?", "--memory", str(path)], ["search", "dog", "--memory", str(path)]):
        done = runner.invoke(main, argv)
        assert done.exit_code == 1 and "Traceback" not in done.output, done.output
        assert "not a graphmem memory file" in done.output and len(done.output.strip().splitlines()) == 1
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURNS[0]) + "\n")
    done = runner.invoke(main, ["ingest", "--memory", str(path), str(turns)])
    assert done.exit_code == 1 and "not a graphmem memory file" in done.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "turns.jsonl"]  # no journal left beside it


def test_readers_share_a_file_with_its_writer_and_a_second_writer_is_refused(tmp_path):
    path = tmp_path / "m.db"
    writer = Memory(path=path)
    writer.ingest(TURNS[:60])
    reader = Memory(path=path, read_only=True)
    assert reader.search("lake number 7", k=1) == writer.search("lake number 7", k=1) == ["t7"]
    writer.ingest(TURNS[60:])  # the reader follows: what the file holds when it asks
    for q in QUERIES:
        assert reader.search(q) == writer.search(q), q
    assert len(reader) == len(TURNS) and reader.claims("c1") == writer.claims("c1")
    with pytest.raises(MemoryFileInUse, match="open for writing elsewhere"):
        Memory(path=path)
    with pytest.raises(MisuseError, match="opened read-only"):
        reader.ingest([{"id": "x", "speaker": "Ann", "text": "no"}])
    reader.close()
    writer.close()


def _memory(tmp_path: Path) -> Path:
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        for start in range(0, len(TURNS), 30):
            mem.ingest(TURNS[start:start + 30])
        for conv in ("c0", "c1", "c2"):
            mem.claims(conv)  # claims read and written: their rows are in the file too
    return path


def _answers(path: Path) -> list:
    with Memory(path=path, read_only=True) as mem:
        return [mem.search(q) for q in QUERIES] + [list(mem.turns()), [mem.claims(c) for c in ("c0", "c1", "c2")]]


def test_damaged_copies_end_in_one_line_or_the_same_answers(tmp_path):
    """50 copies, each with random bytes flipped (a fixed seed), a header byte flipped, a page zeroed:
    opening and asking each either answers exactly as the original or raises one graphmem error."""
    original = _memory(tmp_path)
    want = _answers(original)
    size = original.stat().st_size
    rng = random.Random(2026)
    same = refused = 0
    for k in range(52):
        copy = tmp_path / f"copy{k}.db"
        data = bytearray(original.read_bytes())
        if k == 50:
            data[rng.randrange(16, 100)] ^= 0xFF  # the header
        elif k == 51:
            page = rng.randrange(1, size // 16384)
            data[page * 16384:(page + 1) * 16384] = bytes(16384)  # a zeroed page
        else:
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(size)] ^= 1 << rng.randrange(8)
        copy.write_bytes(bytes(data))
        try:
            got = _answers(copy)
        except GraphmemError as e:
            assert "\n" not in str(e) and str(copy) in str(e), e
            refused += 1
            continue
        assert got == want, f"copy {k} answered with other data"
        same += 1
    print(f"{same} copies answered as the original, {refused} refused in one line")
    assert refused >= 10 and same + refused == 52


def test_repair_salvages_every_turn_that_reads_back_as_written(tmp_path):
    original = _memory(tmp_path)
    db = sqlite3.connect(original)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    data = original.read_bytes()
    at = data.index(b"the lake number 42 and")  # a byte of one turn's text flipped: its checksum disagrees
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(data[:at] + b"X" + data[at + 1:])
    runner = CliRunner()
    refused = runner.invoke(main, ["search", "dog", "--memory", str(damaged)])
    assert refused.exit_code == 1 and "is damaged" in refused.output and "graphmem repair" in refused.output
    fixed = tmp_path / "fixed.db"
    done = runner.invoke(main, ["repair", "--memory", str(damaged), "--to", str(fixed)])
    assert done.exit_code == 0, done.output
    assert f"{len(TURNS) - 1} turns salvaged" in done.output and "1 could not be read (turn 42)" in done.output
    with Memory(path=fixed, read_only=True) as mem:
        assert len(mem) == len(TURNS) - 1 and "t42" not in {t.id for t in mem.turns()}
        assert mem.search("lake number 7", k=1) == ["t7"]
    again = runner.invoke(main, ["repair", "--memory", str(damaged), "--to", str(fixed)])
    assert again.exit_code == 1 and "exists already" in again.output


FULL = r"""
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
sys.argv = ["graphmem", "ingest", "--memory", sys.argv[2], sys.argv[3], "--batch", "50", "--quiet"]
from graphmem.cli import main
main()
"""


def test_a_full_disk_keeps_what_was_acknowledged_and_says_how_to_resume(tmp_path):
    turns = tmp_path / "turns.jsonl"
    big = [{**t, "id": f"{t['id']}-{j}", "text": t["text"] * 20} for j in range(10) for t in TURNS]
    turns.write_text("".join(json.dumps(t) + "\n" for t in big))
    path = tmp_path / "m.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", FULL, "600000", str(path), str(turns)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "run the same command again to add the rest" in done.stderr, done.stderr
    with Memory(path=path, read_only=True) as mem:
        kept = len(mem)
    assert 0 < kept < len(big) and kept % 50 == 0  # whole batches, as acknowledged
    again = CliRunner().invoke(main, ["ingest", "--memory", str(path), str(turns), "--quiet"])
    assert again.exit_code == 0 and f"{len(big) - kept} turns added" in again.output
    assert f"({kept} of the file's turns it held already)" in again.output


READER = r"""
import json, sys, time
from graphmem import Memory
mem = Memory(path=sys.argv[1], read_only=True)
end, worst, seen = time.monotonic() + float(sys.argv[2]), 0.0, 0
while time.monotonic() < end:
    t = time.monotonic()
    mem.search("kayak on the lake", k=5)
    seen = max(seen, len(mem))
    worst = max(worst, time.monotonic() - t)
print(json.dumps({"worst": worst, "seen": seen}))
"""


def test_two_readers_and_a_writer_share_a_file_without_blocking_or_losing(tmp_path):
    seconds = float(os.environ.get("GRAPHMEM_SHARE_SECONDS", "30"))
    path = tmp_path / "m.db"
    writer = Memory(path=path)
    writer.ingest(TURNS[:10])
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    readers = [subprocess.Popen([sys.executable, "-c", READER, str(path), str(seconds)], stdout=subprocess.PIPE,
                                text=True, env=env) for _ in range(2)]
    acked, end, i = 10, time.monotonic() + seconds, 0
    while time.monotonic() < end:
        writer.ingest([{"id": f"w{i}", "speaker": "Ann", "text": f"kayak on the lake, trip {i}", "conversation": "w"}])
        acked, i = acked + 1, i + 1
        time.sleep(0.005)  # a writer that also does other work: three processes share two cores
    results = [json.loads(r.communicate(timeout=120)[0]) for r in readers]
    writer.close()
    assert all(r["worst"] < 1.0 for r in results), results  # a reader never waited a second for a search
    assert all(0 < r["seen"] <= acked for r in results), results
    with Memory(path=path, read_only=True) as mem:
        assert len(mem) == acked  # every acknowledged turn is in the file


def test_a_killed_writer_leaves_its_file_to_the_next_writer(tmp_path):
    path = tmp_path / "m.db"
    code = (f"from graphmem import Memory\nm = Memory(path={str(path)!r})\nm.ingest({TURNS[:5]!r})\n"
            "print('ok', flush=True)\nimport time\ntime.sleep(60)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert p.stdout.readline().strip() == "ok"
    with pytest.raises(MemoryFileInUse):
        Memory(path=path)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    with Memory(path=path) as mem:  # the lock went with the process
        assert len(mem) == 5
    shutil.rmtree(tmp_path / "none", ignore_errors=True)


def test_a_plain_sqlite3_reader_reads_a_file_its_writer_holds(tmp_path):
    """The writer's lock is graphmem's own (advisory), not SQLite's: another program's sqlite3
    reader opens the file read-only beside it and sees every acknowledged turn."""
    path = tmp_path / "memory.db"
    with Memory(path=str(path)) as mem:
        mem.ingest(TURNS[:40])
        other = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            held = other.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
            assert held > 0 and other.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            other.close()
        mem.ingest(TURNS[40:50])  # the writer goes on beside it
        assert len(mem) == 50


def test_ingest_help_says_how_to_resume():
    done = CliRunner().invoke(main, ["ingest", "--help"])
    assert done.exit_code == 0 and "resume" in done.output and "same" in done.output


def test_a_file_repeating_a_turn_with_the_same_content_ingests_it_once(tmp_path):
    path, turns = tmp_path / "memory.db", tmp_path / "turns.jsonl"
    turns.write_text("".join(json.dumps(t) + "\n" for t in [*TURNS[:5], TURNS[2], TURNS[4]]))
    done = CliRunner().invoke(main, ["ingest", "--memory", str(path), str(turns), "--quiet"])
    assert done.exit_code == 0, done.output
    with Memory(path=str(path)) as mem:
        assert sorted(t.id for t in mem.turns(conversation=None)) == sorted(t["id"] for t in TURNS[:5])
    changed = tmp_path / "changed.jsonl"
    changed.write_text("".join(json.dumps(t) + "\n" for t in [TURNS[6], {**TURNS[6], "text": "Another text."}]))
    refused = CliRunner().invoke(main, ["ingest", "--memory", str(path), str(changed)])
    assert refused.exit_code == 1 and "t6" in refused.output and "Traceback" not in refused.output
    with Memory(path=str(path)) as mem:
        assert len(mem) == 5  # nothing of the refused file was written
