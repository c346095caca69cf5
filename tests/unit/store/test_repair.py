"""``graphmem repair`` on files damaged as files are: cut short at the tail (a copy that stopped, a disk
that filled), or with a page of the turns table zeroed. Opening such a file is one line naming
``graphmem repair``; repair salvages every row that can still be read, each exactly as written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main
from graphmem.errors import GraphmemError
from graphmem.store.sqlite.repair import readable

TURNS = [{"id": f"t{i}", "speaker": "Ann" if i % 2 else "Bob", "conversation": f"c{i % 3}",
          "text": f"Turn {i}: we talked about kayaks, the lake number {i} and a dog called Rex. " * 3,
          "date": f"2023-05-{1 + i % 28:02d}", **({"metadata": {"n": i, "src": "mail", "ok": i % 2 == 0}} if i % 5 == 0 else {})}
         for i in range(600)]
PAGE = 16384
CUTS = [0.5, 0.4, 0.3, 0.2, 0.1, 0.08, 0.05, 0.03, 0.018]
"""The share of the file cut off its tail: the smallest, 1.8%, is a third of a page of a 45-page file."""


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("repair") / "memory.db"
    with Memory(path=path) as mem:  # closed: the log copied into the file, as a copied file would be
        mem.ingest(TURNS)
    return path


def _as_written(turns: list) -> dict[str, tuple]:
    by_id = {r["id"]: r for r in TURNS}
    out = {}
    for t in turns:
        r = by_id[t.id]
        assert (t.speaker, t.text, t.conversation, t.date.date().isoformat()) == \
            (r["speaker"], r["text"], r["conversation"], r["date"]), f"{t.id} salvaged otherwise than written"
        assert dict(t.metadata) == r.get("metadata", {}), f"{t.id}'s metadata salvaged otherwise than written"
        out[t.id] = t
    return out


def _refused_naming_repair(path: Path) -> bool:
    """Whether opening the file is refused in one line naming repair (False: it opened whole)."""
    try:
        with Memory(path=path, read_only=True) as mem:
            assert len(mem) == len(TURNS)
            return False
    except GraphmemError as e:
        line = str(e)
        assert "\n" not in line and "is damaged" in line and f"graphmem repair --memory {path} --to " in line, line
        return True


@pytest.mark.parametrize("cut", CUTS)
def test_a_file_cut_at_its_tail_is_refused_naming_repair_and_repair_salvages_what_is_left(original, tmp_path, cut):
    data = original.read_bytes()
    damaged = tmp_path / "cut.db"
    damaged.write_bytes(data[:int(len(data) * (1 - cut))])
    refused = _refused_naming_repair(damaged)
    salvage = readable(damaged)
    kept = _as_written(salvage.turns)
    assert kept, f"{cut:.1%} cut off: nothing salvaged"
    if cut <= 0.1:
        assert len(kept) >= 0.9 * len(TURNS), f"{cut:.1%} cut off: {len(kept)} of {len(TURNS)} salvaged"
    assert refused or len(kept) == len(TURNS)


@pytest.mark.parametrize("first", [0, 300])
def test_a_zeroed_page_of_turns_loses_only_its_rows_and_the_command_says_which(original, tmp_path, first):
    """The page of turn 0 (the table's first leaf: a salvage that read the first row to see whether the table
    could be read at all salvaged nothing), and a page in the middle."""
    data = bytearray(original.read_bytes())
    page = data.index(f"Turn {first}: we talked".encode()) // PAGE
    data[page * PAGE:(page + 1) * PAGE] = bytes(PAGE)
    damaged, fixed = tmp_path / "zeroed.db", tmp_path / "fixed.db"
    damaged.write_bytes(bytes(data))
    runner = CliRunner()
    opened = runner.invoke(main, ["search", "kayaks", "--memory", str(damaged)])
    assert opened.exit_code == 1 and opened.output.count("\n") == 1
    assert f"graphmem repair --memory {damaged} --to NEW" in opened.output
    done = runner.invoke(main, ["repair", "--memory", str(damaged), "--to", str(fixed)])
    assert done.exit_code == 0, done.output
    with Memory(path=fixed, read_only=True) as mem:
        kept = _as_written(list(mem.turns()))
        assert mem.search(f"lake number {first + 150}", k=1) == [f"t{first + 150}"]
    lost = len(TURNS) - len(kept)
    assert f"t{first}" not in kept and 0 < lost <= 40, f"{lost} lost with one page"
    assert done.output == f"{fixed}: {len(kept)} turns salvaged from {damaged}; {lost} could not be read (" \
        + ", ".join(f"turn {n}" for n in sorted(int(t[1:]) for t in {r['id'] for r in TURNS} - set(kept))[:5]) \
        + ", ...)\n"


def _root(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'turns'").fetchone()[0]
    finally:
        db.close()


def test_a_zeroed_root_of_the_turns_table_is_salvaged_off_its_leaf_pages(original, tmp_path):
    """SQLite cannot reach a single row below a zeroed root; the leaves are read off the pages."""
    data = bytearray(original.read_bytes())
    root = _root(original)
    data[(root - 1) * PAGE:root * PAGE] = bytes(PAGE)
    damaged = tmp_path / "root.db"
    damaged.write_bytes(bytes(data))
    assert _refused_naming_repair(damaged)
    salvage = readable(damaged)
    assert len(_as_written(salvage.turns)) == len(TURNS) and not salvage.lost
    assert [t.id for t in salvage.turns] == [r["id"] for r in TURNS], "in the order they were ingested"


def test_forgotten_turns_left_on_pages_never_come_back_from_a_salvage(original, tmp_path):
    """Their rows deleted as a file without ``secure_delete`` deletes them (an older graphmem's): the bytes
    stay on free pages and in freed cells, and a salvage reading pages must not bring them back."""
    path = tmp_path / "memory.db"
    path.write_bytes(original.read_bytes())
    db = sqlite3.connect(path)
    db.execute("PRAGMA secure_delete=OFF")
    db.execute("DELETE FROM turns WHERE n >= 100 AND n < 400")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    assert b"Turn 250: we talked" in data, "the forgotten rows' bytes are still in the file"
    root = _root(path)
    data[(root - 1) * PAGE:root * PAGE] = bytes(PAGE)
    damaged = tmp_path / "root.db"
    damaged.write_bytes(bytes(data))
    kept = _as_written(readable(damaged).turns)
    assert set(kept) == {f"t{i}" for i in [*range(100), *range(400, 600)]}
