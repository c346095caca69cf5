"""A memory file of version 7 (no metadata) opens in this version: its turns read back as written
(their checksums unchanged), and it then keeps metadata like a new file."""

from __future__ import annotations

import sqlite3

from graphmem import Memory
from graphmem.store.sqlite.store import SCHEMA_VERSION

RECORDS = [
    {"id": "a", "speaker": "Ann", "text": "I adopted a dog called Rex.", "date": "2023-05-08", "user": "u1"},
    {"id": "b", "speaker": "Bob", "text": "Rex is a lovely name.", "date": "2023-05-08"},
]


def test_a_file_of_version_7_gains_metadata(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(RECORDS)
        held = [*mem.turns(), *mem.turns(user="u1")]
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE turns DROP COLUMN metadata")  # as version 7 wrote it
    db.execute("UPDATE meta SET value = '7' WHERE key = 'version'")
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert [*mem.turns(), *mem.turns(user="u1")] == held and all(t.metadata == {} for t in held)
        mem.ingest([{"id": "c", "speaker": "Ann", "text": "We walk by the lake.", "metadata": {"source": "sms", "n": 1.5}}])
        mem.update("b", metadata={"source": "email"})
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == (SCHEMA_VERSION,) == ("9",)
    db.close()
    with Memory(path=path, read_only=True) as mem:
        assert dict(mem.get("c").metadata) == {"source": "sms", "n": 1.5}
        assert sorted(mem.search("Rex lake", where={"source": ["email", "sms"]})) == ["b", "c"]
        assert mem.get("a", user="u1") == held[-1]
