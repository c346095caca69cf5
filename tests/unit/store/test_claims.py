"""The memory keeps the claims of what it ingests: read turn by turn as the bulk reader reads the
same turns, when first asked for; a saved memory writes them to its file once read and restores
them on reopening without reading the dialogue again."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

import graphmem.claims.stream as stream
from graphmem import Memory
from graphmem.claims.extract import extract
from graphmem.claims.facts import facts_of
from graphmem.claims.people import fold
from graphmem.data.dialogue import conversations
from graphmem.errors import DataError
from graphmem.store.sqlite.store import SCHEMA_VERSION


def _records(conv) -> list[dict]:
    return [{"id": f"{conv.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
             "conversation": conv.id} for t in conv.turns]


def _bulk(mem: Memory, conv: str):
    """The bulk reading of the conversation's records, as the Neo4j store reads them."""
    (c,) = conversations([r for r in list(mem.turns()) if r.conversation == conv])
    return tuple(extract(c).claims)


def test_claims_ingested_one_turn_at_a_time_are_the_bulk_reading(dataset):
    mem = Memory()
    for conv in dataset.conversations[:3]:
        for r in _records(conv):
            mem.ingest([r])
            mem.claims(conv.id)  # asked for after every turn: read one turn at a time
    for conv in dataset.conversations[:3]:
        claims = mem.claims(conv.id)
        assert claims and claims == _bulk(mem, conv.id)


def test_a_memory_in_ram_reads_a_conversations_claims_when_first_asked_for(dataset, monkeypatch):
    calls = []
    read = stream.read_turn
    monkeypatch.setattr(stream, "read_turn", lambda *a: calls.append(a[1].id) or read(*a))
    a, b = dataset.conversations[:2]
    mem = Memory()
    for start in range(0, len(a.turns), 100):
        mem.ingest(_records(a)[start:start + 100])
    mem.ingest(_records(b))
    assert mem.search("adoption agency") and calls == []  # searching reads no claims
    assert mem.claims(a.id) == _bulk(mem, a.id)
    assert set(calls) == {f"{a.id}/{t.id}" for t in a.turns}
    read_a = len(calls)
    assert mem.claims(a.id) == _bulk(mem, a.id) and len(calls) == read_a  # kept, not read again
    assert mem.claims(b.id) == _bulk(mem, b.id)
    assert {c for c in calls[read_a:]} == {f"{b.id}/{t.id}" for t in b.turns}


def test_a_turn_without_a_date_is_dated_when_ingested_not_when_its_claims_are_read():
    mem = Memory()
    before = datetime.now().replace(microsecond=0)
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}])
    after = datetime.now()
    time.sleep(1.1)
    (claim,) = [c for c in mem.claims() if c.subject == "ann"]
    assert before <= claim.date <= after


def test_saved_claims_reopen_without_reading_and_read_on(dataset, tmp_path, monkeypatch):
    conv = dataset.conversations[0]
    records = _records(conv)
    quarter, half = len(records) // 4, len(records) // 2
    live = Memory()
    live.ingest(records)
    with Memory(path=tmp_path / "m.db") as mem:
        for start in range(0, half, 25):
            mem.ingest(records[start:min(start + 25, half)])
            if start + 25 >= quarter and start < quarter:
                mem.claims(conv.id)  # read (and saved) up to here; the rest of the half waits
    calls = []
    read = stream.read_turn
    with Memory(path=tmp_path / "m.db") as mem:
        with monkeypatch.context() as m:
            m.setattr(stream, "read_turn", lambda *a: calls.append(a[1].id) or read(*a))
            assert mem.claims(conv.id) == _bulk(mem, conv.id)
        read_first = {r["id"] for r in records[:(quarter // 25 + 1) * 25]}
        assert calls and set(calls) <= {r["id"] for r in records[:half]} - read_first  # only the waiting turns
        mem.ingest(records[half:])
    with Memory(path=tmp_path / "m.db") as mem:
        assert mem.claims(conv.id) == live.claims(conv.id)  # the turns left waiting, read now
    with Memory(path=tmp_path / "m.db") as mem:
        with monkeypatch.context() as m:
            m.setattr(stream, "read_turn", lambda *a: pytest.fail("a saved claim was read again"))
            assert mem.claims(conv.id) == live.claims(conv.id)


def test_a_saved_turn_left_waiting_is_dated_when_it_was_ingested(tmp_path):
    path = tmp_path / "m.db"
    before = datetime.now().replace(microsecond=0)
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}])
    after = datetime.now()
    time.sleep(1.1)
    with Memory(path=path) as mem:
        (claim,) = [c for c in mem.claims() if c.subject == "ann"]
    assert before <= claim.date <= after


