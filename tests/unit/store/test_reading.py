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


NADIA = [{"id": "a", "speaker": "Nadia", "text": "I live in Lisbon, near the river.", "date": "2022-03-01"},
         {"id": "b", "speaker": "Nadia", "text": "Big news: we moved to Porto last week, so Porto is home now.",
          "date": "2023-01-10"}]


def test_a_file_of_the_previous_reading_is_refused_naming_repair_and_repair_reads_it_afresh(tmp_path):
    """Reading 4 changed the claims (values read by their type, a chat user's own turns): a file saved by
    reading 3 is refused on open, and ``graphmem repair`` ingests its turns into a file that answers as a
    memory built anew does."""
    from click.testing import CliRunner

    from graphmem.cli import main
    assert READING_VERSION == "4"
    old = tmp_path / "old.db"
    with Memory(path=old) as mem:
        mem.ingest(NADIA)
    db = sqlite3.connect(old)
    with db:
        db.execute("UPDATE meta SET value = '3' WHERE key = 'reading'")  # as code of reading 3 wrote it
    db.close()
    with pytest.raises(DataError, match="saved with reading 3, not 4.*graphmem repair"):
        Memory(path=old)
    new = tmp_path / "new.db"
    done = CliRunner().invoke(main, ["repair", "--memory", str(old), "--to", str(new)])
    assert done.exit_code == 0 and "2 turns salvaged" in done.output, done.output
    fresh = Memory()
    fresh.ingest(NADIA)
    question = "Where does Nadia live?"
    with Memory(path=new) as again:
        facts = [(f.attribute, f.value, f.turn_id) for f in again.facts("nadia")]
        assert facts == [(f.attribute, f.value, f.turn_id) for f in fresh.facts("nadia")] and facts
        assert again.ask(question, asked_on="2023-02-01").reply == fresh.ask(question, asked_on="2023-02-01").reply
        assert "Porto" in again.ask(question, asked_on="2023-02-01").reply
