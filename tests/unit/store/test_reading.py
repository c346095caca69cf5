"""A memory file records the rules its turns were read by (``READING_VERSION``): a file read by
other rules is refused, since its saved terms would not be the ones a query is now split into."""

from __future__ import annotations

import sqlite3

import pytest

from graphmem import Memory
from graphmem.errors import DataError
from graphmem.store.sqlite.store import READING_VERSION


def test_a_file_read_by_the_old_word_rules_is_refused(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Jürgen", "text": "Ich war letzte Woche in Zürich."}])
    with Memory(path=path) as again:  # the same rules: it opens, and finds the turn unaccented
        assert again.search("Zurich") == ["a"]
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'reading'")  # as code of reading 1 wrote it
    db.close()
    with pytest.raises(DataError, match=f"saved with reading 1, not {READING_VERSION}"):
        Memory(path=path)