def test_claims_whose_write_fails_are_read_again_from_the_file(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    # dated: an undated turn is stamped when ingested, and the two memories may ingest a second apart
    turns = [{"id": "a", "speaker": "Ann", "text": "I adopted a dog.", "date": "2023-05-08"},
             {"id": "b", "speaker": "Bob", "text": "Nice!", "date": "2023-05-08"}]
    live = Memory()
    live.ingest(turns)
    with Memory(path=path) as mem:
        mem.ingest(turns)
        with monkeypatch.context() as m:
            m.setattr(type(mem.store.file), "keep_claims", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
            with pytest.raises(OSError):
                mem.claims()
        assert mem.claims() == live.claims()  # read again, whole, once, and written this time
    with Memory(path=path) as mem:
        assert not mem.store.file.conversation("default")[2]  # nothing waits any more
        assert mem.claims() == live.claims()


def test_an_undated_turn_read_again_after_reopening_keeps_its_ingest_date(tmp_path):
    path = tmp_path / "m.db"
    before = datetime.now().replace(microsecond=0)
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}])
        assert [c.predicate for c in mem.claims()] == ["adopt"]  # read, and saved, with one speaker known
        assert not mem.store.file.conversation("default")[2]
    after = datetime.now()
    time.sleep(1.1)
    with Memory(path=path) as mem:
        mem.ingest([{"id": "b", "speaker": "Bob", "text": "Nice! I love hiking."}])  # a second speaker: "a" read again
        (claim,) = [c for c in mem.claims() if c.turn_id == "a"]
    assert before <= claim.date <= after


def _without_checksums(db) -> None:
    """A file as versions before 6 wrote it: no row checksums, no users (and no metadata, before 8)."""
    for table, column in (("turns", "crc"), ("turns", "rcrc"), ("turns", "user"), ("turns", "metadata"),
                          ("claims", "crc")):
        db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")


def test_a_file_of_version_2_opens_with_every_claim_read(tmp_path):
    import sqlite3

    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}])
        want = mem.claims()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE claims_read")
    db.execute("DROP TABLE snapshot")
    db.execute("DELETE FROM meta WHERE key = 'generation'")
    db.execute("ALTER TABLE turns DROP COLUMN at")
    _without_checksums(db)
    db.execute("UPDATE meta SET value = '2' WHERE key = 'version'")
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert mem.claims() == want
        mem.ingest([{"id": "c", "speaker": "Ann", "text": "I bought a kayak."}])
    with Memory(path=path) as mem:
        assert [c.turn_id for c in mem.claims()] == ["a", "c"]
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_a_file_of_version_4_keeps_its_waiting_turns_waiting(tmp_path):
    """Version 4 kept a row per waiting turn (``unread``): opened now, each conversation's mark is
    its last turn read, and what waited is read once when asked for, as in a memory never closed."""
    import sqlite3

    first = [{"id": "a", "speaker": "Ann", "text": "I adopted a dog.", "conversation": "one"},
             {"id": "b", "speaker": "Bob", "text": "Nice! I love hiking.", "conversation": "one"},
             {"id": "x", "speaker": "Cat", "text": "I bake bread.", "conversation": "two"}]
    later = [{"id": "c", "speaker": "Ann", "text": "My son Max loves him.", "conversation": "one"},
             {"id": "y", "speaker": "Dan", "text": "I sail boats, Cat.", "conversation": "two"}]
    for r in first + later:  # dated: an undated turn's claims take the clock when read, a second apart in two memories
        r["date"] = "2023-05-08"
    live = Memory()
    live.ingest(first + later)
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(first)
        mem.claims("one")  # one's first two turns read; two's turn and both later ones wait
        mem.ingest(later)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE unread (id TEXT PRIMARY KEY) WITHOUT ROWID")
    db.execute("INSERT INTO unread VALUES ('x'), ('c'), ('y')")
    db.execute("DROP TABLE claims_read")
    _without_checksums(db)
    db.execute("UPDATE meta SET value = '4' WHERE key = 'version'")
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert [r.id for r, _ in mem.store.file.conversation("one")[2]] == ["c"]
        assert [r.id for r, _ in mem.store.file.conversation("two")[2]] == ["x", "y"]
        assert mem.claims("one") == live.claims("one")
        assert mem.claims("two") == live.claims("two")
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'unread'").fetchone() == (0,)
    assert sorted(db.execute("SELECT conversation, upto FROM claims_read")) == [("one", 3), ("two", 4)]
    db.close()
    with Memory(path=path) as mem:  # nothing waits any more, and nothing is read twice
        assert not mem.store.file.conversation("one")[2] and not mem.store.file.conversation("two")[2]
        assert mem.claims("one") == live.claims("one") and mem.claims("two") == live.claims("two")


def test_a_failed_save_keeps_neither_turns_nor_claims(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}])
        before = mem.claims()

        def broken(*a, **k):
            raise OSError("disk full")

        monkeypatch.setattr(type(mem.store.file), "save", broken)
        with pytest.raises(OSError):
            mem.ingest([{"id": "c", "speaker": "Ann", "text": "My son Max loves him."}])
        monkeypatch.undo()
        assert mem.claims() == before and len(mem) == 2
    with Memory(path=path) as mem:
        assert mem.claims() == before


TRIO = [{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "I went hiking."},
        {"id": "c", "speaker": "Cy", "text": "I baked bread. Ann, you must try it."},
        {"id": "d", "speaker": "Bob", "text": "You bake every Sunday."}]


def test_a_conversation_of_three_speakers_keeps_its_claims_in_its_file(tmp_path):
    with Memory(path=tmp_path / "m.db") as mem:
        mem.ingest(TRIO[:2])
        assert {c.subject for c in mem.claims()} == {"ann", "bob"}
        mem.ingest(TRIO[2:])
        want = mem.claims()
        assert [(c.subject, c.predicate) for c in want if c.turn_id == "d"] == [("cy", "bake")]  # the speaker before
        assert want == _bulk(mem, "default")
    with Memory(path=tmp_path / "m.db") as mem:
        assert mem.claims() == want
        with pytest.raises(DataError, match="holds no turn"):
            mem.claims("elsewhere")


def test_a_file_of_version_6_reads_the_claims_it_kept_none_of(tmp_path):
    """Version 6 kept no claims of a conversation of three speakers, and marked its turns read:
    opened now, they wait again, and are read when asked for."""
    import sqlite3

    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest(TRIO)
        want = mem.claims()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM claims")  # as version 6 left it: the turns read, their claims dropped
    db.execute("ALTER TABLE turns DROP COLUMN metadata")  # kept from version 8 on
    db.execute("UPDATE meta SET value = '6' WHERE key = 'version'")
    db.commit()
    db.close()
    with Memory(path=path) as mem:
        assert mem.claims() == want
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("SELECT count(*) FROM claims").fetchone() == (len(want),)
    db.close()


def _notes_file_of_old_version(path, version: str, metadata: dict | None = None):
    """A memory file with a conversation of one speaker (notes) and one of two, written now and then set back
    to ``version``, which kept no claims of the notes: their claims are deleted, the turns left read. Returns the
    claims a fresh reading gives the notes and the chat, to compare with what the old file reads."""
    import sqlite3

    note = {"id": "n1", "speaker": "Ann", "text": "I moved to Porto last week.", "date": "2023-05-08",
            "conversation": "notes"}
    with Memory(path=path) as mem:
        mem.ingest([{**note, "metadata": metadata} if metadata else note]
                   + [{**r, "conversation": "chat"} for r in TRIO[:2]])
        want, chat = mem.claims("notes"), mem.claims("chat")
    assert [c.predicate for c in want] == ["move"]
    db = sqlite3.connect(path)
    db.execute("DELETE FROM claims WHERE id = 'n1'")  # as the old version left it: read, no claims
    if version < "8":
        db.execute("ALTER TABLE turns DROP COLUMN metadata")  # kept from version 8 on
    db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (version,))
    db.commit()
    db.close()
    return want, chat


def test_a_file_of_version_7_reads_the_claims_of_one_speaker_it_kept_none_of(tmp_path):
    """Version 7 kept no claims of a conversation of one speaker (notes), and marked its turns read:
    opened now, they wait again and are read when asked for; a two-speaker conversation is left read."""
    path = tmp_path / "m.db"
    want, chat = _notes_file_of_old_version(path, "7")
    with Memory(path=path) as mem:
        assert mem.claims("notes") == want and mem.claims("chat") == chat


def test_a_reading_stopped_part_way_loses_no_waiting_turn(monkeypatch):
    read, stop = stream.read_turn, [True]

    def interrupted(*a):
        if stop.pop() if stop else False:
            raise KeyboardInterrupt
        return read(*a)

    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "I love hiking."}])
    monkeypatch.setattr(stream, "read_turn", interrupted)
    with pytest.raises(KeyboardInterrupt):
        mem.claims()
    assert {c.subject for c in mem.claims()} == {"ann", "bob"}  # read again, whole


def test_a_failed_ingest_in_ram_keeps_the_claims_and_their_dates(monkeypatch):
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"}])
    before = mem.claims()
    time.sleep(1.1)  # a turn dated again would be dated a second later
    monkeypatch.setattr(mem.store.index, "add", lambda new: (_ for _ in ()).throw(RuntimeError("disk full")))
    with pytest.raises(RuntimeError):
        mem.ingest([{"id": "c", "speaker": "Ann", "text": "I bought a kayak."}])
    assert [r.id for r in list(mem.turns())] == ["a", "b"]
    assert mem.claims() == before  # the same claims, dates and all: nothing was read or dated again
    mem.ingest([{"id": "c", "speaker": "Ann", "text": "I bought a kayak."}])
    assert [c.turn_id for c in mem.claims()] == ["a", "c"]


def test_a_third_speaker_in_ram_is_searched_and_read_as_any_other():
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}, {"id": "b", "speaker": "Bob", "text": "Nice!"},
                {"id": "c", "speaker": "Cal", "text": "I adopted a cat."}])
    assert mem.search("adopted cat")[0] == "c"
    assert [(c.subject, c.predicate) for c in mem.claims() if c.turn_id == "c"] == [("cal", "adopt")]


def test_claims_read_now_after_turns_left_waiting_come_in_turn_order(dataset):
    from graphmem.data.records import validate
    from graphmem.store.claims import MemoryClaims

    conv = dataset.conversations[0]
    records = validate(_records(conv))
    claims = MemoryClaims()
    claims.defer(records[:100])
    change = claims.add(records[100:])  # the waiting turns read first, then these, and all returned to write
    assert set(change.claims) == {r.id for r in records}
    mem = Memory()
    mem.ingest(_records(conv))
    assert claims.claims(conv.id) == _bulk(mem, conv.id)


FACTS = [
    {"id": "f1", "speaker": "Alice", "text": "I live in Paris and I work as a nurse.", "date": "2023-01-10", "conversation": "a"},
    {"id": "f2", "speaker": "Bob", "text": "Paris is lovely, Alice! I drive a red Volvo.", "date": "2023-01-10", "conversation": "a"},
    {"id": "f3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02", "conversation": "a"},
    {"id": "f4", "speaker": "Bob", "text": "Berlin suits you. I drive a blue Fiat now.", "date": "2023-06-02", "conversation": "a"},
    {"id": "g1", "speaker": "Alice", "text": "I moved to Rome and I work at Google.", "date": "2023-09-01", "conversation": "b"},
    {"id": "g2", "speaker": "Cy", "text": "Rome, Alice? I am a teacher there.", "date": "2023-09-01", "conversation": "b"},
    {"id": "g3", "speaker": "Alice", "text": "Yes, I live in Rome now.", "date": "2023-09-02", "conversation": "b"},
]


@pytest.mark.parametrize("saved", [False, True])
def test_facts_kept_between_calls_are_a_fresh_memorys_after_every_ingest_and_forget(tmp_path, saved):
    """A person's claims are kept with their kinds and facts between calls (``MemoryClaims.about``):
    after every ingest and forget, asked again, they give what a memory that only ever held the
    turns held now gives, and what the same claims read afresh give."""
    mem = Memory(path=tmp_path / "m.db") if saved else Memory()
    held: list[dict] = []

    def same() -> None:
        fresh = Memory()
        fresh.ingest(held)
        for who in ("Alice", "Bob", "Cy"):
            for as_of in (None, "2023-03-01", "2023-09-01"):
                got = mem.facts(who, as_of=as_of)
                assert got == fresh.facts(who, as_of=as_of) == mem.facts(who, as_of=as_of), (who, as_of)
            plain = [c for conv in sorted({r["conversation"] for r in held}) for c in mem.claims(conv)]
            assert mem.facts(who) == facts_of(plain, fold(who))

    for step in (FACTS[:2], FACTS[2:4], FACTS[4:6]):
        mem.ingest(step)
        held += step
        same()
    for gone in (["f3"], ["g1", "f1"]):
        mem.forget(ids=gone)
        kept = mem.store._claims._about  # nothing read of a forgotten turn is kept, even before the next call
        assert not {c.turn_id for by in kept.values() for told in by.values() for c in told} & set(gone)
        held = [r for r in held if r["id"] not in gone]
        same()
    mem.ingest(FACTS[6:] + [{**FACTS[2], "id": "f5"}])
    held += FACTS[6:] + [{**FACTS[2], "id": "f5"}]
    same()
    mem.forget(conversation="a")
    held = [r for r in held if r["conversation"] != "a"]
    same()


def test_a_file_of_version_8_keeps_its_metadata_and_reads_the_claims_of_one_speaker(tmp_path):
    """Version 8 kept metadata but no claims of a conversation of one speaker: opened now, the notes'
    turns wait again and are read when asked for, and every turn's metadata reads back as written."""
    import sqlite3

    path = tmp_path / "m.db"
    want, chat = _notes_file_of_old_version(path, "8", {"source": "sms"})
    with Memory(path=path) as mem:
        assert mem.claims("notes") == want and mem.claims("chat") == chat
        assert dict(mem.get("n1").metadata) == {"source": "sms"}
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == (SCHEMA_VERSION,) == ("9",)
    db.close()
